"""`csi run --chain DIR --target URL` through the installed commands, as a vendor runs it.

The indexer under test is `csi serve` over the chain (from its block files, or from `csi chain serve`
over `--ledger-rpc`, as an unmodified indexer ingests a Solana node), proving with the real light
prover; `csi run` replays the chain into LiteSVM, indexes it again as the reference, compares every
answer and judges the target's proofs on-chain. A target that indexed only part of the chain is
inconclusive (exit 3) and says the slot it reached. Real processes, real HTTP on loopback.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from csi_conformance.harness.checks.onchain.checks import SPENT_NO_V1
from csi_conformance.harness.core.errors import UsageError
from csi_conformance.harness.engine.options import RunOptions
from csi_conformance.harness.engine.session import certify
from csi_conformance.ledger_chain import ChainJudge
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.ledger_proofs.process import ProverProcess

pytestmark = pytest.mark.chain
BIN = Path(sys.executable).parent
SERVING = re.compile(r" on (http://127\.0\.0\.1:\d+/)")
READY_WITHIN = 300.0
"""Seconds a server may take to say where it serves before the test gives up on it (a guard, not a measure)."""


@contextlib.contextmanager
def started(*args: str, log: Path) -> Iterator[str]:
    """A `csi` command serving on a free loopback port, until the block ends; yields the URL it names."""
    with open(log, "wb") as sink:
        process = subprocess.Popen([str(BIN / "csi"), *args, "--port", "0"], stdout=subprocess.DEVNULL, stderr=sink)
    try:
        deadline = time.monotonic() + READY_WITHIN
        while not (found := SERVING.search(log.read_text(encoding="utf-8", errors="replace"))):
            assert process.poll() is None, f"csi {args[0]} ended (exit {process.returncode}): {log.read_text()}"
            assert time.monotonic() < deadline, f"csi {args[0]} named no URL: {log.read_text()}"
            time.sleep(0.1)
        yield found.group(1)
    finally:
        process.terminate()
        process.wait(30)


def csi_run(tmp_path: Path, *args: str) -> tuple[int, dict, str]:
    done = subprocess.run([str(BIN / "csi"), "run", *args, "--report-dir", str(tmp_path / "report")],
                          capture_output=True, text=True, timeout=1800)
    written = tmp_path / "report" / "report.json"
    report = json.loads(written.read_text(encoding="utf-8")) if written.exists() else {}
    return done.returncode, report, done.stdout + done.stderr


def slots(chain_dir: Path) -> list[int]:
    return sorted(int(path.name) for path in chain_dir.iterdir() if path.name.isdigit())


def test_a_target_over_the_chain_is_clean_every_proof_accepted_on_chain(chain_dir: Path, prover: ProverProcess,
                                                                          tmp_path: Path) -> None:
    with started("serve", "--transactions", str(chain_dir), "--prover-url", prover.url,
                 log=tmp_path / "serve.log") as url:
        code, report, output = csi_run(tmp_path, "--chain", str(chain_dir), "--target", url)
    assert code == 0, output[-4000:]
    checks = {check["id"]: check for check in report["checks"]}
    assert not [name for name, check in checks.items() if check["status"] in ("FAIL", "ERROR")], output[-4000:]
    onchain = {name: check for name, check in checks.items() if name.startswith("onchain.")}
    assert onchain.pop("onchain.queued-spend")["status"] == "N/A"  # 0.18.0's programs queue no account
    assert {check["status"] for check in onchain.values()} == {"PASS"} and len(onchain) == 3
    families = set(onchain["onchain.proof-accepted"]["examined"])
    assert families == {"inclusion proofs", "non-inclusion proofs", "combined proofs"}
    assert checks["differential.generated"]["status"] == "PASS"
    assert "replaying the chain into LiteSVM" in output


def test_a_target_over_a_chain_of_todays_programs_has_every_queued_account_spent_by_index(
        today_dir: Path, today_judge: ChainJudge, tmp_path: Path) -> None:
    """`csi serve --transactions` over a chain of today's programs (no prover: placeholder proofs): the queued
    accounts are put before the programs, every one, the roots served for v1 accounts and addresses are found
    in the on-chain root histories, and the checks that need today's verifier say why they cannot apply."""
    with started("serve", "--transactions", str(today_dir), "--prover", "none", log=tmp_path / "serve.log") as url:
        code, report, output = csi_run(tmp_path, "--chain", str(today_dir), "--target", url, "--only", "onchain")
    onchain = {check["id"]: check for check in report["checks"]}
    queued = onchain.pop("onchain.queued-spend")
    assert queued["status"] == "PASS", output[-4000:]
    accounts = today_judge.queued_accounts()
    assert queued["examined"] == {"queued accounts": sum(not a.spent for a in accounts),
                                  "spent queued accounts": sum(a.spent for a in accounts)}
    assert queued["examined"]["queued accounts"] > 0
    history = onchain.pop("onchain.root-history")
    assert history["status"] == "PASS" and history["examined"]["roots"] > 0, output[-4000:]
    assert onchain.pop("onchain.spent-account")["skip_reason"] == SPENT_NO_V1
    assert onchain["onchain.proof-accepted"]["status"] == "N/A" and len(onchain) == 1
    assert "Custom 6043" in onchain["onchain.proof-accepted"]["skip_reason"]
    assert code == 0 and "replaying the chain into LiteSVM" in output, output[-4000:]


