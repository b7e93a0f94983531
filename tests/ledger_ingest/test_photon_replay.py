"""Replay of Photon 0.50.0's e2e test: the reference reads the four real transactions (and the real
block) and answers what Photon answered after indexing them (its insta snapshots).

Fixtures: `fixtures/photon-0.50.0/` (a copy of `../shared/fixtures/photon-0.50.0`, Apache-2.0, see
its README), or the shared folder itself when the copy is missing.

Slots: Photon's test indexed every transaction **at slot 0** (blockTime 0). This test reproduces
that: each `getTransaction` result is decoded at slot 0 and blockTime 0 (as a block's entry is, at
its block's), so `context.slot`, `slotCreated`, signature `slot` and `blockTime` are compared
exactly, and the signature lists come in Photon's order (slot, then signature, descending). The
transaction itself keeps its real slot, as Photon serves it fetched again from its node. The block
test uses the block's real slot, as Photon's does.

Every field of every snapshot is compared, except:
- `compressedProof` of the `*-validity-proof` snapshots: Photon's test blanked it (`a`, `b`, `c`
  empty); a Groth16 proof is randomised and says nothing about the ledger. Roots, root indices,
  leaf indices, leaves and trees are compared.
- `openedAccounts[*].account.slotCreated` of the `*-transaction` snapshots is normalised: Photon
  parses the fetched transaction again at its real slot for the opened accounts (40, 41) while
  reading closed accounts from its database (slot 0). The test asserts that each such value is
  the transaction's real slot and compares it as 0, the slot the ledger indexed it at.
- The `*-proofs` snapshots answer `getMultipleCompressedAccountProofs`, which is not one of the 19
  methods of API 0.50.0: every field (proof, root, rootSeq, leafIndex, hash, merkleTree, context)
  is compared with the reference's state tree directly.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.ledger_crypto import fold_path
from csi_conformance.ledger_ingest import Block, decode_transaction, read_paths, transaction_changes
from csi_conformance.reference_server.ingest import ledger_from_blocks
from csi_conformance.reference_server.ledger_native import NativeLedger
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Contract

_COPY = Path(__file__).with_name("fixtures") / "photon-0.50.0"
_SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "photon-0.50.0"
FIXTURES = _COPY if _COPY.is_dir() else _SHARED
TRANSACTIONS = FIXTURES / "transactions" / "e2e_mint_and_transfer_transactions"
SNAPSHOTS = FIXTURES / "snapshots"
E2E = "integration_tests__e2e_tests__e2e_mint_and_transfer_transactions"

MINT = "64jFxW4xxife8UqpEQyYdA589rzFKWx8rT4vun6soCpWXmDermr588UKX2261YYZ8ZSzcu2NUJY2aCfee64FvTW4"
TRANSFER_1 = "5UZuijpSnqBpgMpqnggxZ58bzZ8aJtqqVjtvzx2Pg2C58jXph1rdrXyHdTxJfsHawNJyr8syU4U1MEYccDUQeTSV"
TRANSFER_2 = "2J9pSeLvXnyawUPKdks98ZibQWU8v38AEhmZp9g9P3WzY9dJSMQ3RmoUaGN1zVCF3tTQy6q2YbD94jq8uzSZsay7"
TRANSFER_3 = "5oTNJvc5WWJacEdpZLimVjGu1uGkXoMth8dNKaAymVKA7arwhccxeJPRWDuYEvQHNkGnkRNJcwUbtV4KnwebCKj5"
PEOPLE = {
    "bob": "EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu",
    "charles": "CHvwuTvTiwRSNBwAnrCG14V8YTJ6wwhHQrifxdFzHzsX",
}

VALID_ORDERS = [
    order for order in itertools.permutations([MINT, TRANSFER_1, TRANSFER_2, TRANSFER_3])
    if order.index(MINT) < order.index(TRANSFER_1) < min(order.index(TRANSFER_2), order.index(TRANSFER_3))
]
"""Orders in which every input was opened before: the mint, the first transfer, then the other two
either way round (both spend outputs of the first transfer)."""


def snapshot(name: str) -> Any:
    """The JSON of an insta snapshot: what follows its YAML header."""
    text = (SNAPSHOTS / f"{name}.snap").read_text(encoding="utf-8")
    _, _header, body = text.split("---\n", 2)
    return loads(body)


def raw_transaction(signature: str) -> dict:
    return loads((TRANSACTIONS / signature).read_text(encoding="utf-8"))


def ledger_at_slot_zero(order: Sequence[str]) -> NativeLedger:
    """The ledger Photon's test built: every transaction indexed at slot 0, blockTime 0."""
    blocks = []
    for signature in order:
        tx = decode_transaction(raw_transaction(signature), slot=0, block_time=0, source=signature)
        assert tx.signature_text == signature
        blocks.append(Block(0, (transaction_changes(tx),), signature))
    return ledger_from_blocks(blocks)


@pytest.fixture(scope="module", params=VALID_ORDERS, ids=lambda order: "-".join(s[:4] for s in order))
def ledger(request: pytest.FixtureRequest) -> NativeLedger:
    return ledger_at_slot_zero(request.param)


def ask(ledger: NativeLedger, contract: Contract, method: str, params: Any) -> Any:
    return call(ledger, method, params, ServerOptions(), contract)


def walk(ledger: NativeLedger, contract: Contract, method: str, params: dict) -> list:
    """Every item of a list method, asked for with `limit: 1` page after page, as Photon's test did."""
    items, cursor = [], None
    for _ in range(100):
        page = ask(ledger, contract, method, {**params, "limit": 1, **({"cursor": cursor} if cursor else {})})
        items += page["value"]["items"]
        cursor = page["value"]["cursor"]
        if cursor is None:
            return items
    raise AssertionError(f"{method} never ended")


