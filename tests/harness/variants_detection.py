"""Broken servers whose fault shows on one path of a rule and not another (#21, class 7): a check that asked one
way only would miss them. A spent account proven when it is not the first hash, or beside a new address;
valid address counts refused beside a hash, or in a batch of new-address proofs; a failed transaction listed for
its owner, or given compression info; an address root index or rootSeq from another history."""

from __future__ import annotations

from typing import Any

from csi_conformance.reference_server.errors import SERVER_ERROR, RpcError

from .broken import Dispatch, Variant


def _consumed_proven_unless(first_only: bool):
    """getValidityProof checks only the first hash for being spent (`first_only`), or skips the check when the
    request also asks for new addresses (a combined proof): a spent account elsewhere gets a (null) result."""
    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        try:
            return real(method, params)
        except RpcError as error:
            if method != "getValidityProof" or "has been consumed" not in error.message:
                raise
            hashes = params.get("hashes") or []
            if first_only and hashes and hashes[0] not in error.message:
                return None
            if not first_only and params.get("newAddressesWithTrees"):
                return None
            raise

    return dispatch


def _two_addresses_refused_beside_a_hash(real: Dispatch, method: str, params: Any) -> Any:
    """A combined proof (hashes and new addresses) is refused for two addresses: one circuit missing."""
    if method == "getValidityProof" and isinstance(params, dict) and params.get("hashes") \
            and len(params.get("newAddressesWithTrees") or []) == 2:
        raise RpcError(SERVER_ERROR, "Prover error: no circuit for 1 account and 2 addresses")
    return real(method, params)


def _address_proofs_one_at_a_time(real: Dispatch, method: str, params: Any) -> Any:
    """getMultipleNewAddressProofs refuses more than one address per request."""
    if method == "getMultipleNewAddressProofs" and isinstance(params, list) and len(params) > 1:
        raise RpcError(SERVER_ERROR, "Validation Error: one address per request")
    return real(method, params)


def _failed(real: Dispatch) -> list[str]:
    items = real("getLatestNonVotingSignatures", {})["value"]["items"]
    return [item["signature"] for item in items if item.get("error")]


def _failed_listed_for_owner(real: Dispatch, method: str, params: Any) -> Any:
    """An indexer that records the accounts a failed transaction would have touched: the owner's list holds it."""
    result = real(method, params)
    if method == "getCompressionSignaturesForOwner":
        items = result["value"]["items"]
        newest = items[0] if items else {"slot": 0, "blockTime": 0}
        extra = [{"signature": signature, "slot": newest["slot"], "blockTime": newest["blockTime"]}
                 for signature in _failed(real)]
        result = {**result, "value": {**result["value"], "items": extra + items}}
    return result


def _info_for_failed(real: Dispatch, method: str, params: Any) -> Any:
    """A failed transaction gets compression info (empty lists) instead of null; other transactions do not."""
    result = real(method, params)
    if method == "getTransactionWithCompressionInfo" and result is None and params["signature"] in _failed(real):
        return {"compressionInfo": {"closedAccounts": [], "openedAccounts": []}, "transaction": {}}
    return result


def _address_root_index_off(real: Dispatch, method: str, params: Any) -> Any:
    """getValidityProof gives its new addresses a root index one past the address tree's (another history)."""
    result = real(method, params)
    if method == "getValidityProof" and isinstance(result, dict) and params.get("newAddressesWithTrees"):
        indices = result["value"]["rootIndices"]
        accounts = len(params.get("hashes") or [])
        result["value"]["rootIndices"] = indices[:accounts] + [(i + 1) % 2400 for i in indices[accounts:]]
    return result


def _root_seq_behind(real: Dispatch, method: str, params: Any) -> Any:
    """getMultipleNewAddressProofs states a rootSeq one below the root it serves."""
    result = real(method, params)
    if method == "getMultipleNewAddressProofs" and isinstance(result, dict):
        result = {**result, "value": [{**item, "rootSeq": item["rootSeq"] - 1} for item in result["value"]]}
    return result


VARIANTS = [
    Variant("consumed-proven-after-a-live-account", "params", "params.validity-consumed-account",
            dispatch=_consumed_proven_unless(first_only=True), clauses=("4.3-R3", "7-C2")),
    Variant("consumed-proven-beside-a-new-address", "params", "params.validity-consumed-account",
            dispatch=_consumed_proven_unless(first_only=False), clauses=("4.3-R3", "7-C2")),
    Variant("two-addresses-refused-beside-a-hash", "limits", "limits.validity-addresses",
            dispatch=_two_addresses_refused_beside_a_hash, clauses=("8-L2",)),
    Variant("address-proofs-one-at-a-time", "crypto", "crypto.new-address-proof",
            dispatch=_address_proofs_one_at_a_time, clauses=("4.2-M16",)),
    Variant("address-root-index-one-past", "crypto", "crypto.validity-proof", dispatch=_address_root_index_off,
            clauses=("ledger-T2",)),
    Variant("address-root-seq-one-behind", "crypto", "crypto.tree-roots", dispatch=_root_seq_behind,
            clauses=("ledger-T4",), scenario=True),
    Variant("failed-transaction-listed-for-its-owner", "consistency", "consistency.failed-transactions",
            dispatch=_failed_listed_for_owner, clauses=("4.2-M12",)),
    Variant("compression-info-for-failed-transactions", "consistency", "consistency.failed-transactions",
            dispatch=_info_for_failed, clauses=("4.2-N7",)),
]
