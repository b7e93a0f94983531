"""Seeded synthetic scenarios of any size, for load, pagination and benchmark runs.

`generate_scenario` writes a scenario document in the bundled format (reference_server/scenarios/README.md),
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
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from typing import Any

from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.ledger_crypto import (
    TOKEN_PROGRAM_ID,
    TokenDataFields,
    account_hash_inputs,
    derive_address,
    hashing_pool,
    poseidon_stream,
)
from csi_conformance.reference_server.ledger import DEFAULT_ADDRESS_TREE, Ledger
from csi_conformance.reference_server.records import NewAccount, PendingTransaction
from csi_conformance.reference_server.scenario import DEFAULT_BLOCK_TIME_BASE, derive_key, derive_signature

__all__ = ["generate_ledger", "generate_scenario"]

_MINTS = 5
_DELEGATES = 5
_FIRST_TREE = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"
_SECOND_TREE = "smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho"
"""The two public state trees stateless.js knows: a generated ledger is a mock for that client as it is."""
_BIG = 2**53
_POOL_MIN = 20_000
"""From this many accounts on, the hashing is shared with worker processes (`hashing_pool`)."""
_SEGMENT = 8_192
"""Accounts hashed per batch of the build's pipeline."""


def generate_scenario(*, accounts: int, seed: int) -> dict[str, Any]:
    """A scenario document opening exactly ``accounts`` accounts, deterministic for ``seed``."""
    plan = _Plan(accounts, seed)
    transactions = list(plan.transactions())
    return {**plan.header(), **plan.slots(), "transactions": transactions}


def generate_ledger(*, accounts: int, seed: int) -> Ledger:
    """The ledger of ``generate_scenario(accounts=…, seed=…)``, built as the document is drawn.

    Equal to ``scenario_from_document(document).ledger`` (a test holds them together), but
    faster: account hashes are computed ahead in batches (their leaf indices are known, since a
    generated ledger starts empty) by worker processes (`poseidon_stream`), while this process
    draws the next transactions and applies the batch before; the trees are written once at the
    end, shared with the workers too. The document itself is never held whole.
    """
    plan = _Plan(accounts, seed)
    with hashing_pool() if accounts >= _POOL_MIN else nullcontext():
        ledger = _DirectBuild(plan.header()).ledger(plan.transactions())
    slots = plan.slots()
    ledger.advance_to(slots["indexed_slot"])
    ledger.set_tip(slots["tip_slot"])
    return ledger


