"""Family `pagination`: walks to the end at several page sizes agree with the unpaged list (§4.1).

A walk is bounded: a server whose cursor never ends is a finding, not a hang.
"""

from __future__ import annotations

from typing import Any

from harness.checks.samples import item_key, items_of, sample_params
from harness.core.failures import Skip
from harness.core.model import Basis
from harness.core.registry import check
from harness.engine.context import Answer, CheckContext, describe
from schema import Method

PAGE_SIZES = (1, 2, 3)
MAX_ITEMS_WALKED = 60
"""Walks stop after this many items' worth of pages; longer lists are walked over their first part."""


def _paged(method: Method) -> bool:
    return method.paginated and "limit" in method.param_names and "cursor" in method.param_names


def _best_params(ctx: CheckContext, method: Method) -> tuple[dict, list]:
    """Params of the discovered key with the most items (up to a few tried), and its unpaged list."""
    best: tuple[dict, list] | None = None
    for pick in range(3):
        params = sample_params(ctx, method, pick=pick)
        answer = ctx.call(method.name, {**params, "limit": MAX_ITEMS_WALKED})
        items = items_of(method, answer.value)
        if items is None:
            ctx.fail("No list answer", expected=f"a {method.pagination.items} list", received=describe(answer),
                     answer=answer)
        if best is None or len(items) > len(best[1]):
            best = (params, items)
    return best


def walk(ctx: CheckContext, method: Method, params: dict, size: int, max_pages: int) -> tuple[list, Answer | None]:
    """Pages of `size` until a null cursor; returns the items and the last answer."""
    cursor_key = method.pagination.cursor
    items: list[Any] = []
    cursor = None
    last = None
    for _ in range(max_pages):
        request = {**params, "limit": size} if cursor is None else {**params, "limit": size, cursor_key: cursor}
        last = ctx.call(method.name, request)
        page = items_of(method, last.value)
        if page is None:
            ctx.fail("Page missing", expected="a page of items", received=describe(last), answer=last)
        if len(page) > size:
            ctx.fail("Page longer than limit", expected=f"at most {size} items", received=f"{len(page)} items",
                     answer=last)
        items += page
        if cursor_key not in last.value and not method.pagination.cursor_shown:
            raise Skip(f"{method.name} answers carry no cursor (ambiguity latest-nonvoting-cursor)")
        cursor = last.value.get(cursor_key)
        if cursor is None:
            return items, last
        if len(items) >= MAX_ITEMS_WALKED:
            raise Skip(f"list longer than {MAX_ITEMS_WALKED} items: walked its first part only")
    ctx.fail("Cursor never ends", expected=f"a null cursor within {max_pages} pages of {size}",
             received=f"{len(items)} items and still a cursor", answer=last)
    return items, last


@check("pagination.walk", clauses=("4.1-R8", "4.2-N3", "2.1-R4"),
       description="Walking with the returned cursor at page sizes 1, 2 and 3 yields the unpaged list once, in order",
       methods=_paged)
def pagination_walk(ctx: CheckContext, method: Method) -> None:
    params, full = _best_params(ctx, method)
    if len(full) >= MAX_ITEMS_WALKED:
        full = full[:MAX_ITEMS_WALKED]
    if not full:
        raise Skip(f"no {method.name} key with items discovered")
    expected = [item_key(item) for item in full]
    for size in PAGE_SIZES:
        try:
            items, last = walk(ctx, method, params, size, max_pages=len(full) // size + 3)
        except Skip:
            continue
        got = [item_key(item) for item in items]
        if len(set(got)) != len(got):
            ctx.fail("Duplicate items across pages", expected="each item once",
                     received=f"{len(got) - len(set(got))} repeated at page size {size}", answer=last)
        if got != expected:
            ctx.fail("Pages differ from the unpaged list", expected=f"{len(expected)} items in the unpaged order",
                     received=f"{len(got)} items at page size {size}; "
                              f"first difference at {_first_difference(got, expected)}",
                     answer=last)


def _first_difference(got: list, expected: list) -> int:
    pairs = enumerate(zip(got, expected, strict=False))
    return next((i for i, (a, b) in pairs if a != b), min(len(got), len(expected)))


@check("pagination.null-cursor-at-end", clauses=("4.1-R8",),
       description="The page after the last item ends with a null cursor (stated for the owner-based lists)",
       methods=_paged)
def null_cursor_at_end(ctx: CheckContext, method: Method) -> None:
    params = sample_params(ctx, method)
    answer = ctx.call(method.name, {**params, "limit": MAX_ITEMS_WALKED})
    value = answer.value
    items = items_of(method, value)
    if items is None or len(items) >= MAX_ITEMS_WALKED:
        raise Skip("no short list to end")
    if value.get(method.pagination.cursor) is not None:
        basis = Basis.SPEC if method.pagination.null_cursor_at_end_stated else Basis.OBSERVED
        ctx.fail("Cursor after the last page", expected="cursor null when no more results",
                 received=repr(value.get(method.pagination.cursor)), answer=answer, basis=basis)


@check("pagination.empty-owner", clauses=("7-N3",),
       description="An owner without accounts gets an empty `items` array",
       methods=lambda m: m.paginated and m.required_params == ("owner",))
def empty_owner(ctx: CheckContext, method: Method) -> None:
    answer = ctx.call(method.name, {"owner": ctx.fresh_pubkey()})
    if items_of(method, answer.value) != []:
        ctx.fail("No empty list for an unknown owner", expected=f"{method.pagination.items}: []",
                 received=describe(answer), answer=answer)
