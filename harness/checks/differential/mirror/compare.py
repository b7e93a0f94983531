"""The mirror checks' machinery: the run's mirror, both sides of a list, findings over many keys.

A live target moves while it is checked: before a difference in an owner's list or balance is
reported, the owner's list is asked again, and an owner whose list changed since discovery is
skipped rather than reported (`compare_owner`).

Every comparison recorded through `Findings.add` counts as examined (`ctx.examined`), with the
kind and number of things compared; a key skipped (moved, no end in reach) counts nothing, so a
mirror check that compared nothing ends SKIP, never PASS.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from csi_conformance.harness.checks.differential.mirror import MirrorBuild, MirrorSession, build_mirror
from csi_conformance.harness.checks.differential.mirror.views import differences, keyed, what_differs
from csi_conformance.harness.context import Answer, CheckContext, MemoKey
from csi_conformance.harness.context.served import unless_served
from csi_conformance.harness.core.failures import CheckFailure, NotApplicable, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import BODY, result_value
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.discover import LIST_LIMIT
from csi_conformance.harness.judging.compare import differences as body_differences
from csi_conformance.harness.judging.compare import json_path
from csi_conformance.harness.judging.pages import partly
from csi_conformance.harness.judging.samples import fetch_all, item_key, items_of

__all__ = ["KEYS_COMPARED", "Findings", "Mirror", "both", "compare_owner", "compared", "mirror_of", "moved", "pair",
           "started_mirror"]

SHOWN_LINES = 4
"""Differences with the mirror a finding lists; the count of all of them is in its detail."""
KEYS_COMPARED = 4
"""Owners, token owners, delegates and addresses compared per check, at most."""
MIRROR_PAGES = 1000


class Mirror:
    """The run's mirror: what was built from discovery, and the session serving it."""

    def __init__(self, build: MirrorBuild, api: str | None = None) -> None:
        self.build = build
        self.session = MirrorSession(build.document, api)

    def value(self, method: str, params: Any) -> Any:
        return self.session.value(method, params)

    def walk(self, ctx: CheckContext, method: str, params: dict) -> list:
        """Every item of one of the mirror's lists."""
        spec, items, cursor = ctx.method(method), [], None
        for _ in range(MIRROR_PAGES):
            value = self.value(method, {**params, "limit": LIST_LIMIT, **({"cursor": cursor} if cursor else {})})
            batch = items_of(spec, value) or []
            items += batch
            cursor = value.get(spec.pagination.cursor)
            if cursor is None or not batch:
                return items
        raise RuntimeError(f"the mirror's {method} list for {params} does not end")


MIRROR: MemoKey[Mirror] = MemoKey("mirror")
"""The run's mirror (`started_mirror`)."""


def started_mirror(ctx: CheckContext) -> Mirror:
    """The run's mirror, built from the discovered keys on first use; stopped when the run has
    judged every check (it drops the context that started it). With `--scenario` the target's data is known, and
    the scenario differential (differential.cases, differential.generated) replaces the mirror."""
    if ctx.has_reference:
        raise NotApplicable(f"scenario {ctx.facts.scenario} given: the target is compared with the reference over it "
                            "instead")

    def start(ctx: CheckContext) -> Mirror:  # its context lives until the run has judged every check
        mirror = Mirror(build_mirror(ctx.keys), ctx.contract.version)
        weakref.finalize(ctx, mirror.session.close)
        mirror.session.start()
        return mirror

    return ctx.once(MIRROR, start)


def mirror_of(ctx: CheckContext) -> Mirror:
    """The running mirror, or `Skip` when there is nothing to compare with."""
    mirror = started_mirror(ctx)
    if mirror.session.error:
        raise Skip(f"no mirror: {mirror.session.error[:300]}")
    if not mirror.build.to_target:
        raise Skip(_nothing_held(mirror.build))
    return mirror


def _nothing_held(build: MirrorBuild) -> str:
    if build.dropped:
        return f"the mirror could hold none of the accounts discovered ({build.dropped[0]}, …)"
    return "no account discovered to mirror"


