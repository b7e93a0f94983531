"""The method registry and `call`, the one entry point the transport uses.

Each method is a pure function `(ledger, params, options, method) -> value`, registered under its
canonical name with `@rpc_method`. `call` resolves aliases, checks params against the
contract, runs the function and wraps the value of a state query in `{context, value}`.

A contract whose practice differs from the spec's on a method both list registers its own function for it
with `@rpc_method(name, api=...)`: `call` runs that one when it serves that contract (Photon at 366a15b
orders an owner's accounts by leaf index and proves addresses the spec's contract refuses).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from csi_conformance.reference_server.errors import INVALID_PARAMS, METHOD_NOT_FOUND, RpcError
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Contract, Method, Validator

__all__ = ["PROOF_FORM_READINGS", "REGISTRY", "VARIANTS", "MethodFunction", "call", "readings", "registered",
           "rpc_method"]

MethodFunction = Callable[[Ledger, Any, ServerOptions, Method], Any]
"""A method's implementation: the ledger, the params, the server's options and the method's contract."""

REGISTRY: dict[str, MethodFunction] = {}
VARIANTS: dict[tuple[str, str], MethodFunction] = {}
"""(contract name, method) -> the function that answers the method when that contract is served."""

PROOF_FORM_READINGS = {"wire": {"validity-proof-fields": ("wire",), "bn-values": ("base58",)},
                       "spec-2.10": {"validity-proof-fields": ("spec-2.10",), "bn-values": ("integer",)}}
"""The readings of the proof's fields each `--profile` of the reference answers with."""


def readings(contract: Contract, options: ServerOptions) -> dict[str, tuple[str, ...]]:
    """The readings the reference follows: observed practice on every open point, but for the proof form asked."""
    return {**contract.observed_readings(), **PROOF_FORM_READINGS[options.proof_form]}


def rpc_method(name: str, *, api: str | None = None) -> Callable[[MethodFunction], MethodFunction]:
    """Register ``function`` as the implementation of the canonical method ``name``; with ``api``, as the one
    that answers it while the contract of that name is served."""
    table: dict[Any, MethodFunction] = REGISTRY if api is None else VARIANTS
    key = name if api is None else (api, name)

    def register(function: MethodFunction) -> MethodFunction:
        if key in table:
            raise ValueError(f"method {key!r} is registered twice")
        table[key] = function
        return function

    return register


def registered() -> frozenset[str]:
    return frozenset(REGISTRY)


def call(
    ledger: Ledger, method: str, params: Any, options: ServerOptions, contract: Contract | None = None
) -> Any:
    """Answer one request: the JSON `result`, or RpcError for an operation-level failure.

    Params are checked against the canonical method's contract: an alias is the same method under
    another name (observed), so getCompressedBalance refuses unknown members like the method it names.
    """
    contract = contract or Contract.default()
    spec = contract.methods.get(method) if isinstance(method, str) else None
    function = None if spec is None else (VARIANTS.get((contract.version, spec.canonical))
                                          or REGISTRY.get(spec.canonical))
    if spec is None or function is None:
        raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method!r}")
    params = _normalise(contract, spec.canonical, params)
    problems = _params_validator(contract, spec.canonical).violations(params)
    if problems:
        raise RpcError(INVALID_PARAMS, f"Invalid params: {problems[0]}")
    value = function(ledger, params, options, spec)
    if spec.state:
        return {"context": {"slot": ledger.indexed_slot}, "value": value}
    return value


@lru_cache(maxsize=256)
def _params_validator(contract: Contract, name: str) -> Validator:
    """The params validator of a method under observed practice's readings, looked up once per contract."""
    return contract.params_validator(name, contract.observed_readings())


def _normalise(contract: Contract, name: str, params: Any) -> Any:
    """Absent params of an object method read as `{}`; an array reads positionally (observed).

    Observed practice accepts params given as an array in field order; the spec shows only
    the object form (4.1-R5). For methods without params, absent (None here: the transport has
    already refused an explicit `params: null`) reads as `[]`; the contract accepts [] and {}.
    """
    spec = contract.method(name)
    if spec.params_kind == "none":
        return [] if params is None else params
    if spec.params_kind == "object":
        if params is None:
            return {}
        if isinstance(params, list) and len(params) <= len(spec.param_names):
            return {key: value for key, value in zip(spec.param_names, params, strict=False)}
    return params
