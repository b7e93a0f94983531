"""JSON shapes of the methods Photon serves beside the spec's 19 (helius-labs/photon at 366a15b).

A V2 account is the V1 account without `tree`, with `proveByIndex` and a `merkleContext` naming the tree and
the queue the account is really in (Photon `src/common/typedefs/account/v2.rs`, `MerkleContextV2` in
`src/api/method/get_validity_proof/v2.rs`). Photon writes every `Option` member as null, never leaves it out,
and sets `cpiContext` and `nextTreeContext` to null on every path that builds a merkle context.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.reference_server.batched import BatchedStateTree
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.shapes import account_json, key_text
from csi_conformance.reference_server.records import Account

__all__ = [
    "DEFAULT_KEY",
    "TREE_TYPES",
    "TreeContext",
    "account_of",
    "account_v2_json",
    "address_tree_context",
    "merkle_context_json",
    "state_tree_context",
]

TREE_TYPES = {"state_v1": 1, "address_v1": 2, "state_v2": 3, "address_v2": 4}
"""Light's `TreeType` as Photon writes it (a u16): program-libs/compressed-account/src/lib.rs."""

DEFAULT_KEY = b58encode(bytes(32))
"""`Pubkey::default()` in base58: what Photon answers for a root or queue it has none of."""

_V1_QUEUES = {
    "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT": "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148",
    "smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho": "nfq2hgS7NYemXsFaFUCe3EMXSDSfnZnAe27jC6aPP1X",
    "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2": "aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F",
}
"""The queues of Light's public v1 trees (nullifier queues of the state trees, the address queue of amt1), as
the official client lists them (stateless.js `src/constants.ts`). Photon reads them from each tree's account;
a v1 tree outside this table has no queue here, and its merkle context names the default key, as Photon does
for a tree whose metadata it lacks."""


@dataclass(frozen=True)
class TreeContext:
    """A tree as a merkle context names it: its type, its pubkey and the queue in front of it."""

    tree_type: int
    tree: str
    queue: str

    def json(self) -> dict[str, Any]:
        """This context as a `MerkleContextV2`."""
        return merkle_context_json(self)


def merkle_context_json(context: TreeContext, *, next_tree: bool = True) -> dict[str, Any]:
    """`{treeType, tree, queue, cpiContext: null[, nextTreeContext: null]}`; `TreeContextInfo` has no next tree."""
    body: dict[str, Any] = {"treeType": context.tree_type, "tree": context.tree, "queue": context.queue,
                            "cpiContext": None}
    if next_tree:
        body["nextTreeContext"] = None
    return body


def state_tree_context(ledger: Ledger, tree: bytes) -> TreeContext:
    """The context of a state tree of `ledger`: a batched tree with its output queue, a v1 tree with its
    nullifier queue."""
    found = ledger.state_trees.get(tree)
    name = key_text(tree)
    if isinstance(found, BatchedStateTree):
        return TreeContext(TREE_TYPES["state_v2"], name, key_text(found.queue))
    return TreeContext(TREE_TYPES["state_v1"], name, _V1_QUEUES.get(name, DEFAULT_KEY))


def address_tree_context(ledger: Ledger, tree: bytes) -> TreeContext:
    """The context of an address tree: a batched one is its own queue (its queue lives in the tree account)."""
    name = key_text(tree)
    if tree in ledger.batched_address_trees:
        return TreeContext(TREE_TYPES["address_v2"], name, name)
    return TreeContext(TREE_TYPES["address_v1"], name, _V1_QUEUES.get(name, DEFAULT_KEY))


def account_v2_json(ledger: Ledger, account: Account, data_slice: Mapping[str, int] | None = None) -> dict[str, Any]:
    """An `AccountV2`: `proveByIndex` is true exactly while the account waits in an output queue, and the
    merkle context is that of the tree it was written to (a batched account's own queue, as it was recorded)."""
    body = account_json(account, data_slice)
    del body["tree"]
    context = state_tree_context(ledger, account.tree)
    if account.queue is not None:
        context = TreeContext(context.tree_type, context.tree, key_text(account.queue))
    body["proveByIndex"] = ledger.in_output_queue(account)
    body["merkleContext"] = context.json()
    return body


def account_of(ledger: Ledger, body: Mapping[str, Any]) -> Account:
    """The ledger's account behind a V1 account JSON a method of the 19 answered."""
    return ledger.accounts[b58decode(body["hash"], length=32)]
