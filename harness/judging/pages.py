"""Walking a paginated list page by page: bounded, and honest about where it stopped.

A walk never pretends to have seen a whole list: it says whether a null cursor ended it, whether
it stopped at its page bound, or whether the target handed back the cursor it was asked with on
an empty page (a walk that can never end). Checks compare what was walked, whatever its length,
and say how much that was (`ctx.examined`), rather than skipping long lists wholesale.

A `Budget` bounds the requests one check spends over many keys, so covering every discovered
owner stays bounded on a production-sized indexer; `partly` says in the run's notes what the
bound left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.values import jsonable
from csi_conformance.schema import Method

__all__ = ["Budget", "Walk", "item_key", "items_of", "partly", "shown", "walk_pages"]


def shown(value: Any, limit: int = 200) -> str:
    """`value` as JSON for a message (never Python repr), cut at `limit` characters."""
    text = jsonio.dumps(jsonable(value))
    return text if len(text) <= limit else text[:limit] + "…"


def item_key(view: Any) -> str:
    """A stable identity of a list item: account hash, signature, or mint of a balance."""
    if isinstance(view, dict):
        if isinstance(view.get("account"), dict):
            return str(view["account"].get("hash"))
        for key in ("hash", "signature", "mint"):
            if key in view:
                return str(view[key])
    return jsonio.dumps(jsonable(view))


def items_of(method: Method, value: Any) -> list | None:
    """The items list of a paginated answer's value, or None when it has none."""
    if method.pagination is None or not isinstance(value, dict):
        return None
    items = value.get(method.pagination.items)
    return items if isinstance(items, list) else None




@dataclass
class Walk:
    """What one walk over a list saw, and why it stopped."""

    items: list = field(default_factory=list)
    pages: int = 0
    ended: bool = False
    """A null cursor came: the target says there are no more results (§4.1)."""
    emptied: bool = False
    """An empty page came with a non-null cursor."""
    stuck: bool = False
    """An empty page handed back the very cursor it was asked with: asking again gives the same page."""
    found: bool = False
    """`until` matched an item: the walk stopped there on purpose."""
    cursorless: bool = False
    """The answers carry no cursor member at all (a method whose cursor the spec does not show)."""
    next_cursor: str | None = None
    """The cursor the next page would be asked with (where a resumed walk starts)."""
    last: Answer | None = None
    broken: Answer | None = None
    """The first answer that held no list."""
    overlong: Answer | None = None
    """The first page holding more items than the limit asked."""

    @property
    def keys(self) -> list[str]:
        return [item_key(item) for item in self.items]

    def complete(self, *, empty_ends: bool = True) -> bool:
        """Whether the walk saw the whole list: a null cursor, or (with `empty_ends`) an empty page."""
        return self.broken is None and (self.ended or self.cursorless or (empty_ends and self.emptied))


def walk_pages(ctx: CheckContext, method: Method, params: dict, *, size: int, max_pages: int,
               empty_ends: bool = True, until: Callable[[Any], bool] | None = None,
               cursor: str | None = None) -> Walk:
    """Pages of `size` items from the first (or from `cursor`), following each returned cursor, for
    at most `max_pages`; `Walk.next_cursor` resumes where it stopped.

    Stops at a null cursor, at a page without a list, when `until` matches an item, and (with
    `empty_ends`) at an empty page; without it, an empty page with a new cursor is followed on.
    """
    cursor_key = method.pagination.cursor
    walk = Walk(next_cursor=cursor)
    while walk.pages < max_pages:
        cursor = walk.next_cursor
        request = {**params, "limit": size} if cursor is None else {**params, "limit": size, "cursor": cursor}
        answer = walk.last = ctx.call(method.name, request)
        page = items_of(method, answer.value)
        if page is None:
            walk.broken = answer
            return walk
        walk.pages += 1
        walk.items += page
        if len(page) > size and walk.overlong is None:
            walk.overlong = answer
        walk.cursorless = cursor_key not in answer.value and not method.pagination.cursor_shown
        following = walk.next_cursor = answer.value.get(cursor_key)
        walk.ended = following is None and not walk.cursorless
        walk.emptied = not page and following is not None
        walk.stuck = walk.emptied and following == cursor
        walk.found = until is not None and any(until(item) for item in page)
        if walk.found or walk.cursorless or walk.ended or walk.stuck or (empty_ends and walk.emptied):
            return walk
    return walk


class Budget:
    """The requests one check may spend over all its keys: the bound that keeps full coverage finite."""

    def __init__(self, ctx: CheckContext, requests: int) -> None:
        self.ctx = ctx
        self.requests = requests
        self.start = ctx.sent_here  # this thread's handle: what other checks send at once is theirs

    @property
    def left(self) -> int:
        return max(0, self.requests - (self.ctx.sent_here - self.start))

    def pages(self, wanted: int) -> int:
        """At most `wanted` pages, within what is left."""
        return min(wanted, self.left)


def partly(ctx: CheckContext, text: str) -> None:
    """Record what the running check did not reach (a bound reached, a list moved): every report shows it
    with the check, so a PASS over part of the work never reads as a full one."""
    ctx.unreached(text)
