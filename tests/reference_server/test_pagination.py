"""Orders, pages and cursors of the list methods (reference_server/pagination.py)."""

from __future__ import annotations

import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.reference_server.errors import INVALID_PARAMS, RpcError
from csi_conformance.reference_server.pagination import (
    SortedIndex,
    ascending_page,
    decode_cursor,
    decode_signature_cursor,
    descending_page,
    encode_cursor,
    encode_signature_cursor,
    next_cursor,
    page_limit,
)


def test_sorted_index_keeps_each_group_sorted_and_unique() -> None:
    index = SortedIndex()
    for key in (5, 1, 3, 3, 9, 1):
        index.add("g", key)
    assert list(index.keys("g")) == [1, 3, 5, 9]
    index.remove("g", 3)
    assert list(index.keys("g")) == [1, 5, 9]
    assert index.keys("unknown") == ()
    with pytest.raises(KeyError):
        index.remove("g", 4)
    for key in (1, 5, 9):
        index.remove("g", key)
    assert "g" not in set(index.groups())


def test_ascending_page_respects_after_bounds_and_filter() -> None:
    keys = list(range(20))
    assert ascending_page(keys, limit=3) == [0, 1, 2]
    assert ascending_page(keys, limit=3, after=2) == [3, 4, 5]
    assert ascending_page(keys, limit=3, after=18) == [19]
    assert ascending_page(keys, limit=10, low=5, high=7) == [5, 6, 7]
    assert ascending_page(keys, limit=10, after=6, low=5, high=7) == [7]
    assert ascending_page(keys, limit=3, accept=lambda k: k % 5 == 0) == [0, 5, 10]
    assert ascending_page(keys, limit=3, after=100) == []
    assert ascending_page(keys, limit=0) == []


def test_descending_page_walks_from_the_end() -> None:
    keys = [(1, b"a"), (1, b"b"), (2, b"a"), (3, b"z")]
    assert descending_page(keys, limit=2) == [(3, b"z"), (2, b"a")]
    assert descending_page(keys, limit=2, before=(2, b"a")) == [(1, b"b"), (1, b"a")]
    assert descending_page(keys, limit=5, before=(1, b"a")) == []


def test_next_cursor_is_null_whenever_the_page_is_short() -> None:
    assert next_cursor([1, 2], 3, str) is None
    assert next_cursor([1, 2, 3], 3, str) == "3"
    assert next_cursor([], 0, str) is None


def test_cursors_round_trip() -> None:
    raw = bytes(range(32))
    assert decode_cursor(encode_cursor(raw), 32) == raw
    key = (2**64 - 1, bytes(range(64)))
    assert decode_signature_cursor(encode_signature_cursor(key)) == key
    assert decode_cursor(None, 32) is None
    assert decode_signature_cursor(None) is None


@pytest.mark.parametrize("text", ["0OIl", "", b58encode(bytes(31)), b58encode(bytes(33)), "not a cursor"])
def test_a_malformed_cursor_is_invalid_params(text: str) -> None:
    with pytest.raises(RpcError) as caught:
        decode_cursor(text, 32)
    assert caught.value.code == INVALID_PARAMS
    assert "cursor" in caught.value.message


def test_page_limit_defaults_and_caps_from_the_contract(contract) -> None:
    method = contract.method("getCompressedAccountsByOwner")
    bounds = method.observed["limit"]
    assert page_limit(method, {}) == bounds["default"]
    assert page_limit(method, {"limit": None}) == bounds["default"]
    assert page_limit(method, {"limit": bounds["max"]}) == bounds["max"]
    with pytest.raises(RpcError) as caught:
        page_limit(method, {"limit": bounds["max"] + 1})
    assert caught.value.code == INVALID_PARAMS
    assert str(bounds["max"]) in caught.value.message
