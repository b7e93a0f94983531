"""Family `crypto`: hashes, values and proofs judged by the ledger's own rules (ledger-facts.md).

The spec says what the indexer answers, not how hashes, trees and proofs are built: these checks
rest on the ledger (Basis.LEDGER, clauses `ledger-*`), except where the spec states the rule
itself (a taken address gets no new-address proof, 4.2-M16). Every CompressedAccount in any
answer has its hash recomputed from its own fields, its values bounded (u64, u32, field
modulus) and, for token accounts, its data bytes read back as TokenData; new-address proofs must
fold to their root and bracket the address in the current tree; validity proofs must prove
exactly the elements asked, against one root per tree.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.checks.crypto.tree_roots import judge_tree_roots
from csi_conformance.harness.context import Answer, CheckContext, MemoKey
from csi_conformance.harness.core.failures import CheckFailure, Mismatch, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import member, result_value
from csi_conformance.harness.core.registry import answer_check, check
from csi_conformance.harness.core.values import clip
from csi_conformance.harness.judging.answers import defer_refused
from csi_conformance.harness.judging.pages import partly
from csi_conformance.harness.verify.addresses import (
    address_taken_probes,
    address_tree,
    confirmed_taken,
    held_in_tree,
    proof_problems,
    successor,
    taken_inside,
)
from csi_conformance.harness.verify.batched import batched_hashes
from csi_conformance.harness.verify.validity import (
    Expected,
    Problem,
    element_problems,
    elements_of,
    key_int,
    root_agreement,
)
from csi_conformance.harness.verify.values import (
    ACCOUNT_FIELDS,
    ACCOUNT_KEYS,
    DIAGNOSED,
    bn_value,
    disagreeing_member,
    matching_layout,
    range_problems,
    recomputed_hash,
    tree_layouts,
)
from csi_conformance.ledger_crypto import ROOT_HISTORY, TOKEN_PROGRAM_ID
from csi_conformance.ledger_crypto.groth16 import is_valid_compressed_proof

TOKEN_PROGRAM = b58encode(TOKEN_PROGRAM_ID)
LAYOUT_CLAUSES = {False: "ledger-H1", True: "ledger-B1"}
"""The rule of each hash layout (a v1 tree's, a batched tree's) a hash that does not recompute breaks."""
RECOMPUTED_HASHES: MemoKey[dict[str, bool | None]] = MemoKey("recomputed_hashes", dict)
"""Whether each account seen recomputes its hash (`hash_recomputes`), by its fields."""
TREE_STATES: MemoKey[dict[int, dict]] = MemoKey("tree_states", dict)
"""The trees' roots the run's proofs gave, by slot: proofs at one slot must agree on them."""


def accounts_in(answer: Answer) -> list[tuple[dict, dict | None, str]]:
    """(account, its token data or None, the account's JSON path) for every CompressedAccount anywhere
    in an answer's result, in document order; walked once for the three checks that need it."""
    return answer.derived("accounts", lambda: _walk_accounts(answer.result))


def _walk_accounts(result: Any) -> list[tuple[dict, dict | None, str]]:
    found: list[tuple[dict, dict | None, str]] = []
    stack: list[tuple[Any, str]] = [(result, "$.result")] if isinstance(result, (dict, list)) else []
    while stack:
        node, where = stack.pop()
        if isinstance(node, list):
            stack.extend((item, f"{where}[{i}]") for i, item in reversed(list(enumerate(node)))
                         if isinstance(item, (dict, list)))
        elif node.keys() >= ACCOUNT_KEYS:
            found.append((node, None, where))
        elif isinstance(node.get("account"), dict):
            token = next((node[k] for k in ("tokenData", "optionalTokenData", "maybeTokenData")
                          if isinstance(node.get(k), dict)), None)
            found.append((node["account"], token, f"{where}.account"))
        else:
            stack.extend((value, f"{where}.{key}") for key, value in reversed(node.items())
                         if isinstance(value, (dict, list)))
    return found


def defer_problems(ctx: CheckContext, problems: list[Problem], answer: Answer | None,
                   basis: Basis | None = None) -> None:
    """Record each problem as a finding of the running check, and carry on."""
    for problem in problems:
        kind = Mismatch if problem.exact else CheckFailure
        ctx.defer(kind(problem.title, expected=problem.expected, received=problem.received, answer=answer,
                       method=answer.method if answer else None, clauses=problem.clauses, basis=basis,
                       path=problem.path))


@answer_check("crypto.account-hash", clauses=("ledger-H1", "ledger-B1"), basis=Basis.LEDGER,
              carries="CompressedAccount",
              description="Each account's hash recomputes from its owner, leaf index, tree, lamports, address and data")
def account_hashes(ctx: CheckContext, answer: Answer) -> None:
    """A hash that does not recompute names the member at fault when another value the run saw for one of
    its inputs (the same account elsewhere, the answer's other accounts, a neighbouring leaf index) makes it
    recompute: a wrong leafIndex is reported at the leafIndex, not as a wrong hash."""
    accounts = accounts_in(answer)
    for account, _, where in accounts:
        recomputes = hash_recomputes(ctx, account)
        if recomputes is None:
            continue  # malformed or out of range: schema.result and crypto.value-ranges report it
        ctx.examined("accounts")
        if recomputes:
            continue
        layouts = tree_layouts(account.get("tree"), ctx.facts.batched_trees)
        clauses = tuple(LAYOUT_CLAUSES[batched] for batched in layouts)
        found = disagreeing_member(account, _seen_inputs(ctx, account, accounts), layouts)
        if found is not None:
            member, value = found
            ctx.defer(Mismatch(f"Account {member} disagrees with its hash", expected=value, received=account[member],
                               answer=answer, method=answer.method, path=f"{where}.{member}", clauses=clauses,
                               detail={"the hash recomputes with": {member: value}}))
        else:
            expected = [b58encode(recomputed_hash(account, batched=batched)) for batched in layouts]
            detail = None if len(layouts) == 1 else {"layouts tried": ["v1 tree", "batched tree"]}
            ctx.defer(Mismatch("Account hash does not recompute", expected=expected[0] if detail is None else expected,
                               received=account["hash"], answer=answer, method=answer.method, path=f"{where}.hash",
                               clauses=clauses, detail=detail))


def hash_recomputes(ctx: CheckContext, account: dict) -> bool | None:
    """Whether an account's hash recomputes from its own fields, in the layout of its tree's kind (either, when
    no ledger tells the kind), worked out once per account a run sees; None when its fields are malformed."""
    known = ctx.memo[RECOMPUTED_HASHES]
    key = dumps([account.get(k) for k in (*ACCOUNT_FIELDS, "address", "data")])
    if key not in known:
        try:
            layouts = tree_layouts(account.get("tree"), ctx.facts.batched_trees)
            known[key] = matching_layout(account, layouts) is not None
        except (KeyError, TypeError, ValueError, OverflowError):
            known[key] = None
    return known[key]


def _seen_inputs(ctx: CheckContext, account: dict, accounts: list) -> dict[str, list]:
    """The values of the hash's inputs the run saw elsewhere: the same account (by hash) in discovery, and the
    other accounts of this answer."""
    views = [other for other, _, _ in accounts if other is not account]
    views += [view for view in (ctx.keys.accounts.get(account.get("hash")),
                                (ctx.keys.touched.get(account.get("hash")) or {}).get("account")) if view]
    return {member: [view.get(member) for view in views if isinstance(view, dict)] for member in DIAGNOSED}


@answer_check("crypto.value-ranges", clauses=("ledger-H3",), basis=Basis.LEDGER, carries="UnsignedInteger",
              description="Lamports, amounts, discriminators, slots and seqs are u64, leaf indices u32, and hashes, "
                          "roots and leaves BN254 field elements")
def value_ranges(ctx: CheckContext, answer: Answer) -> None:
    if not answer.has_result:
        return
    seen, problems = range_problems(answer.result)
    ctx.examined("values", seen)
    for problem in problems:
        ctx.defer(CheckFailure("Value out of range", expected=problem.bound, received=problem.value, answer=answer,
                               method=answer.method, path=problem.path))


@check("crypto.new-address-proof", clauses=("ledger-T2", "4.2-M16"), basis=Basis.LEDGER,
       description="New-address proofs have 26 nodes folding to one root per tree, bracket the address, and leave "
                   "no address the target holds inside their range")
def new_address_proofs(ctx: CheckContext) -> None:
    """A range may hold a taken address only while it waits in the address queue: one the target's own tree
    holds, or the reference's (`--scenario`, `--chain`), must be outside every proven range."""
    tree = address_tree(ctx)
    taken = [address for address, _ in confirmed_taken(ctx)]
    asked = [ctx.fresh_pubkey() for _ in range(2)]
    answer = ctx.call("getMultipleNewAddressProofs", asked)
    judged, problems = proof_problems(asked, answer.value, tree)
    ctx.examined("proofs", judged)
    if not taken:
        defer_problems(ctx, problems, answer)
        return
    neighbours = [successor(address) for address in taken]  # the low element of address + 1 is the address
    near = ctx.call("getMultipleNewAddressProofs", neighbours)
    near_problems: list = []
    if near.has_result:
        judged, near_problems = proof_problems(neighbours, near.value, tree)
        ctx.examined("proofs", judged)
    in_tree = _known_in_tree(ctx, taken, neighbours, near)
    known = [address for address in taken if address in in_tree]
    defer_problems(ctx, problems + taken_inside(answer.value, known), answer)
    if near.has_result:
        defer_problems(ctx, near_problems + taken_inside(near.value, known), near)
    unknown = [address for address in taken if address not in in_tree]
    if unknown and not ctx.has_reference:
        partly(ctx, f"{len(unknown)} taken address(es) not in the target's address tree: waiting in the address "
                    "queue for a forester, or a stale tree; only a reference tells (--scenario, --chain)")


def _known_in_tree(ctx: CheckContext, taken: list[str], neighbours: list[str], near: Answer) -> set[str]:
    """The taken addresses the target's own tree holds, and those the reference's tree holds (the truth)."""
    held = held_in_tree(near.value, taken) if near.has_result else set()
    if ctx.has_reference:
        truth = ctx.ask_reference("getMultipleNewAddressProofs", neighbours, id="csi-address-tree")
        held |= held_in_tree(truth.value, taken) if truth.has_result else set()
    return held


@check("crypto.address-taken", clauses=("4.2-M16",),
       description="An address the target holds gets no new-address proof")
def address_taken(ctx: CheckContext) -> None:
    probes = address_taken_probes(ctx)
    if not probes:
        raise Skip("no taken address discovered")
    for address, answer in probes:
        ctx.examined("addresses")
        if answer.has_result:
            ctx.defer(CheckFailure("Proof for a taken address", expected=f"an error: {address} is taken",
                                   received=clip(answer.result), answer=answer, method=answer.method,
                                   path=member("result")))


@answer_check("crypto.proof-points", clauses=("ledger-P1",), basis=Basis.LEDGER, carries="ValidityProof",
              description="A compressedProof {a, b, c} holds well-formed compressed BN254 curve points")
def proof_points(ctx: CheckContext, answer: Answer) -> None:
    value = answer.value
    if answer.method != "getValidityProof" or not isinstance(value, dict) or "compressedProof" not in value:
        return
    proof = value["compressedProof"]
    if proof is None:
        return  # allowed by §2.10; nothing to judge here (verifying a proof is another check's)
    ctx.examined("proofs")
    problems = is_valid_compressed_proof(proof)
    if problems:
        ctx.fail("Malformed proof points", expected="a: G1 (32 bytes), b: G2 (64 bytes), c: G1 (32 bytes) on BN254",
                 received=clip(problems, items=3), answer=answer, path=result_value("compressedProof"))



def _live_accounts(ctx: CheckContext) -> list[dict]:
    """Accounts discovery saw live (owners' lists, token owners' lists), with a leaf index and tree."""
    closed = set(ctx.keys["closed_hashes"])
    found = dict(ctx.keys.accounts)
    for hash_, item in ctx.keys.token_accounts.items():
        found.setdefault(hash_, item.get("account"))
    batched = batched_hashes(ctx)
    return [a for h, a in found.items() if h not in closed and h not in batched and isinstance(a, dict)
            and type(a.get("leafIndex")) is int and isinstance(a.get("tree"), str) and hash_recomputes(ctx, a)]


def _plans(ctx: CheckContext, live: int) -> list[tuple[int, int]]:
    """(accounts, new addresses) of each proof asked: every count §8 accepts, and combined proofs."""
    method = ctx.method("getValidityProof")
    hashes = [n for n in method.limit_for("hashes").counts if n <= live]
    addresses = list(method.limit_for("newAddressesWithTrees").counts)
    combined = [(1, 1), (2, 2)][: min(live, 2)]
    return [(n, 0) for n in hashes] + [(0, n) for n in addresses] + combined


def _address_expectations(ctx: CheckContext, addresses: list[str], tree: str | None, slot: int | None) -> list:
    """What the address part must be: the address as leaf, and (when getMultipleNewAddressProofs
    answers at the proof's slot) the low element's index, the root and its root index."""
    if not addresses:
        return []
    answer = ctx.call("getMultipleNewAddressProofs", addresses)
    items = answer.value if isinstance(answer.value, list) and len(answer.value) == len(addresses) else None
    same = items is not None and slot is not None and answer.context_slot == slot
    expected = []
    for i, address in enumerate(addresses):
        item = items[i] if same and isinstance(items[i], dict) else {}
        index, seq = item.get("lowElementLeafIndex"), item.get("rootSeq")
        expected.append(Expected("address", address, key_int(address), index if type(index) is int else None, tree,
                                 bn_value(item.get("root")) if "root" in item else None,
                                 seq % ROOT_HISTORY if type(seq) is int else None))
    return expected


def _moved(ctx: CheckContext, accounts: list[dict]) -> str | None:
    """Why the proof cannot be judged against discovery (an account consumed or changed since), or None."""
    for account in accounts:
        now = ctx.call("getCompressedAccount", {"hash": account["hash"]}).value
        if not isinstance(now, dict) or any(now.get(k) != account[k] for k in ("hash", "leafIndex", "tree")):
            return f"account {account['hash']} is no longer live as discovery saw it"
    return None


def _judge_proof(ctx: CheckContext, accounts: list[dict], addresses: list[str], tree: str | None) -> str | None:
    """Ask one validity proof and judge it; a note when it could not be judged, else None."""
    params: dict[str, Any] = {}
    if accounts:
        params["hashes"] = [a["hash"] for a in accounts]
    if addresses:
        params["newAddressesWithTrees"] = [{"address": address, "tree": tree} for address in addresses]
    what = f"{len(accounts)} accounts with {len(addresses)} new addresses"
    answer = ctx.call("getValidityProof", params)
    if not answer.has_result:
        moved = _moved(ctx, accounts)
        if moved is None and defer_refused(ctx, answer):
            return None  # every account still live: a valid request refused, judged here too
        return f"{what}: {moved or 'refused'}"
    expected = [Expected("account", a["hash"], key_int(a["hash"]), a["leafIndex"], a["tree"]) for a in accounts]
    expected += _address_expectations(ctx, addresses, tree, answer.context_slot)
    elements, problems = elements_of(answer.value, len(expected))
    if elements:
        slot = answer.context_slot
        known = ctx.memo[TREE_STATES].setdefault(slot, {}) if slot is not None else {}
        problems = element_problems(elements, expected) + root_agreement(elements, known)
    if problems and accounts:
        moved = _moved(ctx, accounts)
        if moved:
            return f"{what}: {moved}"
    defer_problems(ctx, problems, answer)
    ctx.examined("proofs")
    return None


@check("crypto.validity-proof", clauses=("ledger-P3", "ledger-T1", "ledger-T2", "4.2-M17"), basis=Basis.LEDGER,
       description="Validity proofs of every accepted count prove exactly the accounts and new addresses asked, "
                   "with one root per tree in the root history")
def validity_proof(ctx: CheckContext) -> None:
    live = _live_accounts(ctx)
    tree = address_tree(ctx)
    notes, judged = [], 0
    for accounts, addresses in _plans(ctx, len(live)):
        if addresses and tree is None:
            notes.append("getMultipleNewAddressProofs named no address tree")
            continue
        note = _judge_proof(ctx, live[:accounts], [ctx.fresh_pubkey() for _ in range(addresses)], tree)
        notes += [note] if note else []
        judged += note is None
    if notes or not judged:  # after some proofs were judged, the reasons are kept for the others
        raise Skip("; ".join(dict.fromkeys(notes)) or "no live account discovered")


@check("crypto.tree-roots", clauses=("ledger-T4", "ledger-T1", "ledger-T2", "ledger-B2"), basis=Basis.LEDGER,
       description="Every root served (validity proofs' roots at their root indices, new-address proofs' root at "
                   "rootSeq) is its tree's root at that seq: the reference's, or the tree rebuilt from what "
                   "discovery saw")
def tree_roots(ctx: CheckContext) -> None:
    """A tree that lost a nullification or an insertion serves self-consistent roots; only its history shows
    it (ledger-T4). Fails when a root or its seq is not the reference's, or no state of the tree rebuilt from
    every leaf and spend seen has it; what cannot be rebuilt is in the notes (`harness.checks.crypto.tree_roots`)."""
    judge_tree_roots(ctx)
