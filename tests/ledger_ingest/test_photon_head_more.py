"""Photon HEAD's assertions on the other folders of `fixtures/photon-head/`, asked of the reference (the batched
address tree, four CPI events, a token account with TLV, a devnet transaction far into a long tree); the way
they are asked and translated is `test_photon_head.py`'s."""

from __future__ import annotations

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_crypto import HEIGHT, SparseMerkleTree, StateTree, derive_address_v2, poseidon
from csi_conformance.ledger_ingest import read_paths
from csi_conformance.ledger_ingest.recognize import LIGHT_SYSTEM_PROGRAM_ID
from csi_conformance.reference_server.errors import RpcError
from csi_conformance.reference_server.ingest import ledger_from_blocks
from csi_conformance.schema import Contract

from tests.ledger_ingest.test_batched_ingest import ADDRESS_TREE, FIXTURES, SMT1, inner_instructions, raw
from tests.ledger_ingest.test_photon_head import ask, blocks, ledger_of

PROGRAM = "FNt7byTHev1k5x2cXZLBr8TdWiC3zoP5vcnZR4P682Uy"
ADDRESSES = "batched_address_transactions"
AMT1 = "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"
TOKEN_PROGRAM = "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m"
HIGHEST = 2**248 - 1


def seed_of(signature: str) -> bytes:
    """The seed of the one new address an `invoke_cpi` of the folder creates: the first `new_address_params`
    entry, after the proof (Light's `InstructionDataInvokeCpi`: disc, u32 length, Option<proof>, Vec)."""
    [system] = inner_instructions(raw(ADDRESSES, signature), LIGHT_SYSTEM_PROGRAM_ID)
    body = b58decode(system["data"])[12:]
    at = 1 + (128 if body[0] == 1 else 0)
    assert int.from_bytes(body[at:at + 4], "little") == 1
    return body[at + 4:at + 36]


def address_tree_root(addresses: list[bytes]) -> bytes:
    """The batched address tree (height 40) after inserting `addresses` in order, built here from its definition
    (Light's `program-libs/batched-merkle-tree`): element 0 is (0, next = the least value) at leaf 0, the
    highest points at 2^248 − 1, and a leaf is Poseidon(value, next value)."""
    values = [int.from_bytes(a, "big") for a in addresses]
    ordered = sorted([0, *values])
    after = dict(zip(ordered, [*ordered[1:], HIGHEST], strict=True))
    tree = StateTree(height=40)
    tree.write_leaves({i: poseidon(v.to_bytes(32, "big"), after[v].to_bytes(32, "big"))
                       for i, v in enumerate([0, *values])}, seq=0)
    return tree.root


def test_the_address_queue_holds_the_derived_addresses_in_order(contract: Contract) -> None:
    """batched_address_tree_tests.rs, run_batched_address_test (test_batched_address_transactions): L122-160
    (every creation transaction names the address tree EzKE84…), L162-202 (before the batch update, the address
    queue holds the 50 addresses derived as H2F(seed ‖ tree ‖ program), in order).

    Translation: Photon's seeds come from `StdRng::seed_from_u64(0)`, the ones the client used; here they are
    read from each transaction's system instruction, and derived by Light's rule. The queue is the reference's
    state (`getQueueElements` is not among the 19); through the 19 methods, each address is held by its account
    (`getCompressedAccount`), and `getValidityProof` refuses it as new in EzKE84… ("already exists", Photon's
    queue check in `get_multiple_new_address_proofs_helper`).
    """
    creations = blocks(ADDRESSES)[:50]
    ledger = ledger_of(ADDRESSES, 50)
    [(tree_key, queue)] = ledger.batched_address_trees.items()
    assert b58encode(tree_key) == ADDRESS_TREE
    expected = [derive_address_v2(seed_of(tx.signature_text), tree_key, b58decode(PROGRAM, length=32))
                for block in creations for tx in block.transactions]
    assert [queue.queued[i] for i in sorted(queue.queued)] == expected and sorted(queue.queued) == list(range(50))
    assert not any(int.from_bytes(a, "big") in queue.tree for a in expected)
    for address in map(b58encode, expected):
        account = ask(ledger, contract, "getCompressedAccount", {"address": address})["value"]
        assert (account["owner"], account["tree"], account["address"]) == (PROGRAM, SMT1, address)
        with pytest.raises(RpcError, match="already exists"):
            ask(ledger, contract, "getValidityProof",
                {"newAddressesWithTrees": [{"address": address, "tree": ADDRESS_TREE}]})


