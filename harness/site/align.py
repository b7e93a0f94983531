"""Reports lined up: runs compare only when one kit judged them by one contract over one ledger.

A matrix that put a run over one scenario beside a run over a real chain, or a run of one kit version
beside another's, would show differences no target made. So each report is read (an unknown format is
refused with one line), and the runs fall into groups by kit version, contract and ledger; a group is
shown on its own, never mixed with another.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.model import RunResult
from csi_conformance.harness.report.json_report import REPORT_NAME
from csi_conformance.harness.report.merge import load_report

__all__ = ["BUNDLED", "Group", "Run", "align", "read_runs", "version_key"]

BUNDLED = "bundled reference"
"""How a report names a target that is the kit's own reference (`csi run` with no `--target`)."""


def version_key(version: str) -> tuple:
    """Declared versions in the order people read them: `1.10` after `1.9`; no version first."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", version))


@dataclass(frozen=True)
class Run:
    """One report: its run, and the kit that wrote it."""

    result: RunResult
    kit: str
    source: str
    """The file it was read from, as given: only to tell two equal runs apart in a stable order."""

    @property
    def name(self) -> str:
        return self.result.target_name or self.result.target

    @property
    def version(self) -> str:
        return self.result.target_version or ""

    @property
    def order(self) -> tuple:
        return (self.name, version_key(self.version), self.result.started, self.source)


@dataclass
class Group:
    """Runs that line up: one kit version, one contract, one ledger."""

    kit: str
    contract: str
    ledger: str | None
    runs: list[Run] = field(default_factory=list)

    @property
    def title(self) -> str:
        return f"contract {self.contract} · ledger {self.ledger or 'each target’s own data'} · kit {self.kit}"

    @property
    def key(self) -> str:
        return f"{self.contract}|{self.ledger or ''}|{self.kit}"

    def targets(self) -> list[str]:
        return sorted({run.name for run in self.runs})

    def history(self, name: str) -> list[Run]:
        """A target's runs, oldest version first."""
        return sorted((run for run in self.runs if run.name == name), key=lambda run: run.order)

    def latest(self) -> dict[str, RunResult]:
        """Each target's run at its latest version: what the matrix shows."""
        return {name: self.history(name)[-1].result for name in self.targets()}

    def reference(self, name: str | None) -> str | None:
        """The target that is the reference: `name` when given and present, else the bundled reference."""
        names = self.targets()
        if name is not None:
            return name if name in names else None
        return next((run.name for run in sorted(self.runs, key=lambda r: r.order)
                     if run.result.target.startswith(BUNDLED)), None)


def read_runs(paths: Sequence[Path]) -> list[Run]:
    """Every report, read and checked; `ConfigError` (one line) for the first that is not one."""
    runs = []
    for path in paths:
        result = load_report(path)
        file = Path(path) / REPORT_NAME if Path(path).is_dir() else Path(path)
        tool = jsonio.loads(file.read_bytes()).get("tool", {})
        runs.append(Run(result, str(tool.get("version", "unknown")), str(path)))
    return runs


def align(runs: Sequence[Run]) -> list[Group]:
    """The runs in groups that line up, each group's runs sorted, the groups by contract, ledger and kit."""
    groups: dict[tuple, Group] = {}
    for run in runs:
        key = (run.result.spec_version, run.result.ledger or "", run.kit)
        group = groups.setdefault(key, Group(run.kit, run.result.spec_version, run.result.ledger))
        group.runs.append(run)
    for group in groups.values():
        group.runs.sort(key=lambda run: run.order)
    return [groups[key] for key in sorted(groups)]
