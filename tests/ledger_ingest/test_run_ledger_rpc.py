"""`csi run --ledger-rpc URL --slots A..B`: the reference indexes the slice itself, from a stub Solana
JSON-RPC endpoint on loopback serving the fixture transactions as blocks, and the target's answers
must equal its answers. A target over the same transactions is clean; one that dropped a transaction
of the slice, or lists one twice, FAILs. Real HTTP on loopback for the target, the reference and the
stub."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger_crypto import b58decode
from ledger_ingest import read_paths
from ledger_ingest.stub_rpc import blocks_from_transactions, stub_solana_rpc
from reference_server.ingest import ledger_from_blocks
from reference_server.ledger_native import NativeLedger
from reference_server.options import ServerOptions
from reference_server.serve import running_server
from reference_server.wiring import app_for
from schema.jsonio import loads
from tests.ledger_ingest.test_photon_replay import TRANSACTIONS, TRANSFER_2

CSI = Path(sys.executable).with_name("csi")
KEY = "stub-endpoint-key-42"
SLOTS = "38..45"  # blocks at 40..43; 44 is listed but skipped; 38, 39, 45 hold none


@pytest.fixture(scope="module")
def stub_url() -> Iterator[str]:
    results = [loads(p.read_text(encoding="utf-8")) for p in sorted(TRANSACTIONS.iterdir())]
    with stub_solana_rpc(blocks_from_transactions(results), skipped=[44], api_key=KEY) as (url, _):
        yield f"{url}?api-key={KEY}"


def target_ledger(*, drop: str | None = None, twice: str | None = None) -> NativeLedger:
    files = [p for p in sorted(TRANSACTIONS.iterdir()) if p.name != drop]
    ledger = ledger_from_blocks(read_paths(files))
    if twice is not None:  # an indexer that recorded the transaction a second time, one slot earlier
        tx = ledger.transactions[b58decode(twice, length=64)]
        for group in ("all", "succeeded"):
            ledger.signatures.add(group, (tx.slot - 1, tx.signature))
    return ledger


def csi_run(target: NativeLedger, stub_url: str, tmp_path: Path, *only: str) -> tuple[int, dict, str]:
    env = {**os.environ, "CSI_LEDGER_CACHE": str(tmp_path / "cache"), "CSI_PROVER": "none"}
    report_dir = tmp_path / "report"
    with running_server(app_for(target, ServerOptions())) as url:
        done = subprocess.run([str(CSI), "run", "--target", url, "--ledger-rpc", stub_url, "--slots", SLOTS,
                               "--report-dir", str(report_dir), *only],
                              capture_output=True, text=True, timeout=600, env=env)
    output = done.stdout + done.stderr
    assert KEY not in output, "the endpoint's key leaked"
    written = report_dir / "report.json"
    report = json.loads(written.read_text(encoding="utf-8")) if written.exists() else {}
    return done.returncode, report, output


def failed_checks(report: dict) -> set[str]:
    return {f["check_id"] for f in report.get("findings", []) if f.get("status") == "FAIL"}


def test_a_target_over_the_same_slice_is_clean(stub_url: str, tmp_path: Path) -> None:
    code, report, output = csi_run(target_ledger(), stub_url, tmp_path, "--only", "differential")
    assert code == 0, output[-3000:]
    generated = next(c for c in report["checks"] if c["id"] == "differential.generated")
    assert generated["status"] == "PASS"
    assert "csi: ledger slots 38..45: 4/4 blocks" in output or "5/5 blocks" in output


def test_a_target_that_dropped_a_transaction_fails(stub_url: str, tmp_path: Path) -> None:
    code, report, output = csi_run(target_ledger(drop=TRANSFER_2), stub_url, tmp_path, "--only", "differential")
    assert code == 1, output[-3000:]
    assert "differential.generated" in failed_checks(report)


def test_a_target_that_indexed_a_transaction_twice_fails(stub_url: str, tmp_path: Path) -> None:
    code, report, output = csi_run(target_ledger(twice=TRANSFER_2), stub_url, tmp_path, "--only", "differential")
    assert code == 1, output[-3000:]
    assert "differential.generated" in failed_checks(report)
