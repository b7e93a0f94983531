"""Family `onchain`: with `--chain`, the target's proofs before Light's own programs (real-chain.md).

Offline verification (`crypto.groth16-proof`) says a proof matches the roots it names; only the
program says those roots and root indices are the ones on-chain and the public inputs are what a
transaction needs. The run holds the chain the target indexed, replayed into LiteSVM; these checks
ask the target for proofs of accounts one transaction can spend and of addresses from the kit's
seeds, look every root served up in its tree's on-chain root history, and put every proof into a
transaction that spends those accounts and creates those addresses, simulated over the chain's
state: the program's verdict is the check's, and a refusal is reported with the program's error in
words. Over a chain of today's programs as published (0.28.3), whose verifier refuses the installed
prover's v1 proofs, no proof is put before the programs (the default chain, today's programs with
Light's June 2025 verifying keys, takes them: they are judged there as over 0.18.0's); the roots
served for the accounts of its v1 trees and for its (v1) address tree are still looked up in their
root histories, which need no verifier, and the accounts waiting in batched trees' output queues are
put before the programs instead, each spent by index at the place the target serves for it
(`onchain.queued-spend`). The chain is read through its judging face only (`ChainJudge`). Without a
chain they cannot apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.checks.onchain.plan import (
    METHOD,
    Planned,
    Usable,
    answer_for,
    chain_of,
    judge_of,
    plan,
    spent_to_ask,
    transaction_parts,
)
from csi_conformance.harness.checks.onchain.queued import ACCOUNT_METHOD, Place, served_place
from csi_conformance.harness.checks.onchain.roots import Histories, Served, address_roots, root_problems, validity_roots
from csi_conformance.harness.context import Answer, CheckContext, answer_value
from csi_conformance.harness.core.failures import CheckFailure, Mismatch, NotApplicable, Skip
from csi_conformance.harness.core.model import Basis, Status
from csi_conformance.harness.core.paths import BODY, result_value
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.judging.pages import partly
from csi_conformance.harness.verify.validity import Problem
from csi_conformance.ledger_proofs.circuits_v2 import V2Circuit

if TYPE_CHECKING:
    from csi_conformance.ledger_chain.judging import ChainJudge, QueuedAccount, Verdict

ADDRESS_METHOD = "getMultipleNewAddressProofs"
SPENT_NO_V1 = ("the chain spent no account of a v1 tree (its programs, today's 0.28.3 as published, refuse every v1 "
               "spend the installed prover proves: Custom 6043), so there is no spent v1 account to ask a proof of; "
               "the "
               "accounts it spent from batched trees' output queues are judged by onchain.queued-spend")
"""Why `onchain.spent-account` cannot apply over a chain of today's programs that spent no v1 account."""
LOG_TAIL = 8
"""Lines of the program's log a refusal keeps."""


@check("onchain.root-history", clauses=("ledger-T3", "4.2-M16"), basis=Basis.LEDGER,
       description="Every root the target serves (validity proofs' roots with their root indices, new-address "
                   "proofs' root with rootSeq) is in its tree's on-chain root history, at the index it gives")
def root_history(ctx: CheckContext) -> None:
    chain = judge_of(ctx)  # a root history needs no verifier: today's programs' chains too
    planned, _ = plan(ctx, chain)
    if not planned:
        raise Skip("the chain holds no accounts to prove and no address tree")
    histories = Histories(chain)
    for item in planned:
        answer = answer_for(ctx, item)
        if answer.has_result:  # a refusal is onchain.proof-accepted's finding
            _judge_roots(ctx, histories, answer, validity_roots(answer.value, item.trees), METHOD)
    addresses = [address for item in planned for address in item.addresses]
    most = ctx.method(ADDRESS_METHOD).observed.get("max_addresses") or len(addresses) or 1
    for start in range(0, len(addresses), most):
        _judge_address_roots(ctx, chain, histories, addresses[start:start + most])


def _judge_address_roots(ctx: CheckContext, chain: ChainJudge, histories: Histories, addresses: list[str]) -> None:
    answer = ctx.call(ADDRESS_METHOD, addresses)
    if not answer.has_result:
        ctx.defer(CheckFailure("No new-address proofs for free addresses", expected=f"a proof that each of the "
                               f"{len(addresses)} addresses is not yet taken", received=answer_value(answer),
                               answer=answer, method=ADDRESS_METHOD, clauses=("4.2-M16",), path=BODY))
        return
    served = address_roots(answer.value, len(addresses), chain.address_tree)
    _judge_roots(ctx, histories, answer, served, ADDRESS_METHOD)


