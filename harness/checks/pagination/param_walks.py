"""A walk with an optional param gives the unpaged list of the same params (§4.1): what
`pagination.walk-with-params` judges.

"Passing the returned cursor in the next request fetches the next page": the pages a cursor fetches
continue the list the same request answers unpaged. A server that drops `mint`, `filters` or
`dataSlice` on those pages walks another list, and whatever the param means (the filter shape is
observed practice), that is a broken cursor: the comparison rests on the spec alone.

The optional params come from the contract (cursor and limit aside); their values from what the
target listed: each mint its items hold, a window of the data, memcmp filters on bytes its accounts
share, and the spec's own example `filters: [{}]`. Items are compared whole and in order, so a
slice dropped shows as well as a filter dropped. A list too long to walk whole is compared over the
part walked, and the notes say so; a list that moves is read again before a difference is reported.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.failures import CheckFailure, Mismatch, Skip
from csi_conformance.harness.core.paths import result_value
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.discover import LIST_LIMIT
from csi_conformance.harness.judging.answers import defer_refused
from csi_conformance.harness.judging.pages import Budget, Walk, items_of, partly, shown, walk_pages
from csi_conformance.harness.judging.samples import sample_params_or_none
from csi_conformance.harness.judging.state import SLICE, datas_of, probe_bytes
from csi_conformance.schema import Method

__all__ = ["optional_params", "walk_each_param", "walked_with_params"]

ASIDE = frozenset({"cursor", "limit"})
"""Params that are the pagination itself, not a param of the list walked."""
KEYS_TRIED = 3
VALUES_PER_PARAM = 3
UNPAGED_PAGES = 5
"""Pages of `LIST_LIMIT` items read as the unpaged list: a longer one is compared over that part."""
PAGES_PER_LIST = 3
"""A walk spreads the list over at least this many pages (when it has that many items)."""
WALK_PAGES = 6
"""Small pages of one walk at most: a longer list is compared over the part walked."""
REQUESTS = 60
"""Requests the check may spend on one method."""
SPEC_EXAMPLE_FILTERS = [{}]
"""The spec's own `filters` example (§2.11: an array holding one empty object)."""

Value = tuple[dict, Any, int]
"""(the key's params, a value for the optional param, how many items of the key's first page it concerns)."""


def optional_params(method: Method) -> list[str]:
    """The params of `method` that change the list walked: optional, and not the pagination itself."""
    return [name for name in method.param_names if name not in method.required_params and name not in ASIDE]


def walked_with_params(method: Method) -> bool:
    """A paginated method with an optional param besides cursor and limit."""
    paged = method.paginated and {"cursor", "limit"} <= set(method.param_names)
    return paged and bool(optional_params(method))


def _mint(item: Any) -> Any:
    """The mint of a token account item (its tokenData's) or of a token balance item (its own)."""
    if not isinstance(item, dict):
        return None
    token = item.get("tokenData")
    return token.get("mint") if isinstance(token, dict) else item.get("mint")


def _mints(items: list) -> list[tuple[Any, int]]:
    """Each mint the items hold, the most held first."""
    counts = Counter(mint for item in items if isinstance(mint := _mint(item), str))
    return counts.most_common()


def _slices(items: list) -> list[tuple[Any, int]]:
    held = len(datas_of(items))
    return [(SLICE, held)] if held else []


def _filters(items: list) -> list[tuple[Any, int]]:
    """memcmp filters on two leading bytes the accounts share (the most shared first), then the spec's example."""
    datas = datas_of(items)
    counts = Counter(data[:2] for data in datas.values() if len(data) >= 2)
    first = probe_bytes(datas)
    ordered = sorted(counts, key=lambda probe: (probe != first, -counts[probe]))[:VALUES_PER_PARAM - 1]
    found = [([{"memcmp": {"offset": 0, "bytes": b58encode(probe)}}], counts[probe]) for probe in ordered]
    return [*found, (SPEC_EXAMPLE_FILTERS, 0)]


