"""`csi chain serve`: a Solana node over the chain, on loopback, answering what ingesters call with a node's
answers and errors; the kit's own `--ledger-rpc` ingestion reads the same ledger from it as from the files."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.ledger_chain import Chain, ChainRpc
from csi_conformance.ledger_chain.node import running_node
from csi_conformance.ledger_chain.replay import read_chain
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.reference_server.ingest import ingest_source
from solders.keypair import Keypair
from solders.pubkey import Pubkey

pytestmark = pytest.mark.chain
TREE = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"


@pytest.fixture(scope="module")
def node(chain_dir: Path, installation: Installation) -> Iterator[str]:
    with running_node(ChainRpc(chain_dir, installation=installation)) as url:
        yield url


def rpc(url: str, method: str, *params: Any) -> dict[str, Any]:
    return httpx.post(url, json={"jsonrpc": "2.0", "id": 7, "method": method, "params": list(params)}).json()


def result(url: str, method: str, *params: Any) -> Any:
    answer = rpc(url, method, *params)
    assert answer["id"] == 7 and "error" not in answer, answer
    return answer["result"]


def test_slots_heights_and_the_node_facts(node: str, chain_dir: Path) -> None:
    source = read_chain(chain_dir)
    first, last = source.slots[0], source.slots[-1]
    assert result(node, "getSlot") == last and result(node, "getFirstAvailableBlock") == first
    assert result(node, "getBlockHeight") == source.block(last)["blockHeight"]
    assert result(node, "getBlocks", first, last) == source.slots
    assert result(node, "getBlocks", first) == source.slots
    assert result(node, "getBlocksWithLimit", first, 3) == source.slots[:3]
    assert result(node, "getLatestBlockhash")["value"]["blockhash"] == source.block(last)["blockhash"]
    assert result(node, "getGenesisHash") == source.manifest["genesis"]["blockhash"]
    assert result(node, "getHealth") == "ok" and "solana-core" in result(node, "getVersion")
    assert httpx.get(node + "health").text == "ok"


def test_get_block_in_every_encoding(node: str, chain_dir: Path) -> None:
    source = read_chain(chain_dir)
    slot = source.slots[1]
    stored = (chain_dir / str(slot)).read_text().strip()
    raw = httpx.post(node, json={"jsonrpc": "2.0", "id": 1, "method": "getBlock", "params": [slot, {
        "encoding": "base64", "transactionDetails": "full", "maxSupportedTransactionVersion": 0}]}).text
    assert raw == '{"jsonrpc":"2.0","result":' + stored + ',"id":1}', "the stored block is the answer"
    as_json = result(node, "getBlock", slot, {"encoding": "json", "maxSupportedTransactionVersion": 0,
                                               "rewards": False})
    block = source.block(slot)
    assert "rewards" not in as_json and as_json["blockhash"] == block["blockhash"]
    for ui, entry in zip(as_json["transactions"], block["transactions"], strict=True):
        raw_tx = base64.b64decode(entry["transaction"][0])
        assert ui["version"] == "legacy" and ui["meta"] == entry["meta"]
        assert b58decode(ui["transaction"]["signatures"][0], length=64) == raw_tx[1:65]
        assert ui["transaction"]["message"]["recentBlockhash"] == block["previousBlockhash"]
    legacy = result(node, "getBlock", slot, {"encoding": "base58"})
    assert "version" not in legacy["transactions"][0], "no version without maxSupportedTransactionVersion"
    assert b58decode(legacy["transactions"][0]["transaction"][0]) == base64.b64decode(
        block["transactions"][0]["transaction"][0])
    signatures = result(node, "getBlock", slot, {"transactionDetails": "signatures"})
    assert len(signatures["signatures"]) == len(block["transactions"]) and "transactions" not in signatures
    assert "transactions" not in result(node, "getBlock", slot, {"transactionDetails": "none"})


def test_a_nodes_errors(node: str, chain_dir: Path) -> None:
    slots = read_chain(chain_dir).slots
    skipped = next(s for s in range(slots[0], slots[-1]) if s not in slots)
    assert rpc(node, "getBlock", skipped)["error"] == {
        "code": -32007, "message": f"Slot {skipped} was skipped, or missing due to ledger jump to recent snapshot"}
    assert rpc(node, "getBlock", slots[0] - 1)["error"]["code"] == -32009
    assert rpc(node, "getBlock", slots[-1] + 1)["error"] == {
        "code": -32004, "message": f"Block not available for slot {slots[-1] + 1}"}
    assert rpc(node, "getBlock", "x")["error"]["code"] == -32602
    assert rpc(node, "getBlock", slots[0], {"transactionDetails": "accounts"})["error"]["code"] == -32602
    assert rpc(node, "getBlocks", 0, 10**7)["error"]["code"] == -32602
    assert rpc(node, "getNothing")["error"]["code"] == -32601
    broken = httpx.post(node, content=b"{not json").json()
    assert broken == {"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": None}
    batch = httpx.post(node, json=[{"jsonrpc": "2.0", "id": 1, "method": "getSlot"},
                                   {"jsonrpc": "2.0", "id": 2, "method": "getHealth"}]).json()
    assert [a["id"] for a in batch] == [1, 2]


def test_signatures_transactions_and_accounts(node: str, chain_dir: Path, loaded: Chain) -> None:
    source = read_chain(chain_dir)
    listed = result(node, "getSignaturesForAddress", TREE)
    slots = [item["slot"] for item in listed]
    assert slots == sorted(slots, reverse=True) and len(listed) > 3
    assert result(node, "getSignaturesForAddress", TREE, {"limit": 2}) == listed[:2]
    assert result(node, "getSignaturesForAddress", TREE, {"before": listed[0]["signature"], "limit": 1}) == [listed[1]]
    assert result(node, "getSignaturesForAddress", TREE, {"until": listed[2]["signature"]}) == listed[:2]
    first = listed[-1]
    tx = result(node, "getTransaction", first["signature"], {"encoding": "base64",
                                                             "maxSupportedTransactionVersion": 0})
    entry = source.block(tx["slot"])["transactions"][0]
    assert tx["transaction"] == entry["transaction"] and tx["blockTime"] == source.block(tx["slot"])["blockTime"]
    assert result(node, "getTransaction", "1" * 88) is None
    account = result(node, "getAccountInfo", TREE, {"encoding": "base64"})
    assert account["context"]["slot"] == source.slots[-1]
    assert base64.b64decode(account["value"]["data"][0]) == loaded.runtime.data(Pubkey.from_string(TREE))
    assert result(node, "getAccountInfo", str(Keypair.from_seed(bytes(32)).pubkey()))["value"] is None


def test_live_release_follows_the_clock(chain_dir: Path, installation: Installation) -> None:
    now = [0.0]
    node = ChainRpc(chain_dir, live=True, slot_time=0.4, installation=installation, clock=lambda: now[0])
    slots = node.slots
    assert node.tip() == slots[0]
    answer = node.answer(b'{"jsonrpc":"2.0","id":1,"method":"getBlock","params":[%d]}' % slots[1])
    assert '"code":-32004' in answer, "not released yet"
    now[0] = (slots[5] - slots[0]) * 0.4 + 0.01
    assert node.tip() == slots[5]
    assert '"result"' in node.answer(b'{"jsonrpc":"2.0","id":1,"method":"getBlock","params":[%d]}' % slots[5])
    assert f'"result":{slots[:6]}'.replace(" ", "") in node.answer(
        b'{"jsonrpc":"2.0","id":1,"method":"getBlocks","params":[%d]}' % slots[0])
    now[0] = 10**6
    assert node.tip() == slots[-1]


def test_ledger_rpc_reads_the_same_ledger_as_the_files(node: str, chain_dir: Path, tmp_path: Path) -> None:
    slots = read_chain(chain_dir).slots
    from_files = ingest_source(LedgerSource.chain(chain_dir)).ledger
    from_node = ingest_source(LedgerSource.rpc(node, f"{slots[0] - 3}..{slots[-1]}", tmp_path / "cache"),
                              progress=lambda *a, **k: None).ledger
    assert from_node.accounts.keys() == from_files.accounts.keys()
    assert from_node.transactions == from_files.transactions
    for key, tree in from_files.state_trees.items():
        assert (from_node.state_trees[key].root, from_node.state_trees[key].seq) == (tree.root, tree.seq)
    assert from_node.address_tree.root == from_files.address_tree.root
    assert from_node.indexed_slot == from_files.indexed_slot == slots[-1]
