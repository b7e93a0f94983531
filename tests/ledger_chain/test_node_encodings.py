"""`csi chain serve` answers `getTransaction` and `getBlock` in every encoding a node offers: base64 and base58 are
the stored bytes, json their decoded message, jsonParsed the same with the keys' roles and the System, SPL Token
and Associated Token Account instructions parsed as a node parses them. Each is read back here, and by the official
client's web3.js (`getParsedTransactions`, `getTransaction`, `getParsedBlock`, what stateless.js's TestRpc calls to
find the compression events), which refuses an answer that is not a node's shape."""

from __future__ import annotations

import base64
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.ledger_chain import ChainRpc, generate
from csi_conformance.ledger_chain.node import running_node
from csi_conformance.ledger_chain.programs_0_28 import TodayPrograms
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.replay import read_chain
from solders.transaction import VersionedTransaction
from solders.transaction_status import EncodedConfirmedTransactionWithStatusMeta

from tests.client.support import HERE, install, tool
from tests.reference_server.support import HANG_GUARD

pytestmark = pytest.mark.chain
SEED, OPS = 6, 12
"""Seed 6's 12 operations hold System transfers and account creations, SPL mint-to, transfer and account
initialisations, and an associated token account made idempotently."""
WEB3 = """
import { Connection } from "@solana/web3.js";
const [url, signatures, slot] = process.argv.slice(1);
const connection = new Connection(url, "confirmed");
const parsed = await connection.getParsedTransactions(JSON.parse(signatures), {maxSupportedTransactionVersion: 0});
const raw = await connection.getTransaction(JSON.parse(signatures)[0], {maxSupportedTransactionVersion: 0});
const block = await connection.getParsedBlock(Number(slot), {maxSupportedTransactionVersion: 0});
const kind = (ix) => ix.parsed ? `${ix.program}.${ix.parsed.type}` : ix.programId.toBase58();
console.log(JSON.stringify({
  parsed: parsed.map((tx) => ({
    keys: tx.transaction.message.accountKeys.map((key) => key.pubkey.toBase58()),
    kinds: tx.transaction.message.instructions.map(kind),
    inner: (tx.meta.innerInstructions || []).flatMap((group) => group.instructions.map(kind))})),
  compiled: raw.transaction.message.compiledInstructions.length,
  blockSignatures: block.transactions.map((tx) => tx.transaction.signatures[0]),
}));
"""


@pytest.fixture(scope="module")
def chain(today_programs: TodayPrograms, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(OPS, SEED, tmp_path_factory.mktemp("encodings") / "chain", prover=ChainProver(),
                    installation=today_programs).folder


@pytest.fixture(scope="module")
def node(chain: Path, today_programs: TodayPrograms) -> Iterator[str]:
    with running_node(ChainRpc(chain, installation=today_programs)) as url:
        yield url


def result(url: str, method: str, *params: Any) -> Any:
    answer = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)},
                        timeout=HANG_GUARD).json()
    assert "error" not in answer, answer
    return answer["result"]


def entries(chain: Path) -> Iterator[tuple[int, dict]]:
    for slot, block in read_chain(chain).blocks():
        for entry in block["transactions"]:
            yield slot, entry


