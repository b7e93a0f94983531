"""Hypothesis strategies that draw scenario documents of telling shapes (reference_server/scenarios/README.md).

A conformance kit must judge a correct server correct whatever its ledger holds, not only on the
bundled default scenario. Each shape stresses what the default never shows: nothing at all, a
single account, no tokens, tokens without delegates, no addresses, no data, everything closed,
values of 2^60 and more, one owner with hundreds of accounts, several state trees. Every drawn
document is valid (`reference_server.scenario.validate_document`) and obeys the ledger rules the
loader enforces (unique labels and addresses, closes of live accounts only, slots in order), and
stays within what a real ledger can hold (one owner's lamports, one mint's amounts, fit in a u64).
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

__all__ = ["SHAPES", "Shape", "scenario_documents", "scenarios"]

U64_MAX = 2**64 - 1
BIG = 2**60
TREES = ("smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", "smt2rJAFdyJJupwaGAzAaZQ3SMbnn3QxrmvPrjvStos")


@dataclass(frozen=True)
class Shape:
    """The knobs of one shape: how many accounts, of which kinds, and what happens to them."""

    accounts: tuple[int, int] = (1, 24)
    """Least and most accounts opened."""
    owners: tuple[int, int] = (1, 4)
    """Owner programs of the plain accounts."""
    tokens: bool = True
    delegates: bool = True
    addresses: bool = True
    data: bool = True
    close: str = "some"
    """`none`, `some` or `all`: which accounts a later transaction closes."""
    big: bool = False
    """Lamports and amounts of 2^60 and more (never more than a u64 in total per owner or mint)."""
    trees: tuple[int, int] = (1, 2)
    """Least and most state trees."""
    failed: bool = True
    """Whether failed transactions (which change nothing) may appear."""


SHAPES: dict[str, Shape] = {
    "empty": Shape(accounts=(0, 0)),
    "one-account": Shape(accounts=(1, 1), close="none"),
    "no-tokens": Shape(tokens=False),
    "no-delegates": Shape(delegates=False),
    "no-addresses": Shape(addresses=False),
    "no-data": Shape(data=False),
    "everything-closed": Shape(accounts=(1, 12), close="all"),
    "values-from-2^60": Shape(accounts=(1, 12), big=True),
    "one-crowded-owner": Shape(accounts=(200, 400), owners=(1, 1), tokens=False, close="none", failed=False),
    "several-trees": Shape(trees=(3, 5)),
}
"""Every shape the property test certifies, by name."""


@dataclass
class _Draft:
    """A document being drawn: its keys, its transactions, and the values already spent."""

    shape: Shape
    draw: Callable[[st.SearchStrategy], Any]
    keys: dict[str, Any]
    trees: list[str]
    owners: list[str]
    mints: list[str]
    holders: list[str]
    delegates: list[str]
    transactions: list[dict[str, Any]]
    live: list[str]
    slot: int = 1000

    def value(self, total: int) -> int:
        """Lamports or an amount; with `big`, 2^60 plus a little, so that (at most 12 accounts) no
        owner's or mint's total passes u64."""
        if self.shape.big:
            return BIG + self.draw(st.integers(0, 2**58))
        return self.draw(st.integers(0, 10**9)) if total < 10**12 else 0


def _keys(draw: Callable, shape: Shape) -> tuple[dict[str, Any], dict[str, list[str]]]:
    owners = [f"program{i}" for i in range(draw(st.integers(*shape.owners)))]
    mints = [f"mint{i}" for i in range(draw(st.integers(1, 3)))] if shape.tokens else []
    holders = [f"holder{i}" for i in range(draw(st.integers(1, 3)))] if shape.tokens else []
    delegates = [f"delegate{i}" for i in range(draw(st.integers(1, 2)))] if shape.tokens and shape.delegates else []
    extra_trees = [f"tree{i}" for i in range(draw(st.integers(*shape.trees)) - 1)]
    names = [*owners, *mints, *holders, *delegates, "idle", *extra_trees[len(TREES) - 1:]]
    keys: dict[str, Any] = {name: {"seed": name} for name in names}
    keys |= {name: TREES[i + 1] for i, name in enumerate(extra_trees[:len(TREES) - 1])}
    groups = {"owners": owners, "mints": mints, "holders": holders, "delegates": delegates,
              "trees": [TREES[0], *extra_trees]}
    return keys, groups


def _plain(draft: _Draft, label: str, totals: dict[str, int]) -> dict[str, Any]:
    draw, shape = draft.draw, draft.shape
    owner = draw(st.sampled_from(draft.owners))
    account: dict[str, Any] = {"label": label, "owner": owner, "lamports": draft.value(totals.get(owner, 0))}
    totals[owner] = totals.get(owner, 0) + account["lamports"]
    if shape.addresses and draw(st.booleans()):
        account["address"] = {"seed": [label]}
    if shape.data and draw(st.booleans()):
        raw = draw(st.binary(max_size=40))
        account["data"] = {"discriminator": draw(st.integers(0, U64_MAX)), "base64": base64.b64encode(raw).decode()}
    return account


def _token(draft: _Draft, label: str, totals: dict[str, int]) -> dict[str, Any]:
    draw = draft.draw
    mint = draw(st.sampled_from(draft.mints))
    token: dict[str, Any] = {"mint": mint, "owner": draw(st.sampled_from(draft.holders)),
                             "amount": draft.value(totals.get(mint, 0))}
    totals[mint] = totals.get(mint, 0) + token["amount"]
    if draft.delegates and draw(st.booleans()):
        token["delegate"] = draw(st.sampled_from(draft.delegates))
    if draw(st.integers(0, 4)) == 0:
        token["state"] = "frozen"
    if draw(st.integers(0, 4)) == 0:
        token["tlv"] = base64.b64encode(draw(st.binary(min_size=1, max_size=8))).decode()
    return {"label": label, "token": token}


def _account(draft: _Draft, label: str, totals: dict[str, int]) -> dict[str, Any]:
    is_token = bool(draft.mints) and draft.draw(st.integers(0, 2)) == 0
    account = _token(draft, label, totals) if is_token else _plain(draft, label, totals)
    if len(draft.trees) > 1:
        account["tree"] = draft.draw(st.sampled_from(draft.trees))
    return account


def _transactions(draft: _Draft, count: int) -> None:
    """Open `count` accounts over a few transactions, close some (or all) later, sprinkle failures."""
    draw, shape, totals = draft.draw, draft.shape, {}
    opened = 0
    while opened < count:
        size = min(count - opened, draw(st.integers(1, 40)))
        draft.slot += draw(st.integers(0, 2))
        accounts = [_account(draft, f"a{opened + i}", totals) for i in range(size)]
        draft.transactions.append({"slot": draft.slot, "open": accounts})
        draft.live += [a["label"] for a in accounts]
        opened += size
        if shape.failed and draw(st.integers(0, 3)) == 0:
            draft.transactions.append({"slot": draft.slot, "error": "InstructionError(0, Custom(1))",
                                       "open": [{"label": f"failed{len(draft.transactions)}", "owner": "idle"}]})
    closing = list(draft.live) if shape.close == "all" else (
        draw(st.lists(st.sampled_from(draft.live), unique=True, max_size=len(draft.live) // 3))
        if shape.close == "some" and draft.live else [])
    if closing:
        draft.slot += 1
        draft.transactions.append({"slot": draft.slot, "close": closing})


@st.composite
def scenario_documents(draw: Callable, shape: Shape) -> dict[str, Any]:
    """One valid scenario document of `shape`."""
    keys, groups = _keys(draw, shape)
    draft = _Draft(shape, draw, keys, groups["trees"], groups["owners"], groups["mints"], groups["holders"],
                   groups["delegates"], [], [])
    _transactions(draft, draw(st.integers(*shape.accounts)))
    document: dict[str, Any] = {"version": 1, "seed": f"shape-{draw(st.integers(0, 2**32))}", "keys": keys,
                                "state_trees": draft.trees, "transactions": draft.transactions}
    document["indexed_slot"] = draft.slot + draw(st.integers(0, 3))
    document["tip_slot"] = document["indexed_slot"] + draw(st.integers(0, 5))
    return document


def scenarios(names: list[str] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    """Documents of any of the named shapes (all by default)."""
    chosen = [SHAPES[name] for name in names] if names else list(SHAPES.values())
    return st.sampled_from(chosen).flatmap(scenario_documents)

