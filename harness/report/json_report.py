"""`report.json`: the whole run as one JSON document, in the format `report.schema.json` documents.

Every value comes from the `RunResult` as the engine built it (already redacted); the only
changes are the ones `values.jsonable` makes so that the file can be written at all. Integers
in requests and answers stay exact: the document is written with `groundwork.jsonio.dumps`.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.model import BaselineEntry, CheckResult, Finding, Observation, RunResult, Status
from csi_conformance.harness.report.asked_again import asked_again_json
from csi_conformance.harness.report.findings import reproduce, skip_reason
from csi_conformance.harness.report.values import jsonable
from csi_conformance.harness.report.write import write_atomic

__all__ = ["FORMAT_VERSION", "REPORT_NAME", "TOOL_NAME", "gate_summary", "to_json", "tool_version", "write_json"]

FORMAT_VERSION = 3
"""Raised when a field changes meaning or disappears; adding a field keeps the version. 3: `gate.passed` is
true only for a run that passed its gate (exit code 0), no longer for any run without a blocking finding."""
TOOL_NAME = "csi-conformance"
REPORT_NAME = "report.json"
_EXCHANGE_DEPTH = jsonio.MAX_DEPTH - 3
"""Requests and responses sit three levels down (report, findings, finding): the file stays readable."""


def tool_version() -> str:
    """The installed kit's version, or `unknown` when run from a tree that was never installed."""
    try:
        return version(TOOL_NAME)
    except PackageNotFoundError:
        return "unknown"


def gate_summary(result: RunResult, threshold: Status = Status.FAIL) -> dict[str, Any]:
    """The CI verdict: passed only when the run passed its gate (conformant, exit code 0: never for a run not
    run, inconclusive or interrupted), how many findings block, the verdict and the exit code `csi run` ends with."""
    code = result.exit_code(threshold)
    return {"threshold": threshold.value, "passed": code == 0, "blocking": len(result.blocking(threshold)),
            "verdict": result.verdict(threshold), "exit_code": code,
            "kit_errors": len(result.kit_errors())}


def to_json(result: RunResult, *, gate: Status = Status.FAIL) -> dict[str, Any]:
    """The run as plain JSON values, ready for `jsonio.dumps`."""
    return jsonable({
        "format_version": FORMAT_VERSION,
        "tool": {"name": TOOL_NAME, "version": tool_version()},
        "target": result.target,
        "target_name": result.target_name,
        "target_version": result.target_version,
        "ledger": result.ledger,
        "seed": result.seed,
        "profile": result.profile,
        "spec_version": result.spec_version,
        "started": result.started,
        "duration": round(result.duration, 3),
        "requests": result.requests,
        "throttled": result.throttled,
        "interrupted": result.interrupted,
        "stopped": result.stopped,
        "asked_again": asked_again_json(result),
        "precondition": result.precondition,
        "error": result.error,
        "inconclusive": list(result.inconclusive),
        "notes": [note for note in result.notes],
        "summary": {"checks": result.counts(), "findings": _finding_counts(result.findings)},
        "gate": gate_summary(result, gate),
        "discovered": {kind: list(keys) for kind, keys in sorted(result.discovered.items())},
        "checks": [_check(check) for check in result.checks],
        "findings": [_finding(finding, result.target) for finding in result.findings],
        "observations": [_observation(observation) for observation in result.observations],
        "scenario": result.scenario,
        "shard": result.shard,
        "baseline": _baseline(result),
    })


def write_json(result: RunResult, directory: Path, *, gate: Status = Status.FAIL) -> Path:
    """Write `report.json` into `directory` atomically and return its path."""
    path = Path(directory) / REPORT_NAME
    write_atomic(path, jsonio.dumps(to_json(result, gate=gate)) + "\n")
    return path


def _finding_counts(findings: list[Finding]) -> dict[str, int]:
    tally = {status.value: 0 for status in Status}
    for finding in findings:
        tally[finding.status.value] += 1
    return tally


def _check(check: CheckResult) -> dict[str, Any]:
    return {
        "id": check.check_id,
        "family": check.family,
        "clauses": list(check.clauses),
        "description": check.description,
        "basis": check.basis.value,
        "basis_label": check.basis.label,
        "status": check.status.value,
        "runs": check.runs,
        "skip_reason": skip_reason(check),
        "skips": sorted(set(check.skipped)),
        "other_shards": check.other_shards,
        "not_reached": check.not_reached,
        "methods": sorted(check.methods),
        "examined": dict(sorted(check.examined.items())),
        "examined_methods": sorted(check.examined_methods),
        "incomplete": check.incomplete,
        "findings": len(check.findings),
    }


def _finding(finding: Finding, target: str) -> dict[str, Any]:
    """One finding as JSON values; request and response are kept as the target's JSON."""
    return {
        "check_id": finding.check_id,
        "title": finding.title,
        "status": finding.status.value,
        "basis": finding.basis.value,
        "basis_label": finding.basis.label,
        "clauses": list(finding.clauses),
        "method": finding.method,
        "kind": finding.kind,
        "path": finding.path,
        "expected": jsonable(finding.expected, _EXCHANGE_DEPTH),
        "received": jsonable(finding.received, _EXCHANGE_DEPTH),
        "detail": jsonable(finding.detail, _EXCHANGE_DEPTH),
        "request": jsonable(finding.request, _EXCHANGE_DEPTH),
        "response": jsonable(finding.response, _EXCHANGE_DEPTH),
        "http_status": finding.http_status,
        "curl": reproduce(finding, target),
        "seed": finding.seed,
        "reference_response": jsonable(finding.reference_response, _EXCHANGE_DEPTH),
        "baselined": finding.baselined,
        "occurrences": finding.occurrences,
        "examples": [jsonable(example, _EXCHANGE_DEPTH - 1) for example in finding.examples],
    }


def _baseline(result: RunResult) -> dict[str, Any] | None:
    if result.baseline is None:
        return None
    return {"entries": len(result.baseline), "baselined": sum(1 for f in result.findings if f.baselined),
            "stale": [_entry(entry) for entry in result.stale_baseline]}


def _entry(entry: BaselineEntry) -> dict[str, Any]:
    return {"check": entry.check, "method": entry.method, "title": entry.title}


def _observation(observation: Observation) -> dict[str, Any]:
    return {
        "ambiguity": observation.ambiguity,
        "clause": observation.clause,
        "question": observation.question,
        "observed_practice": observation.observed_practice,
        "counts": dict(observation.counts),
        "answers": observation.answers,
        "readings": list(observation.readings),
        "reason": observation.reason,
    }