FILLERS: dict[str, Callable[[list], list[tuple[Any, int]]]] = {"mint": _mints, "dataSlice": _slices,
                                                                "filters": _filters}
"""Optional param -> the values the kit gives it, drawn from a key's unpaged items."""


def _keys(ctx: CheckContext, method: Method) -> list[tuple[dict, list]]:
    """A few discovered keys' params, each with the items of its first unpaged page."""
    found: list[tuple[dict, list]] = []
    for pick in range(KEYS_TRIED):
        params = sample_params_or_none(ctx, method, pick=pick)
        if not isinstance(params, dict) or any(params == seen for seen, _ in found):
            continue
        items = items_of(method, ctx.call(method.name, {**params, "limit": LIST_LIMIT}).value)
        if items is not None:  # a key without a list is pagination.walk's finding
            found.append((params, items))
    return found


def _values(name: str, keys: list[tuple[dict, list]]) -> list[Value]:
    """Values of `name` over every key, those concerning the most items first (the spec's example kept)."""
    values = [(params, value, count) for params, items in keys for value, count in FILLERS[name](items)]
    values.sort(key=lambda v: -v[2])
    chosen = [v for v in values if v[1] is not SPEC_EXAMPLE_FILTERS][:VALUES_PER_PARAM]
    example = next((v for v in values if v[1] is SPEC_EXAMPLE_FILTERS), None)
    return chosen + ([example] if example else [])


def _pages(ctx: CheckContext, method: Method, params: dict, size: int, most: int) -> tuple[list[tuple[Answer, list]],
                                                                                           Walk | None]:
    """Up to `most` pages of `size` items following each cursor, each page with its answer; and the last walk step."""
    pages: list[tuple[Answer, list]] = []
    step: Walk | None = None
    cursor = None
    while len(pages) < most:
        step = walk_pages(ctx, method, params, size=size, max_pages=1, empty_ends=False, cursor=cursor)
        if step.broken is not None:
            break
        pages.append((step.last, step.items))
        if step.ended or step.cursorless or step.stuck:
            break
        cursor = step.next_cursor
    return pages, step


def _unpaged(ctx: CheckContext, method: Method, params: dict, budget: Budget | None = None) -> Walk:
    """The unpaged list: read at `LIST_LIMIT` a page (within the budget, when one is given)."""
    pages = budget.pages(UNPAGED_PAGES) if budget is not None else UNPAGED_PAGES
    return walk_pages(ctx, method, params, size=LIST_LIMIT, max_pages=max(1, pages))


def _refused(ctx: CheckContext, name: str, value: Any, unpaged: Walk) -> None:
    """The unpaged request refused: a finding when the params are valid under every reading; the spec's
    `filters` example may be refused by a target reading filters as observed (ambiguity filters-shape): that
    refusal is the target's reading, recorded as such, and no work left undone."""
    if value is SPEC_EXAMPLE_FILTERS and unpaged.broken is not None and unpaged.broken.error is not None:
        amb = ctx.contract.ambiguity("filters-shape")
        allowing = ctx.contract.readings_followed(amb.id, {}, amb.definition)
        ctx.observe(amb.id, tuple(reading for reading in amb.readings if reading not in allowing))
        return
    if not defer_refused(ctx, unpaged.broken):
        partly(ctx, f"`{name}: {shown(value)}` gave no list unpaged, so no walk with it was compared")


