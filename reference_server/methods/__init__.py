"""The 19 methods of §4.2 (and the 20 more Photon serves today) as pure functions over a ledger, and `call`,
which dispatches to them.

    from csi_conformance.reference_server.methods import call
    call(ledger, "getCompressedAccount", {"hash": "..."}, ServerOptions())

One module per group; importing this package registers every method.
"""

from csi_conformance.reference_server.methods import (
    accounts,
    indexer,
    photon_accounts,
    photon_practice,
    photon_proofs,
    proofs,
    queues,
    signatures,
    tokens,
    transactions,
)
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
"""The method modules of the spec's 19; importing them is what registers their methods."""
_TODAY = (photon_practice, queues, photon_accounts, photon_proofs)
"""The methods Photon serves beside the 19 (helius-labs/photon at 366a15b); only a contract that lists them
dispatches to them."""