def _judge_roots(ctx: CheckContext, histories: Histories, answer: Answer, served: list[Served] | Problem,
                 method: str) -> None:
    if isinstance(served, Problem):
        ctx.examined("answers", method=method)
        ctx.defer(_failure(served, answer, method))
        return
    for root in served:
        history = histories.get(root.tree)
        facts = {"tree": root.tree, "root index served": root.index, "on-chain sequence number":
                 history.sequence_number, "root history length": len(history.roots)}
        for problem in root_problems(histories, root):
            ctx.defer(_failure(problem, answer, method, facts))
        ctx.examined("roots", method=method)


@check("onchain.proof-accepted", clauses=("ledger-P4", "4.3-R5", "4.2-M17"), basis=Basis.LEDGER,
       description="The target's validity proofs (1, 2, 3, 4, 8 accounts; 1, 2 new addresses; 1-4 accounts with "
                   "1-2 addresses), with their root indices, are accepted by Light's system program in a "
                   "transaction spending those accounts and creating those addresses, simulated over the chain")
def proof_accepted(ctx: CheckContext) -> None:
    chain = chain_of(ctx)
    planned, unreached = plan(ctx, chain)
    for note in unreached:
        partly(ctx, note)
    if not planned:
        raise Skip("the chain holds no accounts to prove and no address tree")
    for item in planned:
        _judge_proof(ctx, chain, item, answer_for(ctx, item))


def _judge_proof(ctx: CheckContext, chain: ChainJudge, item: Planned, answer: Answer) -> None:
    if not answer.has_result:
        ctx.examined("proofs asked", method=METHOD)
        ctx.defer(CheckFailure(f"No proof for accounts and addresses the chain can use ({item.label})",
                               expected="a validity proof: the accounts are live on-chain and the addresses free",
                               received=answer_value(answer), answer=answer, method=METHOD,
                               clauses=("4.2-M17",), path=BODY))
        return
    if isinstance(answer.value, dict) and answer.value.get("compressedProof", 0) is None:
        ctx.examined("proofs asked", method=METHOD)
        ctx.defer(CheckFailure(f"Proof not judged on-chain: null ({item.label})", expected="a proof a transaction "
                               "can carry", received=None, answer=answer, method=METHOD, status=Status.UNVERIFIED,
                               path=result_value("compressedProof")))
        return
    parts = transaction_parts(answer.value, len(item.trees))
    if isinstance(parts, Problem):
        ctx.examined("proofs asked", method=METHOD)
        ctx.defer(_failure(parts, answer, METHOD))
        return
    verdict = chain.judge_proof(hashes=item.hashes, seeds=item.seeds, proof=parts.proof,
                                root_indices=parts.root_indices)
    ctx.examined(f"{'v2 ' if isinstance(item.circuit, V2Circuit) else ''}{item.circuit.family} proofs", method=METHOD)
    if not verdict.accepted:
        ctx.defer(CheckFailure(
            f"Proof refused on-chain ({item.label})",
            expected=f"accepted by Light's system program in a transaction {_spending(item)}",
            received=_refusal(verdict), answer=answer, method=METHOD, clauses=("ledger-P4", "4.3-R5"),
            path=result_value("compressedProof"), detail=_program_facts(verdict, item, parts)))


@check("onchain.spent-account", clauses=("4.3-R3", "ledger-P5"), basis=Basis.LEDGER,
       description="An account the chain has spent gets no validity proof; one served anyway is put into a "
                   "transaction spending it, and the programs' refusal (9002: already spent) is the finding")
def spent_account(ctx: CheckContext) -> None:
    judge = judge_of(ctx)
    if judge.today and not spent_to_ask(judge):
        raise NotApplicable(SPENT_NO_V1)
    chain = chain_of(ctx)
    spent = spent_to_ask(chain)
    if not spent:
        raise Skip("the chain holds no spent account whose leaf is still in its tree (none spent, or every spend "
                   "nullified by the forester)")
    for hash_ in spent:
        answer = ctx.call(METHOD, {"hashes": [b58encode(hash_)]})
        ctx.examined("spent accounts", method=METHOD)
        if answer.has_result and answer.value is not None:  # a refusal (or nothing) is what the rule wants
            _judge_spent(ctx, chain, hash_, answer)


