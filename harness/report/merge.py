"""Join the reports of a split run (`csi run --shard I/N`) into one run's result.

Each shard's `report.json` is read back into a `RunResult`; the shards must describe the same
target, seed, profile, spec version and scenario. Checks merge by id (findings deduplicated, runs
added up: a check that ran anywhere without a finding passes), keys and ambiguity observations are
added up, and missing shards are said in the notes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from harness.core.errors import ConfigError
from harness.core.model import Basis, CheckResult, Finding, Observation, RunResult, Status
from harness.report.json_report import REPORT_NAME
from schema import jsonio

__all__ = ["load_report", "merge_results"]

SAME = ("target", "seed", "profile", "spec_version", "scenario")
"""Fields every shard of one run shares."""


def load_report(path: Path) -> RunResult:
    """A `RunResult` from a report.json (or a folder holding one)."""
    path = path / REPORT_NAME if path.is_dir() else path
    try:
        data = jsonio.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: cannot read a report: {exc}") from exc
    try:
        return _result(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"{path}: not a csi report.json ({exc!r})") from exc


def _result(data: dict[str, Any]) -> RunResult:
    findings: dict[str, list[Finding]] = {}
    for item in data["findings"]:
        findings.setdefault(item["check_id"], []).append(Finding(
            check_id=item["check_id"], title=item["title"], status=Status(item["status"]), basis=Basis(item["basis"]),
            clauses=tuple(item["clauses"]), method=item["method"], message=item["message"],
            request=item["request"], response=item["response"], http_status=item["http_status"],
            curl=item["curl"], seed=item["seed"], reference_response=item["reference_response"],
            baselined=item["baselined"]))
    checks = []
    for item in data["checks"]:
        skipped = [item["skip_reason"]] * item["runs"] if item["status"] == Status.SKIP.value else []
        checks.append(CheckResult(item["id"], item["family"], item["title"], tuple(item["clauses"]),
                                  item["description"], findings=findings.get(item["id"], []), runs=item["runs"],
                                  skipped=skipped, methods=set(item["methods"])))
    observations = [Observation(o["ambiguity"], o["clause"], o["question"], o["observed_practice"],
                                dict(o["counts"]), o["answers"]) for o in data["observations"]]
    return RunResult(target=data["target"], profile=data["profile"], seed=data["seed"],
                     spec_version=data["spec_version"], started=data["started"], duration=data["duration"],
                     requests=data["requests"], checks=checks, discovered=data["discovered"],
                     observations=observations, interrupted=data["interrupted"], stopped=data["stopped"],
                     notes=list(data["notes"]), scenario=data["scenario"], shard=data["shard"])


def merge_results(results: Sequence[RunResult]) -> RunResult:
    """One result from the shards of a run; ConfigError when they are not shards of one run."""
    if not results:
        raise ConfigError("no reports to merge")
    first = results[0]
    for result in results[1:]:
        differ = [name for name in SAME if getattr(result, name) != getattr(first, name)]
        if differ:
            raise ConfigError(f"reports of different runs cannot merge: {', '.join(differ)} differ")
    merged = RunResult(target=first.target, profile=first.profile, seed=first.seed, spec_version=first.spec_version,
                       started=min(r.started for r in results), duration=max(r.duration for r in results),
                       requests=sum(r.requests for r in results), scenario=first.scenario)
    merged.checks = _merge_checks(results)
    merged.discovered = _merge_keys(r.discovered for r in results)
    merged.observations = _merge_observations(results)
    merged.interrupted = any(r.interrupted for r in results)
    merged.stopped = next((r.stopped for r in results if r.stopped), None)
    merged.notes = list(dict.fromkeys(note for r in results for note in r.notes)) + _shard_notes(results)
    return merged


def _merge_checks(results: Sequence[RunResult]) -> list[CheckResult]:
    merged: dict[str, CheckResult] = {}
    for result in results:
        for check in result.checks:
            into = merged.setdefault(check.check_id, CheckResult(check.check_id, check.family, check.title,
                                                                 check.clauses, check.description))
            into.runs += check.runs
            into.skipped += check.skipped
            into.methods |= check.methods
            into.incomplete = into.incomplete or check.incomplete
            for finding in check.findings:
                if all(existing.dedup_key != finding.dedup_key for existing in into.findings):
                    into.findings.append(finding)
    return list(merged.values())


def _merge_keys(lists: Iterable[dict[str, list[str]]]) -> dict[str, list[str]]:
    merged: dict[str, list[str]] = {}
    for keys in lists:
        for kind, values in keys.items():
            merged[kind] = list(dict.fromkeys([*merged.get(kind, []), *values]))
    return merged


def _merge_observations(results: Sequence[RunResult]) -> list[Observation]:
    merged: dict[str, Observation] = {}
    for observation in (o for r in results for o in r.observations):
        known = merged.get(observation.ambiguity)
        if known is None:
            merged[observation.ambiguity] = observation
            continue
        counts = {name: known.counts.get(name, 0) + observation.counts.get(name, 0)
                  for name in {*known.counts, *observation.counts}}
        merged[observation.ambiguity] = Observation(known.ambiguity, known.clause, known.question,
                                                    known.observed_practice, counts,
                                                    known.answers + observation.answers)
    return sorted(merged.values(), key=lambda o: o.ambiguity)


def _shard_notes(results: Sequence[RunResult]) -> list[str]:
    shards = [r.shard for r in results]
    if any(shard is None for shard in shards):
        return [f"merged {len(results)} reports, some of them whole runs"]
    counts = {int(shard.split("/")[1]) for shard in shards}
    if len(counts) != 1:
        raise ConfigError(f"shards of different splits cannot merge: {', '.join(sorted(shards))}")
    count = counts.pop()
    seen = sorted({int(shard.split("/")[0]) for shard in shards})
    if len(seen) != len(shards):
        raise ConfigError(f"a shard appears twice: {', '.join(sorted(shards))}")
    missing = [str(i) for i in range(1, count + 1) if i not in seen]
    note = f"merged shards {', '.join(map(str, seen))} of {count}"
    return [note + (f"; shards {', '.join(missing)} missing: their checks are not in this report" if missing else "")]
