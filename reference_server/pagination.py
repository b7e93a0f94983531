"""Stable orders, pages and cursors of the list methods (spec §4.1, observed practice).

The spec says only that a page carries a `cursor`, that passing it back fetches the next page
and that null means no more results (4.1-R8). Everything else follows observed practice
(observed-practice.md, "Pagination"):

- `limit` defaults to the method's observed default and may not exceed its maximum;
- the cursor is null whenever fewer than `limit` items came back, so a full last page still
  carries a cursor and the page after it is empty with a null cursor;
- orders and cursors: accounts by hash ascending (cursor = the last hash), token accounts by
  mint then hash (cursor = mint ‖ hash), token balances by mint (cursor = the mint), signatures
  by slot then signature, both descending (cursor = slot as u64 LE ‖ 64-byte signature);
- a malformed cursor is an invalid-params error, never an empty page.

Keys are kept sorted ascending in `SortedIndex`; a descending order walks them from the end.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.reference_server.errors import INVALID_PARAMS, RpcError
from csi_conformance.schema import Method

__all__ = [
    "SignatureKey",
    "SortedIndex",
    "ascending_page",
    "decode_cursor",
    "decode_signature_cursor",
    "descending_page",
    "encode_cursor",
    "encode_signature_cursor",
    "next_cursor",
    "page_limit",
]

K = TypeVar("K")
SignatureKey = tuple[int, bytes]
"""Order key of a transaction: (slot, 64-byte signature)."""


class SortedIndex:
    """Keys kept sorted ascending, in one list per group (an owner, a mint, an address …)."""

    def __init__(self) -> None:
        self._groups: dict[Hashable, list[Any]] = {}

    def add(self, group: Hashable, key: Any) -> None:
        """Insert ``key`` into its group once; adding it again changes nothing."""
        keys = self._groups.setdefault(group, [])
        if not keys or keys[-1] < key:  # the common case while slots only grow
            keys.append(key)
            return
        at = bisect_left(keys, key)
        if at == len(keys) or keys[at] != key:
            keys.insert(at, key)

    def remove(self, group: Hashable, key: Any) -> None:
        keys = self._groups.get(group, [])
        at = bisect_left(keys, key)
        if at == len(keys) or keys[at] != key:
            raise KeyError(f"{key!r} is not in the index")
        del keys[at]
        if not keys:
            del self._groups[group]

    def keys(self, group: Hashable) -> Sequence[Any]:
        """The group's keys, ascending; empty for a group never seen."""
        return self._groups.get(group, ())

    def groups(self) -> Iterator[Hashable]:
        return iter(self._groups)


# --------------------------------------------------------------------------- limits


def page_limit(method: Method, params: Mapping[str, Any]) -> int:
    """The page size asked for, or the method's default; past the maximum is invalid params.

    The spec shows neither default nor maximum (8-R3); both come from the method's observed
    practice in the contract (`method.observed["limit"]`).
    """
    bounds = method.observed["limit"]
    limit = params.get("limit")
    if limit is None:
        return int(bounds["default"])
    if limit > bounds["max"]:
        raise RpcError(INVALID_PARAMS, f"Invalid params: limit {limit} exceeds the maximum of {bounds['max']}")
    return limit


# --------------------------------------------------------------------------- cursors


def encode_cursor(raw: bytes) -> str:
    return b58encode(raw)


def decode_cursor(text: str | None, size: int) -> bytes | None:
    """The bytes of a cursor of ``size`` bytes, None for no cursor; malformed is invalid params."""
    if text is None:
        return None
    try:
        return b58decode(text, length=size)
    except ValueError as exc:
        raise RpcError(INVALID_PARAMS, f"Invalid params: malformed cursor: {exc}") from None


def encode_signature_cursor(key: SignatureKey) -> str:
    slot, signature = key
    return b58encode(slot.to_bytes(8, "little") + signature)


def decode_signature_cursor(text: str | None) -> SignatureKey | None:
    raw = decode_cursor(text, 8 + 64)
    if raw is None:
        return None
    return int.from_bytes(raw[:8], "little"), raw[8:]


def next_cursor(page: Sequence[K], limit: int, encode: Callable[[K], str]) -> str | None:
    """The cursor after a page: null whenever fewer than ``limit`` items came back (observed)."""
    if not page or len(page) < limit:
        return None
    return encode(page[-1])


# --------------------------------------------------------------------------- pages


def ascending_page(
    keys: Sequence[K],
    *,
    limit: int,
    after: K | None = None,
    low: K | None = None,
    high: K | None = None,
    accept: Callable[[K], bool] | None = None,
) -> list[K]:
    """Up to ``limit`` keys above ``after``, within [low, high], that ``accept`` lets through."""
    start = 0 if after is None else bisect_right(keys, after)
    if low is not None:
        start = max(start, bisect_left(keys, low))
    stop = len(keys) if high is None else bisect_right(keys, high)
    page: list[K] = []
    for index in range(start, stop):
        if len(page) >= limit:
            break
        key = keys[index]
        if accept is None or accept(key):
            page.append(key)
    return page


def descending_page(keys: Sequence[K], *, limit: int, before: K | None = None) -> list[K]:
    """Up to ``limit`` keys below ``before`` (all keys when None), largest first."""
    stop = len(keys) if before is None else bisect_left(keys, before)
    start = max(0, stop - limit)
    return [keys[index] for index in range(stop - 1, start - 1, -1)]
