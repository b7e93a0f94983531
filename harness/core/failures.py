"""How a check says what it found: raise `CheckFailure`, or `Skip` when nothing can be checked.

A failure has a fixed short `title` (JUnit names and deduplication depend on it) and an
`Expected:` / `Received:` message. It is not a `CsiError`: a broken target is a finding,
not an error of the kit.
"""

from __future__ import annotations

from typing import Any

from harness.core.model import Basis, Status

__all__ = ["CheckFailure", "Skip"]


class CheckFailure(AssertionError):
    """A rule the target broke; `basis` overrides the check's own when a sub-rule rests elsewhere.

    `status` fixes the status whatever the profile: UNVERIFIED for what the kit could not verify.
    `path` names the member that is wrong (see `Finding.path`), so a vendor knows where to look.
    """

    def __init__(
        self,
        title: str,
        *,
        expected: str,
        received: str,
        basis: Basis | None = None,
        answer: Any = None,
        method: str | None = None,
        clauses: tuple[str, ...] = (),
        status: Status | None = None,
        path: str | None = None,
    ) -> None:
        self.title = title
        self.path = path
        self.status = status
        self.expected = expected
        self.received = received
        self.basis = basis
        self.answer = answer
        self.method = method
        self.clauses = clauses
        super().__init__(f"{title}\nExpected: {expected}\nReceived: {received}")

    @property
    def message(self) -> str:
        return f"Expected: {self.expected}\nReceived: {self.received}"


class Skip(Exception):
    """Nothing to examine (no key discovered, a method not applicable); the reason is reported."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)