class _Plan:
    """One generated scenario: its header (keys, trees, seed) and its transactions, drawn lazily."""

    def __init__(self, accounts: int, seed: int) -> None:
        if isinstance(accounts, bool) or not isinstance(accounts, int) or accounts < 0:
            raise ValueError(f"accounts must be a non-negative integer, got {accounts!r}")
        self.accounts = accounts
        self.seed = seed
        self.owners = max(3, min(300, accounts // 10))
        self.holders = max(3, min(200, accounts // 20))
        self.last_slot: int | None = None

    def header(self) -> dict[str, Any]:
        keys: dict[str, Any] = {f"owner-{i}": {"seed": f"owner-{i}"} for i in range(self.owners)}
        keys |= {f"holder-{i}": {"seed": f"holder-{i}"} for i in range(self.holders)}
        keys |= {f"mint-{i}": {"seed": f"mint-{i}"} for i in range(_MINTS)}
        keys |= {f"delegate-{i}": {"seed": f"delegate-{i}"} for i in range(_DELEGATES)}
        keys |= {"tree-1": _FIRST_TREE, "tree-2": _SECOND_TREE}
        return {
            "version": 1,
            "description": f"generated: {self.accounts} accounts, seed {self.seed}",
            "seed": f"generated-{self.seed}",
            "keys": keys,
            "state_trees": ["tree-1", "tree-2"],
        }

    def transactions(self) -> Iterator[dict[str, Any]]:
        """The transactions in order; the same every time for the same seed."""
        rng = random.Random(self.seed)
        mix = _Mix(rng, self.owners, self.holders)
        live: list[str] = []
        slot = 1000
        opened = 0
        while opened < self.accounts:
            slot += rng.choice((0, 1, 1, 2))
            if rng.random() < 0.02:
                yield {"slot": slot, "error": f"InstructionError(0, Custom({rng.randrange(6000, 6100)}))"}
                continue
            tx: dict[str, Any] = {"slot": slot}
            if live and rng.random() < 0.17:
                at = rng.randrange(len(live))
                live[at], live[-1] = live[-1], live[at]
                tx["close"] = [live.pop()]
            count = min(self.accounts - opened, rng.randint(1, 6))
            tx["open"] = [mix.account(f"a{opened + i}") for i in range(count)]
            live.extend(spec["label"] for spec in tx["open"])
            opened += count
            yield tx
        self.last_slot = slot

    def slots(self) -> dict[str, int]:
        """The indexed and tip slots, known once every transaction was drawn."""
        if self.last_slot is None:
            raise RuntimeError("the transactions have not all been drawn yet")
        return {"indexed_slot": self.last_slot + 2, "tip_slot": self.last_slot + 5}


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
            raw = rng.randbytes(rng.randrange(0, 64)) or b"\0"  # stateless.js 0.20 refuses empty data
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


class _DirectBuild:
    """Builds a generated document's ledger, hashing in a pipeline (see `generate_ledger`).

    Reads only what `generate_scenario` writes, with the meaning `reference_server.scenario`
    gives it: named keys from seeds, the first state tree by default, the token program as the
    owner of token accounts, addresses derived from the label, data hashed with H2F.
    """

    def __init__(self, header: dict[str, Any]) -> None:
        self.seed: str = header["seed"]
        self.keys = {name: derive_key(self.seed, entry["seed"]) if isinstance(entry, dict)
                     else b58decode(entry, length=32) for name, entry in header["keys"].items()}
        self.trees = [self.keys[name] for name in header["state_trees"]]
        self.base = header.get("block_time_base", DEFAULT_BLOCK_TIME_BASE)

    def ledger(self, transactions: Iterable[dict[str, Any]]) -> Ledger:
        """Segment by segment: the workers hash segment k+1's accounts while segment k applies."""
        ledger = Ledger(state_trees=self.trees, address_tree=DEFAULT_ADDRESS_TREE)
        known: dict[tuple[bytes, ...], bytes] = {}
        labels: dict[str, bytes] = {}
        next_index = {key: tree.next_index for key, tree in ledger.state_trees.items()}
        with ledger.bulk(known_hashes=known):
            for (entries, opened, rows), hashes in poseidon_stream(self._segments(transactions, next_index)):
                labels.update(zip(opened, hashes, strict=True))
                known.update(zip(rows, hashes, strict=True))
                for index, entry in entries:
                    ledger.apply(self._transaction(index, entry, opened, labels))
        return ledger

    def _segments(self, transactions: Iterable[dict[str, Any]], next_index: dict[bytes, int]
                  ) -> Iterator[tuple[_Segment, list[tuple[bytes, ...]]]]:
        """Consecutive transactions opening about `_SEGMENT` accounts, with the Poseidon inputs
        of those accounts' hashes. Leaf indices follow the order accounts are opened in, per
        tree, from each tree's next index: the ledger appends in that order."""
        entries: list[tuple[int, dict[str, Any]]] = []
        opened: dict[str, NewAccount] = {}
        rows: list[tuple[bytes, ...]] = []
        for index, entry in enumerate(transactions):
            entries.append((index, entry))
            for spec in () if "error" in entry else entry.get("open", ()):
                new = opened[spec["label"]] = self._account(spec)
                rows.append(account_hash_inputs(
                    owner=new.owner, leaf_index=next_index[new.tree], tree=new.tree, lamports=new.lamports,
                    address=new.address, discriminator=new.discriminator, data_hash=new.data_hash,
                ))
                next_index[new.tree] += 1
            if len(rows) >= _SEGMENT:
                yield (entries, opened, rows), rows
                entries, opened, rows = [], {}, []
        if entries:
            yield (entries, opened, rows), rows

    def _transaction(self, index: int, entry: dict[str, Any], opened: dict[str, NewAccount],
                     labels: dict[str, bytes]) -> PendingTransaction:
        slot = entry["slot"]
        return PendingTransaction(
            signature=derive_signature(self.seed, index), slot=slot,
            block_time=entry.get("blockTime", self.base + slot * 2 // 5), error=entry.get("error"),
            open=() if "error" in entry else tuple(opened[spec["label"]] for spec in entry.get("open", ())),
            close=tuple(labels[label] for label in entry.get("close", ())),
        )

    def _account(self, spec: dict[str, Any]) -> NewAccount:
        tree = self.keys[spec["tree"]] if "tree" in spec else self.trees[0]
        lamports = spec.get("lamports", 0)
        if "token" in spec:
            return NewAccount.token_account(token=self._token(spec["token"]), tree=tree, lamports=lamports,
                                            address=self._address(spec, TOKEN_PROGRAM_ID))
        owner = self.keys[spec["owner"]]
        data = spec.get("data")
        return NewAccount.plain(
            owner=owner, lamports=lamports, tree=tree, address=self._address(spec, owner),
            discriminator=None if data is None else data["discriminator"],
            data=None if data is None else base64.b64decode(data["base64"]),
        )

    def _token(self, spec: dict[str, Any]) -> TokenDataFields:
        return TokenDataFields(
            mint=self.keys[spec["mint"]], owner=self.keys[spec["owner"]], amount=spec["amount"],
            delegate=self.keys[spec["delegate"]] if "delegate" in spec else None,
            state=spec.get("state", "initialized"),
            tlv=base64.b64decode(spec["tlv"]) if "tlv" in spec else None,
        )

    @staticmethod
    def _address(spec: dict[str, Any], program: bytes) -> bytes | None:
        if "address" not in spec:
            return None
        seeds = [part.encode() for part in spec["address"]["seed"]]
        return derive_address(program_id=program, seeds=seeds, address_tree=DEFAULT_ADDRESS_TREE)


_Segment = tuple[list[tuple[int, dict[str, Any]]], dict[str, NewAccount], list[tuple[bytes, ...]]]
