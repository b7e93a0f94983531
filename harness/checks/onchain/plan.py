"""A target's proofs before the on-chain verifier: what to ask, and what of an answer a transaction needs.

With `--chain` the run holds the chain the target indexed, replayed into LiteSVM, seen through its one
face for judges (`ledger_chain.judging.ChainJudge`). The plan asks one validity proof per circuit the
contract allows and the chain can fill, of accounts one transaction can spend together (`groups`: a
user's plain accounts; a user's tokens of one mint) in v1 state trees, with new addresses from seeds
the kit picks (`new_address`), so that the transaction a proof is for can be built and simulated,
and the program's verdict is about the proof, never about the kit's choice. On a chain of today's
programs, accounts the forester appended to a batched tree are proven by the v2 inclusion circuits
(height 32) and spent by root the same way; an account still waiting in an output queue is spent by
index with no proof: it is `onchain.queued-spend`'s, never planned here.
An answer is asked once per run, whichever `onchain` check needs it first. Nothing here decides a
verdict: it reads what the target sent and says what keeps it out of a transaction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.context import Answer, CheckContext, MemoKey
from csi_conformance.harness.core.failures import NotApplicable
from csi_conformance.harness.core.paths import result_value
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.verify.validity import Problem
from csi_conformance.ledger_proofs.circuits import CIRCUITS, Circuit
from csi_conformance.ledger_proofs.circuits_v2 import PROVABLE, V2Circuit

if TYPE_CHECKING:  # a chain needs LiteSVM: its face is imported where a run has one, not by every run
    from csi_conformance.ledger_chain.judging import ChainJudge

__all__ = ["METHOD", "Planned", "Usable", "answer_for", "chain_of", "judge_of", "plan", "spent_to_ask",
           "transaction_parts"]

METHOD = "getValidityProof"
PROOF_BYTES = {"a": 32, "b": 64, "c": 32}
"""The compressed Groth16 points a transaction carries, and their sizes (ledger-P1)."""
ROOT_INDEX_LIMIT = 2**16
"""A root index travels in the transaction as a u16."""
SPENT_ASKED = {"plain": 2, "token": 1}
"""How many spent accounts of each kind a run asks a proof of."""
CLAUSE = ("ledger-P4",)


def judge_of(ctx: CheckContext) -> ChainJudge:
    """The run's chain, whichever programs made it; without one the `onchain` checks cannot apply."""
    if ctx.facts.chain is None:
        raise NotApplicable("no --chain given")
    return ctx.facts.chain


def chain_of(ctx: CheckContext) -> ChainJudge:
    """The run's chain for putting validity proofs before its verifier: one whose system program verifies the
    v1 proofs of the prover this kit installs (0.18.0's programs, or today's 0.28.3 with Light's June 2025
    verifying keys, the default of `csi chain generate`). Not over the published 0.28.3 programs, whose
    verifier checks Light's October 2025 keys and refuses those proofs (Custom 6043); there the served roots
    are still looked up in the v1 trees' root histories (`onchain.root-history`, with `judge_of`), and its
    queued accounts, spent by index with no proof, are `onchain.queued-spend`'s (README, "Today's programs")."""
    chain = judge_of(ctx)
    if not chain.verifies_v1_proofs:
        raise NotApplicable("the chain was made by today's programs (0.28.3) as published, whose verifier refuses "
                            "the v1 proofs of the prover this kit installs (Custom 6043: ProofVerificationFailed; "
                            "it checks them against the October 2025 trusted setup's keys, whose prover no npm "
                            "package ships): certify the proofs on a chain of `csi chain generate` (today's programs "
                            "with the June 2025 verifying keys) or `--programs 0.18.0`; its queued accounts, spent "
                            "by index with no proof, are judged by onchain.queued-spend")
    return chain


