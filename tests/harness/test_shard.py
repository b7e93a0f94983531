"""`csi run --shard I/N` splits a run deterministically; `csi report merge` joins the shards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.harness.core.errors import ConfigError, UsageError
from csi_conformance.harness.core.registry import REGISTRY
from csi_conformance.harness.engine.shard import Shard, parse_shard
from csi_conformance.harness.report.merge import load_report, merge_results
from csi_conformance.schema import Contract

from tests.conftest import PROOF_CHECK

from .broken import VARIANTS, serving

CSI = Path(sys.executable).with_name("csi")
ONLY = ["--only", "params", "--only", "health", "--only", "limits"]


def _units() -> list[tuple[str, str | None]]:
    methods = Contract.default().methods.values()
    return [(spec.id, m.name) for spec in REGISTRY.all() if spec.methods for m in methods if spec.applies_to(m)] + [
        (spec.id, None) for spec in REGISTRY.all() if spec.kind == "active" and spec.methods is None]


@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_every_unit_belongs_to_exactly_one_shard(count: int) -> None:
    for unit in _units():
        owners = [i for i in range(1, count + 1) if Shard(i, count).owns(*unit)]
        assert len(owners) == 1, unit
    if count > 1:
        loads = [sum(Shard(i, count).owns(*u) for u in _units()) for i in range(1, count + 1)]
        assert min(loads) > 0, loads


def test_parse_shard() -> None:
    assert parse_shard("2/4") == Shard(2, 4) and str(Shard(2, 4)) == "2/4"
    for bad in ("0/3", "4/3", "x", "1/0"):
        with pytest.raises(UsageError):
            parse_shard(bad)


def _csi(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(CSI), *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def _statuses(path: Path) -> dict[str, str]:
    return {c["id"]: c["status"] for c in json.loads(path.read_text())["checks"]}


def test_shards_merge_into_the_whole_run(tmp_path: Path) -> None:
    variant = next(v for v in VARIANTS if v.name == "both-address-and-hash")
    with serving(variant) as url:
        whole = _csi("run", "--target", url, *ONLY, "--report-dir", "whole", cwd=tmp_path)
        shards = [_csi("run", "--target", url, *ONLY, "--shard", f"{i}/2", "--report-dir", f"s{i}", cwd=tmp_path)
                  for i in (1, 2)]
    assert whole.returncode == 1
    assert sorted(s.returncode for s in shards) == [0, 1], "the fault sits in exactly one shard"
    merged = _csi("report", "merge", "s1", "s2", "-o", "merged", cwd=tmp_path)
    assert merged.returncode == 1 and "merged shards 1, 2 of 2" in merged.stderr
    assert _statuses(tmp_path / "merged" / "report.json") == _statuses(tmp_path / "whole" / "report.json")
    report = json.loads((tmp_path / "merged" / "report.json").read_text())
    assert report["shard"] is None and any(f["check_id"] == "params.exactly-one-of" for f in report["findings"])


def test_merge_refuses_reports_of_different_runs(tmp_path: Path) -> None:
    with serving(None) as url:
        for seed, shard in ((0, "1/2"), (1, "2/2")):
            _csi("run", "--target", url, "--only", "health", "--seed", str(seed), "--shard", shard,
                 "--report-dir", f"seed{seed}", cwd=tmp_path)
    with pytest.raises(ConfigError, match="seed"):
        merge_results([load_report(tmp_path / "seed0"), load_report(tmp_path / "seed1")])
    with pytest.raises(ConfigError, match="twice"):
        merge_results([load_report(tmp_path / "seed0"), load_report(tmp_path / "seed0")])
    partial = merge_results([load_report(tmp_path / "seed0")])
    assert any("shards 2 missing" in note for note in partial.notes)
    assert _csi("report", "merge", "no-such-dir", "-o", "x", cwd=tmp_path).returncode == 2


def test_shards_of_a_clean_target_pass_fail_on_skip_and_merge_into_the_whole_run(tmp_path: Path) -> None:
    """A check whose work another shard owns is not one that examined nothing: each shard of the bundled
    reference passes `--fail-on skip`, and the merge has the unsharded run's statuses and partial marks."""
    common = ["run", "--skip", PROOF_CHECK, "--seed", "3", "--fail-on", "skip"]
    whole = _csi(*common, "--report-dir", "whole", cwd=tmp_path)
    assert whole.returncode == 0, whole.stdout[-2000:]
    for i in (1, 2):
        shard = _csi(*common, "--shard", f"{i}/2", "--report-dir", f"s{i}", cwd=tmp_path)
        assert shard.returncode == 0, shard.stdout[-2000:]
    merged = _csi("report", "merge", "s1", "s2", "-o", "merged", "--fail-on", "skip", cwd=tmp_path)
    assert merged.returncode == 0, merged.stdout[-2000:] + merged.stderr[-2000:]

    def marks(name: str) -> dict[str, tuple[str, bool]]:
        checks = json.loads((tmp_path / name / "report.json").read_text())["checks"]
        return {c["id"]: (c["status"], c["status"] == "PASS" and bool(c["not_reached"])) for c in checks}

    assert marks("merged") == marks("whole")
