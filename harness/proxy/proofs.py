"""`--proofs verify`: each Groth16 proof the app is served, verified as it passes (`crypto.groth16-proof`'s rule).

The crypto family rebuilds a proof's public inputs from the answer (`proof_inputs`) and verifies it under the
published keys of either trusted setup (`ledger_proofs.verify`); here the same is done to the proofs the app
asked for, the circuit chosen by the counts the app asked (accounts, new addresses). Proofs over batched trees
(the v2 circuits) need to know which trees are batched, which traffic alone does not tell: they are left.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.harness.checks.crypto.proofs import proof_inputs
from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.failures import CheckFailure
from csi_conformance.harness.core.model import Basis, Status
from csi_conformance.harness.core.paths import result_value
from csi_conformance.ledger_proofs.circuits import CIRCUITS
from csi_conformance.ledger_proofs.verify import verify_compressed

__all__ = ["GROTH16", "verify_served"]

GROTH16 = "crypto.groth16-proof"
METHOD = "getValidityProof"


def verify_served(ctx: CheckContext, answer: Answer) -> None:
    """Verify the proof of one getValidityProof answer the app received; a v1 circuit the counts name."""
    value = answer.value
    if answer.method != METHOD or not answer.has_result or not isinstance(value, dict):
        return
    hashes, addresses = _asked(answer.params)
    circuit = CIRCUITS.get((len(hashes), len(addresses)))
    if circuit is None:
        return
    proof = value.get("compressedProof")
    ctx.examined("proofs", method=METHOD)
    if proof is None:
        ctx.defer(_failure(f"Proof not verified: null ({circuit.name})", answer, status=Status.UNVERIFIED,
                           expected=f"a Groth16 proof of {circuit.name} to verify", received=None))
        return
    try:
        inputs = proof_inputs(circuit, value, addresses)
        ordered = circuit.order(*inputs.values())
    except (ValueError, TypeError) as exc:
        ctx.defer(_failure(f"Proof inputs cannot be rebuilt ({circuit.name})", answer, received=str(exc),
                           expected="one root and leaf per account and new address, as 32-byte hashes or integers"))
        return
    verdict = verify_compressed(circuit, proof, ordered)
    if verdict.verified and verdict.setup is not None:
        ctx.examined(f"proofs of the {verdict.setup.name} setup", method=METHOD)
    if not verdict.verified:
        ctx.defer(_failure(f"Groth16 proof does not verify ({circuit.name})", answer,
                           expected=f"e(A, B) = e(α, β)·e(vk_x, γ)·e(C, δ) with the published {circuit.name} "
                                    "verifying key of either setup",
                           received={"verdict": verdict.reason, "circuit": circuit.name}))


def _asked(params: Any) -> tuple[list, list[str]]:
    """The hashes and the new addresses a getValidityProof request named."""
    if not isinstance(params, dict):
        return [], []
    hashes = params.get("hashes") if isinstance(params.get("hashes"), list) else []
    news = params.get("newAddressesWithTrees") if isinstance(params.get("newAddressesWithTrees"), list) else []
    addresses = [item.get("address") for item in news if isinstance(item, dict)]
    return hashes, [a for a in addresses if isinstance(a, str)]


def _failure(title: str, answer: Answer, *, expected: Any, received: Any, status: Status | None = None) -> CheckFailure:
    return CheckFailure(title, expected=expected, received=received, answer=answer, method=METHOD,
                        basis=Basis.LEDGER, status=status, path=result_value("compressedProof"))
