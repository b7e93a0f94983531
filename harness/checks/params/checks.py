"""Family `params`: requests the spec forbids get an error, never a result and never a 5xx.

A result for a forbidden request breaks the rule the request broke, with that rule's basis: the
spec for what §4.1/§4.2 state, JSON-RPC 2.0 for what only it says (a `params` that is neither an
object nor an array, for a method that takes none). A 5xx or a body that is not a JSON-RPC error
is a JSON-RPC convention (WARN in the spec profile); the error code itself is not shown by the
spec, so -32602 is observed practice and not judged here.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.checks.params.drawing import drawn
from csi_conformance.harness.connection import OMIT
from csi_conformance.harness.context import Answer, CheckContext, answer_value, describe
from csi_conformance.harness.core.failures import CheckFailure, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import result_value
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.generate import NoValidParams, invalid_base58, invalid_params, valid_params
from csi_conformance.harness.judging.answers import outcome_path
from csi_conformance.harness.judging.refusals import expect_refusal, formal_params
from csi_conformance.harness.verify.addresses import address_tree
from csi_conformance.harness.verify.batched import batched_hashes
from csi_conformance.schema import Method

GENERATED_PER_METHOD = 24
"""Contract-breaking params sent per method in a default run (seeded)."""
VALID_PER_METHOD = 100
"""Valid generated requests per method in a default run: each is judged by every answer check."""
V1_PROOF = "AccountProof"
"""The definition of a V1 merkle proof (photon-366a15b): a leaf in its tree, none for an account still queued."""
PROVING_PER_RUN = {"getValidityProof": 12, "getValidityProofV2": 12}
"""Methods whose every valid request makes the target run its prover: a dozen distinct seeded examples
judge the same rule as a hundred, at a cost a vendor's prover can bear."""
KEY_PARAMS = ("owner", "address", "hash", "delegate", "mint", "signature")
"""Params that take a base58 key."""
VALID_BASIS = {"none": Basis.JSON_RPC}
"""What refusing valid generated params breaks, per params kind: `[]` and `{}` for a method that
takes none are read as none by JSON-RPC 2.0 (the spec only says no params are sent); the spec otherwise."""


def _rule(method: Method, kind: str):
    return next((rule for rule in method.errors if rule.kind == kind), None)


def _rule_basis(rule) -> Basis:
    return Basis.SPEC if rule.source == "spec" else Basis.OBSERVED


@check("params.required", clauses=("4.1-R5",),
       description="Leaving out a required param is refused",
       methods=lambda m: bool(m.required_params))
def required(ctx: CheckContext, method: Method) -> None:
    params = formal_params(ctx, method)
    for name in method.required_params:
        expect_refusal(ctx, ctx.call(method.name, {k: v for k, v in params.items() if k != name}),
                       "Request without a required param", f"required param `{name}` left out",
                       clauses=("4.1-R5", method.clause))


@check("params.exactly-one-of", clauses=("7-C1", "4.2-N1"),
       description="Neither or both of `address` and `hash` are refused where exactly one is required",
       methods=lambda m: _rule(m, "exactly-one-of") is not None)
def exactly_one_of(ctx: CheckContext, method: Method) -> None:
    rule = _rule(method, "exactly-one-of")
    members = " and ".join(f"`{m}`" for m in rule.members)
    expect_refusal(ctx, ctx.call(method.name, {}), "Request with neither member", f"neither of {members} given",
                   basis=_rule_basis(rule), clauses=rule.clauses)
    hashes, addresses = ctx.keys["hashes"], ctx.keys["addresses"]
    both = {"hash": hashes[0] if hashes else ctx.fresh_pubkey(),
            "address": addresses[0] if addresses else ctx.fresh_pubkey()}
    expect_refusal(ctx, ctx.call(method.name, both), "Request with both members", f"both of {members} given",
                   basis=_rule_basis(rule), clauses=rule.clauses)


@check("params.unknown-member", clauses=("4.1-R10",),
       description="A params object with an unknown member is refused where the contract says so "
                   "(the spec states it for getCompressedAccountBalance only)",
       methods=lambda m: _rule(m, "unknown-members-rejected") is not None)
def unknown_member(ctx: CheckContext, method: Method) -> None:
    rule = _rule(method, "unknown-members-rejected")
    params = dict(formal_params(ctx, method), unexpectedMember=1)
    stated = "stated by the spec (§4.1)" if rule.source == "spec" else "observed practice, not stated by the spec"
    expect_refusal(ctx, ctx.call(method.name, params), "Unknown param member",
                   f"`unexpectedMember` is no param of {method.name}; rejecting unknown members is {stated}",
                   basis=_rule_basis(rule), clauses=rule.clauses)


