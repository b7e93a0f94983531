"""A token account's data hash, by every rule Light's token program applies: what `crypto.token-data-hash` judges.

The token program has hashed token data three ways (Light's
`program-libs/token-interface/src/state/compressed_token/{hash.rs,token_data_version.rs}`):
- v1: Poseidon(H2F(mint), H2F(owner), amount u64 little-endian, [H2F(delegate)], [1 if frozen]);
- v2: the same with the amount big-endian;
- ShaFlat: SHA-256 of the account's borsh bytes, byte 0 cleared.
The account's discriminator names the version (`[2,0…]` v1, `[0…,3]` v2, `[0…,4]` ShaFlat), except that the
program's builds before September 2025 (#1939) hashed every classic (`[2,0…]`) account of a batched tree
with v2: both hashes of a classic account are real in a batched tree, only v1 in a v1 tree.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.harness.verify.values import matching_layout
from csi_conformance.ledger_crypto import (
    TOKEN_DISCRIMINATOR,
    TOKEN_SHA_FLAT_DISCRIMINATOR,
    TOKEN_V2_DISCRIMINATOR,
    sha256_be,
    token_data_hash,
)

__all__ = ["RULES", "TOKEN_DISCRIMINATORS", "TokenHashes", "account_tree_batched", "token_hashes"]

V1, V2, V2_BATCHED, SHA_FLAT = "v1", "v2", "v2 (a batched tree's, token program before #1939)", "sha-flat"
RULES: dict[int, tuple[str, ...]] = {
    TOKEN_DISCRIMINATOR: (V1, V2_BATCHED),
    TOKEN_V2_DISCRIMINATOR: (V2,),
    TOKEN_SHA_FLAT_DISCRIMINATOR: (SHA_FLAT,),
}
"""Discriminator (wire integer) -> the hash rules the token program applies to accounts carrying it."""
TOKEN_DISCRIMINATORS = frozenset(RULES)


@dataclass(frozen=True)
class TokenHashes:
    """The data hashes (base58) an account may have, by rule; `unknown` says why a rule could not be worked out."""

    expected: dict[str, str]
    unknown: str | None = None

    def matches(self, served: Any) -> bool:
        return served in self.expected.values()


def account_tree_batched(account: dict, batched_trees: frozenset[str] | None,
                         queue_trees: frozenset[str] = frozenset()) -> bool | None:
    """Whether the account sits in a batched tree: the ledger's word when one is known (`batched_trees`), a tree
    getQueueInfo names batched (`queue_trees`), else the layout its account hash recomputes in; None when
    nothing tells (a hash that recomputes in both layouts or in neither)."""
    tree = account.get("tree")
    if batched_trees is not None:
        return tree in batched_trees
    if tree in queue_trees:
        return True
    try:
        v1 = matching_layout(account, (False,)) is not None
        v2 = matching_layout(account, (True,)) is not None
    except (KeyError, TypeError, ValueError, OverflowError):
        return None
    return v2 if v1 != v2 else None


def token_hashes(discriminator: Any, token: dict | None, data_bytes: str | None, batched: bool | None) -> \
        TokenHashes | None:
    """The hashes a token account of `discriminator` may carry, from its token data (`token`, wire form) or its
    whole data bytes (`data_bytes`, base64; None when sliced or absent); `batched`: whether its tree is batched
    (None: not known, so a classic account may have either hash). None for an account of no token version."""
    rules = RULES.get(discriminator) if type(discriminator) is int else None
    if rules is None:
        return None
    if batched is False:
        rules = tuple(rule for rule in rules if rule != V2_BATCHED)
    expected: dict[str, str] = {}
    unknown = None
    for rule in rules:
        try:
            expected[rule] = _hash(rule, token, data_bytes)
        except (KeyError, TypeError, ValueError, OverflowError, binascii.Error) as exc:
            unknown = f"{rule}: {exc}"
    return TokenHashes(expected, unknown)


def _hash(rule: str, token: dict | None, data_bytes: str | None) -> str:
    if rule == SHA_FLAT:
        if data_bytes is None:
            raise ValueError("the account's whole data bytes are not in the answer")
        return b58encode(sha256_be(base64.b64decode(data_bytes, validate=True)))
    if token is None:
        raise ValueError("no token data")
    return _token_hash(token["mint"], token["owner"], token["amount"], token.get("delegate") or None,
                       token.get("state") in ("frozen", 1), rule != V1)


@lru_cache(maxsize=65536, typed=True)  # typed: an amount of 1.0 is not the 1 it equals
def _token_hash(mint: str, owner: str, amount: int, delegate: str | None, frozen: bool, batched: bool) -> str:
    """Cached: a run meets the same token accounts in answer after answer, and each hash is a Poseidon or two."""
    return b58encode(token_data_hash(
        mint=b58decode(mint, length=32), owner=b58decode(owner, length=32), amount=amount,
        delegate=b58decode(delegate, length=32) if delegate is not None else None, frozen=frozen, batched=batched))
