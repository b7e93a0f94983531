"""Deliberately broken variants of the reference server, one fault each, served on loopback.

A variant breaks either the method layer (`dispatch`: wraps the real dispatcher) or the wire
(`http`: rewrites each HTTP answer). Each names the family and the check meant to catch it.
Variants live here and in `tests/harness/variants_*.py` (one module per area, each with a
`VARIANTS` list); `all_variants()` gathers them, so adding a check means adding a module, not
editing this one.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import pkgutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.reference_server.app import create_app
from csi_conformance.reference_server.errors import INVALID_PARAMS, RpcError
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import load_scenario
from csi_conformance.reference_server.serve import running_server
from csi_conformance.reference_server.wiring import reference_ledger
from csi_conformance.schema import Contract

Dispatch = Callable[[str, Any], Any]
HttpRewrite = Callable[[str, int, dict, bytes], tuple[int, dict, bytes]]


@dataclass(frozen=True)
class Variant:
    name: str
    family: str
    check: str
    dispatch: Callable[[Dispatch, str, Any], Any] | None = None
    http: HttpRewrite | None = None
    scenario: bool = False
    """Run as `--scenario default`: a clean reference over the same scenario is compared with."""
    only: tuple[str, ...] = ()
    """What the run is narrowed to (default: the variant's family)."""
    clauses: tuple[str, ...] = ()
    """The clauses the fault violates. The variant test requires the caught findings to cite each, and
    docs/clauses.md counts a clause covered only through them: a variant declaring none proves none."""
    prover: bool = False
    """Needs the real light prover behind the reference (a placeholder proof would fail it anyway):
    run by tests/harness/test_proof_check.py with the prover, not by the generic variant test."""
    ledger: str | None = None
    """A folder of real transactions (`PHOTON_HEAD`) served instead of the default scenario: the run compares
    with a clean reference over the same folder, as `csi run --ledger file:FOLDER` does."""
    api: str = "0.50.0"
    """The contract the variant is served and certified under (`csi run --api NAME`); its clean reference too."""


class _Rewrite:
    """ASGI wrapper that buffers each answer and hands (path, status, headers, body) to a rewrite."""

    def __init__(self, app, rewrite: HttpRewrite) -> None:
        self.app, self.rewrite = app, rewrite

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        start: dict = {}
        chunks: list[bytes] = []

        async def capture(message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    headers = {k.decode(): v.decode() for k, v in start.get("headers", [])}
                    status, headers, body = self.rewrite(scope["path"], start["status"], headers, b"".join(chunks))
                    headers["content-length"] = str(len(body))
                    await send({"type": "http.response.start", "status": status,
                                "headers": [(k.encode(), v.encode()) for k, v in headers.items()]})
                    await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, capture)


PHOTON_HEAD = Path(__file__).resolve().parents[1] / "ledger_ingest" / "fixtures" / "photon-head" / "transactions"
"""Real transactions of today's ledger (batched trees), a folder each: what `Variant.ledger` names."""
_LEDGERS: dict[str | None, Any] = {}


def ledger_folder(name: str) -> Path:
    return PHOTON_HEAD / name


def _ledger(folder: str | None = None):
    """The default scenario's ledger, or the ledger of a `PHOTON_HEAD` folder (built once each)."""
    if folder not in _LEDGERS:
        _LEDGERS[folder] = load_scenario("default") if folder is None else \
            reference_ledger(LedgerSource.files([ledger_folder(folder)]))
    return _LEDGERS[folder]


@contextlib.contextmanager
def serving(variant: Variant | None, options: ServerOptions | None = None, *,
            ledger: str | None = None, api: str | None = None) -> Iterator[str]:
    """A reference server over the default scenario (or the `ledger` folder, else the variant's) with `variant`'s
    fault, serving the contract `api` names (else the variant's); yields its URL."""
    options = options or ServerOptions()
    contract = Contract.for_api(api or (variant.api if variant is not None else "0.50.0"))
    ledger = _ledger(ledger or (variant.ledger if variant is not None else None))

    def real(method: str, params: Any) -> Any:
        return call(ledger, method, params, options, contract)

    dispatch = real
    if variant is not None and variant.dispatch is not None:
        dispatch = lambda method, params: variant.dispatch(real, method, params)  # noqa: E731
    app = create_app(dispatch, options, contract=contract)
    if variant is not None and variant.http is not None:
        app = _Rewrite(app, variant.http)
    with running_server(app) as url:
        yield url


# -- helpers for writing variants -------------------------------------------------------------
def _on(method: str, change: Callable[[Any, Any], Any]) -> Callable[[Dispatch, str, Any], Any]:
    """Rewrite the result of one method: change(params, result) -> result."""

    def wrapped(real: Dispatch, name: str, params: Any) -> Any:
        result = real(name, params)
        return change(params, copy.deepcopy(result)) if name == method else result

    return wrapped


def _json_body(change: Callable[[Any], Any]) -> HttpRewrite:
    def rewrite(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
        try:
            document = loads(body)
        except Exception:
            return status, headers, body
        return status, headers, dumps(change(document)).encode()

    return rewrite


def _each_node(result: Any, matches: Callable[[dict], bool], change: Callable[[dict], None]) -> Any:
    """change(node) for every object of an answer that `matches`, however deep; returns the answer."""
    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if matches(node):
                change(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(result)
    return result


def _each_account(result: Any, change: Callable[[dict], None]) -> Any:
    return _each_node(result, lambda node: {"hash", "leafIndex", "tree", "owner"} <= set(node), change)


def _set(node: dict, key: str, value: Any) -> dict:
    node[key] = value
    return node


def _envelope_id(document: Any) -> Any:
    if isinstance(document, dict) and "id" in document:
        document["id"] = "not-your-id"
    return document


def _jsonrpc_one(document: Any) -> Any:
    if isinstance(document, dict) and "jsonrpc" in document:
        document["jsonrpc"] = "1.0"
    return document


def _unknown_answered(real: Dispatch, method: str, params: Any) -> Any:
    return None if method not in Contract.default().methods else real(method, params)


def _path_404(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    return (404, headers, b'{"error":"not found"}') if path != "/" else (status, headers, body)


def _text_plain(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    return status, {**headers, "content-type": "text/plain"}, body


def _created(path: str, status: int, headers: dict, body: bytes) -> tuple[int, dict, bytes]:
    return (201 if status == 200 and b'"result"' in body else status), headers, body


def _drop_context(real: Dispatch, method: str, params: Any) -> Any:
    result = real(method, params)
    if isinstance(result, dict) and "context" in result:
        result = {k: v for k, v in result.items() if k != "context"}
    return result


def _string_lamports(real: Dispatch, method: str, params: Any) -> Any:
    return _each_account(copy.deepcopy(real(method, params)), lambda a: _set(a, "lamports", str(a["lamports"])))


def _both_given(real: Dispatch, method: str, params: Any) -> Any:
    if method == "getCompressedAccount" and isinstance(params, dict) and params.get("address") and params.get("hash"):
        params = {"hash": params["hash"]}
    return real(method, params)


def _no_validation(real: Dispatch, method: str, params: Any) -> Any:
    try:
        return real(method, params)
    except RpcError as error:
        if error.code == INVALID_PARAMS:
            return None
        raise


def _unknown_member_ignored(real: Dispatch, method: str, params: Any) -> Any:
    if method in ("getCompressedAccountBalance", "getCompressedBalance") and isinstance(params, dict):
        params = {k: v for k, v in params.items() if k in ("address", "hash")}
    return real(method, params)


def _five_hashes(real: Dispatch, method: str, params: Any) -> Any:
    if method == "getValidityProof" and isinstance(params, dict) and len(params.get("hashes") or []) in (5, 6, 7):
        params = {**params, "hashes": params["hashes"][:4]}
    return real(method, params)


def _limit_ignored(real: Dispatch, method: str, params: Any) -> Any:
    if isinstance(params, dict) and isinstance(params.get("limit"), int):
        params = {**params, "limit": 1000}
    return real(method, params)


ENDLESS = "endless-cursor"


def _endless_cursor(real: Dispatch, method: str, params: Any) -> Any:
    if isinstance(params, dict) and params.get("cursor") == ENDLESS:
        result = real(method, {k: v for k, v in params.items() if k != "cursor"})
        key = next(k for k in result["value"] if k != "cursor")
        return {**result, "value": {key: [], "cursor": ENDLESS}}
    result = real(method, params)
    if isinstance(result, dict) and isinstance(result.get("value"), dict) and result["value"].get("cursor", 0) is None:
        result = {**result, "value": {**result["value"], "cursor": ENDLESS}}
    return result


def _cursor_ignored(real: Dispatch, method: str, params: Any) -> Any:
    if isinstance(params, dict) and "cursor" in params:
        params = {k: v for k, v in params.items() if k != "cursor"}
    return real(method, params)


def _reversed_pages(real: Dispatch, method: str, params: Any) -> Any:
    result = real(method, params)
    value = result.get("value") if isinstance(result, dict) else None
    if isinstance(value, dict) and isinstance(value.get("items"), list) and len(value["items"]) > 1:
        result = {**result, "value": {**value, "items": value["items"][::-1]}}
    return result


def _slice_from_zero(real: Dispatch, method: str, params: Any) -> Any:
    if isinstance(params, dict) and isinstance(params.get("dataSlice"), dict):
        params = {**params, "dataSlice": {**params["dataSlice"], "offset": 0}}
    return real(method, params)


def _shift_leaf_index(real: Dispatch, method: str, params: Any) -> Any:
    return _each_account(copy.deepcopy(real(method, params)), lambda a: _set(a, "leafIndex", a["leafIndex"] + 1))


def _bad_address_proof(params: Any, result: Any) -> Any:
    for item in result["value"]:
        item["proof"][0] = item["root"]
    return result


def _bad_leaf_indices(params: Any, result: Any) -> Any:
    result["value"]["leafIndices"] = [i + 1 for i in result["value"]["leafIndices"]]
    return result


def _no_items(params: Any, result: Any) -> Any:
    return {**result, "value": {**result["value"], "items": [], "cursor": None}}


def _drop_first_item(params: Any, result: Any) -> Any:
    result["value"]["items"] = result["value"]["items"][1:]
    return result


def _slot_created_later(real: Dispatch, method: str, params: Any) -> Any:
    return _each_account(copy.deepcopy(real(method, params)), lambda a: _set(a, "slotCreated", a["slotCreated"] + 1))


def _plus_one(params: Any, result: Any) -> Any:
    return {**result, "value": result["value"] + 1}


def _token_balance_plus_one(params: Any, result: Any) -> Any:
    for balance in result["value"]["token_balances"]:
        balance["balance"] += 1
    return result


EVERY_METHOD_ROW = tuple(f"4.2-M{row}" for row in range(1, 18))
"""The §4.2 rows of the methods with params: a check of every method's params cites its method's row."""

VARIANTS = [
    Variant("jsonrpc-1.0", "envelope", "envelope.jsonrpc-member", http=_json_body(_jsonrpc_one), clauses=("9-R1",)),
    Variant("id-not-echoed", "envelope", "envelope.id-echoed", http=_json_body(_envelope_id), clauses=("4.1-R4",)),
    Variant("unknown-method-answered", "envelope", "envelope.unknown-method", dispatch=_unknown_answered,
            clauses=("4.1-R4",)),
    Variant("method-path-404", "transport", "transport.path-forms", http=_path_404, clauses=("4.1-R2",)),
    Variant("success-201", "transport", "transport.success-status", http=_created, clauses=("4.1-R6",)),
    # proves no clause: an answer's content type is HTTP convention (4.1-R3 states the request's)
    Variant("text-plain", "transport", "transport.content-type", http=_text_plain),
    Variant("no-context", "schema", "schema.context-slot", dispatch=_drop_context, clauses=("1-R1",)),
    Variant("string-lamports", "schema", "schema.result", dispatch=_string_lamports,
            clauses=("2.3-R1", "2.1-R3", "4.2-M5", "4.2-M6", "4.2-M10")),
    Variant("both-address-and-hash", "params", "params.exactly-one-of", dispatch=_both_given,
            clauses=("4.2-N1", "7-C1")),
    Variant("no-param-validation", "params", "params.generated-invalid", dispatch=_no_validation,
            clauses=EVERY_METHOD_ROW),
    Variant("unknown-member-ignored", "params", "params.unknown-member", dispatch=_unknown_member_ignored,
            clauses=("4.1-R10",)),
    Variant("five-hashes", "limits", "limits.validity-hashes", dispatch=_five_hashes,
            clauses=("8-L1", "4.3-R1", "7-C2")),
    Variant("limit-ignored", "limits", "limits.page-limit", dispatch=_limit_ignored, clauses=("4.2-N3",)),
    Variant("endless-cursor", "pagination", "pagination.walk", dispatch=_endless_cursor, clauses=("4.1-R8",)),
    Variant("cursor-ignored", "pagination", "pagination.walk", dispatch=_cursor_ignored, clauses=("4.1-R8",)),
    # proves no clause: the spec states no order of items, only that a cursor fetches the next page
    Variant("reversed-pages", "pagination", "pagination.walk", dispatch=_reversed_pages),
    Variant("balance-off-by-one", "consistency", "consistency.balance-by-owner",
            dispatch=_on("getCompressedBalanceByOwner", _plus_one), clauses=("4.2-M4",)),
    Variant("token-balance-wrong", "consistency", "consistency.token-balances",
            dispatch=_on("getCompressedTokenBalancesByOwner", _token_balance_plus_one), clauses=("4.2-M8",)),
    Variant("slice-from-zero", "consistency", "consistency.data-slice", dispatch=_slice_from_zero, clauses=("4.2-N2",)),
    Variant("token-owner-signatures-empty", "consistency", "consistency.signatures-include",
            dispatch=_on("getCompressionSignaturesForTokenOwner", _no_items), clauses=("4.2-M13",)),
    Variant("shifted-leaf-index", "crypto", "crypto.account-hash", dispatch=_shift_leaf_index, clauses=("ledger-H1",)),
    Variant("bad-address-proof", "crypto", "crypto.new-address-proof",
            dispatch=_on("getMultipleNewAddressProofs", _bad_address_proof),
            clauses=("ledger-T2",)),
    Variant("bad-leaf-indices", "crypto", "crypto.validity-proof",
            dispatch=_on("getValidityProof", _bad_leaf_indices),
            clauses=("ledger-P3",)),
    Variant("delegate-list-short", "differential", "differential.mirror-delegates",
            dispatch=_on("getCompressedTokenAccountsByDelegate", _drop_first_item), clauses=("4.2-M7", "4.2-N5")),
    Variant("slot-created-later", "differential", "differential.mirror-accounts", dispatch=_slot_created_later,
            clauses=("2.3-R1",)),
    Variant("health-not-ok", "health", "health.ok", dispatch=_on("getIndexerHealth", lambda p, r: "healthy"),
            clauses=("4.2-M18", "4.2-N6")),
    # proves no clause: caught as observed practice: no clause says getIndexerSlot bounds context.slot
    Variant("slot-behind", "health", "health.slot", dispatch=_on("getIndexerSlot", lambda p, r: 1)),
]


def all_variants() -> list[Variant]:
    """The variants of this module and of every `tests/harness/variants_*.py` module."""
    found = list(VARIANTS)
    package = Path(__file__).parent
    for module in pkgutil.iter_modules([str(package)]):
        if module.name.startswith("variants_"):
            found += importlib.import_module(f"{__package__}.{module.name}").VARIANTS
    return found