def _judge_spent(ctx: CheckContext, chain: ChainJudge, hash_: bytes, answer: Answer) -> None:
    """A proof served for a spent account: what the programs make of a transaction spending it again."""
    expected = f"an error: account {b58encode(hash_)} was spent on-chain, so no proof of it can be generated"
    parts = transaction_parts(answer.value, 1)
    if isinstance(parts, Problem):
        ctx.defer(_spent_failure(answer, expected, "a proof that cannot even be put into a transaction",
                                 {"why": parts.title}))
        return
    verdict = chain.judge_proof(hashes=[hash_], proof=parts.proof, root_indices=parts.root_indices)
    if not verdict.accepted:  # accepted would mean the chain had not spent it: the programs have the last word
        ctx.defer(_spent_failure(answer, expected, f"a proof, which the programs {_refusal(verdict)}",
                                 _program_facts(verdict, None, parts)))


QUEUED_CLAUSES = {"place": ("ledger-B3",), "tree": ("ledger-B1", "ledger-B3"), "live": ("4.2-M1", "3.2-R1"),
                  "spent": ("3.2-R2", "4.2-M1")}
"""What each finding of `onchain.queued-spend` cites: a wrong leaf index, a wrong tree, a live account not
served, a spent one served."""


@check("onchain.queued-spend", clauses=("ledger-B3", "ledger-B1", "4.2-M1", "3.2-R1", "3.2-R2"), basis=Basis.LEDGER,
       description="Every account waiting in a batched tree's output queue is served at the tree and leaf index "
                   "where a transaction spending it by index (no proof) is accepted by Light's programs; an "
                   "account the chain spent from its queue is not served, and one served anyway is refused by "
                   "them (14307: the queue no longer holds it)")
def queued_spend(ctx: CheckContext) -> None:
    chain = judge_of(ctx)
    queued = chain.queued_accounts()
    if not queued:
        raise NotApplicable("the chain holds no account in a batched tree's output queue (its programs wrote v1 "
                            "trees only, or none of its outputs went to a batched tree)")
    for account in queued:
        if not account.spendable:
            partly(ctx, f"{b58encode(account.hash)}: no user of the chain can sign a spend of it (another "
                        "program's account)")
            continue
        answer = ctx.call(ACCOUNT_METHOD, {"hash": b58encode(account.hash)})
        if account.spent:
            ctx.examined("spent queued accounts", method=ACCOUNT_METHOD)
            _judge_spent_queued(ctx, chain, account, answer)
        else:
            ctx.examined("queued accounts", method=ACCOUNT_METHOD)
            _judge_queued(ctx, chain, account, answer)


def _judge_queued(ctx: CheckContext, chain: ChainJudge, account: QueuedAccount, answer: Answer) -> None:
    """A live queued account: served, at a place where the programs accept spending it by index."""
    held = f"leaf {account.leaf_index} of tree {account.tree} (output queue {account.queue})"
    if not answer.has_result or answer.value is None:
        verdict = chain.judge_spend_by_index(account.hash, tree=account.tree, leaf_index=account.leaf_index)
        ctx.defer(CheckFailure(
            "Queued account not served", expected=f"the account: the chain holds it live at {held}",
            received=answer_value(answer) if not answer.has_result else None, answer=answer, method=ACCOUNT_METHOD,
            basis=Basis.SPEC, clauses=QUEUED_CLAUSES["live"], path=BODY if not answer.has_result else result_value(),
            detail={"spent by index there": _said(verdict), **_queued_facts(account, None, verdict)}))
        return
    place = served_place(answer.value)
    if isinstance(place, Problem):
        ctx.defer(_failure(place, answer, ACCOUNT_METHOD, _queued_facts(account, None, None)))
        return
    verdict = chain.judge_spend_by_index(account.hash, tree=place.tree, leaf_index=place.leaf_index)
    if verdict.accepted:
        return
    other_tree = place.tree != account.tree
    ctx.defer(CheckFailure(
        f"Queued account refused on-chain at the {'tree' if other_tree else 'leaf index'} served",
        expected=f"a place where the programs accept spending it by index: the chain holds it at {held}",
        received=f"leaf {place.leaf_index} of tree {place.tree}, where the programs {_refusal(verdict)}",
        answer=answer, method=ACCOUNT_METHOD, clauses=QUEUED_CLAUSES["tree" if other_tree else "place"],
        path=result_value("tree" if other_tree else "leafIndex"), detail=_queued_facts(account, place, verdict)))