def test_two_valid_orders_are_replayed() -> None:
    assert len(VALID_ORDERS) == 2


@pytest.mark.parametrize("person", sorted(PEOPLE))
def test_token_accounts_equal_photons(ledger: NativeLedger, contract: Contract, person: str) -> None:
    answer = ask(ledger, contract, "getCompressedTokenAccountsByOwner", {"owner": PEOPLE[person]})
    assert answer == snapshot(f"{E2E}-{person}-accounts")


@pytest.mark.parametrize("person", sorted(PEOPLE))
def test_token_balances_equal_photons(ledger: NativeLedger, contract: Contract, person: str) -> None:
    answer = ask(ledger, contract, "getCompressedTokenBalancesByOwner", {"owner": PEOPLE[person]})
    assert answer == snapshot(f"{E2E}-{person}-token-balances")


@pytest.mark.parametrize("person", sorted(PEOPLE))
def test_token_owner_signatures_equal_photons(ledger: NativeLedger, contract: Contract, person: str) -> None:
    items = walk(ledger, contract, "getCompressionSignaturesForTokenOwner", {"owner": PEOPLE[person]})
    assert items == snapshot(f"{E2E}-{person}-token-signatures")


def test_latest_signatures_equal_photons(ledger: NativeLedger, contract: Contract) -> None:
    assert walk(ledger, contract, "getLatestCompressionSignatures", {}) == snapshot(f"{E2E}-latest-signatures")


@pytest.mark.parametrize("person", sorted(PEOPLE))
def test_validity_proof_context_equals_photons(ledger: NativeLedger, contract: Contract, person: str) -> None:
    expected = snapshot(f"{E2E}-{person}-validity-proof")
    hashes = expected["value"]["leaves"]
    answer = ask(ledger, contract, "getValidityProof", {"hashes": hashes})
    assert expected["value"].pop("compressedProof") == {"a": [], "b": [], "c": []}  # blanked by Photon's test
    compressed = answer["value"].pop("compressedProof")
    assert {len(compressed["a"]), len(compressed["b"]), len(compressed["c"])} == {32, 64}
    assert answer == expected


@pytest.mark.parametrize("person", sorted(PEOPLE))
def test_state_tree_equals_photons_proofs(ledger: NativeLedger, person: str) -> None:
    expected = snapshot(f"{E2E}-{person}-proofs")
    assert expected["context"] == {"slot": ledger.indexed_slot}
    for item in expected["value"]:
        tree = ledger.state_trees[b58decode(item["merkleTree"], length=32)]
        assert b58encode(tree.leaf(item["leafIndex"])) == item["hash"]
        assert [b58encode(node) for node in tree.proof(item["leafIndex"])] == item["proof"]
        assert b58encode(tree.root) == item["root"]
        assert tree.seq == item["rootSeq"]
        assert fold_path(tree.leaf(item["leafIndex"]), item["leafIndex"], tree.proof(item["leafIndex"])) == tree.root
        account = ledger.live_by_hash(b58decode(item["hash"], length=32))
        assert account is not None and account.leaf_index == item["leafIndex"]


@pytest.mark.parametrize(("name", "signature"), [("mint", MINT), ("transfer", TRANSFER_1)])
def test_compression_info_equals_photons(ledger: NativeLedger, contract: Contract, name: str, signature: str) -> None:
    expected = snapshot(f"{E2E}-{name}-transaction")
    real_slot = raw_transaction(signature)["slot"]
    assert expected["transaction"]["slot"] == real_slot
    for item in expected["compressionInfo"]["openedAccounts"]:
        # Photon parsed the fetched transaction again at its real slot for these; the ledger indexed it at 0
        assert item["account"]["slotCreated"] == real_slot
        item["account"]["slotCreated"] = 0
    answer = ask(ledger, contract, "getTransactionWithCompressionInfo", {"signature": signature})
    assert answer == expected  # the transaction too: the `getTransaction` result the ledger was read from


def test_non_voting_signatures_of_the_block_equal_photons(contract: Contract) -> None:
    blocks = read_paths([FIXTURES / "blocks" / "get_lanon_voting_signatures"])
    assert [block.slot for block in blocks] == [270893658]
    ledger = ledger_from_blocks(blocks)
    answer = ask(ledger, contract, "getLatestNonVotingSignatures", {})
    expected = snapshot("integration_tests__e2e_tests__get_lanon_voting_signatures-non-voting-transactions")
    assert answer == expected
    assert len(blocks[0].transactions) == 57 and len(answer["value"]["items"]) == 46  # 11 votes left out


def _digests(folder: Path) -> dict[str, str]:
    return {f"./{p.relative_to(folder)}": hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


MANIFEST = _COPY.with_suffix(".0.sha256")
"""The SHA-256 sums of the copy, committed beside it (`sha256sum` format, paths relative to the copy)."""


def test_the_copied_fixtures_are_the_ones_recorded() -> None:
    """The repository keeps a copy, so that a clone is self-contained: it must match its committed sums,
    file for file, and where `../shared` sits beside the checkout, the shared folder too.

    A clone without `../shared` (a new user's) checks the copy against the sums only; both are always
    there, so the test never passes having examined nothing.
    """
    recorded = dict(reversed(line.split()) for line in MANIFEST.read_text(encoding="utf-8").splitlines())
    assert {name.split("/")[1] for name in recorded} == {"README.md", "blocks", "snapshots", "transactions"}
    assert _digests(_COPY) == recorded
    if _SHARED.is_dir():
        assert _digests(_SHARED) == recorded, f"{_SHARED} differs from the committed copy"
