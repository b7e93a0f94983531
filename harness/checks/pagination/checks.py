"""Family `pagination`: walks at several page sizes agree with the unpaged list (§4.1).

A walk compares what it walked on any list, whatever its length: a list too long to walk whole
at a small page size is compared over the part walked, and covered whole at a larger size; what
the bounds leave out is said in the run's notes, never silently dropped. A server whose cursor
never ends is a finding, not a hang. A live list that moves during a walk is read again before
a difference is reported.
"""

from __future__ import annotations

import math

from csi_conformance.harness.checks.pagination.param_walks import walk_each_param, walked_with_params
from csi_conformance.harness.context import Answer, CheckContext, answer_value
from csi_conformance.harness.core.failures import NotApplicable, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import BODY, result_value
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.discover import LIST_LIMIT
from csi_conformance.harness.judging.answers import outcome_path
from csi_conformance.harness.judging.pages import Walk, item_key, items_of, partly, shown, walk_pages
from csi_conformance.harness.judging.samples import sample_params
from csi_conformance.schema import Method

PAGE_SIZES = (1, 2, 3)
WALK_PAGES = 25
"""Pages per walk at one small page size: a longer list is compared over its first part there."""
REFERENCE_PAGES = 30
"""Pages of `LIST_LIMIT` items read as the unpaged list: a longer one is compared over that part."""
COVER_PAGES = 30
"""Pages of the walk that covers a list too long for the small sizes, at a size that fits."""
KEYS_TRIED = 3


def _paged(method: Method) -> bool:
    return method.paginated and "limit" in method.param_names and "cursor" in method.param_names


def _longest(ctx: CheckContext, method: Method) -> tuple[dict, Answer]:
    """Params of the discovered key with the most items (of a few tried), and its first unpaged page."""
    best: tuple[dict, Answer, int] | None = None
    for pick in range(KEYS_TRIED):
        params = sample_params(ctx, method, pick=pick)
        answer = ctx.call(method.name, {**params, "limit": LIST_LIMIT})
        items = items_of(method, answer.value)
        if items is None:
            ctx.fail("No list answer", expected=f"a {method.pagination.items} list", received=answer_value(answer),
                     answer=answer, path=result_value(method.pagination.items) if answer.has_result else
                     outcome_path(answer))
        size = len(items) + (LIST_LIMIT if answer.value.get(method.pagination.cursor) is not None else 0)
        if best is None or size > best[2]:
            best = (params, answer, size)
    return best[0], best[1]


def _judge_pages(ctx: CheckContext, walk: Walk, size: int) -> None:
    """What any walk must show page by page: a list on every page, no page longer than its limit."""
    if walk.broken is not None:
        ctx.fail("Page missing", expected="a page of items", received=answer_value(walk.broken), answer=walk.broken,
                 path=_items_path(ctx, walk.broken))
    if walk.overlong is not None:
        got = len(items_of(ctx.method(walk.overlong.method), walk.overlong.value) or [])
        ctx.fail("Page longer than limit", expected=f"at most {size} items", received=f"{got} items",
                 answer=walk.overlong, clauses=("4.2-N3",), path=_items_path(ctx, walk.overlong, size))


def _repeated(ctx: CheckContext, walk: Walk, size: int) -> None:
    keys = walk.keys
    if len(set(keys)) != len(keys):
        ctx.fail("Duplicate items across pages", expected="each item once",
                 received=f"{len(keys) - len(set(keys))} repeated at page size {size} over {walk.pages} pages",
                 answer=walk.last, path=_items_path(ctx, walk.last, "*"))


def _reference(ctx: CheckContext, method: Method, params: dict) -> Walk:
    """The unpaged list: read at `LIST_LIMIT` a page, up to `REFERENCE_PAGES` pages."""
    reference = walk_pages(ctx, method, params, size=LIST_LIMIT, max_pages=REFERENCE_PAGES)
    _judge_pages(ctx, reference, LIST_LIMIT)
    _repeated(ctx, reference, LIST_LIMIT)
    return reference