def test_each_batch_address_append_reaches_the_chains_root_and_empties_the_queue(contract: Contract) -> None:
    """run_batched_address_test L206-244 (after the batch updates the address queue is empty) and L246-269 (the
    root `getMultipleNewAddressProofsV2` answers for EzKE84… is that of a reference indexed tree of height 40
    with the 50 addresses appended).

    Translation: the queue and the tree of EzKE84… are the reference's state; its root after each of the five
    BatchAddressAppend is the event's (the chain's) and, at the end, the root of the tree built here from its
    definition. `getMultipleNewAddressProofs` (of the 19) takes no tree: it answers about amt1, the v1 tree, as
    Photon's V1 method does. For an address an account holds it refuses ("already exists": §4.2 #16 proves an
    address "not yet taken"); Photon's V1 method looks at amt1's tree and queue only and would answer an amt1
    non-inclusion proof for it (spec and Photon differ here; the reference follows the spec).
    """
    ledger = ledger_of(ADDRESSES, 50)
    [queue] = ledger.batched_address_trees.values()
    addresses = [queue.queued[i] for i in sorted(queue.queued)]
    for block in blocks(ADDRESSES)[50:]:
        [event] = block.transactions[0].batch_updates
        ledger_from_blocks([block], ledger)
        assert (queue.tree.root, queue.tree.next_index) == (event.new_root, event.new_next_index)
    assert all(int.from_bytes(a, "big") in queue.tree for a in addresses)
    assert queue.tree.root == address_tree_root(addresses)
    with pytest.raises(RpcError, match="already exists"):
        ask(ledger, contract, "getMultipleNewAddressProofs", [b58encode(addresses[0])])
    fresh = b58encode(bytes([0, *[7] * 31]))
    [proof] = ask(ledger, contract, "getMultipleNewAddressProofs", [fresh])["value"]
    assert proof["merkleTree"] == AMT1 and b58decode(proof["root"], length=32) == ledger.address_tree.root
    assert ledger.address_tree.root != queue.tree.root


def test_four_cpi_events_open_four_accounts_of_one_owner(contract: Contract) -> None:
    """batched_state_tree_tests.rs, test_four_cpi_events L826-873: one transaction, four events through
    `insert_into_queues` (no noop): `getCompressedAccountsByOwner` of the program gives 4 accounts, lamports 0,
    that owner, leaf indices 0, 1, 2, 3 in the order listed.

    Translation: the same question, of the 19. The order is not the spec's to fix (§4.2 #5 says none): Photon
    HEAD sorts by leaf index then hash, the reference by hash (Photon 0.50.0's cursor order), so the leaf
    indices are compared as a set. The accounts' data, as the transaction states it: the same 32 bytes of 2s
    each, discriminator u64::MAX, in the batched tree's queue (seq null, reading `batched-seq`).
    """
    ledger = ledger_of("four_cpi_events")
    items = ask(ledger, contract, "getCompressedAccountsByOwner", {"owner": PROGRAM})["value"]["items"]
    assert len(items) == 4
    assert sorted(a["leafIndex"] for a in items) == [0, 1, 2, 3]
    assert {(a["lamports"], a["owner"], a["seq"], a["data"]["discriminator"], a["data"]["data"]) for a in items} == {
        (0, PROGRAM, None, 2**64 - 1, "AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAg==")}
    [tx] = ledger.transactions.values()
    info = ask(ledger, contract, "getTransactionWithCompressionInfo", {"signature": b58encode(tx.signature)})
    assert sorted(a["account"]["hash"] for a in info["compressionInfo"]["openedAccounts"]) == sorted(
        a["hash"] for a in items)


