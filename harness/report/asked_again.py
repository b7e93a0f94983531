"""The requests a run asked again alone (`core.asked_again`), as the reports show them: one console line, and
report.json's `asked_again` member.

A run that leaned on second attempts passed on answers the target gave with nothing else of the kit in
flight; the reports say which requests those were, why, and how each ended, so a reader can tell a target
that is slow under load from one that is slow.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from csi_conformance.harness.core.model import RunResult
from csi_conformance.harness.report.values import one_line
from rich.console import Console
from rich.text import Text

__all__ = ["asked_again_json", "asked_again_line", "print_asked_again"]


def asked_again_json(result: RunResult) -> list[dict[str, Any]]:
    """report.json's `asked_again`: one object per request asked again, in the order the lone attempts ended."""
    return [asked.to_json() for asked in result.asked_again]


def asked_again_line(result: RunResult) -> str | None:
    """`Asked again alone: 3 request(s) that timed out with others of the kit in flight (getValidityProof 3); 3
    answered, 0 timed out again`; None when there was none."""
    if not result.asked_again:
        return None
    methods = Counter(asked.method or asked.path for asked in result.asked_again)
    named = ", ".join(f"{method} {count}" for method, count in sorted(methods.items()))
    answered = sum(asked.answered for asked in result.asked_again)
    return (f"Asked again alone: {len(result.asked_again)} request(s) that timed out with others of the kit in "
            f"flight ({one_line(named)}); {answered} answered, {len(result.asked_again) - answered} did not: "
            "see asked_again in report.json")


def print_asked_again(console: Console, result: RunResult) -> None:
    line = asked_again_line(result)
    if line is not None:
        console.print(Text(line, style="yellow"), soft_wrap=True)
