"""Optional members, read from the contract for every method: absent on one side and present and right on the
other is no difference; present and wrong still is.

The members are the contract's (`Contract.shapes`), never a list here; the answers that hold them are the
golden cases' recorded reference answers, so every member is tried in a real answer of its method.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from csi_conformance.cases.loader import load_cases
from csi_conformance.harness.checks.differential.normalize import normalize
from csi_conformance.harness.checks.differential.optional import VIEWS, settle
from csi_conformance.harness.judging.compare import differences
from csi_conformance.schema import Contract
from csi_conformance.schema.shapes import Shape

CONTRACT = Contract.default()
OPTIONAL = sorted({(method, shape.definition, name) for method in CONTRACT.methods
                   for shape in CONTRACT.shapes(f"{method}.result") for name in shape.optional})


def _objects(node: Any) -> Iterator[dict]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _objects(value)
    elif isinstance(node, list):
        for item in node:
            yield from _objects(item)


def _holding(method: str, definition: str, name: str) -> tuple[dict, Shape]:
    """A recorded answer of `method` (normalized as the differential compares it) holding an object of the
    member's shape, and that shape; for a member with a view, one whose view is not empty, if any."""
    shape = next(s for s in CONTRACT.shapes(f"{method}.result") if s.definition == definition and name in s.optional)
    found = []
    for case in (c for c in load_cases() if c.method == method and isinstance(c.response, dict)):
        answer = normalize(CONTRACT, method, case.response)[0]
        if any(shape.fits(set(node)) for node in _objects(answer.get("result"))):
            found.append(answer)
    assert found, f"no golden case of {method} holds a {definition}: add one, or {name} is never compared"
    view = VIEWS.get((definition, name))
    rich = [a for a in found if view and any(view(CONTRACT, node)[0] for node in _objects(a["result"])
                                               if shape.fits(set(node)))]
    return (rich or found)[0], shape


def _right(shape: Shape, name: str, node: dict) -> Any:
    """A value of the member that says no more than its absence there."""
    if CONTRACT.allows_null(shape.members[name]):
        return None
    view = VIEWS.get((shape.definition, name))
    return view(CONTRACT, node)[0] if view else []


def _wrong(shape: Shape, name: str, node: dict) -> Any:
    """A value of the member that contradicts the answer."""
    right = _right(shape, name, node)
    if right is None:
        return "11111111111111111111111111111111"
    if right:
        return right[1:]
    return [{"owner": "11111111111111111111111111111111", "mint": "11111111111111111111111111111111", "amount": 1}]


def _settled(method: str, target: dict, reference: dict) -> list:
    target, reference = copy.deepcopy(target), copy.deepcopy(reference)
    settle(CONTRACT, method, target, reference)
    return differences(target, reference)


def _variants(method: str, definition: str, name: str) -> tuple[dict, dict, dict, dict]:
    """The answer with the member absent from every object of its shape, right, and wrong (in the first)."""
    answer, shape = _holding(method, definition, name)
    absent, right, wrong = (copy.deepcopy(answer) for _ in range(3))
    for one, two, three in zip(*(list(_objects(v["result"])) for v in (absent, right, wrong)), strict=True):
        if shape.fits(set(one)):
            one.pop(name, None)
            two[name] = _right(shape, name, one)
            three[name] = _right(shape, name, one)
    first = next(node for node in _objects(wrong["result"]) if shape.fits(set(node)))
    first[name] = _wrong(shape, name, {k: v for k, v in first.items() if k != name})
    return answer, absent, right, wrong


def test_the_contract_has_optional_members() -> None:
    assert ("getTransactionWithCompressionInfo", "CompressionInfo", "preTokenBalances") in OPTIONAL
    assert all(name not in {"jsonrpc", "id"} for _, _, name in OPTIONAL)


@pytest.mark.parametrize(("method", "definition", "name"), OPTIONAL, ids=["/".join(o) for o in OPTIONAL])
def test_an_optional_member_absent_or_right_is_no_difference_and_wrong_is_one(method: str, definition: str,
                                                                              name: str) -> None:
    _, absent, right, wrong = _variants(method, definition, name)
    assert _settled(method, right, absent) == [], "present and right on the target, absent on the reference"
    assert _settled(method, absent, right) == [], "absent on the target, present and right on the reference"
    assert _settled(method, wrong, absent), "present and wrong on the target, absent on the reference"
    assert _settled(method, wrong, right), "present and wrong on the target, right on the reference"


def test_empty_token_balances_of_a_transaction_without_tokens_are_right() -> None:
    """The issue's case: `preTokenBalances: []`, `postTokenBalances: []` where the reference leaves them out."""
    method = "getTransactionWithCompressionInfo"
    case = next(c for c in load_cases() if c.method == method and c.name.endswith("/opened"))
    reference = normalize(CONTRACT, method, case.response)[0]
    info = copy.deepcopy(reference)
    node = next(n for n in _objects(info["result"]) if "closedAccounts" in n)
    assert not any(item.get("optionalTokenData") for item in node["closedAccounts"] + node["openedAccounts"])
    node.update(preTokenBalances=[], postTokenBalances=[])
    assert _settled(method, info, reference) == []
    node["postTokenBalances"] = [{"owner": "11111111111111111111111111111111",
                                  "mint": "11111111111111111111111111111111", "amount": 5}]
    assert [d.path for d in _settled(method, info, reference)] == ["result.compressionInfo.postTokenBalances"]
