"""Seeded synthetic scenarios of any size, for load, pagination and benchmark runs.

`generate_scenario` writes a scenario document in the bundled format (cases/scenarios/README.md),
so a generated ledger can be saved, read and diffed like a hand-written one;
`generate_ledger` builds its ledger directly. The same `seed` always gives the same document,
hence the same hashes and roots.

The mix: mostly plain accounts spread over a few hundred owner programs (half with data, one
in five with an address, a few with lamports above 2^53), about one in five a token account
over a few mints (some delegated, a few frozen or with tlv), about one account in twenty
closed by a later transaction, and about one transaction in fifty failed.
"""

from __future__ import annotations

import base64
import random
from typing import Any

from reference_server.ledger import Ledger
from reference_server.scenario import scenario_from_document

__all__ = ["generate_ledger", "generate_scenario"]

_MINTS = 5
_DELEGATES = 5
_SECOND_TREE = "smt2rJAFdyJJupwaGAzAaZQ3SMbnn3QxrmvPrjvStos"
_FIRST_TREE = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"
_BIG = 2**53


def generate_scenario(*, accounts: int, seed: int) -> dict[str, Any]:
    """A scenario document opening exactly ``accounts`` accounts, deterministic for ``seed``."""
    if isinstance(accounts, bool) or not isinstance(accounts, int) or accounts < 0:
        raise ValueError(f"accounts must be a non-negative integer, got {accounts!r}")
    rng = random.Random(seed)
    owners = max(3, min(300, accounts // 10))
    holders = max(3, min(200, accounts // 20))
    keys: dict[str, Any] = {f"owner-{i}": {"seed": f"owner-{i}"} for i in range(owners)}
    keys |= {f"holder-{i}": {"seed": f"holder-{i}"} for i in range(holders)}
    keys |= {f"mint-{i}": {"seed": f"mint-{i}"} for i in range(_MINTS)}
    keys |= {f"delegate-{i}": {"seed": f"delegate-{i}"} for i in range(_DELEGATES)}
    keys |= {"tree-1": _FIRST_TREE, "tree-2": _SECOND_TREE}
    mix = _Mix(rng, owners, holders)
    transactions: list[dict[str, Any]] = []
    live: list[str] = []
    slot = 1000
    opened = 0
    while opened < accounts:
        slot += rng.choice((0, 1, 1, 2))
        if rng.random() < 0.02:
            transactions.append({"slot": slot, "error": f"InstructionError(0, Custom({rng.randrange(6000, 6100)}))"})
            continue
        tx: dict[str, Any] = {"slot": slot}
        if live and rng.random() < 0.17:
            at = rng.randrange(len(live))
            live[at], live[-1] = live[-1], live[at]
            tx["close"] = [live.pop()]
        count = min(accounts - opened, rng.randint(1, 6))
        tx["open"] = [mix.account(f"a{opened + i}") for i in range(count)]
        live.extend(spec["label"] for spec in tx["open"])
        opened += count
        transactions.append(tx)
    return {
        "version": 1,
        "description": f"generated: {accounts} accounts, seed {seed}",
        "seed": f"generated-{seed}",
        "keys": keys,
        "state_trees": ["tree-1", "tree-2"],
        "indexed_slot": slot + 2,
        "tip_slot": slot + 5,
        "transactions": transactions,
    }


def generate_ledger(*, accounts: int, seed: int) -> Ledger:
    """The ledger of ``generate_scenario(accounts=…, seed=…)``, without re-validating the document."""
    document = generate_scenario(accounts=accounts, seed=seed)
    return scenario_from_document(document, source=f"<generated: {accounts} accounts, seed {seed}>",
                                  validate=False).ledger


class _Mix:
    """Draws one account spec at a time from the mix described in the module docstring."""

    def __init__(self, rng: random.Random, owners: int, holders: int) -> None:
        self.rng = rng
        self.owners = owners
        self.holders = holders

    def account(self, label: str) -> dict[str, Any]:
        rng = self.rng
        spec: dict[str, Any] = {"label": label}
        if rng.random() < 0.1:
            spec["tree"] = "tree-2"
        if rng.random() < 0.2:
            spec["token"] = self._token()
            return spec
        spec["owner"] = f"owner-{rng.randrange(self.owners)}"
        spec["lamports"] = self._amount()
        if rng.random() < 0.5:
            raw = rng.randbytes(rng.randrange(0, 64))
            spec["data"] = {"discriminator": rng.randrange(1, 2**64), "base64": base64.b64encode(raw).decode()}
        if rng.random() < 0.2:
            spec["address"] = {"seed": [label]}
        return spec

    def _token(self) -> dict[str, Any]:
        rng = self.rng
        token: dict[str, Any] = {
            "mint": f"mint-{rng.randrange(_MINTS)}",
            "owner": f"holder-{rng.randrange(self.holders)}",
            "amount": self._amount(),
        }
        if rng.random() < 0.2:
            token["delegate"] = f"delegate-{rng.randrange(_DELEGATES)}"
        if rng.random() < 0.02:
            token["state"] = "frozen"
        if rng.random() < 0.01:
            token["tlv"] = base64.b64encode(rng.randbytes(8)).decode()
        return token

    def _amount(self) -> int:
        """Mostly small; one in a hundred above 2^53 (at most 2^60, so sums stay below 2^64)."""
        if self.rng.random() < 0.01:
            return self.rng.randrange(_BIG + 1, 2**60)
        return self.rng.randrange(0, 10**9)
