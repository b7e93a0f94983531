"""`junit.xml`: the run as JUnit XML, one test suite per family and one test case per check.

How statuses map, so that CI systems show every finding but fail only on the gate:

| check status                        | JUnit                                                        |
|-------------------------------------|--------------------------------------------------------------|
| at or above the gate (FAIL default) | `<failure message="title" type="FAIL">`: the findings, curl  |
| ERROR (the kit failed on the check) | `<error message="title" type="ERROR">`: an error of the kit, |
|                                     | not of the target                                            |
| below the gate (WARN, AMBIGUOUS, INFO, | a passing test case; findings in `<system-out>`, and      |
| UNVERIFIED)                         | `status` and `finding` properties on the test case           |
| SKIP, N/A (cannot apply to the mode) | `<skipped message="reason">` (`not applicable: reason`)    |
| PASS                                | a plain test case                                            |

A last suite, `csi`, holds one test case for the run as a whole, `verdict`: a `<failure>` when the run
is not conformant, an `<error>` when it proved nothing (it did not start, was interrupted, stopped
asking, spent its budget or met an error of the kit), so a dashboard never shows such a run green.

Findings below the gate in a failing test case also go to `<system-out>`. One fault seen in many
answers is one finding, with its count and a few other examples. Text is made XML-safe
(`values.xml_text`) because answers can carry characters XML 1.0 cannot hold.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

from csi_conformance.harness.core.model import CheckResult, Finding, RunResult, Status
from csi_conformance.harness.core.registry import FAMILIES
from csi_conformance.harness.report.asked_again import asked_again_line
from csi_conformance.harness.report.findings import (
    KIT_ERROR_NOTE,
    example_line,
    occurrences_note,
    reproduce,
    shown,
    skip_reason,
    verdict_counts,
    verdict_reasons,
)
from csi_conformance.harness.report.values import one_line, xml_text
from csi_conformance.harness.report.write import write_atomic

__all__ = ["JUNIT_NAME", "build_junit", "finding_text", "write_junit"]

JUNIT_NAME = "junit.xml"


def write_junit(result: RunResult, directory: Path, *, gate: Status = Status.FAIL) -> Path:
    """Write `junit.xml` into `directory` atomically and return its path."""
    root = build_junit(result, gate=gate)
    ET.indent(root)
    path = Path(directory) / JUNIT_NAME
    write_atomic(path, ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n")
    return path


def build_junit(result: RunResult, *, gate: Status = Status.FAIL) -> ET.Element:
    """The `<testsuites>` element of a run."""
    by_family: dict[str, list[CheckResult]] = defaultdict(list)
    for check in result.checks:
        by_family[check.family].append(check)
    order = [family for family in FAMILIES if family in by_family]
    order += sorted(family for family in by_family if family not in FAMILIES)
    root = ET.Element("testsuites", name="csi-conformance", time=f"{result.duration:.3f}")
    for family in order:
        root.append(_suite(result, family, by_family[family], gate))
    root.append(_verdict_suite(result, gate))
    _count(root, root.findall("testsuite"))
    return root


VERDICT = "verdict"
"""The test case that carries the run's verdict (`csi.verdict`), as the pytest plugin's `csi::verdict`."""


def _verdict_suite(result: RunResult, gate: Status) -> ET.Element:
    """One test case for the run as a whole: it fails unless `csi run` would exit 0, so a run that proved
    nothing (did not start, was interrupted, stopped asking, spent its budget) never shows green."""
    suite = ET.Element("testsuite", name="csi")
    stamp = _timestamp(result.started)
    if stamp:
        suite.set("timestamp", stamp)
    case = ET.SubElement(suite, "testcase", classname="csi", name=VERDICT)
    code = result.exit_code(gate)
    if code != 0:
        word = result.verdict(gate)
        element = ET.SubElement(case, "error" if code in (2, 3, 4, 130) else "failure", type=word.upper(),
                                message=xml_text(f"{word} (csi run would exit {code})"))
        element.text = xml_text("\n".join([verdict_counts(result, gate), *verdict_reasons(result, gate)]))
    asked = asked_again_line(result)
    if asked is not None:  # a verdict that leaned on lone second attempts says so, green or not
        ET.SubElement(case, "system-out").text = xml_text(asked)
    _count(suite, [suite])
    return suite


def _suite(result: RunResult, family: str, checks: list[CheckResult], gate: Status) -> ET.Element:
    suite = ET.Element("testsuite", name=f"csi.{family}")
    stamp = _timestamp(result.started)
    if stamp:
        suite.set("timestamp", stamp)
    properties = ET.SubElement(suite, "properties")
    for name, value in (("target", result.target), ("profile", result.profile), ("seed", result.seed),
                        ("spec_version", result.spec_version), ("gate", gate.value),
                        ("interrupted", str(result.interrupted).lower())):
        ET.SubElement(properties, "property", name=name, value=xml_text(value))
    for check in checks:
        suite.append(_case(check, family, gate, result.target))
    _count(suite, [suite])
    return suite


def _timestamp(started: str) -> str | None:
    """The start in UTC without an offset, as the Ant JUnit schema wants it; None when unreadable."""
    try:
        moment = datetime.fromisoformat(started)
    except ValueError:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="seconds")


def _count(element: ET.Element, suites: list[ET.Element]) -> None:
    cases = [case for suite in suites for case in suite.findall("testcase")]
    element.set("tests", str(len(cases)))
    element.set("failures", str(sum(1 for case in cases if case.find("failure") is not None)))
    element.set("errors", str(sum(1 for case in cases if case.find("error") is not None)))
    element.set("skipped", str(sum(1 for case in cases if case.find("skipped") is not None)))


def _case(check: CheckResult, family: str, gate: Status, target: str) -> ET.Element:
    case = ET.Element("testcase", classname=f"csi.{family}", name=check.check_id)
    status = check.status
    if status is Status.SKIP:
        ET.SubElement(case, "skipped", message=xml_text(skip_reason(check) or "not run"))
        return case
    if status is Status.NOT_APPLICABLE:
        ET.SubElement(case, "skipped", message=xml_text(f"not applicable: {skip_reason(check)}"))
        return case
    blocking = [f for f in check.findings if f.status.rank >= gate.rank and not f.baselined
                and f.status not in (Status.ERROR, Status.UNVERIFIED)]
    errors = [f for f in check.findings if f.status is Status.ERROR]
    rest = [f for f in check.findings if f not in blocking and f not in errors]
    if blocking:
        _outcome(case, "failure", blocking, Status.worst(f.status for f in blocking).value, target)
    elif errors:
        _outcome(case, "error", errors, Status.ERROR.value, target, f" ({KIT_ERROR_NOTE})")
        errors = []
    if check.findings:
        _properties(case, check)
    out = [finding_text(f, target) for f in errors + rest]
    if check.not_reached:
        out.append("\n".join(["partial: what this check did not reach:", *check.not_reached]))
    if out:
        ET.SubElement(case, "system-out").text = xml_text("\n\n".join(out))
    return case


def _outcome(case: ET.Element, tag: str, findings: list[Finding], kind: str, target: str, note: str = "") -> None:
    titles = list(dict.fromkeys(f.title for f in findings))
    message = titles[0] + (f" (+{len(titles) - 1} more)" if len(titles) > 1 else "") + note
    element = ET.SubElement(case, tag, message=xml_text(message), type=kind)
    element.text = xml_text("\n\n".join(finding_text(f, target) for f in findings))


def _properties(case: ET.Element, check: CheckResult) -> None:
    properties = ET.Element("properties")
    ET.SubElement(properties, "property", name="status", value=check.status.value)
    ET.SubElement(properties, "property", name="clauses", value=" ".join(check.clauses))
    for finding in check.findings:
        where = f" ({finding.method})" if finding.method else ""
        ET.SubElement(properties, "property", name="finding",
                      value=xml_text(f"{finding.status.value}: {finding.title}{where}"))
    case.insert(0, properties)


def finding_text(finding: Finding, target: str = "") -> str:
    """A finding as plain text lines: status and title, where, the wrong member, both values, how often,
    and how to reproduce it (from `target` when the engine recorded no curl line)."""
    view = shown(finding)
    count = occurrences_note(finding)
    lines = [f"[{finding.status.value}] {finding.title}" + (f" ({count})" if count else "")
             + (f" — {KIT_ERROR_NOTE}" if finding.status is Status.ERROR else ""),
             f"check: {finding.check_id}  method: {finding.method or '-'}  clauses: {' '.join(finding.clauses)}",
             f"basis: {finding.basis.label}"]
    if view.path:
        lines.append(f"Member: {view.path}")
    lines += [f"Expected: {view.expected}", f"Received: {view.received}", *view.detail]
    if finding.http_status is not None:
        lines.append(f"HTTP status: {finding.http_status}")
    repro = reproduce(finding, target)
    lines.append(f"Reproduce: {repro}" if repro else "Reproduce: not tied to one request")
    if finding.seed is not None:
        lines.append(f"Seed: {finding.seed}")
    for example in finding.examples:
        lines.append(f"Also: {one_line(example_line(finding, example))}"
                     + (f"  (reproduce: {example['curl']})" if example.get("curl") else ""))
    return "\n".join(lines)
