"""What examined nothing, as report.html's verdict banner says it: the SKIP checks by reason, the N/A ones folded.

The banner is where a reader decides how far to trust the verdict, so it says how many checks examined
nothing and why, each reason once with links to its checks' rows in the catalogue (`CHECK_ANCHOR`); a run
in which every check that could apply examined something says that too. The facts of the run add what the
checks of batched trees examined, when the target holds some.
"""

from __future__ import annotations

from csi_conformance.harness.core.model import RunResult, Status
from csi_conformance.harness.report.markup import anchor, escape
from csi_conformance.harness.report.unexamined import Unexamined, batched_coverage, examined_words, unexamined_groups

__all__ = ["CHECK_ANCHOR", "batched_fact", "check_anchor", "unexamined_banner"]

CHECK_ANCHOR = "check"
"""Prefix of the id of a check's row in the catalogue of checks."""
SHOWN_REASON = 200
"""Characters of a reason the banner shows; the catalogue's Note column holds all of it."""
CSS = """
.banner a{color:#fff;text-decoration:underline}.banner ul.why{font-size:.92em;margin:.2em 0 .4em}
.banner details{margin:.3em 0 0}.banner summary{cursor:pointer}#checks tr:target{background:#fff3b0}
"""
"""The banner's links and reason lists, white on the verdict's colour; the catalogue's row a link leads to."""


def check_anchor(check_id: str) -> str:
    return anchor(CHECK_ANCHOR, check_id)


def unexamined_banner(result: RunResult) -> str:
    """The SKIP checks grouped by reason (or that there are none), then the N/A ones under a fold; nothing for a
    run without checks."""
    if not result.checks:
        return ""
    skipped = unexamined_groups(result, Status.SKIP)
    if skipped:
        count = sum(len(group.checks) for group in skipped)
        parts = [f'<p id="unexamined"><strong>{_checks(count)} examined nothing</strong> (SKIP): '
                 f'{"it" if count == 1 else "they"} could apply, and certify nothing. Why:</p>', _reasons(skipped)]
    else:
        parts = ['<p id="unexamined">Every check that could apply examined something: 0 SKIP.</p>']
    not_applicable = unexamined_groups(result, Status.NOT_APPLICABLE)
    if not_applicable:
        count = sum(len(group.checks) for group in not_applicable)
        parts.append(f"<details><summary>{_checks(count)} cannot apply to this run's mode (N/A)</summary>"
                     f"{_reasons(not_applicable)}</details>")
    return "".join(parts)


def _checks(count: int) -> str:
    return f"{count} check{'s' if count != 1 else ''}"


def _reasons(groups: list[Unexamined]) -> str:
    items = "".join(f"<li>{escape(_cut(group.reason))}: {_links(group.checks)}</li>" for group in groups)
    return f'<ul class="why">{items}</ul>'


def _links(check_ids: tuple[str, ...]) -> str:
    return ", ".join(f'<a href="#{check_anchor(check)}">{escape(check)}</a>' for check in check_ids)


def _cut(reason: str) -> str:
    return reason if len(reason) <= SHOWN_REASON else reason[: SHOWN_REASON - 1] + "…"


def batched_fact(result: RunResult) -> str | None:
    """`1 on the target; crypto.batched-accounts: accounts 2 (PASS), …` with links, when the target holds
    batched trees or a check of them examined something; None otherwise."""
    batched = batched_coverage(result)
    if batched is None:
        return None
    trees = f"{batched.trees} on the target; " if batched.trees else ""
    checks = ", ".join(f'<a href="#{check_anchor(check.check_id)}">{escape(check.check_id)}</a>: '
                       f"{escape(examined_words(check))} ({escape(check.status.value)})" for check in batched.checks)
    return f"{escape(trees)}what their checks examined: {checks}"
