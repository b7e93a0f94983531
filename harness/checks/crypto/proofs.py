"""Family `crypto`: a getValidityProof's `compressedProof` verifies as a Groth16 proof (ledger-facts.md).

Well-formed curve points say nothing: a prover with the wrong keys, the wrong public-input order
or a stale root makes points that every on-chain transaction rejects. This check asks one proof
per circuit the API allows (1, 2, 3, 4, 8 accounts; 1, 2 new addresses; 1–4 accounts with 1–2
addresses), rebuilds the public inputs from the answer (roots and leaves of the accounts, roots
of the addresses, and the addresses asked), picks the circuit by the counts, and verifies the
Groth16 equation against the published verifying keys of either trusted setup (Light's June-2025 one,
which the 0.18.0 and 0.27.0 provers carry, or today's, `ledger_proofs.verify.SETUPS`); the setup a proof
verified under is counted in the report. Accounts appended to batched trees are proven by the v2 circuits
(height 32), whose one public input is the hash chain of those roots and leaves: asked alone, oldest
first, then together. A `null` proof is UNVERIFIED: there is nothing to verify, which is not a verdict
on the target.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.failures import CheckFailure, Skip
from csi_conformance.harness.core.model import Basis, Status
from csi_conformance.harness.core.paths import result_value
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.core.values import jsonable
from csi_conformance.harness.judging.answers import defer_refused
from csi_conformance.harness.judging.pages import partly
from csi_conformance.harness.verify.addresses import address_tree
from csi_conformance.harness.verify.batched import batched_hashes, batched_oldest, provable_hashes, proven
from csi_conformance.ledger_proofs.circuits import CIRCUITS, Circuit
from csi_conformance.ledger_proofs.circuits_v2 import PROVABLE, V2Circuit, public_input_hash
from csi_conformance.ledger_proofs.verify import verify_compressed

__all__ = ["PER_CIRCUIT", "proof_inputs"]

METHOD = "getValidityProof"
INSTALL_HINT = "real Groth16 proofs: run `csi prover install` (or `make prover`), then run again"
"""What the bundled reference needs to serve proofs this check can verify."""
V2_SINGLES = 8
"""Batched accounts asked alone, oldest first, to find those appended to their tree (proven by root)."""
PER_CIRCUIT = 1
"""Proofs asked and verified per circuit in a run (15 circuits; what a verification costs: benchmarks/README.md)."""


def _number(value: Any) -> int:
    """A root or leaf as an integer: base58 on the wire, a JSON integer in §2.10's reading (bn-values)."""
    if type(value) is int and 0 <= value < 2**256:
        return value
    if isinstance(value, str):
        return int.from_bytes(b58decode(value, length=32), "big")
    raise ValueError(f"{dumps(jsonable(value))} is neither a base58 hash nor a non-negative integer")


def proof_inputs(circuit: Circuit | V2Circuit, value: dict, addresses: list[str]) -> dict[str, list[int]]:
    """The public inputs an answer claims, by group (circuits.PUBLIC_INPUT_ORDER): accounts come
    first in `roots` and `leaves`, then the new addresses (observed practice), whose values are
    the addresses asked. ValueError when the answer does not hold one root and leaf per element."""
    roots, leaves = value.get("roots"), value.get("leaves")
    elements = circuit.accounts + circuit.addresses
    if not isinstance(roots, list) or not isinstance(leaves, list) or len(roots) != elements \
            or len(leaves) != elements:
        raise ValueError(f"{circuit.name} needs {elements} roots and {elements} leaves, the answer has "
                         f"{len(roots) if isinstance(roots, list) else 'no'} roots and "
                         f"{len(leaves) if isinstance(leaves, list) else 'no'} leaves")
    n = circuit.accounts
    return {
        "account roots": [_number(r) for r in roots[:n]],
        "account leaves": [_number(leaf) for leaf in leaves[:n]],
        "address roots": [_number(r) for r in roots[n:]],
        "addresses": [_number(a) for a in addresses],
    }