@dataclass(frozen=True)
class Planned:
    """One proof to ask for: its circuit, the accounts it spends, the seeds of the addresses it creates."""

    circuit: Circuit | V2Circuit
    hashes: tuple[bytes, ...]
    seeds: tuple[bytes, ...]
    addresses: tuple[str, ...]
    """The addresses the seeds make in the chain's address tree (base58), as asked."""
    trees: tuple[str, ...]
    """The on-chain tree of each element: the accounts', then the address tree for each address."""
    token: bool = False

    @property
    def label(self) -> str:
        return self.circuit.name + (" of token accounts" if self.token else "")

    @property
    def params(self) -> dict[str, Any]:
        params: dict[str, Any] = {}
        if self.hashes:
            params["hashes"] = [b58encode(hash_) for hash_ in self.hashes]
        if self.addresses:
            tree = self.trees[len(self.hashes)]
            params["newAddressesWithTrees"] = [{"address": address, "tree": tree} for address in self.addresses]
        return params


PLAN: MemoKey[tuple[list[Planned], list[str]]] = MemoKey("onchain plan")
ANSWERS: MemoKey[Answer] = MemoKey("onchain answer")


def plan(ctx: CheckContext, chain: ChainJudge) -> tuple[list[Planned], list[str]]:
    """The proofs to ask for (one per circuit the contract allows, and one of a token account), and the
    circuits the chain cannot fill, in words. The same for every check of a run."""
    return ctx.once(PLAN, lambda ctx: _plan(ctx, chain))


def _plan(ctx: CheckContext, chain: ChainJudge) -> tuple[list[Planned], list[str]]:
    plain, tokens = _largest_groups(chain)
    planned, unreached = [], []
    for (n, m), circuit in CIRCUITS.items():
        if not _allowed(ctx, n, m):
            continue
        if n > len(plain):
            unreached.append(f"{circuit.name}: no user of the chain holds {n} plain accounts to spend together")
            continue
        seeds = tuple(_seed(ctx.facts.seed, circuit, i) for i in range(m))
        planned.append(_planned(chain, circuit, tuple(plain[:n]), seeds))
    if tokens:
        planned.append(_planned(chain, CIRCUITS[(1, 0)], tuple(tokens[:1]), (), token=True))
    return planned + _plan_v2(ctx, chain, unreached), unreached


def _plan_v2(ctx: CheckContext, chain: ChainJudge, unreached: list[str]) -> list[Planned]:
    """One v2 inclusion proof per count a June-2025 proving key exists for, of accounts the forester appended to a
    batched tree (a chain of today's programs whose system program verifies the kit's setup)."""
    if not chain.verifies_v1_proofs:
        return []
    appended = max((group.hashes for group in chain.appended_groups()), key=len, default=())
    planned = []
    for (n, m), circuit in sorted(PROVABLE.items()):
        if m or not _allowed(ctx, n, 0):
            continue
        if n > len(appended):
            if chain.today:
                unreached.append(f"{circuit.name}: no user holds {n} plain accounts appended to one batched tree")
            continue
        planned.append(_planned(chain, circuit, tuple(appended[:n]), ()))
    return planned


def _planned(chain: ChainJudge, circuit: Circuit | V2Circuit, hashes: tuple[bytes, ...], seeds: tuple[bytes, ...], *,
             token: bool = False) -> Planned:
    addresses = tuple(b58encode(chain.new_address(seed)) for seed in seeds)
    trees = tuple(chain.tree_of(hash_) for hash_ in hashes)
    return Planned(circuit, hashes, seeds, addresses, trees + (chain.address_tree,) * len(seeds), token)


def _allowed(ctx: CheckContext, accounts: int, addresses: int) -> bool:
    """Counts the contract lets a request ask (§8, and observed practice for combined proofs)."""
    method = ctx.method(METHOD)
    allowed = ((accounts == 0 or method.limit_for("hashes").allows(accounts))
               and (addresses == 0 or method.limit_for("newAddressesWithTrees").allows(addresses)))
    if accounts and addresses:
        combined = method.observed.get("combined_max", {})
        allowed = allowed and accounts <= combined.get("hashes", 0) and addresses <= combined.get(
            "newAddressesWithTrees", 0)
    return allowed


