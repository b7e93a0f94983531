"""Optional members: absent on one side and present and right on the other is no difference.

Which members are optional the contract says (`Contract.shapes`: what an object's `required` list
leaves out, for every method's result); nothing here lists them. What absence says depends on the
member's schema:

- a member that may be `null` (a token account's `delegate`): absent says what `null` says, so the
  other side's value must be `null`; a delegate absent on one side and set on the other differs;
- any other member (§2.11's `preTokenBalances`, an array): absent says nothing, so the other side's
  value stands unless it contradicts what the reference's answer tells of it (`VIEWS`): the
  reference's `preTokenBalances` are its closed accounts' token balances, whether it lists them or
  not, and a target listing others is wrong.

Both sides are walked together; a list's items are paired when both lists are as long.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from csi_conformance.harness.checks.differential.normalize import ALLOWED
from csi_conformance.harness.judging.compare import canonical
from csi_conformance.schema import Contract
from csi_conformance.schema.shapes import Shape

__all__ = ["NAME", "VIEWS", "settle"]

NAME = "optional-member"
"""How diffs name this allowed difference."""

_ORDER = next(normalizer for normalizer in ALLOWED if normalizer.name == "order")

View = Callable[[Contract, dict], list[Any]]
"""(contract, the reference's object) -> every value the member may rightly hold there."""


def _token_balances(accounts: str) -> View:
    """§2.11: token balances before (closed accounts) or after (opened accounts), elements owner, mint, amount:
    one per token account, or one per owner and mint (the spec does not say which)."""
    def view(contract: Contract, node: dict) -> list[Any]:
        element = contract.defs()["TokenBalanceChange"]["required"]
        items = node.get(accounts) if isinstance(node.get(accounts), list) else []
        tokens = [item.get("optionalTokenData") for item in items if isinstance(item, dict)]
        each = [{name: token.get(name) for name in element} for token in tokens if isinstance(token, dict)]
        summed: dict[str, dict] = {}
        for change in each:
            key = canonical([change.get("owner"), change.get("mint")])
            if key in summed and type(change.get("amount")) is int and type(summed[key].get("amount")) is int:
                summed[key] = {**summed[key], "amount": summed[key]["amount"] + change["amount"]}
            else:
                summed.setdefault(key, change)
        return [each, list(summed.values())]

    return view


VIEWS: dict[tuple[str, str], View] = {
    ("CompressionInfo", "preTokenBalances"): _token_balances("closedAccounts"),
    ("CompressionInfo", "postTokenBalances"): _token_balances("openedAccounts"),
}
"""(definition, optional member) -> what the reference's answer tells of the member when it leaves it out."""


def settle(contract: Contract, method: str, target: Any, reference: Any) -> bool:
    """Drop from both comparables (normalized: readings of observed practice, allowed differences) each optional
    member absent on one side whose other side says no more than its absence (see the module). Whether anything
    was dropped; a list whose items lost a member is put back in order (the `order` normalizer's)."""
    if method not in contract.methods:
        return False
    shapes = contract.shapes(f"{method}.result")
    changed = False
    for t_node, r_node in _pairs(target, reference):
        for name in sorted(set(t_node) ^ set(r_node)):
            shape = _shape(shapes, set(t_node) | set(r_node), name)
            if shape is not None and _says_no_more(contract, shape, name, t_node, r_node):
                t_node.pop(name, None)
                r_node.pop(name, None)
                changed = True
    if changed:
        for side in (target, reference):
            _ORDER.rewrite(contract, method, side)
    return changed


def _pairs(target: Any, reference: Any) -> Iterator[tuple[dict, dict]]:
    """Objects at the same place on both sides, outermost first."""
    if isinstance(target, dict) and isinstance(reference, dict):
        yield target, reference
        for key in target.keys() & reference.keys():
            yield from _pairs(target[key], reference[key])
    elif isinstance(target, list) and isinstance(reference, list) and len(target) == len(reference):
        for one, other in zip(target, reference, strict=True):
            yield from _pairs(one, other)


def _shape(shapes: tuple[Shape, ...], members: set[str], name: str) -> Shape | None:
    """The contract's object both sides can be, in which `name` is optional."""
    return next((shape for shape in shapes if name in shape.optional and shape.fits(members)), None)


def _says_no_more(contract: Contract, shape: Shape, name: str, target: dict, reference: dict) -> bool:
    value = target[name] if name in target else reference[name]
    if contract.allows_null(shape.members[name]):
        return value is None
    if name in reference:
        return True  # absent says nothing: the target left out what the reference tells
    view = VIEWS.get((shape.definition, name))
    return view is None or canonical(sorted(value, key=canonical) if isinstance(value, list) else value) in {
        canonical(sorted(right, key=canonical)) for right in view(contract, reference)}
