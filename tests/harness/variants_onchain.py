"""Broken proofs that only the chain's programs, or its root history, catch: each caught by an `onchain` check.

Served by the reference over a generated chain with the real light prover (tests/harness/onchain/),
each variant rewrites one thing of a real answer: a root index one off (the program checks the
proof against another root, or finds none), a root that was never on-chain (the program would use
its own root, so only the root history shows it), a rootSeq one off, the accounts proven in another
order than asked, a proof point that does not decompress, root indices a transaction cannot carry,
and a proof of an account the chain has spent (an indexer that never saw the spend). `SAYS` holds
the words the finding must carry. They need a chain and the prover, so the generic variant test
leaves them out (`prover=True`); tests/harness/onchain/test_checks.py runs them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode

from .broken import Dispatch, Variant, _on

VALIDITY = "getValidityProof"
HISTORY = 2400
"""Roots a v1 tree keeps: a root index one below 0 names the last slot of the history."""


def _value(result: Any) -> Any:
    return result.get("value") if isinstance(result, dict) else None


def _indices(change: Callable[[int], int]) -> Callable[[Any, Any], Any]:
    def rewrite(params: Any, result: Any) -> Any:
        value = _value(result)
        if isinstance(value, dict) and isinstance(value.get("rootIndices"), list):
            value["rootIndices"] = [change(index) for index in value["rootIndices"]]
        return result

    return rewrite


def _bumped(root: Any) -> Any:
    """Another valid field element: the root plus one (base58 on the wire, or a JSON integer)."""
    if isinstance(root, int):
        return root + 1
    return b58encode((int.from_bytes(b58decode(root, length=32), "big") + 1).to_bytes(32, "big"))


def _root_never_on_chain(params: Any, result: Any) -> Any:
    value = _value(result)
    if isinstance(value, dict) and value.get("roots"):
        value["roots"][0] = _bumped(value["roots"][0])
    return result


def _root_seq_one_below(params: Any, result: Any) -> Any:
    for item in _value(result) or ():
        item["rootSeq"] -= 1
    return result


def _b_not_a_point(params: Any, result: Any) -> Any:
    value = _value(result)
    if isinstance(value, dict) and isinstance(value.get("compressedProof"), dict):
        value["compressedProof"]["b"] = [0xFF] * 64
    return result


def _other_order(real: Dispatch, method: str, params: Any) -> Any:
    """The proof of the accounts asked, made for them in the reverse order (and answered in that order)."""
    if method == VALIDITY and isinstance(params, dict) and len(params.get("hashes") or ()) > 1:
        params = {**params, "hashes": params["hashes"][::-1]}
    return real(method, params)


def _spends_ignored(real: Dispatch, method: str, params: Any) -> Any:
    """An indexer that never saw the spends: a spent account it is asked about is proven as if live. Needs
    the ledger the dispatcher serves (`real.ledger`, tests/harness/onchain/serving.py)."""
    ledger = getattr(real, "ledger", None)
    if method != VALIDITY or ledger is None or not isinstance(params, dict):
        return real(method, params)
    accounts = [ledger.account(b58decode(text, length=32)) for text in params.get("hashes") or ()]
    reopened = [(account, account.closed_by) for account in accounts if account is not None and account.closed]
    for account, _ in reopened:
        account.closed_by = None
    try:
        return copy.deepcopy(real(method, params))
    finally:
        for account, closed_by in reopened:
            account.closed_by = closed_by


def _variant(name: str, check: str, clauses: tuple[str, ...], **fault: Any) -> Variant:
    return Variant(name, "onchain", check, only=("onchain",), clauses=clauses, prover=True, **fault)


ACCEPTED = "onchain.proof-accepted"
REFUSED = ("ledger-P4", "4.3-R5")

VARIANTS: list[Variant] = [
    _variant("root-index-off-by-one", ACCEPTED, REFUSED,
             dispatch=_on(VALIDITY, _indices(lambda index: (index - 1) % HISTORY))),
    _variant("root-index-past-the-newest", ACCEPTED, REFUSED, dispatch=_on(VALIDITY, _indices(lambda i: i + 1))),
    _variant("accounts-in-another-order", ACCEPTED, REFUSED, dispatch=_other_order),
    _variant("proof-point-b-not-on-curve", ACCEPTED, REFUSED, dispatch=_on(VALIDITY, _b_not_a_point)),
    _variant("root-indices-past-u16", ACCEPTED, ("ledger-P4",),
             dispatch=_on(VALIDITY, _indices(lambda index: index + 70_000))),
    _variant("root-never-on-chain", "onchain.root-history", ("ledger-T3",),
             dispatch=_on(VALIDITY, _root_never_on_chain)),
    _variant("address-root-seq-one-below", "onchain.root-history", ("ledger-T3",),
             dispatch=_on("getMultipleNewAddressProofs", _root_seq_one_below)),
    _variant("spent-account-proven", "onchain.spent-account", ("4.3-R3", "ledger-P5"), dispatch=_spends_ignored),
]

SAYS = {
    "root-index-off-by-one": "Custom(13006): the proof does not verify against the on-chain roots",
    "root-index-past-the-newest": "a root index naming no root yet",
    "accounts-in-another-order": "Custom(13006): the proof does not verify against the on-chain roots",
    "proof-point-b-not-on-curve": "Custom(13003): the proof point B does not decompress to a G2 point",
    "root-indices-past-u16": "Root indices cannot be put into a transaction",
    "root-never-on-chain": "Root never on-chain",
    "address-root-seq-one-below": "Root index names another on-chain root",
    "spent-account-proven": "Custom(9002): the queue already holds this element: the account is already spent",
}
"""Words the caught finding carries (its title, or the program's error as the finding gives it), by variant."""
