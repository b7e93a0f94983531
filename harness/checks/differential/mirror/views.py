"""What is compared of an answer: the fields a mirror can reproduce, with its hashes mapped back.

The mirror's accounts sit at other leaf indices than the target's, so `leafIndex`, `seq` and
`hash` differ by construction: views drop the first two and map the hash to the target's.
Optional members missing and null are the same view (ambiguity optional-null is judged by the
schema family), and token `state` is named whichever reading of token-state the target follows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.values import jsonable
from csi_conformance.harness.judging.pages import item_key

__all__ = ["account_view", "differences", "item_view", "keyed", "signature_view", "token_view", "what_differs"]

_STATES = {0: "initialized", 1: "frozen"}


def account_view(account: Any, to_target: Mapping[str, str] | None = None) -> Any:
    """An account without its tree position (leafIndex, seq), hash mapped to the target's."""
    if not isinstance(account, dict):
        return account
    data = account.get("data")
    hash_ = account.get("hash")
    return {
        "hash": to_target.get(hash_, hash_) if to_target else hash_,
        **{key: account.get(key) for key in ("lamports", "owner", "tree", "slotCreated", "address")},
        "data": {key: data.get(key) for key in ("data", "dataHash", "discriminator")} if isinstance(data, dict)
        else data,
    }


def token_view(token: Any) -> Any:
    """Token data with `state` by name."""
    if not isinstance(token, dict):
        return token
    state = token.get("state")
    return {**{key: token.get(key) for key in ("amount", "mint", "owner", "delegate", "tlv")},
            "state": _STATES.get(state, state)}


def item_view(item: Any, to_target: Mapping[str, str] | None = None) -> Any:
    """A TokenAccount: its account's view and its token data's."""
    if not isinstance(item, dict):
        return item
    return {"account": account_view(item.get("account"), to_target), "tokenData": token_view(item.get("tokenData"))}


def signature_view(item: Any, to_target: Mapping[str, str] | None = None) -> Any:
    """A SignatureItem: signature, slot and blockTime."""
    return {key: item.get(key) for key in ("signature", "slot", "blockTime")} if isinstance(item, dict) else item


def keyed(views: Iterable[Any]) -> dict[str, Any]:
    """Views by identity: account hash, signature or mint."""
    return {item_key(view): view for view in views}


def differences(mirror: Mapping[str, Any], target: Mapping[str, Any]) -> list[str]:
    """What differs between two keyed sets: members missing, members extra, members unequal."""
    found = [f"{key} missing" for key in sorted(mirror.keys() - target.keys())]
    found += [f"{key} not in the mirror" for key in sorted(target.keys() - mirror.keys())]
    for key in sorted(mirror.keys() & target.keys()):
        if mirror[key] != target[key]:
            found.append(f"{key}: {what_differs(mirror[key], target[key])}")
    return found


def what_differs(mirror: Any, target: Any) -> str:
    """The members of two views that differ, the target's value first."""
    if isinstance(mirror, dict) and isinstance(target, dict):
        keys = [k for k in {**mirror, **target} if mirror.get(k) != target.get(k)]
        return ", ".join(f"{k} {_short(target.get(k))} (mirror: {_short(mirror.get(k))})" for k in keys)
    return f"{_short(target)} (mirror: {_short(mirror)})"


def _short(value: Any, limit: int = 160) -> str:
    """A value as compact JSON (integers exact), cut at `limit` characters."""
    text = jsonio.dumps(jsonable(value))
    return text if len(text) <= limit else text[:limit] + "…"
