"""How a check says what it found: raise a `CheckFailure`, or `Skip` when nothing can be examined.

A failure is a value, not a sentence: a fixed short `title` (JUnit names depend on it), the member
that is wrong (`path`), what the rule expected and what the answer held there (`expected`,
`received`: JSON values), the basis and clauses. Reports build their text from these; nothing
parses it back. Each kind of failure says what makes two of them one fault seen in several answers
(its `KIND.key`), and whether its `expected` is a value or the rule in words:

    CheckFailure           a rule broken; `expected` states the rule, in words or as a value
    ├── Mismatch           a member holds another value than the one expected (both are values)
    ├── SchemaViolation    an answer breaks the contract's schema at a member
    ├── ReadingFailure     an answer follows another reading of an open point than the one wanted
    └── DifferenceFailure  the target's answer differs from the reference's (both answers kept)

A failure is not a `CsiError`: a broken target is a finding, not an error of the kit.
"""

from __future__ import annotations

from typing import Any, ClassVar

from csi_conformance.harness.core.model import KINDS, Basis, FailureKind, Status

__all__ = ["KINDS", "CheckFailure", "DifferenceFailure", "FailureKind", "Mismatch", "NotApplicable", "ReadingFailure",
           "SchemaViolation", "Skip"]


class CheckFailure(AssertionError):
    """A rule the target broke; `basis` overrides the check's own when a sub-rule rests elsewhere.

    `status` fixes the status whatever the profile: UNVERIFIED for what the kit could not verify.
    `path` names the member that is wrong (see `Finding.path`), so a vendor knows where to look.
    `reference` is what a reference answered to the same request, when the rule compares with it;
    `response` replaces the answer's own body in the finding when what was judged is not one body
    (a list walked over several pages, merged).
    """

    kind: ClassVar[str] = "rule"

    def __init__(self, title: str, *, expected: Any, received: Any, basis: Basis | None = None, answer: Any = None,
                 method: str | None = None, clauses: tuple[str, ...] = (), status: Status | None = None,
                 path: str | None = None, detail: dict[str, Any] | None = None, reference: Any = None,
                 response: Any = None) -> None:
        self.title = title
        self.reference = reference
        self.response = response
        self.detail = dict(detail or {})
        self.path = path
        self.status = status
        self.expected = expected
        self.received = received
        self.basis = basis
        self.answer = answer
        self.method = method
        self.clauses = clauses
        super().__init__(title)


class Mismatch(CheckFailure):
    """A member holds another value than the one expected: `expected` and `received` are both values."""

    kind = "mismatch"


class SchemaViolation(CheckFailure):
    """An answer breaks the contract's schema; `received` is what the answer holds at `path`."""

    kind = "schema"


class ReadingFailure(CheckFailure):
    """An answer follows another reading of an ambiguity than the one the rule wants: `expected` maps each
    such ambiguity to the reading wanted, `received` to the readings the answer follows. One fault
    however many members show it, so findings group by the readings, not by the member."""

    kind = "reading"


class DifferenceFailure(CheckFailure):
    """A target answer that differs from the reference's: the finding shows both answers, and names the
    allowed differences applied, the open points the difference rests on and the pages walked."""

    kind = "difference"

    def __init__(self, title: str, *, reference: Any, allowed: tuple[str, ...] = (), open_points: tuple[str, ...] = (),
                 pages: tuple[int, int] | None = None, differences: int | None = None, **kwargs: Any) -> None:
        super().__init__(title, reference=reference, **kwargs)
        self.detail["allowed differences"] = list(allowed)
        if differences is not None:
            self.detail["differences"] = differences
        if open_points:
            self.detail["open points"] = list(open_points)
        if pages is not None:
            self.detail["pages walked"] = {"target": pages[0], "reference": pages[1]}


class Skip(Exception):
    """Nothing (more) to examine: no key discovered, a count the keys cannot fill; the reason is reported.

    Raised before the check examined anything, the check is SKIP; after, what it skipped is reported
    as the part of its work it did not reach (`CheckResult.not_reached`)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class NotApplicable(Skip):
    """The check cannot apply to this run's mode (a scenario check without a scenario, the mirror with one):
    the check is N/A, which says nothing of the target and never gates."""