def _shown(inputs: dict[str, list[int]]) -> dict[str, list[str]]:
    """The public inputs used, by group, as base58 hashes."""
    return {group: [b58encode(v.to_bytes(32, "big")) for v in values] for group, values in inputs.items() if values}


def _live_hashes(ctx: CheckContext) -> list[str]:
    closed = set(ctx.keys["closed_hashes"])
    hashes = list(ctx.keys.accounts) or [h for h in ctx.keys["hashes"] if h not in closed]
    return provable_hashes(ctx, (h for h in hashes if h not in closed))


def _plan(ctx: CheckContext, hashes: list[str]) -> list[tuple[Circuit, dict, list[str]]]:
    """(circuit, params, addresses asked) for each circuit the contract and the keys allow, PER_CIRCUIT each."""
    method = ctx.method(METHOD)
    account_counts = set(method.limit_for("hashes").counts)
    address_counts = set(method.limit_for("newAddressesWithTrees").counts)
    combined = method.observed.get("combined_max", {})
    tree = address_tree(ctx)  # the tree the target names: another tree than the usual is no fault
    plan = []
    for (n, m), circuit in CIRCUITS.items():
        allowed = (n == 0 or n in account_counts) and (m == 0 or m in address_counts)
        if n and m:
            allowed = allowed and n <= combined.get("hashes", 0) and m <= combined.get("newAddressesWithTrees", 0)
        for k in range(PER_CIRCUIT):
            if not allowed or n * (k + 1) > len(hashes) or (m and tree is None):
                break
            params: dict[str, Any] = {}
            if n:
                params["hashes"] = hashes[n * k:n * (k + 1)]
            addresses = [ctx.fresh_pubkey() for _ in range(m)]
            if m:
                params["newAddressesWithTrees"] = [{"address": a, "tree": tree} for a in addresses]
            plan.append((circuit, params, addresses))
    return plan


def _failure(title: str, answer: Answer, *, expected: Any, received: Any,
             status: Status | None = None) -> CheckFailure:
    return CheckFailure(title, expected=expected, received=received, answer=answer, method=METHOD,
                        basis=Basis.LEDGER, status=status, path=result_value("compressedProof"))


def _judge(ctx: CheckContext, circuit: Circuit | V2Circuit, answer: Answer, addresses: list[str]) -> None:
    """Verify one answer's proof, deferring what is wrong with it: a v1 circuit takes the roots and leaves
    themselves, a v2 one their hash chain (`circuits_v2.public_input_hash`)."""
    value = answer.value
    if answer.error is not None and not _consumed(ctx, answer):
        defer_refused(ctx, answer)  # the accounts are still live: a valid request refused
        return
    if not answer.has_result or not isinstance(value, dict):
        return  # a malformed answer is the schema checks' finding, an account consumed meanwhile no fault
    proof = value.get("compressedProof")
    if proof is None:
        ctx.examined("proofs", method=METHOD)
        ctx.defer(_failure(f"Proof not verified: null ({circuit.name})", answer, status=Status.UNVERIFIED,
                           expected=f"a Groth16 proof of {circuit.name} to verify",
                           received=None))
        return
    try:
        inputs = proof_inputs(circuit, value, addresses)
        ordered = [public_input_hash(*inputs.values())] if isinstance(circuit, V2Circuit) else \
            circuit.order(*inputs.values())
    except (ValueError, TypeError) as exc:
        ctx.examined("proofs", method=METHOD)
        ctx.defer(_failure(f"Proof inputs cannot be rebuilt ({circuit.name})", answer,
                           expected="one root and leaf per account and new address, as 32-byte hashes or integers",
                           received=str(exc)))
        return
    verdict = verify_compressed(circuit, proof, ordered)
    ctx.examined("proofs", method=METHOD)
    if isinstance(circuit, V2Circuit):
        ctx.examined("v2 proofs (batched trees)", method=METHOD)
    if verdict.verified and verdict.setup is not None:
        ctx.examined(f"proofs of the {verdict.setup.name} setup", method=METHOD)  # which keys held, in the report
    if not verdict.verified:
        ctx.defer(_failure(
            f"Groth16 proof does not verify ({circuit.name})", answer,
            expected=f"e(A, B) = e(α, β)·e(vk_x, γ)·e(C, δ) with the published {circuit.name} verifying key of "
                     f"either setup and public inputs {_order_text(circuit, inputs)}",
            received={"verdict": verdict.reason, "circuit": circuit.name, "public inputs": _shown(inputs)}))


