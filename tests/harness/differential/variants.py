"""Reference variants for the differential tests, each wrong (or only different) in one way.

They wrap the reference's method layer (`dispatch`) or rewrite its answers on the wire
(`http`), like the variants of `tests/harness/broken.py`, and are served with its `serving`.
"""

from __future__ import annotations

import copy
from typing import Any

from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.reference_server.errors import SERVER_ERROR, RpcError

from ..broken import VARIANTS, Dispatch, Variant

BALANCE = next(v for v in VARIANTS if v.name == "balance-off-by-one")
WRONG_HASH = "11111111111111111111111111111111"


def _dropped_item(real: Dispatch, method: str, params: Any) -> Any:
    """Every page after the first of an owner's accounts loses its first item."""
    result = real(method, params)
    if method == "getCompressedAccountsByOwner" and isinstance(params, dict) and params.get("cursor"):
        value = result["value"]
        if len(value["items"]) > 1:
            result = {**result, "value": {**value, "items": value["items"][1:]}}
    return result


def _wrong_hash(real: Dispatch, method: str, params: Any) -> Any:
    result = real(method, params)
    if method == "getCompressedAccount" and isinstance(result.get("value"), dict):
        result = copy.deepcopy(result)
        result["value"]["hash"] = WRONG_HASH
    return result


def _error_code(real: Dispatch, method: str, params: Any) -> Any:
    try:
        return real(method, params)
    except RpcError as error:
        raise RpcError(-32001 if error.code == SERVER_ERROR else SERVER_ERROR, error.message, error.data) from None


def _error_message(real: Dispatch, method: str, params: Any) -> Any:
    try:
        return real(method, params)
    except RpcError as error:
        raise RpcError(error.code, "something else entirely", error.data) from None


def _other_readings(node: Any) -> Any:
    """The same answer under other readings: numeric token states, optional members omitted,
    the client guide's member names."""
    if isinstance(node, list):
        return [_other_readings(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ("address", "data") and value is None and "leafIndex" in node:
            continue
        if key == "state" and value in ("initialized", "frozen"):
            value = ("initialized", "frozen").index(value)
        out = {**out, {"compressionInfo": "compression_info", "optionalTokenData": "maybeTokenData"}.get(key, key):
               _other_readings(value)}
    return out


def _readings_rewrite(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    try:
        return status, headers, dumps(_other_readings(loads(body))).encode()
    except Exception:
        return status, headers, body


WRONG_PAGE = Variant("dropped-item", "differential", "differential.generated", dispatch=_dropped_item)
WRONG_HASH_VARIANT = Variant("wrong-hash", "differential", "differential.generated", dispatch=_wrong_hash)
ERROR_CODE = Variant("error-code", "differential", "differential.cases", dispatch=_error_code)
ERROR_MESSAGE = Variant("error-message", "differential", "differential.cases", dispatch=_error_message)
OTHER_READINGS = Variant("other-readings", "differential", "differential.generated", http=_readings_rewrite)
SLOT_BEHIND = next(v for v in VARIANTS if v.name == "slot-behind")
