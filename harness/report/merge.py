"""Join the reports of a split run (`csi run --shard I/N`) into one run's result.

Each shard's `report.json` is read back into a `RunResult`; the shards must describe the same
target, seed, profile, spec version and scenario. Checks merge by id (the same fault in several
shards is one finding whose occurrences add up; runs and what was examined add up: a check that
examined something anywhere without a finding passes, and is partial only where a shard said what
it could not reach; what a shard left to the others, its `other_shards` checks, is not "examined
nothing"), keys and ambiguity observations are added up. The merged run gates like `csi run`: a
missing shard, or a shard that was interrupted, stopped asking or was itself inconclusive, makes it
inconclusive (exit code 3), with the reason said.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.asked_again import AskedAgain
from csi_conformance.harness.core.errors import ConfigError
from csi_conformance.harness.core.model import Basis, CheckResult, Finding, Observation, RunResult, Status
from csi_conformance.harness.report.json_report import FORMAT_VERSION, REPORT_NAME, TOOL_NAME

__all__ = ["load_report", "merge_results"]

MAX_EXAMPLES = 3
"""Other occurrences kept with a merged finding, as the runner keeps them."""
SAME = ("target", "target_name", "target_version", "ledger", "seed", "profile", "spec_version", "scenario")
"""Fields every shard of one run shares."""


def load_report(path: Path) -> RunResult:
    """A `RunResult` from a report.json (or a folder holding one)."""
    path = path / REPORT_NAME if path.is_dir() else path
    try:
        data = jsonio.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: cannot read a report: {exc}") from exc
    tool = data.get("tool") if isinstance(data, dict) else None
    if not isinstance(tool, dict) or tool.get("name") != TOOL_NAME:
        raise ConfigError(f"{path}: not a report.json of {TOOL_NAME}")
    if data.get("format_version") != FORMAT_VERSION:
        raise ConfigError(f"{path}: a report of format {data.get('format_version')!r}, this kit reads format "
                          f"{FORMAT_VERSION}: make it again with this kit")
    try:
        return _result(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"{path}: not a csi report.json ({exc!r})") from exc


def _result(data: dict[str, Any]) -> RunResult:
    findings: dict[str, list[Finding]] = {}
    for item in data["findings"]:
        findings.setdefault(item["check_id"], []).append(Finding(
            check_id=item["check_id"], title=item["title"], status=Status(item["status"]), basis=Basis(item["basis"]),
            clauses=tuple(item["clauses"]), method=item["method"], kind=item["kind"], expected=item["expected"],
            received=item["received"], detail=dict(item.get("detail") or {}), path=item.get("path"),
            request=item["request"], response=item["response"], http_status=item["http_status"],
            curl=item["curl"], seed=item["seed"], reference_response=item["reference_response"],
            baselined=item["baselined"], occurrences=item.get("occurrences", 1),
            examples=tuple(item.get("examples", ()))))
    checks = []
    for item in data["checks"]:
        owned_elsewhere = item["other_shards"] and not item["runs"]
        not_applicable = (item["skip_reason"] if item["status"] == Status.NOT_APPLICABLE.value and not owned_elsewhere
                          else None)
        checks.append(CheckResult(item["id"], item["family"], tuple(item["clauses"]),
                                  item["description"], findings=findings.get(item["id"], []), runs=item["runs"],
                                  skipped=list(item["skips"]), methods=set(item["methods"]),
                                  incomplete=item.get("incomplete"), examined=dict(item.get("examined", {})),
                                  examined_methods=set(item.get("examined_methods", ())),
                                  basis=Basis(item.get("basis", Basis.SPEC.value)), not_applicable=not_applicable,
                                  unreached=[text for text in item["not_reached"] if text not in item["skips"]],
                                  other_shards=item["other_shards"]))
    observations = [Observation(o["ambiguity"], o["clause"], o["question"], o["observed_practice"],
                                dict(o["counts"]), o["answers"], o.get("reason")) for o in data["observations"]]
    return RunResult(target=data["target"], target_name=data.get("target_name"),
                     target_version=data.get("target_version"), ledger=data.get("ledger"),
                     profile=data["profile"], seed=data["seed"],
                     spec_version=data["spec_version"], started=data["started"], duration=data["duration"],
                     requests=data["requests"], throttled=data.get("throttled", 0), checks=checks,
                     discovered=data["discovered"],
                     observations=observations, interrupted=data["interrupted"], stopped=data["stopped"],
                     notes=list(data["notes"]), scenario=data["scenario"], shard=data["shard"],
                     inconclusive=list(data.get("inconclusive", ())), precondition=data.get("precondition"),
                     error=data.get("error"),
                     asked_again=[AskedAgain.from_json(item) for item in data.get("asked_again", ())])


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
                       requests=sum(r.requests for r in results), throttled=sum(r.throttled for r in results),
                       scenario=first.scenario, target_name=first.target_name,
                       target_version=first.target_version, ledger=first.ledger)
    merged.checks = _merge_checks(results)
    merged.discovered = _merge_keys(r.discovered for r in results)
    merged.observations = _merge_observations(results)
    merged.asked_again = [asked for r in results for asked in r.asked_again]
    merged.interrupted = any(r.interrupted for r in results)
    merged.stopped = next((r.stopped for r in results if r.stopped), None)
    notes, missing = _shard_notes(results)
    merged.notes = list(dict.fromkeys(note for r in results for note in r.notes)) + notes
    merged.inconclusive = _inconclusive(results, merged, missing)
    return merged


_RECOMPUTED = ("no check of ", "the kit itself failed")
"""Beginnings of a shard's inconclusive reasons that the merge works out again over all the shards: a
family one shard did not reach another may have, and errors of the kit are counted once."""


def _inconclusive(results: Sequence[RunResult], merged: RunResult, missing: list[str]) -> list[str]:
    """Why the merged run cannot call the target conformant, whatever each shard said alone."""
    reasons = []
    if missing:
        reasons.append(f"shard{'s' if len(missing) > 1 else ''} {', '.join(missing)} missing: "
                       "the checks they own were not run in this report")
    for result in results:
        label = f"shard {result.shard}" if result.shard else "a merged report"
        own = [r for r in result.inconclusive if not r.startswith(_RECOMPUTED)]
        if result.interrupted:
            own.insert(0, "interrupted before it finished")
        if result.stopped and result.stopped not in own:
            own.append(result.stopped)
        if result.precondition:
            own.insert(0, f"could not be certified at all: {result.precondition}")
        reasons += [f"{label}: {reason}" for reason in own]
    families: dict[str, list[CheckResult]] = {}
    for check in merged.checks:
        families.setdefault(check.family, []).append(check)
    unreached = [name for name, checks in families.items() if all(c.status is Status.SKIP for c in checks)]
    if unreached:
        reasons.append(f"no check of {', '.join(unreached)} examined anything: that part of the API was not reached")
    errors = sorted({f.check_id for f in merged.findings if f.status is Status.ERROR})
    if errors:
        reasons.append(f"the kit itself failed in {len(errors)} checks ({', '.join(errors)}): "
                       "an error of csi, not of the target")
    return reasons


def _merge_checks(results: Sequence[RunResult]) -> list[CheckResult]:
    merged: dict[str, CheckResult] = {}
    for result in results:
        for check in result.checks:
            into = merged.setdefault(check.check_id, CheckResult(check.check_id, check.family, check.clauses,
                                                                 check.description, basis=check.basis))
            into.runs += check.runs  # the merged check is whole: `other_shards` stays False
            into.skipped += check.skipped
            into.methods |= check.methods
            into.incomplete = into.incomplete or check.incomplete
            into.not_applicable = into.not_applicable or check.not_applicable
            into.unreached += [text for text in check.unreached if text not in into.unreached]
            into.examined_methods |= check.examined_methods
            for kind, count in check.examined.items():
                into.examined[kind] = into.examined.get(kind, 0) + count
            for finding in check.findings:
                _add_finding(into.findings, finding)
    return list(merged.values())


def _add_finding(findings: list[Finding], finding: Finding) -> None:
    """The same fault seen by two shards is one finding: occurrences add up, examples are pooled."""
    for index, existing in enumerate(findings):
        if existing.key == finding.key:
            pooled = {jsonio.dumps([example.get(name) for name in ("path", "expected", "received")]): example
                      for example in existing.examples + finding.examples}
            examples = tuple(pooled.values())[:MAX_EXAMPLES]
            findings[index] = dataclasses.replace(existing, occurrences=existing.occurrences + finding.occurrences,
                                                  examples=examples, baselined=existing.baselined and finding.baselined)
            return
    findings.append(finding)


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
        answers = known.answers + observation.answers
        merged[observation.ambiguity] = Observation(known.ambiguity, known.clause, known.question,
                                                    known.observed_practice, counts, answers,
                                                    None if answers else known.reason or observation.reason)
    return sorted(merged.values(), key=lambda o: o.ambiguity)


def _shard_notes(results: Sequence[RunResult]) -> tuple[list[str], list[str]]:
    """A note on what was merged, and the numbers of the missing shards."""
    shards = [r.shard for r in results]
    if any(shard is None for shard in shards):
        return [f"merged {len(results)} reports, some of them whole runs"], []
    counts = {int(shard.split("/")[1]) for shard in shards}
    if len(counts) != 1:
        raise ConfigError(f"shards of different splits cannot merge: {', '.join(sorted(shards))}")
    count = counts.pop()
    seen = sorted({int(shard.split("/")[0]) for shard in shards})
    if len(seen) != len(shards):
        raise ConfigError(f"a shard appears twice: {', '.join(sorted(shards))}")
    missing = [str(i) for i in range(1, count + 1) if i not in seen]
    note = f"merged shards {', '.join(map(str, seen))} of {count}"
    return [note + (f"; shards {', '.join(missing)} missing: their checks are not in this report" if missing
                    else "")], missing