@check("params.case-sensitive", clauses=("4.1-R9",),
       description="Param names are case-sensitive: `Owner` does not stand for `owner`",
       methods=lambda m: bool(m.required_params))
def case_sensitive(ctx: CheckContext, method: Method) -> None:
    params = formal_params(ctx, method)
    name = method.required_params[0]
    spelled = name[0].upper() + name[1:]
    renamed = {(spelled if k == name else k): v for k, v in params.items()}
    expect_refusal(ctx, ctx.call(method.name, renamed), "Param name in another case",
                   f"`{spelled}` is not `{name}`: names are case-sensitive and `{name}` is required")


def _key_params(method: Method) -> list[str]:
    return [name for name in method.param_names if name in KEY_PARAMS]


@check("params.invalid-base58", clauses=("2.1-R1", "2.1-R2", "2.1-R5"),
       description="A key that is not base58, or decodes to the wrong length, is refused",
       methods=lambda m: bool(_key_params(m)) or m.params_kind == "array")
def invalid_keys(ctx: CheckContext, method: Method) -> None:
    bad = drawn(invalid_base58(), count=2, seed=ctx.facts.seed)
    if method.params_kind == "array":
        for value in bad:
            expect_refusal(ctx, ctx.call(method.name, [value]), "Invalid base58 key",
                           f"{dumps(value)} is not a base58 32-byte key")
        return
    params = formal_params(ctx, method)
    for name in _key_params(method):
        base = {k: v for k, v in params.items() if not (name in ("address", "hash") and k in ("address", "hash"))}
        for value in bad:
            expect_refusal(ctx, ctx.call(method.name, {**base, name: value}), "Invalid base58 key",
                           f"`{name}` is {dumps(value)}, not a base58 key of the right length")


@check("params.generated-invalid", clauses=("4.1-R5", "2.1-R3"),
       description="Params generated to break the contract (seeded) never get a result; each breaks one rule, "
                   "judged on that rule's basis",
       methods=lambda m: True)
def generated_invalid(ctx: CheckContext, method: Method) -> None:
    valid = formal_params(ctx, method)
    cases = drawn(invalid_params(ctx.contract, method, None if valid is OMIT else valid),
                  count=GENERATED_PER_METHOD, seed=ctx.facts.seed)
    for case in cases:
        expect_refusal(ctx, ctx.call(method.name, case.params), "Params breaking the contract", case.breaks,
                       basis=case.basis, clauses=(case.clause,))


@check("params.generated-valid", clauses=("4.1-R5", "4.1-R6", "4.2-N3"),
       description="Valid params generated from discovered keys (seeded) always get a result",
       methods=lambda m: True)
def generated_valid(ctx: CheckContext, method: Method) -> None:
    _healthy_or_skip(ctx, method)
    closed = set(ctx.keys["closed_hashes"])
    if method.limit_for("hashes") is not None or ctx.contract.carries(method.name, V1_PROOF):
        closed |= batched_hashes(ctx)  # a validity or V1 proof: of v1-tree accounts (harness.verify.batched)
    keys = {kind: [k for k in values if not (kind == "hashes" and k in closed)]
            for kind, values in ctx.keys.lists.items()}
    try:
        strategy = valid_params(method, keys)
    except NoValidParams as missing:
        raise Skip(missing.reason) from None
    validator = ctx.contract.params_validator(method.name)
    proving = PROVING_PER_RUN.get(method.name)
    count = VALID_PER_METHOD if proving is None else min(VALID_PER_METHOD, 3 * proving)  # room for repeats
    examples = [p for p in drawn(strategy, count=count, seed=ctx.facts.seed) if validator.is_valid(p)]
    if proving is not None:
        distinct = {dumps(p): p for p in examples}
        examples = list(distinct.values())[:proving]
    if not examples:
        raise Skip(f"no valid {method.name} params could be built from the keys discovered")
    basis = VALID_BASIS.get(method.params_kind, Basis.SPEC)
    for params in examples:
        answer = ctx.call(method.name, params)
        if not answer.has_result and not _balance_bare(answer):
            if _moved(ctx, method, params):
                continue  # an account was consumed since discovery: the refusal is right
            ctx.fail("Valid request refused", expected="a result: the params are valid",
                     received=answer_value(answer), answer=answer, basis=basis, path=outcome_path(answer))
        ctx.examined("answers")


def _healthy_or_skip(ctx: CheckContext, method: Method) -> None:
    """A method that must fail while the indexer is stale (§7-C3) is judged only when it answers
    without params: a stale indexer's error is the spec's answer, not a refused request."""
    if _rule(method, "stale") is None:
        return
    plain = ctx.call(method.name)
    if not plain.has_result:
        raise Skip(f"{method.name} answers an error even without params ({describe(plain)}); a stale "
                   "indexer must (§7-C3), so generated params cannot be judged")


