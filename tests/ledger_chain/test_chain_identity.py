"""Two generated chains are two chains, as two real ones are: their genesis hashes differ, and so does every
blockhash, which is over the parent's blockhash, the slot and the block's transactions' signatures. Chain A then
chain B served at one URL: the kit's ingestion of B with A's blocks kept reads B, and a correct indexer of B is
judged clean (the chains once shared a genesis and a blockhash per slot, and B was read with A's blocks)."""

from __future__ import annotations

import base64
from pathlib import Path

import httpx
import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_chain import ChainRpc, generate
from csi_conformance.ledger_chain.hashes import block_hash, genesis_hash
from csi_conformance.ledger_chain.node import running_node
from csi_conformance.ledger_chain.programs_0_28 import TodayPrograms
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.replay import read_chain
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.reference_server.ingest import ingest_source
from solders.hash import Hash
from solders.keypair import Keypair
from solders.transaction import VersionedTransaction

from tests.harness.csi_process import csi_run
from tests.reference_server.support import HANG_GUARD, csi_serve

pytestmark = pytest.mark.chain
OPS = 12
SEEDS = (1, 2)


@pytest.fixture(scope="module")
def chains(today_programs: TodayPrograms, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("two-chains")
    first, second = (generate(OPS, seed, root / f"seed-{seed}", prover=ChainProver(), installation=today_programs)
                     .folder for seed in SEEDS)
    return first, second


def _transaction(entry: dict) -> VersionedTransaction:
    return VersionedTransaction.from_bytes(base64.b64decode(entry["transaction"][0]))


def test_two_chains_differ_in_genesis_and_in_every_blockhash(chains: tuple[Path, Path]) -> None:
    a, b = (read_chain(folder) for folder in chains)
    assert a.manifest["genesis"]["blockhash"] != b.manifest["genesis"]["blockhash"]
    hashes = [{block["blockhash"] for _, block in chain.blocks()} for chain in (a, b)]
    assert hashes[0].isdisjoint(hashes[1]) and hashes[0] and hashes[1]
    assert set(a.slots) & set(b.slots), "the chains share slots: only the content tells their blocks apart"


def test_a_blockhash_is_over_the_parent_the_slot_and_the_signatures(chains: tuple[Path, Path]) -> None:
    for folder in chains:
        chain = read_chain(folder)
        previous = chain.manifest["genesis"]["blockhash"]
        for slot, block in chain.blocks():
            transactions = [_transaction(entry) for entry in block["transactions"]]
            assert block["previousBlockhash"] == previous
            assert {str(tx.message.recent_blockhash) for tx in transactions} == {previous}, "signed with the parent's"
            expected = block_hash(Hash.from_string(previous), slot, [list(tx.signatures) for tx in transactions])
            assert block["blockhash"] == str(expected)
            previous = block["blockhash"]


def test_the_hashes_change_with_what_they_are_over() -> None:
    parent, signatures = Hash(bytes(range(32))), [[Keypair.from_seed(bytes([n] * 32)).sign_message(b"m")]
                                                  for n in range(3)]
    base = block_hash(parent, 1000, signatures)
    assert base == block_hash(parent, 1000, signatures), "deterministic"
    assert len({base, block_hash(parent, 1001, signatures), block_hash(Hash(bytes(32)), 1000, signatures),
                block_hash(parent, 1000, signatures[::-1]), block_hash(parent, 1000, signatures[:2]),
                block_hash(parent, 1000, [signatures[0] + signatures[1], signatures[2]])}) == 6
    keys = [Keypair.from_seed(bytes([n] * 32)).pubkey() for n in range(3)]
    funding = {keys[0]: 10**12}
    one = genesis_hash(1, "@lightprotocol/zk-compression-cli@0.28.3", keys[1:], funding, keys[2])
    assert len({one, genesis_hash(2, "@lightprotocol/zk-compression-cli@0.28.3", keys[1:], funding, keys[2]),
                genesis_hash(1, "@lightprotocol/zk-compression-cli@0.18.0", keys[1:], funding, keys[2]),
                genesis_hash(1, "@lightprotocol/zk-compression-cli@0.28.3", keys[1:2], funding, keys[2]),
                genesis_hash(1, "@lightprotocol/zk-compression-cli@0.28.3", keys[1:], {keys[0]: 1}, keys[2])}) == 5


def _ask(url: str, method: str, params: dict) -> dict:
    return httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params},
                      timeout=HANG_GUARD).json()


def test_chain_b_after_chain_a_at_one_url_is_read_as_b(chains: tuple[Path, Path], today_programs: TodayPrograms,
                                                      tmp_path: Path) -> None:
    a, b = chains
    slots_a, slots_b = read_chain(a).slots, read_chain(b).slots
    cache = tmp_path / "cache"
    with running_node(ChainRpc(a, installation=today_programs)) as url:
        ingest_source(LedgerSource.rpc(url, f"{slots_a[0]}..{slots_a[-1]}", cache), progress=lambda *a: None)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    ledger_a = ingest_source(LedgerSource.chain(a)).ledger
    ledger_b = ingest_source(LedgerSource.chain(b)).ledger
    slots = f"{slots_b[0]}..{slots_b[-1]}"
    with running_node(ChainRpc(b, installation=today_programs), port=port) as again:
        assert again == url, "the same URL serves chain B now"
        with csi_serve("--port", "0", "--prover", "none", "--ledger-rpc", again, "--slots", slots,
                       "--ledger-cache", cache, cwd=tmp_path) as served:
            assert _ask(served.url, "getIndexerSlot", {})["result"] == slots_b[-1]
            open_b = [key for key, account in ledger_b.accounts.items() if not account.closed]
            assert open_b
            for key in open_b:
                answer = _ask(served.url, "getCompressedAccount", {"hash": b58encode(key)})
                assert answer.get("result", {}).get("value") is not None, answer
            only_a = next(key for key in ledger_a.accounts if key not in ledger_b.accounts)
            assert (_ask(served.url, "getCompressedAccount", {"hash": b58encode(only_a)}).get("result") or {}
                    ).get("value") is None
        with csi_serve("--port", "0", "--prover", "none", "--ledger", f"chain:{b}", cwd=tmp_path) as target:
            done = csi_run("--target", target.url, "--ledger-rpc", again, "--slots", slots, "--ledger-cache",
                           str(cache), "--only", "differential", cwd=tmp_path, env={"CSI_PROVER": "none"})
            assert done.code == 0, done.explain()
    genesis = {read_chain(folder).manifest["genesis"]["blockhash"] for folder in chains}
    assert {p.name for p in cache.iterdir()} == genesis, "a folder per chain: A's blocks stay apart from B's"