@pytest.mark.parametrize("source", ["transactions", "blocks"])
def test_a_token_account_with_tlv_is_listed_with_its_tlv(contract: Contract, source: str) -> None:
    """e2e_tests.rs, test_index_compress_and_close_with_tlv L744-870: parsing CompressAndClose must not fail and
    gives output accounts; their data under the token discriminators (`00…04` here) does not read as the old
    TokenData (`Option<Vec<u8>>` tlv: "Not all bytes read"); at least one parsed token account has TLV; after
    persisting, `getCompressedTokenAccountsByOwner` of its owner lists token accounts, at least one with TLV.

    Translation: the same through the 19, from the transaction and from its block. The TLV is the bytes after
    its option tag, base64 (as Photon's `TokenData::parse` keeps them; reading `tlv-format`): here one
    extension (`Vec` of length 1, variant 31).
    """
    folder = "index_compress_and_close_with_tlv"
    path = "transactions" if source == "transactions" else "blocks"
    ledger = ledger_from_blocks(read_paths([FIXTURES / path / folder]))
    signature = "5rqnqJKFbBDwbLeX5Dv2q9LQNQUJWMP4wMRmbHoCA5F13nRvWFU8XRVzZKaZV1meXtmfbqF5uvaTndXMaxpQ4tBB"
    info = ask(ledger, contract, "getTransactionWithCompressionInfo", {"signature": signature})["compressionInfo"]
    opened = info["openedAccounts"]
    assert len(opened) == 5 and info["closedAccounts"] == []
    assert {(a["account"]["owner"], a["account"]["data"]["discriminator"]) for a in opened} == {
        (TOKEN_PROGRAM, 4 << 56)}
    with_tlv = [a for a in opened if a["optionalTokenData"] and a["optionalTokenData"]["tlv"]]
    assert len(with_tlv) == 5
    owners = {a["optionalTokenData"]["owner"] for a in with_tlv}
    for owner in owners:
        listed = ask(ledger, contract, "getCompressedTokenAccountsByOwner", {"owner": owner})["value"]["items"]
        assert listed and all(item["tokenData"]["tlv"] == "AQAAAB8AAAAAAAAAAAAAAAAAAAAAAQ==" for item in listed)
        assert {item["account"]["hash"] for item in listed} <= {a["account"]["hash"] for a in with_tlv}
    assert sum(len(ask(ledger, contract, "getCompressedTokenAccountsByOwner", {"owner": owner})["value"]["items"])
               for owner in owners) == 5


def test_the_devnet_transaction_places_its_outputs_far_into_long_trees(contract: Contract) -> None:
    """e2e_tests.rs, test_transaction_with_tree_rollover_fee L708-737: the same devnet transaction (slot
    380876342) parses, and has at least one output account.

    Translation: through the 19, its outputs are listed with the leaf indices and seqs the chain gave them,
    4,936,216 in smt1 and 96,437 in smt2, each the leaf at that index of the reference's tree; the input it
    spends was opened before the ledger's first slot. The trees are said to be partial (a slice from the middle
    of their life: their roots are not the chain's), the v1 address tree too.
    """
    ledger = ledger_of("index_transaction")
    [tx] = ledger.transactions.values()
    info = ask(ledger, contract, "getTransactionWithCompressionInfo", {"signature": b58encode(tx.signature)})
    opened = [item["account"] for item in info["compressionInfo"]["openedAccounts"]]
    assert [(a["tree"], a["leafIndex"], a["seq"]) for a in opened] == [
        (SMT1, 4936216, 4944739), ("smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho", 96437, 100894)]
    assert info["compressionInfo"]["closedAccounts"] == [] and ledger.unknown_inputs == 1
    for account in opened:
        assert ask(ledger, contract, "getCompressedAccount", {"hash": account["hash"]})["value"] == account
        tree = ledger.state_trees[b58decode(account["tree"], length=32)]
        assert tree.leaf(account["leafIndex"]) == b58decode(account["hash"], length=32)
    assert {b58encode(key) for key in ledger.partial_trees()} == {SMT1, "smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho",
                                                                  AMT1}


def stored_nodes(tree: SparseMerkleTree) -> int:
    """The nodes a sparse tree keeps (dense prefix and far nodes of every level): its memory, its work."""
    return sum(map(len, tree._levels)) + sum(map(len, tree._far))


def test_a_leaf_millions_in_costs_a_path_not_the_leaves_before_it() -> None:
    """Placing the devnet transaction's outputs (leaves 4,936,216 and 96,437) stores one path per leaf: a few
    dozen nodes, not the millions of positions before them."""
    ledger = ledger_of("index_transaction")
    nodes = {b58encode(key): stored_nodes(tree) for key, tree in ledger.state_trees.items()}
    assert all(count <= HEIGHT for count in nodes.values()) and sum(nodes.values()) <= 3 * HEIGHT, nodes
    assert ledger.state_trees[b58decode(SMT1, length=32)].next_index == 4936217
    assert stored_nodes(ledger.address_tree) <= 4 * HEIGHT
