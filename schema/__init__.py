"""The contract of the Compressed-State Indexer API 0.50.0, as data and the code that reads it.

`Contract` is the entry point; `jsonio` reads and writes JSON with exact integers. Beside them,
the kit's shared utilities that every room may use: `errors`, `files` (the one atomic writer),
`redaction` (keys out of URLs) and `retry_after`.
"""

from schema.contract import SCHEMA_DIR, SPEC_VERSION, Contract, Readings
from schema.errors import ContractError, CsiError, JsonError
from schema.model import Ambiguity, Clause, ErrorRule, Example, Limit, Method, Pagination, Reading
from schema.validation import Validator, Violation

__all__ = [
    "SCHEMA_DIR",
    "SPEC_VERSION",
    "Ambiguity",
    "Clause",
    "Contract",
    "ContractError",
    "CsiError",
    "ErrorRule",
    "Example",
    "JsonError",
    "Limit",
    "Method",
    "Pagination",
    "Reading",
    "Readings",
    "Validator",
    "Violation",
]