def _largest_groups(chain: ChainJudge) -> tuple[list[bytes], list[bytes]]:
    """The largest set of plain accounts and of token accounts of v1 trees one transaction can spend."""
    plain: list[bytes] = []
    tokens: list[bytes] = []
    for group in chain.groups():
        hashes = _in_v1_trees(chain, group.hashes)
        if group.token:
            tokens = max(tokens, hashes, key=len)
        else:
            plain = max(plain, hashes, key=len)
    return plain, tokens


def _in_v1_trees(chain: ChainJudge, hashes: Sequence[bytes]) -> list[bytes]:
    """The accounts of `hashes` held in v1 state trees (every one over a chain of 0.18.0's programs)."""
    v1 = set(chain.state_trees)
    return [hash_ for hash_ in hashes if chain.tree_of(hash_) in v1]


def _seed(run_seed: int, circuit: Circuit, index: int) -> bytes:
    """A seed no operation of the chain used: its address is free, as a new address must be."""
    return hashlib.sha256(f"csi-conformance onchain {run_seed} {circuit.name} {index}".encode()).digest()


def spent_to_ask(chain: ChainJudge) -> list[bytes]:
    """A few accounts the chain has spent whose leaf is still in their v1 tree (plain and token ones): a proof
    of one would still fold to the on-chain root, so only the programs' queue stands between it and a spend.
    An account spent from a batched tree's output queue is `onchain.queued-spend`'s."""
    chosen: list[bytes] = []
    counts = dict.fromkeys(SPENT_ASKED, 0)
    spent = chain.spent_accounts()
    v1 = set(_in_v1_trees(chain, [account.hash for account in spent]))
    for account in spent:
        kind = "token" if account.token else "plain"
        if account.hash in v1 and counts[kind] < SPENT_ASKED[kind]:
            counts[kind] += 1
            chosen.append(account.hash)
    return chosen


def answer_for(ctx: CheckContext, planned: Planned) -> Answer:
    """The target's answer to a planned request, asked once per run."""
    return ctx.once(ANSWERS.at(planned.label), lambda ctx: ctx.call(METHOD, planned.params))


@dataclass(frozen=True)
class Usable:
    """What a transaction takes from an answer: the proof's points and the root indices."""

    proof: dict[str, list[int]]
    root_indices: list[int]


def transaction_parts(value: Any, elements: int) -> Usable | Problem:
    """The proof and root indices of a ValidityProofWithContext of `elements` elements, or what keeps them out
    of a transaction. A proof whose points do not decompress is usable here: the program says so."""
    if not isinstance(value, dict):
        return Problem("No validity proof", "a ValidityProofWithContext object", clip(value), CLAUSE,
                       result_value())
    proof = value.get("compressedProof")
    points = {name: proof.get(name) for name in PROOF_BYTES} if isinstance(proof, dict) else {}
    if not points or not all(_byte_list(points[name], size) for name, size in PROOF_BYTES.items()):
        return Problem("Proof cannot be put into a transaction", "compressedProof {a, b, c}: lists of 32, 64 "
                       "and 32 byte values (0 to 255)", clip(proof), CLAUSE, result_value("compressedProof"))
    indices = value.get("rootIndices")
    if not (isinstance(indices, list) and len(indices) == elements
            and all(type(i) is int and 0 <= i < ROOT_INDEX_LIMIT for i in indices)):
        return Problem("Root indices cannot be put into a transaction", f"one integer below {ROOT_INDEX_LIMIT} "
                       f"(u16) per element, {elements} in all, the accounts' first", clip(indices), CLAUSE,
                       result_value("rootIndices"))
    return Usable(points, list(indices))


def _byte_list(value: Any, size: int) -> bool:
    return isinstance(value, list) and len(value) == size and all(type(b) is int and 0 <= b <= 255 for b in value)
