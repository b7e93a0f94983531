"""What the consistency checks share: every discovered key within a request bound, whole lists,
filtered walks over several small pages, and re-reading a live target before failing.

A live indexer moves while it is checked: an account seen at discovery may be consumed by the
time a check asks about it. Before a check fails on such state it asks again (`still_live`,
or the comparison itself read twice) and reports only a contradiction that persists; what
moved is said in the run's notes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.failures import CheckFailure, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.discover import LIST_LIMIT
from csi_conformance.harness.judging.answers import defer_refused
from csi_conformance.harness.judging.pages import Budget, Walk, item_key, partly, walk_pages

__all__ = ["WHOLE_PAGES", "SignatureLists", "defer", "each", "keys_of", "listed", "listed_now", "read_twice",
           "small_walk", "still_live", "whole_list"]

WHOLE_PAGES = 20
"""Pages of `LIST_LIMIT` items read for a list a check needs whole; a longer one is not compared."""
SIGNATURE_PAGES = 50
"""Pages of `LIST_LIMIT` signatures walked looking for one signature before it counts as not reached."""
SMALL_PAGES = 3
"""A filtered list is walked over at least this many pages (when it has that many items)."""


def keys_of(ctx: CheckContext, kind: str) -> list[str]:
    """Every discovered key of `kind`; `Skip` when there is none."""
    values = list(ctx.keys[kind])
    if not values:
        raise Skip(f"no {kind} discovered")
    return values


def each(ctx: CheckContext, keys: list, budget: Budget, what: str, cost: int = 2) -> Iterator[Any]:
    """The keys, while the budget leaves `cost` requests; says in the notes how many it reached."""
    for done, key in enumerate(keys):
        if budget.left < cost:
            partly(ctx, f"request bound of {budget.requests} reached after {done} of {len(keys)} {what}")
            return
        yield key


def defer(ctx: CheckContext, title: str, *, expected: Any, received: Any, path: str, answer: Answer | None = None,
          basis: Basis | None = None, method: str | None = None, kind: type[CheckFailure] = CheckFailure) -> None:
    """Record a failure about one key and carry on with the others; `path` names the wrong member."""
    ctx.defer(kind(title, expected=expected, received=received, answer=answer, basis=basis,
                   method=answer.method if answer else method, path=path))


def whole_list(ctx: CheckContext, method: str, params: dict, budget: Budget) -> list | None:
    """Every item of a list, or None when it has no end within the bound (it is then not compared) or a page of
    it was refused (a finding: the request was valid)."""
    walk = walk_pages(ctx, ctx.method(method), params, size=LIST_LIMIT, max_pages=budget.pages(WHOLE_PAGES))
    defer_refused(ctx, walk.broken)
    return walk.items if walk.complete() else None


def small_walk(ctx: CheckContext, method: str, params: dict, expected: int, budget: Budget) -> Walk:
    """A walk over at least `SMALL_PAGES` pages of a list expected to hold `expected` items:
    a filter or slice dropped on later pages shows there."""
    size = max(1, expected // SMALL_PAGES)
    walk = walk_pages(ctx, ctx.method(method), params, size=size, max_pages=budget.pages(expected // size + 3))
    defer_refused(ctx, walk.broken)
    return walk


def still_live(ctx: CheckContext, account_hash: str) -> bool:
    """Whether the account is still there now (a live target may have consumed it since discovery):
    found by hash, or still in its (token) owner's list. The list is asked too, so that a target
    whose lookup by hash loses live accounts is not excused as one that moved."""
    if ctx.call("getCompressedAccount", {"hash": account_hash}).value is not None or listed_now(ctx, account_hash):
        return True
    partly(ctx, f"account {account_hash} was consumed since discovery, so it was not compared")
    return False


def listed_now(ctx: CheckContext, account_hash: str) -> bool:
    """Whether the account is in its (token) owner's list now (walked up to `WHOLE_PAGES` pages)."""
    token = ctx.keys.token_accounts.get(account_hash)
    account = ctx.keys.accounts.get(account_hash)
    if token is not None:
        method, params = "getCompressedTokenAccountsByOwner", {"owner": (token.get("tokenData") or {}).get("owner")}
    elif account is not None:
        method, params = "getCompressedAccountsByOwner", {"owner": account.get("owner")}
    else:
        return False
    walk = walk_pages(ctx, ctx.method(method), params, size=LIST_LIMIT, max_pages=WHOLE_PAGES,
                      until=lambda item: item_key(item) == account_hash)
    return walk.found


def read_twice(first: Callable[[], Any], again: Callable[[], Any], agree: Callable[[Any], bool]) -> tuple[Any, bool]:
    """`first()`, and when it disagrees `again()`: the reading to report, and whether the disagreement persisted."""
    reading = first()
    if agree(reading):
        return reading, False
    reading = again()
    return reading, not agree(reading)


class SignatureLists:
    """Signature lists walked as far as needed to find given signatures, shared across lookups."""

    def __init__(self, ctx: CheckContext, budget: Budget) -> None:
        self.ctx, self.budget = ctx, budget
        self.walks: dict[tuple[str, str], tuple[set[str], Walk | None, int]] = {}

    def holds(self, method: str, params: dict, signature: str) -> bool | None:
        """True when the list holds it, False when the list ended without it, None when not reached."""
        key = (method, repr(sorted(params.items())))
        seen, walk, pages = self.walks.get(key, (set(), None, 0))
        while signature not in seen and (walk is None or not (walk.complete() or walk.broken)):
            left = self.budget.pages(SIGNATURE_PAGES - pages)
            if left <= 0:
                break
            walk = walk_pages(self.ctx, self.ctx.method(method), params, size=LIST_LIMIT, max_pages=left,
                              until=lambda item: item_key(item) == signature,
                              cursor=walk.next_cursor if walk is not None else None)
            seen |= set(walk.keys)
            pages += walk.pages
        self.walks[key] = (seen, walk, pages)
        if signature in seen:
            return True
        return False if walk is not None and walk.complete() else None


def listed(items: Iterable[Any]) -> set[str]:
    return {item_key(item) for item in items}
