"""Broken variants for the params checks: a server that accepts what the spec forbids, or refuses what it allows."""

from __future__ import annotations

from typing import Any

from csi_conformance.reference_server.errors import INVALID_PARAMS, SERVER_ERROR, RpcError
from csi_conformance.schema import Contract
from csi_conformance.schema.validation import decoded_length

from .broken import Dispatch, Variant

ZERO_KEY = "1" * 32  # 32 zero bytes
ZERO_SIGNATURE = "1" * 64  # 64 zero bytes
KEY_SIZES = {"owner": 32, "address": 32, "hash": 32, "delegate": 32, "mint": 32, "signature": 64}


def _default_required(real: Dispatch, method: str, params: Any) -> Any:
    """A missing required param is filled with the zero key instead of refused."""
    if isinstance(params, dict) and method in Contract.default().methods:
        missing = [n for n in Contract.default().method(method).required_params if n not in params]
        params = {**params, **{n: ZERO_SIGNATURE if n == "signature" else ZERO_KEY for n in missing}}
    return real(method, params)


def _case_insensitive(real: Dispatch, method: str, params: Any) -> Any:
    if isinstance(params, dict):
        params = {name[:1].lower() + name[1:]: value for name, value in params.items()}
    return real(method, params)


def _unchecked_base58(real: Dispatch, method: str, params: Any) -> Any:
    """A key that is not base58 of the right length is read as the zero key."""
    if isinstance(params, dict):
        params = {name: (ZERO_SIGNATURE if KEY_SIZES[name] == 64 else ZERO_KEY)
                  if name in KEY_SIZES and isinstance(value, str) and decoded_length(value) != KEY_SIZES[name]
                  else value for name, value in params.items()}
    return real(method, params)


def _not_found_error(real: Dispatch, method: str, params: Any) -> Any:
    result = real(method, params)
    if method == "getCompressedAccount" and isinstance(result, dict) and result.get("value") is None:
        raise RpcError(SERVER_ERROR, "Record Not Found: no such account")
    return result


def _new_addresses_dropped(real: Dispatch, method: str, params: Any) -> Any:
    if method == "getValidityProof" and isinstance(params, dict) and "newAddresses" in params:
        raise RpcError(INVALID_PARAMS, "Invalid params: unknown field `newAddresses`")
    return real(method, params)


def _large_limit_refused(real: Dispatch, method: str, params: Any) -> Any:
    """A valid `limit` over 500 is refused (the spec states no maximum)."""
    if isinstance(params, dict) and isinstance(params.get("limit"), int) and params["limit"] > 500:
        raise RpcError(INVALID_PARAMS, "Invalid params: limit over 500")
    return real(method, params)


def _proof_anyway(phrase: str):
    """getValidityProof answers null instead of failing when the error message holds `phrase`."""

    def dispatch(real: Dispatch, method: str, params: Any) -> Any:
        try:
            return real(method, params)
        except RpcError as error:
            if method == "getValidityProof" and phrase in error.message:
                return None
            raise

    return dispatch


VARIANTS = [
    Variant("default-required-param", "params", "params.required", dispatch=_default_required,
            clauses=("4.2-M4", "4.2-M5", "4.2-M6", "4.2-M7", "4.2-M8", "4.2-M10", "4.2-M11", "4.2-M12", "4.2-M13")),
    Variant("case-insensitive-names", "params", "params.case-sensitive", dispatch=_case_insensitive,
            clauses=("4.1-R9",)),
    Variant("unchecked-base58", "params", "params.invalid-base58", dispatch=_unchecked_base58,
            clauses=("2.1-R1", "2.1-R2", "2.1-R5")),
    Variant("not-found-error", "params", "params.not-found", dispatch=_not_found_error,
            clauses=("7-N1",)),
    Variant("new-addresses-dropped", "params", "params.deprecated-new-addresses", dispatch=_new_addresses_dropped,
            clauses=("4.3-P3",)),
    # proves no clause: the maximum `limit` is not shown (8-S2): a valid request refused breaks no stated rule
    Variant("large-limit-refused", "params", "params.generated-valid", dispatch=_large_limit_refused),
    Variant("proof-of-unknown-account", "params", "params.validity-unknown-account",
            dispatch=_proof_anyway("does not exist"), clauses=("4.3-R3", "7-C2")),
    Variant("proof-of-consumed-account", "params", "params.validity-consumed-account",
            dispatch=_proof_anyway("has been consumed"), clauses=("4.3-R3", "7-C2")),
]
