"""The `jsonrpc_envelope` check for schemathesis: judge answers as JSON-RPC, not by HTTP status.

Loaded by schemathesis through `SCHEMATHESIS_HOOKS=harness.fuzz.schemathesis_hooks`.
"""

from __future__ import annotations

import schemathesis
from csi_conformance.groundwork.errors import JsonError
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.schema import Contract

ALLOWED_STATUSES = {200, 204, 400, 401, 405, 413, 429}
"""Statuses a JSON-RPC server may answer with (observed practice); anything else, 5xx above all, fails."""


def _method_of(path: str) -> str | None:
    name = path.strip("/").split("/")[-1]
    return name if name in Contract.default().methods else None


@schemathesis.check
def jsonrpc_envelope(ctx, response, case) -> bool | None:
    """Every answer is a JSON-RPC success or error object (or a §7 `{error}` body), never a 5xx;
    a success validates against the contract's result for the operation."""
    status = response.status_code
    if status not in ALLOWED_STATUSES:
        raise AssertionError(f"HTTP {status} is not an answer a JSON-RPC server gives; body: {response.text[:300]}")
    if status == 204:
        return None
    try:
        body = loads(response.content)
    except JsonError as exc:
        raise AssertionError(f"HTTP {status} body is not JSON: {exc}") from None
    contract = Contract.default()
    if isinstance(body, dict) and set(body) == {"error"} and isinstance(body["error"], str):
        return None  # the §7 bare error body (429, 500, auth, size)
    if isinstance(body, list):  # a batch answer: each element a JSON-RPC success or error object
        problems = [p for item in body for p in contract.validator("Error").violations(item)
                    if not contract.validator("Success").is_valid(item)]
    elif isinstance(body, dict) and "error" in body:
        problems = contract.validator("Error").violations(body)
    else:
        method = _method_of(case.path)
        problems = contract.response_validator(method).violations(body) if method else []
    if problems:
        raise AssertionError("answer breaks the contract: " + "; ".join(str(p) for p in problems[:3]))
    return None
