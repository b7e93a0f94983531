"""The 19 methods of §4.2 as pure functions over a ledger, and `call`, which dispatches to them.

    from csi_conformance.reference_server.methods import call
    call(ledger, "getCompressedAccount", {"hash": "..."}, ServerOptions())

One module per group; importing this package registers every method.
"""

from csi_conformance.reference_server.methods import accounts, indexer, proofs, signatures, tokens, transactions
from csi_conformance.reference_server.methods.registry import (
    PROOF_FORM_READINGS,
    REGISTRY,
    MethodFunction,
    call,
    readings,
    registered,
    rpc_method,
)

__all__ = [
    "PROOF_FORM_READINGS",
    "REGISTRY",
    "MethodFunction",
    "call",
    "readings",
    "registered",
    "rpc_method",
]

_GROUPS = (accounts, indexer, proofs, signatures, tokens, transactions)
"""The method modules; importing them is what registers their methods."""
