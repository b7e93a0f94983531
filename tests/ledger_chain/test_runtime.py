"""LiteSVM set up as real-chain.md measured: Light's programs, the dumped trees, the forester, the sol pool;
and what a refused or oversized transaction becomes."""

from __future__ import annotations

import pytest
from csi_conformance.ledger_chain import programs as P
from csi_conformance.ledger_chain.accounts import read_tree
from csi_conformance.ledger_chain.runtime import (
    FORESTER_FIELD,
    PACKET_SIZE,
    POSEIDON_PADDING_GATE,
    ChainError,
    Runtime,
    read_dumps,
)
from csi_conformance.ledger_chain.system import Output, invoke
from csi_conformance.ledger_crypto import ZERO_HASHES, AddressTree
from csi_conformance.ledger_proofs.install import Installation
from solders.compute_budget import set_compute_unit_limit
from solders.keypair import Keypair
from solders.message import Message
from solders.transaction import Transaction

pytestmark = pytest.mark.chain

FORESTER = Keypair.from_seed(bytes([7]) * 32)


@pytest.fixture(scope="module")
def runtime(installation: Installation) -> Runtime:
    return Runtime(installation, forester=FORESTER.pubkey())


def send(runtime: Runtime, signer: Keypair, *instructions) -> Transaction:
    message = Message.new_with_blockhash([set_compute_unit_limit(1_400_000), *instructions], signer.pubkey(),
                                         runtime.blockhash)
    return Transaction([signer], message, runtime.blockhash)


def test_programs_dumps_forester_and_sol_pool(runtime: Runtime, installation: Installation) -> None:
    assert not runtime.features.is_active(POSEIDON_PADDING_GATE)
    for program in P.PROGRAM_FILES:
        assert runtime.svm.get_account(program).executable, program
    assert runtime.svm.get_account(P.SPL_TOKEN).executable, "LiteSVM loads SPL Token by default"
    dumps = read_dumps(installation.accounts_dir)
    assert len(dumps) == 12
    for key, account in dumps:
        live = runtime.svm.get_account(key)
        assert (live.owner, live.lamports) == (account.owner, account.lamports)
        if key in (P.STATE_TREE, P.ADDRESS_TREE):
            assert bytes(account.data)[FORESTER_FIELD] == bytes(32), "the dumps name no forester"
            assert bytes(live.data)[FORESTER_FIELD] == bytes(FORESTER.pubkey())
        else:
            assert bytes(live.data) == bytes(account.data)
    assert runtime.balance(P.pda("sol_pool")[0]) == runtime.rent(0)


def test_dumped_trees_are_the_kits_empty_trees(runtime: Runtime) -> None:
    state = read_tree(runtime.data(P.STATE_TREE))
    assert (state.height, state.canopy_depth, state.sequence_number, len(state.roots)) == (26, 10, 0, 2400)
    assert state.root == ZERO_HASHES[26] and state.associated_queue == P.NULLIFIER_QUEUE
    assert state.indexed_changelog_index is None
    address = read_tree(runtime.data(P.ADDRESS_TREE))
    fresh = AddressTree()
    assert (address.sequence_number, address.root, address.next_index) == (fresh.seq, fresh.root, 2)
    assert address.associated_queue == P.ADDRESS_QUEUE and address.indexed_changelog_index == 3


def test_a_compression_runs_and_a_refusal_names_program_code_and_log(runtime: Runtime) -> None:
    user = Keypair.from_seed(bytes([8]) * 32)
    runtime.fund(user.pubkey(), 10**10)
    good = invoke(payer=user.pubkey(), authority=user.pubkey(), outputs=[Output(user.pubkey(), 5000, P.STATE_TREE)],
                  compress=5000)
    done = runtime.execute(send(runtime, user, good))
    assert done.err is None and done.fee == 5000 and done.compute_units > 0
    assert read_tree(runtime.data(P.STATE_TREE)).next_index == 1
    more_out_than_in = invoke(payer=user.pubkey(), authority=user.pubkey(),
                              outputs=[Output(user.pubkey(), 5001, P.STATE_TREE)], compress=5000)
    refused = runtime.execute(send(runtime, user, more_out_than_in))
    assert refused.custom_code == 6004
    error = refused.failure("compress 5000 into 5001")
    assert str(error) == ("compress 5000 into 5001 failed in the light system program: Custom(6004): light system "
                          "program: ComputeOutputSumFailed")
    assert error.code == 6004 and any("ComputeOutputSumFailed" in line for line in error.logs)


def test_a_transaction_larger_than_a_packet_is_not_sent(runtime: Runtime) -> None:
    user = Keypair.from_seed(bytes([9]) * 32)
    outputs = [Output(user.pubkey(), 1, P.STATE_TREE) for _ in range(30)]
    tx = send(runtime, user, invoke(payer=user.pubkey(), authority=user.pubkey(), outputs=outputs, compress=30))
    assert len(bytes(tx)) > PACKET_SIZE
    with pytest.raises(ChainError, match=f"over the {PACKET_SIZE} a Solana packet holds"):
        runtime.execute(tx)