def test_a_target_that_indexed_part_of_the_chain_is_inconclusive(chain_dir: Path, tmp_path: Path) -> None:
    """An unmodified indexer fed by `csi chain serve` that stopped halfway: exit 3, saying how far it got."""
    blocks = slots(chain_dir)
    reached = blocks[len(blocks) // 2]
    with started("chain", "serve", str(chain_dir), log=tmp_path / "node.log") as node, \
            started("serve", "--ledger-rpc", node, "--slots", f"{blocks[0]}..{reached}", "--prover", "none",
                    "--ledger-cache", str(tmp_path / "cache"), log=tmp_path / "serve.log") as url:
        code, report, output = csi_run(tmp_path, "--chain", str(chain_dir), "--target", url)
    assert code == 3, output[-4000:]
    said = f"the target has indexed up to slot {reached}, but the chain ends at slot {blocks[-1]}"
    assert said in report["precondition"] and said in output
    assert report["findings"] == [] and "Verdict: INCONCLUSIVE (exit 3)" in output


def test_chain_names_the_ledger(chain_dir: Path) -> None:
    assert RunOptions.from_inputs({"chain": str(chain_dir)}).ledger == LedgerSource.chain(chain_dir)
    for other in ({"scenario": "default"}, {"ledger": f"chain:{chain_dir}"},
                  {"ledger-rpc": "http://127.0.0.1:1/", "slots": "1..2"}):
        with pytest.raises(UsageError, match="--chain names the ledger"):
            RunOptions.from_inputs({"chain": str(chain_dir), **other})
    with pytest.raises(UsageError, match=r"--chain: .*no such folder"):
        RunOptions.from_inputs({"chain": str(chain_dir / "missing")})


def test_a_folder_that_is_no_chain_does_not_start(tmp_path: Path) -> None:
    result = certify({"chain": str(tmp_path), "target": "http://127.0.0.1:9/", "report-dir": str(tmp_path / "r")})
    assert result.exit_code() == 2 and "is not a chain folder" in (result.error or "")
    assert json.loads((tmp_path / "r" / "report.json").read_text())["error"] == result.error


def test_a_slice_from_mid_chain_is_compared_with_a_target_over_the_same_slice(chain_dir: Path, tmp_path: Path) -> None:
    """`--ledger-rpc` over the second half of the chain: the reference's trees lack the first half's leaves, so
    its roots are not the chain's. A target that indexed the same slice certifies clean; the run says the
    reference starts mid-chain, and that roots are not compared with it."""
    blocks = slots(chain_dir)
    half = f"{blocks[len(blocks) // 2]}..{blocks[-1]}"
    with started("chain", "serve", str(chain_dir), log=tmp_path / "node.log") as node, \
            started("serve", "--ledger-rpc", node, "--slots", half, "--prover", "none",
                    "--ledger-cache", str(tmp_path / "cache"), log=tmp_path / "serve.log") as url:
        code, report, output = csi_run(tmp_path, "--target", url, "--ledger-rpc", node, "--slots", half,
                                       "--only", "differential", "--only", "crypto.tree-roots")
    assert code == 0, output[-4000:]
    assert any("starts mid-chain" in note for note in report["notes"]), report["notes"]
    checks = {check["id"]: check for check in report["checks"]}
    assert any("only part of its history" in text for text in checks["crypto.tree-roots"]["not_reached"]
               + [checks["crypto.tree-roots"]["skip_reason"] or ""]), checks["crypto.tree-roots"]