def _moved(ctx: CheckContext, method: Method, params: Any) -> bool:
    """Whether an account the params name was consumed since discovery (re-read, not judged)."""
    if _rule(method, "account-consumed") is None or not isinstance(params, dict):
        return False
    for hash_ in params.get("hashes") or ():
        now = ctx.call("getCompressedAccount", {"hash": hash_}, judge=False)
        if now.has_result and isinstance(now.result, dict) and now.result.get("value") is None:
            return True
    return False


def _balance_bare(answer: Answer) -> bool:
    """The bare reading of balance-wrapper is a result too (judged by schema.ambiguity-readings)."""
    body = answer.body
    return isinstance(body, dict) and set(body) == {"context", "value"}


@check("params.validity-unknown-account", clauses=("4.3-R3", "7-C2"),
       description="getValidityProof for a hash no account has fails",
       methods=lambda m: _rule(m, "account-unknown") is not None)
def validity_unknown(ctx: CheckContext, method: Method) -> None:
    fresh = ctx.fresh_pubkey()
    expect_refusal(ctx, ctx.call(method.name, {"hashes": [fresh]}), "Proof of an unknown account",
                   f"no account has hash {fresh} (§4.3 rule 3)")


@check("params.validity-consumed-account", clauses=("4.3-R3", "4.3-R4", "3.2-R3", "7-C2"),
       description="getValidityProof fails for a consumed (closed) account wherever the request names it: alone, "
                   "after a live account, and beside a new address",
       methods=lambda m: _rule(m, "account-consumed") is not None)
def validity_consumed(ctx: CheckContext, method: Method) -> None:
    closed = ctx.keys["closed_hashes"]
    if not closed:
        raise Skip("no closed account discovered")
    for params, where in _consumed_requests(ctx, closed[0]):
        try:
            expect_refusal(ctx, ctx.call(method.name, params), "Proof of a consumed account",
                           f"account {closed[0]} was consumed (§4.3 rules 3 and 4), named {where}")
        except CheckFailure as failure:
            ctx.defer(failure)


def _consumed_requests(ctx: CheckContext, consumed: str) -> list[tuple[dict, str]]:
    """The consumed account alone, second after a live one, and in a combined proof with a new address: a
    server that checks one path only (the first hash, inclusion proofs only) shows on another."""
    requests = [({"hashes": [consumed]}, "alone")]
    live = [key for key in ctx.keys["hashes"] if key not in set(ctx.keys["closed_hashes"])]
    if live:
        requests.append(({"hashes": [live[0], consumed]}, "after a live account"))
    tree = address_tree(ctx)
    if tree is not None:
        requests.append(({"hashes": [consumed], "newAddressesWithTrees": [{"address": ctx.fresh_pubkey(),
                                                                            "tree": tree}]}, "beside a new address"))
    return requests


def _null_value(result: Any) -> bool:
    return isinstance(result, dict) and "context" in result and "value" in result and result["value"] is None


@check("params.not-found", clauses=("7-N1", "7-N2"),
       description="An unknown account is a null value and an unknown transaction a null result, not an error")
def not_found(ctx: CheckContext) -> None:
    account = ctx.call("getCompressedAccount", {"hash": ctx.fresh_pubkey()})
    if not (account.has_result and _null_value(account.result)):
        ctx.fail("Unknown account not null", expected="result {context, value: null} (§7)",
                 received=answer_value(account), answer=account, clauses=("7-N1",),
                 path=result_value() if account.has_result else outcome_path(account))
    ctx.examined("answers")
    signature = b58encode(bytes(ctx.random_bytes(64)))
    transaction = ctx.call("getTransactionWithCompressionInfo", {"signature": signature})
    # Both readings of ambiguity transaction-context: a null result, or {context, value: null}.
    if not (transaction.has_result and (transaction.result is None or _null_value(transaction.result))):
        ctx.fail("Unknown transaction not null", expected="result null, or {context, value: null} (§7; ambiguity "
                 "transaction-context)", received=answer_value(transaction), answer=transaction, clauses=("7-N2",),
                 path=outcome_path(transaction))
    ctx.examined("answers")


@check("params.deprecated-new-addresses", clauses=("4.3-P3", "9-R3"),
       description="The deprecated `newAddresses` param of getValidityProof is still supported")
def deprecated_new_addresses(ctx: CheckContext) -> None:
    answer = ctx.call("getValidityProof", {"newAddresses": [ctx.fresh_pubkey()]})
    if not answer.has_result:
        ctx.fail("Deprecated newAddresses refused", expected="a proof (deprecated, still supported: §4.3, §9)",
                 received=answer_value(answer), answer=answer, path=outcome_path(answer))
    ctx.examined("answers")