def _judge_spent_queued(ctx: CheckContext, chain: ChainJudge, account: QueuedAccount, answer: Answer) -> None:
    """An account the chain spent from its queue: not served (null, or an error); served, the programs refuse
    to spend it at the place served, and that refusal is the finding."""
    if not answer.has_result or answer.value is None:
        return
    place = served_place(answer.value)
    where = place if isinstance(place, Place) else Place(account.tree, account.leaf_index)
    verdict = chain.judge_spend_by_index(account.hash, tree=where.tree, leaf_index=where.leaf_index)
    if verdict.accepted:  # the programs have the last word: the chain holds it there
        return
    ctx.defer(CheckFailure(
        "Spent queued account served as live",
        expected=f"null: the chain spent it by index from leaf {account.leaf_index} of tree {account.tree}",
        received=f"the account, at leaf {where.leaf_index} of tree {where.tree}, where the programs "
                 f"{_refusal(verdict)}", answer=answer, method=ACCOUNT_METHOD, basis=Basis.SPEC,
        clauses=QUEUED_CLAUSES["spent"], path=result_value(), detail=_queued_facts(account, where, verdict)))


def _said(verdict: Verdict) -> str:
    return "accepted by the programs: the account is live there" if verdict.accepted else _refusal(verdict)


def _queued_facts(account: QueuedAccount, place: Place | None, verdict: Verdict | None) -> dict[str, Any]:
    facts: dict[str, Any] = {"account": b58encode(account.hash), "on-chain tree": account.tree,
                             "on-chain output queue": account.queue, "on-chain leaf index": account.leaf_index,
                             "token account": account.token}
    if place is not None:
        facts.update({"tree served": place.tree, "leaf index served": place.leaf_index})
    if verdict is not None and not verdict.accepted:
        facts.update({"program error code": verdict.code, "meaning": verdict.meaning,
                      "compute units": verdict.compute_units,
                      "program log (last lines)": list(verdict.logs[-LOG_TAIL:])})
    return facts


def _spending(item: Planned) -> str:
    """What the transaction does, in words: `spending the 2 accounts and creating the 1 address asked`."""
    n, m = len(item.hashes), len(item.seeds)
    parts = ([f"spending the {n} account{'s' * (n != 1)}"] if n else []) + (
        [f"creating the {m} address{'es' * (m != 1)}"] if m else [])
    return " and ".join(parts) + " asked"


def _spent_failure(answer: Answer, expected: str, received: str, detail: dict[str, Any]) -> CheckFailure:
    return CheckFailure("Proof served for a spent account", expected=expected, received=received, answer=answer,
                        method=METHOD, basis=Basis.SPEC, clauses=("4.3-R3", "ledger-P5"),
                        path=result_value("compressedProof"), detail=detail)


def _refusal(verdict: Verdict) -> str:
    """The program's refusal in words: its error code and what it means, or where it panicked."""
    if verdict.code is not None:
        return f"refused: Custom({verdict.code}): {verdict.meaning}"
    return f"refused: {verdict.meaning}"


def _program_facts(verdict: Verdict, item: Planned | None, parts: Usable) -> dict[str, Any]:
    facts: dict[str, Any] = {"program error code": verdict.code, "meaning": verdict.meaning,
                             "root indices used": parts.root_indices, "compute units": verdict.compute_units,
                             "program log (last lines)": list(verdict.logs[-LOG_TAIL:])}
    if item is not None:
        facts["circuit"] = item.circuit.name
    return facts


def _failure(problem: Problem, answer: Answer, method: str, detail: dict[str, Any] | None = None) -> CheckFailure:
    kind = Mismatch if problem.exact else CheckFailure
    return kind(problem.title, expected=problem.expected, received=problem.received, answer=answer, method=method,
                clauses=problem.clauses, path=problem.path, detail=detail)