def _difference(walk: Walk, expected: list[str], whole: bool) -> str | None:
    """How a walk's items differ from the unpaged list (`whole`: the list read to its end), or None.

    A walk cut short by its bound is compared over the part it walked."""
    got = walk.keys
    shared = min(len(got), len(expected))
    if got[:shared] != expected[:shared]:
        return f"first difference at item {_first_difference(got, expected)}"
    if walk.ended and len(got) < len(expected):
        return f"a null cursor after {len(got)} of {len(expected)} items"
    if whole and len(got) > len(expected):
        return f"{len(got) - len(expected)} items beyond the {len(expected)} of the unpaged list"
    return None


def _items_path(ctx: CheckContext, answer: Answer | None, *more: str | int) -> str:
    """The path of an answer's item list (or of a member below it): where a page went wrong."""
    if answer is None:
        return BODY
    if not answer.has_result:
        return outcome_path(answer)
    return result_value(ctx.method(answer.method).pagination.items, *more)


def _first_difference(got: list, expected: list) -> int:
    pairs = enumerate(zip(got, expected, strict=False))
    return next((i for i, (a, b) in pairs if a != b), min(len(got), len(expected)))


def _moved(ctx: CheckContext, method: Method, params: dict, reference: Walk) -> bool:
    """Whether the list changed since its unpaged reading (a live indexer moves): read it again."""
    again = walk_pages(ctx, method, params, size=LIST_LIMIT, max_pages=REFERENCE_PAGES)
    if again.keys != reference.keys:
        partly(ctx, f"the list for {shown(params)} moved during the walk, so it was not compared")
        return True
    return False


def _compare(ctx: CheckContext, method: Method, params: dict, reference: Walk, size: int, max_pages: int) -> Walk:
    """One walk at `size`, judged against the reference; returns it."""
    expected, whole = reference.keys, reference.complete()
    walk = walk_pages(ctx, method, params, size=size, max_pages=max_pages, empty_ends=False)
    _judge_pages(ctx, walk, size)
    if walk.cursorless:
        raise NotApplicable(f"{method.name} answers carry no cursor (ambiguity latest-nonvoting-cursor): no page "
                            "to walk")
    duplicated = len(set(walk.keys)) != len(walk.keys)
    difference = _difference(walk, expected, whole)
    if (duplicated or difference) and _moved(ctx, method, params, reference):
        return walk
    _repeated(ctx, walk, size)
    if difference:
        ctx.fail("Pages differ from the unpaged list", expected=f"{len(expected)} items in the unpaged order",
                 received=f"{len(walk.items)} items at page size {size}; {difference}", answer=walk.last,
                 path=_items_path(ctx, walk.last, "*"))
    if walk.stuck or (not walk.ended and whole and walk.pages >= math.ceil(len(expected) / size) + 2):
        how = "the same cursor back on an empty page" if walk.stuck else f"still a cursor after {walk.pages} pages"
        ctx.fail("Cursor never ends", expected=f"a null cursor (the end §4.1 gives a list) after the "
                 f"{len(expected)} items", received=f"{len(walk.items)} items at page size {size} and {how}",
                 answer=walk.last, path=result_value(method.pagination.cursor))
    ctx.examined("pages", walk.pages)
    ctx.examined("items", min(len(walk.items), len(expected)))
    return walk


@check("pagination.walk", clauses=("4.1-R8", "4.2-N3", "2.1-R4"),
       description="Walking with the returned cursor at page sizes 1, 2 and 3 yields the unpaged list once, in order",
       methods=_paged)
