"""The record of the running check: its result, the method it runs for, the failures it deferred.

The engine makes a check the running one (`enter`) for as long as its body runs, answer checks
included while they judge one answer in between, and restores the one before (`leave`): what a
check examines and defers is counted on its own result, whatever it asks meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from csi_conformance.harness.answer import Answer
from csi_conformance.harness.context.served import unless_served
from csi_conformance.harness.core.failures import CheckFailure
from csi_conformance.harness.core.model import Basis, CheckResult
from csi_conformance.harness.core.registry import REGISTRY

__all__ = ["Record", "fail"]


def fail(title: str, *, expected: Any, received: Any, answer: Answer | None = None, basis: Basis | None = None,
         clauses: tuple[str, ...] = (), path: str | None = None, kind: type[CheckFailure] = CheckFailure,
         detail: dict[str, Any] | None = None) -> None:
    """Raise the failure; `clauses` narrows the check's clauses to those this answer broke, `path`
    names the wrong member, `kind` says what kind of failure it is (a rule in words by default),
    `detail` adds facts a reader needs beside expected and received."""
    raise kind(title, expected=expected, received=received, answer=answer, basis=basis,
               method=answer.method if answer else None, clauses=clauses, path=path, detail=detail)


@dataclass
class Record:
    """The running check's record; a fork of the context starts with none."""

    current: CheckResult | None = None
    """The result of the check running now (an answer check while it judges one answer): `examined` counts there."""
    current_method: str | None = None
    last_asked: str | None = None
    """The method the running check asked last: what it examined is counted there when it names no method."""
    pending: list[CheckFailure] = field(default_factory=list)
    """Failures the running check recorded without stopping (`defer`); the engine turns them into findings."""

    def defer(self, failure: CheckFailure) -> None:
        """Record a failure and carry on: for checks that judge many independent exchanges (cases). One found in
        an answer saying its method is not served makes the check N/A instead (`served.unless_served`)."""
        self.pending.append(self.served(failure))

    def served(self, failure: CheckFailure) -> CheckFailure:
        """`failure`, unless an active check found it in an answer saying its method is not served: that check is
        then N/A (`NotApplicable` raised). An answer check still judges such an answer's envelope."""
        try:
            active = self.current is not None and REGISTRY.get(self.current.check_id).kind == "active"
        except KeyError:  # a check of another registry (the kit's own tests)
            active = False
        return unless_served(failure) if active else failure

    def examined(self, kind: str, n: int = 1, *, method: str | None = None) -> None:
        """Count what the running check really judged (answers, accounts, proofs, pages, items …).

        A check that examined nothing is SKIP, never PASS: call this after the comparison or rule
        was applied, not when a request was merely sent. What was examined is counted on `method`, else on
        the method the check runs for, else on the method it asked last (so a check of the whole target
        still says which methods it examined).
        """
        if self.current is None or n <= 0:
            return
        self.current.examined[kind] = self.current.examined.get(kind, 0) + n
        method = method or self.current_method or self.last_asked
        if method:
            self.current.examined_methods.add(method)

    @property
    def examined_anything(self) -> bool:
        return self.current is not None and bool(self.current.examined)

    def unreached(self, text: str | None = None) -> list[str]:
        """Add `text` (said with the method the check runs for) to what the running check did not reach; returns
        all it has not reached, each once."""
        if self.current is None:
            return []
        if text is not None:
            self.current.unreached.append(f"{self.current_method}: {text}" if self.current_method else text)
        return list(dict.fromkeys(self.current.unreached))

    def enter(self, result: CheckResult, method: str | None) -> tuple:
        """Make `result` the running check's (the engine calls this); returns what `leave` restores."""
        saved = (self.current, self.current_method, self.pending, self.last_asked)
        self.current, self.current_method, self.pending, self.last_asked = result, method, [], None
        return saved

    def leave(self, saved: tuple) -> list[CheckFailure]:
        """Restore the check that was running before; returns the failures the leaving check deferred."""
        deferred = self.pending
        self.current, self.current_method, self.pending, self.last_asked = saved
        return deferred
