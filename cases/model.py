"""A golden case: one request and the answer the reference gives to it, as plain data.

Cases are files `cases/<method>/<name>.io`, one exchange each, like the `.io` fixtures of
ethereum/execution-apis:

    // description: getCompressedAccount by hash answers the account
    // clauses: 4.2-M1, 2.3-R1
    // mode: exact
    // scenario: default
    >> {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash","method":"getCompressedAccount","params":{...}}
    << {"jsonrpc":"2.0","id":"getCompressedAccount/by-hash","result":{...}}

Header lines are `// key: value`; `description`, `clauses` and `mode` are required, `scenario`
defaults to `default`, `ambiguity` names the ambiguity point a case exercises. `>>` is the
request, `<<` the expected answer (filled by `csi cases fill`, never by hand). Modes:

- `exact`: the target's answer equals the expected one after the normalizers (error messages,
  context slots and cursor strings ignored; integers compared exactly);
- `schema`: the answer only has to validate against the contract (the reference's answer is an
  example, not the truth; used where the spec leaves the value free);
- `invariant:<name>`: a named property of the answer, e.g. `invariant:error` (any JSON-RPC
  error, never a result) or `invariant:null-value`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["MODES", "Case"]

MODES = ("exact", "schema", "invariant")


@dataclass(frozen=True)
class Case:
    """One golden exchange; `response` is None until `csi cases fill` has recorded it."""

    name: str  # "<method>/<file stem>"
    method: str
    path: Path
    description: str
    clauses: tuple[str, ...]
    mode: str  # "exact", "schema" or "invariant:<name>"
    scenario: str
    request: Any
    response: Any = None
    ambiguity: str | None = None

    @property
    def invariant(self) -> str | None:
        return self.mode.split(":", 1)[1] if self.mode.startswith("invariant:") else None
