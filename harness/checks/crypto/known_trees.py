"""What the kit knows of a target's trees from what discovery saw, and what a target says its address tree holds.

A state tree's leaves are known only where the accounts seen (opened or closed by a transaction read,
or listed live) meet every leaf index 0 .. n - 1, one hash each; which leaves were spent comes from the
transactions' closed accounts. That is all the leaves and spends only when every transaction the
target lists was read: the caller establishes that (`TransactionsRead`), and says so when it cannot.

An address tree's elements are asked of the target itself: the low element of `address + 1` is the
address when the tree holds it, at its element index, in a proof folding to the answer's root.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.harness.checks.crypto.trees import MAX_LEAVES, StateLeaves
from csi_conformance.harness.context import Answer
from csi_conformance.harness.core.keys import Keys
from csi_conformance.harness.verify.addresses import stated_proof
from csi_conformance.harness.verify.values import matching_layout
from csi_conformance.ledger_crypto import HEIGHT, HIGHEST_ADDRESS_PLUS_ONE, verify_non_inclusion

__all__ = ["AddressElements", "address_elements", "created_addresses", "live_account_per_tree", "state_leaves",
           "tree_kinds"]

MAX_PROBES = 50
"""Addresses asked about in one getMultipleNewAddressProofs (observed practice caps it at 50)."""


def _seen_accounts(keys: Keys) -> Iterator[dict]:
    """Every account discovery saw: opened or closed in a transaction, or listed live."""
    yield from (seen["account"] for seen in keys.touched.values() if isinstance(seen.get("account"), dict))
    yield from keys.accounts.values()
    yield from (item.get("account") for item in keys.token_accounts.values() if isinstance(item.get("account"), dict))


def state_leaves(keys: Keys) -> tuple[dict[str, StateLeaves], dict[str, str]]:
    """Per tree, its leaves when every leaf index was met; else why they are not known."""
    by_tree: dict[str, dict[int, str]] = {}
    unknown: dict[str, str] = {}
    for account in _seen_accounts(keys):
        tree, index, hash_ = account.get("tree"), account.get("leafIndex"), account.get("hash")
        if not isinstance(tree, str) or type(index) is not int or index < 0 or not isinstance(hash_, str):
            continue
        held = by_tree.setdefault(tree, {}).setdefault(index, hash_)
        if held != hash_:
            unknown[tree] = f"two accounts at leaf index {index} ({held}, {hash_})"
    spent = {h for record in keys.transactions.values() for h in record.get("closed") or [] if isinstance(h, str)}
    known = {}
    for tree, hashes in by_tree.items():
        why = unknown.get(tree) or _gaps(hashes)
        leaves = None if why else _leaves(hashes)
        if leaves is None:
            unknown[tree] = why or "a leaf that is not a 32-byte field element"
            continue
        ordered = tuple(hashes[i] for i in range(len(hashes)))
        known[tree] = StateLeaves(tree, ordered, leaves, tuple(i for i, h in enumerate(ordered) if h in spent))
    return known, unknown


def tree_kinds(keys: Keys) -> dict[str, bool]:
    """Per state tree, whether it is batched, where the accounts seen in it say so: an account hash recomputes in
    one layout only (a batched tree's puts leaf index and lamports big-endian), and none says otherwise."""
    said: dict[str, set[bool]] = {}
    for account in _seen_accounts(keys):
        try:
            layouts = {batched for batched in (False, True) if matching_layout(account, (batched,)) is not None}
        except (KeyError, TypeError, ValueError, OverflowError):
            continue
        if len(layouts) == 1 and isinstance(account.get("tree"), str):
            said.setdefault(account["tree"], set()).update(layouts)
    return {tree: kinds.pop() for tree, kinds in said.items() if len(kinds) == 1}


def _gaps(hashes: dict[int, str]) -> str | None:
    """Why the leaf indices met are not 0 .. n - 1 without a gap (or are too many), or None when they are."""
    last = max(hashes)
    if last >= MAX_LEAVES:
        return f"leaf indices up to {last}: more than the {MAX_LEAVES} leaves a tree is rebuilt with"
    missing = last + 1 - len(hashes)
    if not missing:
        return None
    first = next(i for i in range(last) if i not in hashes)
    return f"{missing} of its leaf indices up to {last} were met by no account seen (the first: {first})"


def _leaves(hashes: dict[int, str]) -> tuple[bytes, ...] | None:
    try:
        return tuple(b58decode(hashes[i], length=32) for i in range(len(hashes)))
    except ValueError:
        return None


def live_account_per_tree(keys: Keys) -> dict[str, dict]:
    """One account per tree that discovery saw live (listed by its owner), none a transaction closed: the one of
    the lowest leaf index, the likeliest to have left a batched tree's output queue (a batch appends the
    oldest first), so that its proof names a root."""
    closed = set(keys["closed_hashes"])
    found: dict[str, dict] = {}
    live = [*keys.accounts.values(), *(item.get("account") for item in keys.token_accounts.values())]
    for account in live:
        if isinstance(account, dict) and isinstance(account.get("tree"), str) and account.get("hash") not in closed:
            held = found.setdefault(account["tree"], account)
            if type(account.get("leafIndex")) is int and type(held.get("leafIndex")) is int \
                    and account["leafIndex"] < held["leafIndex"]:
                found[account["tree"]] = account
    return found


def created_addresses(keys: Keys) -> list[str]:
    """Every address discovery saw an account hold (live or closed: an address never leaves its tree)."""
    seen = (account.get("address") for account in _seen_accounts(keys))
    return list(dict.fromkeys([*keys["addresses"], *keys["closed_addresses"],
                               *(a for a in seen if isinstance(a, str))]))


@dataclass
class AddressElements:
    """What one answer about `address + 1` for each address says the tree holds, and at which root."""

    answer: Answer
    held: dict[int, int] = field(default_factory=dict)
    """Element index -> the address value the tree holds there."""
    absent: list[str] = field(default_factory=list)
    """Addresses asked about that the tree does not hold (their successor's low element is another)."""
    root: str | None = None
    root_seq: int | None = None
    unreadable: str | None = None
    """Why the answer could not be read as proofs folding to one root (then nothing above is judged)."""


def address_elements(addresses: list[str], ask: Callable[[str, Any], Answer]) -> AddressElements | None:
    """The elements the tree holds among `addresses`, asked as new-address proofs of each `address + 1`;
    None when there is nothing to ask (no address, or more than one request holds)."""
    values = [v for v in (_value(a) for a in addresses) if v is not None and v + 1 < HIGHEST_ADDRESS_PLUS_ONE]
    if not values or len(values) > MAX_PROBES:
        return None
    probes = [b58encode((v + 1).to_bytes(32, "big")) for v in values]
    found = AddressElements(ask("getMultipleNewAddressProofs", probes))
    items = found.answer.value if found.answer.has_result else None
    if not isinstance(items, list) or len(items) != len(values):
        found.unreadable = "no proof per address asked"
        return found
    for value, item in zip(values, items, strict=True):
        proof = stated_proof(item)
        if proof is None or not verify_non_inclusion(proof, height=HEIGHT):
            found.unreadable = "a proof that does not fold to its root (crypto.new-address-proof's finding)"
            return found
        if (found.root, found.root_seq) not in ((None, None), (item["root"], item["rootSeq"])):
            found.unreadable = "two roots in one answer (crypto.new-address-proof's finding)"
            return found
        if type(item["rootSeq"]) is not int:
            found.unreadable = "a rootSeq that is not an integer (schema.result's finding)"
            return found
        found.root, found.root_seq = item["root"], item["rootSeq"]
        if proof.low_value == value:
            found.held[proof.low_leaf_index] = value
        else:
            found.absent.append(b58encode(value.to_bytes(32, "big")))
    return found


def _value(address: str) -> int | None:
    try:
        return int.from_bytes(b58decode(address, length=32), "big")
    except ValueError:
        return None