def _judge(ctx: CheckContext, method: Method, name: str, value: Value, budget: Budget) -> None:
    """Walk the request with this value in small pages and compare with its unpaged list."""
    key, given, _ = value
    params = {**key, name: given}
    unpaged = _unpaged(ctx, method, params, budget)
    if unpaged.broken is not None:
        _refused(ctx, name, given, unpaged)
        return
    expected = unpaged.items
    if not expected:
        return  # an empty list has no page to walk
    size = max(1, min(LIST_LIMIT, math.ceil(len(expected) / PAGES_PER_LIST)))
    pages, last = _pages(ctx, method, params, size, budget.pages(WALK_PAGES))
    if last is not None and last.broken is not None:
        if not defer_refused(ctx, last.broken):
            _fail(ctx, CheckFailure("Page missing", expected=f"the next page of {size} items", received=clip(
                last.broken.body), answer=last.broken, path=result_value(method.pagination.items)), params)
        return
    found = _difference(method, pages, expected, unpaged.complete(), bool(last and last.ended))
    if found is not None and _unpaged(ctx, method, params).items != expected:
        partly(ctx, f"the list for {shown(params)} moved during the walk, so it was not compared")
        return
    if found is not None:
        _fail(ctx, found, params, size)
    walked = sum(len(items) for _, items in pages)
    ctx.examined("walks")
    ctx.examined("items", min(walked, len(expected)))
    if not unpaged.complete() or not (last and (last.ended or last.cursorless)):
        partly(ctx, f"{shown(params)}: compared over the first {min(walked, len(expected))} items only")


def _difference(method: Method, pages: list[tuple[Answer, list]], expected: list, whole: bool,
                ended: bool) -> CheckFailure | None:
    """The first place the walked pages leave the unpaged list (an item, an extra item, an early end), or None."""
    position = 0
    items_key = method.pagination.items
    for answer, items in pages:
        for index, item in enumerate(items):
            where = result_value(items_key, index)
            if position >= len(expected):
                if whole:
                    return CheckFailure("Pages differ from the unpaged list of the same params", answer=answer,
                                        expected=f"no item past the {len(expected)} of the unpaged list",
                                        received=clip(item), path=where)
                return None
            if item != expected[position]:
                below, unpaged, walked = _differing(item, expected[position])
                return Mismatch("Pages differ from the unpaged list of the same params", expected=clip(unpaged),
                                received=clip(walked), answer=answer, path=result_value(items_key, index, *below),
                                detail={"item of the list": position})
            position += 1
    if ended and position < len(expected) and pages:
        answer = pages[-1][0]
        return CheckFailure("Pages differ from the unpaged list of the same params", answer=answer,
                            expected=f"the {len(expected)} items of the unpaged list",
                            received=f"{position} items, then a null cursor",
                            path=result_value(method.pagination.cursor))
    return None


def _differing(got: Any, want: Any) -> tuple[list[str], Any, Any]:
    """The first member below an item where two items differ (its path parts), with the unpaged item's value
    there and the walked one's (a member one side lacks shows as null there)."""
    parts: list[str] = []
    while isinstance(got, dict) and isinstance(want, dict):
        key = next(k for k in [*want, *got] if k not in got or k not in want or got[k] != want[k])
        parts.append(key)
        if key not in got or key not in want:
            return parts, want.get(key), got.get(key)
        got, want = got[key], want[key]
    return parts, want, got


def _fail(ctx: CheckContext, failure: CheckFailure, params: dict, size: int | None = None) -> None:
    failure.method = failure.answer.method if failure.answer is not None else None
    failure.detail.update({"params walked": clip(params), **({"page size": size} if size else {})})
    ctx.defer(failure)


def walk_each_param(ctx: CheckContext, method: Method) -> None:
    """Each optional param of `method`, with each value the kit draws for it, walked and compared."""
    keys = _keys(ctx, method)
    if not keys:
        raise Skip(f"no {method.name} key with a list discovered")
    budget = Budget(ctx, REQUESTS)
    for name in optional_params(method):
        if name not in FILLERS:
            partly(ctx, f"`{name}`: no value the kit can give it, so no walk with it was compared")
            continue
        values = _values(name, keys)
        if not values:
            partly(ctx, f"`{name}`: the lists discovered give it no value, so no walk with it was compared")
        for value in values:
            if budget.left < 3:
                partly(ctx, f"request bound of {REQUESTS} reached before `{name}: {shown(value[1])}`")
                break
            _judge(ctx, method, name, value, budget)
    if not ctx.examined_anything:
        raise Skip(f"no {method.name} list with an optional param had items")