def _order_text(circuit: Circuit | V2Circuit, inputs: dict[str, list[int]]) -> str:
    groups = ", ".join(k for k, v in inputs.items() if v)
    return f"hashed in one chain ({groups})" if isinstance(circuit, V2Circuit) else f"in the order {groups}"


def _judge_batched(ctx: CheckContext) -> int:
    """Verify v2 proofs of accounts appended to batched trees: each live batched account, oldest first, asked
    alone (one proven by index or refused still waits in its queue: `crypto.batched-accounts`'s), then the counts
    a June-2025 prover can make of those proven by root. Returns how many proofs were asked."""
    counts = set(ctx.method(METHOD).limit_for("hashes").counts)
    appended: list[str] = []
    asked = 0
    for hash_ in batched_oldest(ctx)[:V2_SINGLES]:
        answer = ctx.call(METHOD, {"hashes": [hash_]})
        asked += 1
        shown = proven(answer)
        if shown is None or shown.how != "by root":
            continue
        appended.append(hash_)
        if len(appended) == 1:
            _judge(ctx, PROVABLE[(1, 0)], answer, [])
        if len(appended) == max(n for n, m in PROVABLE if not m):
            break
    for n in sorted({n for n, m in PROVABLE if not m and n > 1}):
        if n in counts and n <= len(appended):
            _judge(ctx, PROVABLE[(n, 0)], ctx.call(METHOD, {"hashes": appended[:n]}), [])
            asked += 1
    return asked


def _consumed(ctx: CheckContext, answer: Answer) -> bool:
    """Whether an account a refused proof asked for was consumed since discovery (re-read, not judged)."""
    for hash_ in (answer.params or {}).get("hashes") or ():
        if ctx.call("getCompressedAccount", {"hash": hash_}, judge=False).value is None:
            partly(ctx, f"account {hash_} was consumed since discovery, so its proof was not judged")
            return True
    return False


@check("crypto.groth16-proof", clauses=("ledger-P2", "4.2-M17"), basis=Basis.LEDGER,
       description="A validity proof verifies: Groth16 over the circuit its counts select, with the published "
                   "verifying key and the answer's roots, leaves and addresses as public inputs")
def groth16_proof(ctx: CheckContext) -> None:
    if ctx.facts.placeholder_proofs:
        raise CheckFailure("Proofs not verified: the bundled reference serves placeholders", expected=INSTALL_HINT,
                           received="placeholder points (no light prover is installed): they prove nothing",
                           method=METHOD, basis=Basis.LEDGER, status=Status.UNVERIFIED,
                           path=result_value("compressedProof"))
    hashes = _live_hashes(ctx)
    plan = _plan(ctx, hashes)
    batched = _judge_batched(ctx) if batched_hashes(ctx) else 0
    if batched:
        partly(ctx, "v2 proofs asked of accounts appended to batched trees only: new addresses of a batched "
                    "address tree, and counts no June-2025 proving key exists for, are not asked")
    if not plan and not batched:
        raise Skip("no live account hash discovered and no address tree known: no proof to ask for")
    for circuit, params, addresses in plan:
        _judge(ctx, circuit, ctx.call(METHOD, params), addresses)