def test_get_transaction_in_every_encoding_is_the_same_transaction(node: str, chain: Path) -> None:
    for _, entry in entries(chain):
        raw = base64.b64decode(entry["transaction"][0])
        tx = VersionedTransaction.from_bytes(raw)
        signature, config = str(tx.signatures[0]), {"maxSupportedTransactionVersion": 0}
        asked = {name: result(node, "getTransaction", signature, {**config, "encoding": name})
                 for name in ("json", "jsonParsed", "base64", "base58")}
        assert base64.b64decode(asked["base64"]["transaction"][0]) == raw
        assert b58decode(asked["base58"]["transaction"][0]) == raw
        as_json = asked["json"]["transaction"]
        assert as_json["signatures"] == [str(s) for s in tx.signatures]
        assert as_json["message"]["accountKeys"] == [str(k) for k in tx.message.account_keys]
        assert [b58decode(ix["data"]) for ix in as_json["message"]["instructions"]] == \
            [bytes(ix.data) for ix in tx.message.instructions]
        parsed = asked["jsonParsed"]
        EncodedConfirmedTransactionWithStatusMeta.from_json(json.dumps(parsed))  # a node's shape, as solders reads it
        message = parsed["transaction"]["message"]
        assert [key["pubkey"] for key in message["accountKeys"]] == as_json["message"]["accountKeys"]
        assert [key["signer"] for key in message["accountKeys"]] == \
            [tx.message.is_signer(i) for i in range(len(tx.message.account_keys))]
        assert message["recentBlockhash"] == as_json["message"]["recentBlockhash"]
        assert "loadedAddresses" not in parsed["meta"] and "loadedAddresses" in asked["json"]["meta"]
        for ui, compiled in zip(message["instructions"], tx.message.instructions, strict=True):
            assert ui["programId"] == str(tx.message.account_keys[compiled.program_id_index])
            if "parsed" not in ui:
                assert b58decode(ui["data"]) == bytes(compiled.data)


def test_json_parsed_reads_the_programs_a_node_reads(node: str, chain: Path) -> None:
    kinds: set[str] = set()
    for _, entry in entries(chain):
        signature = str(VersionedTransaction.from_bytes(base64.b64decode(entry["transaction"][0])).signatures[0])
        parsed = result(node, "getTransaction", signature, {"encoding": "jsonParsed"})
        for ix in parsed["transaction"]["message"]["instructions"] + [
                inner for group in parsed["meta"]["innerInstructions"] for inner in group["instructions"]]:
            if "parsed" in ix:
                kinds.add(f"{ix['program']}.{ix['parsed']['type']}")
                if ix["parsed"]["type"] in ("transfer", "mintTo") and ix["program"] == "spl-token":
                    assert isinstance(ix["parsed"]["info"]["amount"], str), "token amounts are strings"
            else:
                assert set(ix) == {"programId", "accounts", "data", "stackHeight"}
    assert {"system.transfer", "system.createAccount", "spl-token.mintTo", "spl-token.transfer",
            "spl-token.initializeMint2", "spl-token.initializeAccount3",
            "spl-associated-token-account.createIdempotent"} <= kinds, kinds


def test_get_block_in_every_encoding_and_detail(node: str, chain: Path) -> None:
    source = read_chain(chain)
    for slot, block in source.blocks():
        signatures = [str(VersionedTransaction.from_bytes(base64.b64decode(e["transaction"][0])).signatures[0])
                      for e in block["transactions"]]
        for encoding in ("json", "jsonParsed", "base64", "base58"):
            full = result(node, "getBlock", slot, {"encoding": encoding, "maxSupportedTransactionVersion": 0,
                                                   "rewards": False})
            assert full["blockhash"] == block["blockhash"] and "rewards" not in full
            assert len(full["transactions"]) == len(signatures)
        listed = result(node, "getBlock", slot, {"transactionDetails": "signatures", "rewards": False})
        assert listed["signatures"] == signatures and "transactions" not in listed
        header = result(node, "getBlock", slot, {"transactionDetails": "none"})
        assert "transactions" not in header and "signatures" not in header and header["parentSlot"] < slot


def test_the_official_clients_web3_reads_every_encoding(node: str, chain: Path) -> None:
    install()
    source = read_chain(chain)
    slot = next(s for s, block in source.blocks() if block["transactions"])
    signatures = [item["signature"] for item in source.manifest["transactions"]]
    done = subprocess.run([tool("node"), "--input-type=module", "-e", WEB3, node, json.dumps(signatures), str(slot)],
                          cwd=HERE, capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout)
    assert len(seen["parsed"]) == len(signatures) and seen["compiled"] >= 1
    assert all(tx["keys"] for tx in seen["parsed"])
    kinds = {kind for tx in seen["parsed"] for kind in tx["kinds"] + tx["inner"]}
    assert {"spl-token.mintTo", "system.transfer"} <= kinds, kinds
    assert seen["blockSignatures"] == [str(VersionedTransaction.from_bytes(base64.b64decode(
        e["transaction"][0])).signatures[0]) for e in source.block(slot)["transactions"]]
