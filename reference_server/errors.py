"""JSON-RPC errors the reference server answers with.

Codes follow observed practice (observed-practice.md, "Envelope and transport"), since the
spec shows no numeric codes (clause 7-R5): -32700 parse error, -32600 invalid request,
-32601 method not found, -32602 params that fail to parse (missing field, wrong type, bad
base58, limit out of range), -32000 validation and not-found errors.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "SERVER_ERROR",
    "RpcError",
]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_ERROR = -32000

DEFAULT_MESSAGES = {
    PARSE_ERROR: "Parse error",
    INVALID_REQUEST: "Invalid Request",
    METHOD_NOT_FOUND: "Method not found",
    INVALID_PARAMS: "Invalid params",
    INTERNAL_ERROR: "Internal error",
    SERVER_ERROR: "Server error",
}


class RpcError(Exception):
    """A failure answered as a JSON-RPC error object; the message defaults from the code table."""

    def __init__(self, code: int, message: str | None = None, data: Any = None) -> None:
        self.code = code
        self.message = message or DEFAULT_MESSAGES.get(code, "Server error")
        self.data = data
        super().__init__(f"{code}: {self.message}")

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error
