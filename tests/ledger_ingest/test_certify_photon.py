"""The reference passes its own certification on real data: `csi serve --transactions` over Photon
0.50.0's fixtures (the real block 270893658, 57 transactions of which 11 are votes, and the four
e2e transactions) certified by `csi run`, both as installed commands, over real HTTP on loopback.

The reference runs without the prover and `crypto.groth16-proof` is left out by name, as in every
test that is not about proofs. Any FAIL or ERROR is a fault of the reference on the real ledger, or
a misjudgement of the harness: either way the test names it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from csi_conformance.ledger_ingest import read_paths

from tests.conftest import PROOF_CHECK
from tests.harness.csi_process import csi_run
from tests.ledger_ingest.test_photon_replay import FIXTURES, MINT, TRANSACTIONS, TRANSFER_1, TRANSFER_2, TRANSFER_3
from tests.reference_server.support import HANG_GUARD, csi_serve

BLOCK = FIXTURES / "blocks" / "get_lanon_voting_signatures"
COMPRESSION = {MINT, TRANSFER_1, TRANSFER_2, TRANSFER_3}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    cwd = tmp_path_factory.mktemp("serve")
    with csi_serve("--port", "0", "--prover", "none", "--transactions", BLOCK, TRANSACTIONS, cwd=cwd) as server:
        assert "(50 transactions)" in server.stderr  # 46 non-voting of the block, and the four
        yield server.url


def ask(url: str, method: str, params: dict) -> object:
    answer = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params},
                        timeout=HANG_GUARD)
    assert answer.status_code == 200
    return answer.json()["result"]


def test_the_harness_certifies_the_reference_over_the_real_ledger(served: str, tmp_path: Path) -> None:
    done = csi_run("--target", served, "--skip", PROOF_CHECK, cwd=tmp_path, env={"CSI_PROVER": "none"})
    report = done.report
    wrong = [f"{f['status']} {f['check_id']} {f.get('method')}: {f.get('message', '')[:300]}"
             for f in report["findings"] if f["status"] in ("FAIL", "ERROR")]
    assert wrong == [], "\n".join(wrong)
    assert done.code == 0, done.explain()
    statuses = {check["id"]: check["status"] for check in report["checks"]}
    assert not {s for s in statuses.values() if s in ("FAIL", "ERROR")}, statuses
    # the run judged what this ledger is about: transactions without compression, and the four with it
    non_compression = next(c for c in report["checks"] if c["id"] == "consistency.non-compression-transaction")
    assert non_compression["status"] == "PASS" and non_compression["examined"].get("transactions", 0) > 0
    assert set(report["discovered"]["signatures"]) == COMPRESSION


def test_only_the_compression_transactions_have_compression_info(served: str) -> None:
    """Every transaction of the block is one without compression: each answers null (7-N2, 4.2-N7),
    where the harness's check samples a few; each of the four answers its accounts."""
    (block,) = read_paths([BLOCK])
    listed = ask(served, "getLatestNonVotingSignatures", {})["value"]["items"]
    block_signatures = {tx.signature_text for tx in block.transactions if tx.indexed}
    assert block_signatures <= {item["signature"] for item in listed} and len(block_signatures) == 46
    answers = {signature: ask(served, "getTransactionWithCompressionInfo", {"signature": signature})
               for signature in block_signatures | COMPRESSION}
    assert {s for s, answer in answers.items() if answer is not None} == COMPRESSION
    for signature in COMPRESSION:
        info = answers[signature]["compressionInfo"]
        assert info["openedAccounts"] or info["closedAccounts"], signature