def pagination_walk(ctx: CheckContext, method: Method) -> None:
    params, _ = _longest(ctx, method)
    reference = _reference(ctx, method, params)
    if not reference.items:
        raise Skip(f"no {method.name} key with items discovered")
    walked = [_compare(ctx, method, params, reference, size, WALK_PAGES) for size in PAGE_SIZES]
    count = len(reference.items)
    if not reference.complete():
        partly(ctx, f"list longer than {count} items: its first {count} compared only")
    elif not any(walk.ended for walk in walked):
        size = min(LIST_LIMIT - 1, max(PAGE_SIZES[-1] + 1, math.ceil(count / COVER_PAGES)))
        _compare(ctx, method, params, reference, size, math.ceil(count / size) + 2)


@check("pagination.walk-with-params", clauses=("4.1-R8",),
       description="Walking with the returned cursor, with each optional param (mint, dataSlice, filters) given, "
                   "yields the unpaged list of the same params, item for item",
       methods=walked_with_params)
def walk_with_params(ctx: CheckContext, method: Method) -> None:
    """The pages a cursor fetches continue the list the same request answers unpaged (§4.1), whatever the
    optional params mean: fails when a param (`mint`, `filters`, `dataSlice`) honoured unpaged is dropped, or
    changed, on the pages that follow (`harness.checks.pagination.param_walks`)."""
    walk_each_param(ctx, method)


@check("pagination.null-cursor-at-end", clauses=("4.1-R8",),
       description="A null cursor comes only when no results remain (§4.1); observed practice also gives one on "
                   "a page shorter than its limit",
       methods=_paged)
def null_cursor_at_end(ctx: CheckContext, method: Method) -> None:
    """The spec states one direction only: a null cursor means no more results. That a page
    holding the last item carries a null cursor is observed practice (a full last page still
    carries a cursor there), judged on that basis."""
    params, answer = _longest(ctx, method)
    items = items_of(method, answer.value)
    cursor_key = method.pagination.cursor
    if cursor_key not in answer.value and not method.pagination.cursor_shown:
        raise NotApplicable(f"{method.name} answers carry no cursor (ambiguity latest-nonvoting-cursor): no page "
                            "to walk")
    if len(items) >= 2:
        _no_early_null(ctx, method, params)
    if len(items) < LIST_LIMIT:
        if answer.value.get(cursor_key) is not None:
            ctx.fail("Cursor after a short page", expected=f"cursor null when fewer than the {LIST_LIMIT} items "
                     "asked came (observed practice)", received=answer.value.get(cursor_key), answer=answer,
                     basis=Basis.OBSERVED, path=result_value(cursor_key))
        ctx.examined("pages", method=method.name)


def _no_early_null(ctx: CheckContext, method: Method, params: dict) -> None:
    """A page of one item from a list of several must not say, with a null cursor, that none remain."""
    answer = ctx.call(method.name, {**params, "limit": 1})
    page = items_of(method, answer.value)
    if page is None:
        return  # pagination.walk reports a page without a list
    if page and answer.value.get(method.pagination.cursor) is None:
        again = items_of(method, ctx.call(method.name, {**params, "limit": LIST_LIMIT}).value) or []
        if len(again) >= 2:
            basis = Basis.SPEC if method.pagination.null_cursor_at_end_stated else Basis.OBSERVED
            ctx.fail("Null cursor before the end", expected="a cursor while results remain (a null cursor means no "
                     "more results)", received=f"cursor null after item {item_key(page[0])}, of a list of "
                     f"{len(again)}", answer=answer, basis=basis, path=result_value(method.pagination.cursor))
    ctx.examined("pages", method=method.name)


@check("pagination.empty-owner", clauses=("7-N3",),
       description="An owner without accounts gets an empty `items` array",
       methods=lambda m: m.paginated and m.required_params == ("owner",))
def empty_owner(ctx: CheckContext, method: Method) -> None:
    answer = ctx.call(method.name, {"owner": ctx.fresh_pubkey()})
    if items_of(method, answer.value) != []:
        ctx.fail("No empty list for an unknown owner", expected=f"{method.pagination.items}: []",
                 received=answer_value(answer), answer=answer,
                 path=result_value(method.pagination.items) if answer.has_result else outcome_path(answer))
    ctx.examined("answers", method=method.name)
