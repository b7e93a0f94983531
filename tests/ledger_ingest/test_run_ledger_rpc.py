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
from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.ledger_ingest import read_paths
from csi_conformance.ledger_ingest.stub_rpc import blocks_from_transactions, stub_solana_rpc
from csi_conformance.reference_server.ingest import ledger_from_blocks
from csi_conformance.reference_server.ledger_native import NativeLedger
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.serve import running_server
from csi_conformance.reference_server.wiring import app_for

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


REAL_BLOCK = TRANSACTIONS.parents[1] / "blocks" / "get_lanon_voting_signatures" / "270893658"


def test_a_target_that_indexed_another_ledger_is_a_set_up_error(stub_url: str, tmp_path: Path) -> None:
    """An indexer of another ledger (a mainnet block without compression) judged against the slice: the kit asks
    it a few of the slice's transactions first, and a target that knows none of them ends the run at once (exit
    3, one line asking whether it indexed this ledger), not as dozens of FAILs."""
    other = ledger_from_blocks(read_paths([REAL_BLOCK]))
    code, report, output = csi_run(other, stub_url, tmp_path)
    assert code == 3, output[-3000:]
    said = report["precondition"]
    assert said.startswith("the target knows none of the 4 transactions of the ledger http://127.0.0.1:")
    assert said.endswith("its getIndexerSlot is 270893658): did it index this ledger?") and "\n" not in said
    assert report["findings"] == [] and failed_checks(report) == set()


def test_a_solana_node_given_as_the_target_is_named_as_a_wrong_url(tmp_path: Path) -> None:
    """The likeliest mix-up of a set-up with two URLs: the node's URL as the target. Its "Method not found" to
    getIndexerSlot ends the run before any check (exit 3), with the question the HTML-page case asks, and none of
    the false things the checks said of it ("Target says it is stale", an api-key "refused")."""
    with stub_solana_rpc({}) as (url, _):
        done = subprocess.run([str(CSI), "run", "--target", url, "--report-dir", str(tmp_path / "report")],
                              capture_output=True, text=True, timeout=600)
    output = done.stdout + done.stderr
    assert done.returncode == 3, output[-3000:]
    report = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))
    assert report["precondition"] == (
        'getIndexerSlot is not a method there (error -32601 "Method not found"), and it answers getVersion as a '
        f"Solana node does (solana-core 2.1.0): is {url} the indexer's JSON-RPC URL?")
    assert report["findings"] == [] and "stale" not in output.lower() and "refused" not in output.lower()


def test_a_slice_past_the_nodes_tip_is_inconclusive_saying_how_far_it_was_read(tmp_path: Path) -> None:
    """`csi run --ledger-rpc` over slots the node has not produced by the deadline (--ledger-wait): exit 3, the
    slots read said, no check run against a ledger that is not the one asked for."""
    results = [loads(p.read_text(encoding="utf-8")) for p in sorted(TRANSACTIONS.iterdir())]
    with stub_solana_rpc(blocks_from_transactions(results), tip=42) as (node, _):
        code, report, output = csi_run(target_ledger(), node, tmp_path, "--ledger-wait", "0.2")
    assert code == 3, output[-3000:]
    assert "read only slots 38..42" in report["precondition"] and "--ledger-wait" in report["precondition"]
    assert "csi: slots 38..45: the node's tip was at slot 42" in output and report["checks"] == []


def test_serve_over_a_slice_past_the_tip_says_the_slots_it_holds(tmp_path: Path) -> None:
    """`csi serve --ledger-rpc … --slots A..B` over a node that has not produced B: after --ledger-wait it serves
    what it read and its start-up line names the slots it really holds, never the whole range."""
    results = [loads(p.read_text(encoding="utf-8")) for p in sorted(TRANSACTIONS.iterdir())]
    env = {**os.environ, "CSI_LEDGER_CACHE": str(tmp_path / "cache"), "CSI_PROVER": "none"}
    with stub_solana_rpc(blocks_from_transactions(results), tip=42) as (node, _):
        server = subprocess.Popen([str(CSI), "serve", "--ledger-rpc", node, "--slots", SLOTS, "--ledger-wait",
                                   "0.2", "--port", "0"], stderr=subprocess.PIPE, text=True, env=env)
        try:
            lines = []
            for line in server.stderr:
                lines.append(line)
                if line.startswith("csi serve: ledger") or "Traceback" in line:
                    break
        finally:
            server.terminate()
            server.wait(timeout=60)
    assert lines[-1].startswith(f"csi serve: ledger slots 38..42 of {node} (asked 38..45; the node's tip was at "
                                "42 after 0.2 s) (3 transactions) on http://127.0.0.1:"), "".join(lines)
    assert any("the node is at slot 42, before 45: following it (up to 0.2 s" in line for line in lines)
