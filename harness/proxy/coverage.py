"""What the app's traffic reached: the methods it called, the params it gave, the clauses judged, the methods the
contract lacks (with the official client releases known to call each, `callers`). A report of `csi proxy` says it,
so that a clean verdict is read for what was exercised only."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from csi_conformance.harness.core.model import CheckResult
from csi_conformance.harness.proxy.callers import callers
from csi_conformance.schema import Contract

__all__ = ["Reached"]


@dataclass
class Reached:
    """Counts of what the traffic touched, by method."""

    contract: Contract
    methods: Counter = field(default_factory=Counter)
    params: dict[str, Counter] = field(default_factory=dict)
    lacking: Counter = field(default_factory=Counter)
    """Methods called that the contract does not hold."""

    def saw(self, method: str, params: Any) -> None:
        if method not in self.contract.methods:
            self.lacking[method] += 1
            return
        self.methods[method] += 1
        names = self.params.setdefault(method, Counter())
        if isinstance(params, dict):
            names.update(list(params))
        elif isinstance(params, list):
            names[f"[{len(params)} positional]"] += 1

    def clauses(self, checks: Iterable[CheckResult]) -> list[str]:
        """The clauses of the methods called and of the checks that judged something of the traffic."""
        rows = {method.clause for method in self.contract.methods.values()}
        found = {self.contract.methods[name].clause for name in self.methods}
        for check in checks:
            if check.examined_total or check.findings:  # a method's row only when the traffic called it
                found.update(clause for clause in check.clauses if clause not in rows or clause in found)
        return sorted(found)

    def summary(self, checks: Iterable[CheckResult]) -> dict[str, Any]:
        """The traffic's reach as JSON (`traffic.json` beside the reports)."""
        return {
            "methods": dict(sorted(self.methods.items())),
            "params": {method: dict(sorted(names.items())) for method, names in sorted(self.params.items())},
            "clauses": self.clauses(checks),
            "not_in_contract": {method: {"calls": count, "clients": callers(method)}
                                for method, count in sorted(self.lacking.items())},
            "never_called": sorted(set(self.contract.methods) - set(self.methods)),
        }

    def notes(self, checks: Iterable[CheckResult]) -> list[str]:
        """The same in a few lines, for the reports' notes."""
        called = ", ".join(f"{m} ×{n}" for m, n in sorted(self.methods.items())) or "none"
        given = "; ".join(f"{m}({', '.join(sorted(names))})" for m, names in sorted(self.params.items()) if names)
        lines = [f"traffic: methods called: {called}", f"traffic: params given: {given or 'none'}",
                 f"traffic: clauses reached: {', '.join(self.clauses(checks)) or 'none'}"]
        if self.lacking:
            lines.append("traffic: methods called that the contract lacks: "
                         + "; ".join(f"{m} ×{n} ({_called_by(m)})" for m, n in sorted(self.lacking.items())))
        return lines


def _called_by(method: str) -> str:
    known = callers(method)
    return f"called by {', '.join(known)}" if known else "no known client release calls it"
