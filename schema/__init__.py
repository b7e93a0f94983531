"""The contract of the Compressed-State Indexer API 0.50.0, as data and the code that reads it.

`Contract` is the entry point. The utilities every room uses (JSON with exact integers, base58,
the error family) are on the floor below, in `groundwork`.
"""

from csi_conformance.schema.contract import SCHEMA_DIR, SPEC_VERSION, Contract, Readings
from csi_conformance.schema.model import Ambiguity, Clause, ErrorRule, Example, Limit, Method, Pagination, Reading
from csi_conformance.schema.validation import Validator, Violation

__all__ = [
    "SCHEMA_DIR",
    "SPEC_VERSION",
    "Ambiguity",
    "Clause",
    "Contract",
    "ErrorRule",
    "Example",
    "Limit",
    "Method",
    "Pagination",
    "Reading",
    "Readings",
    "Validator",
    "Violation",
]