class Findings:
    """Differences collected over the keys a check compares; reported together, once."""

    def __init__(self, ctx: CheckContext) -> None:
        self.ctx = ctx
        self.lines: list[str] = []
        self.answer: Answer | None = None
        self.reference: Any = None
        self.moved: list[str] = []
        self.skipped: list[str] = []
        self.compared = 0
        self.basis = Basis.OBSERVED
        self.method: str | None = None
        """The method of the first difference, to name the list it lies in when no one answer shows it."""

    @contextlib.contextmanager
    def each(self) -> Iterator[None]:
        """One key's comparison: a key that cannot be compared (a list without end) skips only itself."""
        try:
            yield
        except Skip as skip:
            self.skipped.append(skip.reason)
        else:
            self.compared += 1

    def add(self, what: str, found: list[str], answer: Answer | None = None, basis: Basis = Basis.SPEC,
            reference: Any = None, *, kind: str, n: int = 1, method: str | None = None) -> None:
        """Differences about one key, after comparing `n` things of `kind` (an empty list compared is
        one list); `answer` and the mirror's `reference` value show the first difference."""
        if found and answer is not None:
            unless_served(CheckFailure(what, expected=None, received=None, answer=answer))  # N/A: not served
        self.ctx.examined(kind, n, method=method or (answer.method if answer else None))
        if found:
            self.lines += [f"{what}: {line}" for line in found]
            if self.answer is None and answer is not None:
                self.answer, self.reference = answer, reference
            self.method = self.method or method or (answer.method if answer else None)
            self.basis = Basis.SPEC if basis is Basis.SPEC else self.basis

    def _member(self) -> str:
        """Where the first difference lies: in its answer, or (a list walked over pages) in the list."""
        if self.answer is None and self.method and self.ctx.method(self.method).paginated:
            return result_value(self.ctx.method(self.method).pagination.items)
        return differing_member(self.answer, self.reference)

    def report(self, title: str, compared: str) -> None:
        """Fail with every difference; skip when no key could be compared; note the keys that moved."""
        if self.moved:
            keys = ", ".join(self.moved[:3]) + (" and more" if len(self.moved) > 3 else "")
            partly(self.ctx, f"the target's state moved during the run for {keys}, so the comparison of {compared} "
                             "left them out")
        if self.lines:
            raise CheckFailure(title, reference=self.reference, expected=f"what the mirror answers for {compared}",
                               received=clip(self.lines, items=SHOWN_LINES), answer=self.answer, basis=self.basis,
                               method=self.answer.method if self.answer else self.method, path=self._member(),
                               detail={"differences": len(self.lines)})
        if not self.compared and self.moved:
            raise Skip(f"the target's state moved since discovery for {', '.join(self.moved[:3])}")
        if not self.compared and self.skipped:
            raise Skip(self.skipped[0])


def moved(ctx: CheckContext, owner: str, *, token: bool) -> bool:
    """Whether the owner's list differs from the one discovery saw: the target moved on."""
    if token:
        method = "getCompressedTokenAccountsByOwner"
        seen = {h for h, item in ctx.keys.token_accounts.items() if (item.get("tokenData") or {}).get("owner") == owner}
    else:
        method = "getCompressedAccountsByOwner"
        seen = {h for h, account in ctx.keys.accounts.items() if account.get("owner") == owner}
    now = items_of(ctx.method(method), ctx.call(method, {"owner": owner, "limit": LIST_LIMIT}).value)
    return now is None or {item_key(item) for item in now} != seen


def compare_owner(found: Findings, what: str, owner: str, lines: list[str], answer: Answer | None = None,
                  *, token: bool, basis: Basis = Basis.SPEC, reference: Any = None, kind: str, n: int = 1,
                  method: str | None = None) -> None:
    """Record differences about one owner, unless the owner's list moved since discovery: a live
    target is asked again before it is failed, and fails only if the contradiction persists."""
    if lines and moved(found.ctx, owner, token=token):
        found.moved.append(owner)
        raise Skip(f"the target's state moved since discovery for {owner}")
    found.add(what, lines, answer, basis, reference, kind=kind, n=n, method=method)


def differing_member(answer: Answer | None, reference: Any) -> str:
    """The JSON path of the first member where the target's answer differs from the mirror's value
    (the value itself, or the list or object under it the mirror's value stands for)."""
    if answer is None:
        return BODY
    value, where = answer.value, result_value()
    if isinstance(value, dict) and not isinstance(reference, dict):
        key = next((k for k, v in value.items() if isinstance(v, list) and isinstance(reference, list)), None)
        if key is not None:
            value, where = value[key], result_value(key)
    return where + json_path(body_differences(value, reference))[1:]


def pair(mirror: Any, target: Any) -> list[str]:
    return [] if mirror == target else [what_differs(mirror, target)]


def compared(keys: list[str], what: str) -> list[str]:
    if not keys:
        raise Skip(f"no {what} whose whole list discovery saw")
    return keys[:KEYS_COMPARED]


def both(ctx: CheckContext, mirror: Mirror, method: str, params: dict, view: Callable[..., Any],
         page: int = LIST_LIMIT, keep: Callable[[Any], bool] = lambda _: True) -> tuple[list[str], int]:
    """Differences between the mirror's list and the target's (walked `page` items a page), as
    sets of the views `keep` retains, and how many items the two sets hold together."""
    mirrored = keyed(filter(keep, (view(item, mirror.build.to_target) for item in mirror.walk(ctx, method, params))))
    walked = fetch_all(ctx, ctx.method(method), params, page=page, max_pages=LIST_LIMIT // page + 2)
    target = keyed(filter(keep, (view(item) for item in walked)))
    return differences(mirrored, target), len(mirrored.keys() | target.keys())
