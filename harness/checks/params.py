"""Family `params`: requests the spec forbids get an error, never a result and never a 5xx.

A result for a forbidden request breaks the spec (FAIL); a 5xx instead of a JSON-RPC error is
a JSON-RPC convention (WARN in the spec profile); the error code itself is not shown by the
spec, so -32602 is observed practice.
"""

from __future__ import annotations

from typing import Any

from harness.checks.samples import key_kind, sample_params
from harness.core.failures import Skip
from harness.core.model import Basis
from harness.core.registry import check
from harness.engine.context import Answer, CheckContext, describe
from harness.generate import drawn, invalid_base58, invalid_params, valid_params
from ledger_crypto import b58encode
from schema import Method

GENERATED_PER_METHOD = 24
"""Contract-breaking params sent per method in a default run (seeded)."""
VALID_PER_METHOD = 100
"""Valid generated requests per method in a default run: each is judged by every answer check."""


def expect_refusal(ctx: CheckContext, answer: Answer, what: str, *, basis: Basis = Basis.SPEC) -> None:
    """The answer must be an error: a result fails with `basis`, a 5xx or non-JSON is a JSON-RPC fault."""
    if answer.has_result:
        ctx.fail(f"{what} accepted", expected="a JSON-RPC error", received=describe(answer), answer=answer,
                 basis=basis)
    if answer.exchange.error or (answer.status or 0) >= 500 or answer.error is None:
        ctx.fail(f"{what} not refused cleanly", expected="a JSON-RPC error object (not a 5xx, not a transport error)",
                 received=describe(answer), answer=answer, basis=Basis.JSON_RPC)


def _rule(method: Method, kind: str):
    return next((rule for rule in method.errors if rule.kind == kind), None)


@check("params.required", clauses=("4.1-R5",),
       description="Leaving out a required param is refused",
       methods=lambda m: bool(m.required_params))
def required(ctx: CheckContext, method: Method) -> None:
    params = sample_params(ctx, method)
    for name in method.required_params:
        expect_refusal(ctx, ctx.call(method.name, {k: v for k, v in params.items() if k != name}),
                       f"{method.name} without {name}")


@check("params.exactly-one-of", clauses=("7-C1", "4.2-N1"),
       description="Neither or both of `address` and `hash` are refused where exactly one is required",
       methods=lambda m: _rule(m, "exactly-one-of") is not None)
def exactly_one_of(ctx: CheckContext, method: Method) -> None:
    rule = _rule(method, "exactly-one-of")
    basis = Basis.SPEC if rule.source == "spec" else Basis.OBSERVED
    expect_refusal(ctx, ctx.call(method.name, {}), f"{method.name} with neither {' nor '.join(rule.members)}",
                   basis=basis)
    hashes, addresses = ctx.keys["hashes"], ctx.keys["addresses"]
    both = {"hash": hashes[0] if hashes else ctx.fresh_pubkey(),
            "address": addresses[0] if addresses else ctx.fresh_pubkey()}
    expect_refusal(ctx, ctx.call(method.name, both), f"{method.name} with both {' and '.join(rule.members)}",
                   basis=basis)


@check("params.unknown-member", clauses=("4.1-R10",),
       description="getCompressedAccountBalance refuses a params object with an unknown member",
       methods=lambda m: _rule(m, "unknown-members-rejected") is not None)
def unknown_member(ctx: CheckContext, method: Method) -> None:
    params = dict(sample_params(ctx, method), unexpectedMember=1)
    expect_refusal(ctx, ctx.call(method.name, params), f"{method.name} with an unknown member")


@check("params.case-sensitive", clauses=("4.1-R9",),
       description="Param names are case-sensitive: `Owner` does not stand for `owner`",
       methods=lambda m: bool(m.required_params))
def case_sensitive(ctx: CheckContext, method: Method) -> None:
    params = sample_params(ctx, method)
    name = method.required_params[0]
    renamed = {(k[0].upper() + k[1:] if k == name else k): v for k, v in params.items()}
    expect_refusal(ctx, ctx.call(method.name, renamed), f"{method.name} with {name!r} spelled {name.title()!r}")


def _key_params(method: Method) -> list[str]:
    return [name for name in method.param_names if name in ("owner", "address", "hash", "delegate", "mint",
                                                            "signature")]


@check("params.invalid-base58", clauses=("2.1-R1", "2.1-R2", "2.1-R5"),
       description="A key that is not base58, or decodes to the wrong length, is refused",
       methods=lambda m: bool(_key_params(m)) or m.params_kind == "array")
def invalid_keys(ctx: CheckContext, method: Method) -> None:
    bad = drawn(invalid_base58(), count=2, seed=ctx.seed)
    if method.params_kind == "array":
        for value in bad:
            expect_refusal(ctx, ctx.call(method.name, [value]), f"{method.name} with key {value!r}")
        return
    params = sample_params(ctx, method)
    for name in _key_params(method):
        for value in bad:
            base = {k: v for k, v in params.items() if not (name in ("address", "hash") and k in ("address", "hash"))}
            expect_refusal(ctx, ctx.call(method.name, {**base, name: value}), f"{method.name} with {name}={value!r}")


@check("params.generated-invalid", clauses=("4.1-R5", "2.1-R3"),
       description="Params generated to break the contract (seeded) never get a result",
       methods=lambda m: True)
def generated_invalid(ctx: CheckContext, method: Method) -> None:
    valid: Any = sample_params(ctx, method)
    strategy = invalid_params(ctx.contract, method, valid)
    for params in drawn(strategy, count=GENERATED_PER_METHOD, seed=ctx.seed):
        expect_refusal(ctx, ctx.call(method.name, params), f"{method.name} with params breaking the contract")


@check("params.generated-valid", clauses=("4.1-R5", "4.1-R6", "4.2-N3"),
       description="Valid params generated from discovered keys (seeded) always get a result",
       methods=lambda m: True)
def generated_valid(ctx: CheckContext, method: Method) -> None:
    closed = set(ctx.keys["closed_hashes"])
    keys = {kind: [k for k in values if not (kind == "hashes" and k in closed)]
            for kind, values in ctx.keys.lists.items()}
    strategy = valid_params(method, keys, key_for=key_kind)
    validator = ctx.contract.params_validator(method.name)
    examples = [p for p in drawn(strategy, count=VALID_PER_METHOD, seed=ctx.seed) if validator.is_valid(p)]
    if not examples:
        raise Skip(f"no keys discovered to build valid {method.name} params")
    for params in examples:
        answer = ctx.call(method.name, params)
        if not answer.has_result and not _balance_bare(answer):
            ctx.fail("Valid request refused", expected="a result", received=describe(answer), answer=answer)


def _balance_bare(answer: Answer) -> bool:
    """The bare reading of balance-wrapper is a result too (judged by schema.ambiguity-readings)."""
    body = answer.body
    return isinstance(body, dict) and set(body) == {"context", "value"}


@check("params.validity-unknown-account", clauses=("4.3-R3", "7-C2"),
       description="getValidityProof for a hash no account has fails",
       methods=lambda m: _rule(m, "account-unknown") is not None)
def validity_unknown(ctx: CheckContext, method: Method) -> None:
    expect_refusal(ctx, ctx.call(method.name, {"hashes": [ctx.fresh_pubkey()]}), "Proof of an unknown account")


@check("params.validity-consumed-account", clauses=("4.3-R3", "4.3-R4", "3.2-R3", "7-C2"),
       description="getValidityProof for a consumed (closed) account fails",
       methods=lambda m: _rule(m, "account-consumed") is not None)
def validity_consumed(ctx: CheckContext, method: Method) -> None:
    closed = ctx.keys["closed_hashes"]
    if not closed:
        raise Skip("no closed account discovered")
    expect_refusal(ctx, ctx.call(method.name, {"hashes": [closed[0]]}), "Proof of a consumed account")


@check("params.not-found", clauses=("7-N1", "7-N2"),
       description="An unknown account is a null value and an unknown transaction a null result, not an error")
def not_found(ctx: CheckContext) -> None:
    account = ctx.call("getCompressedAccount", {"hash": ctx.fresh_pubkey()})
    if not account.has_result or account.value is not None:
        ctx.fail("Unknown account not null", expected="result.value null", received=describe(account), answer=account)
    signature = b58encode(bytes(ctx.rng.randbytes(64)))
    transaction = ctx.call("getTransactionWithCompressionInfo", {"signature": signature})
    if not transaction.has_result or transaction.result is not None:
        ctx.fail("Unknown transaction not null", expected="result null", received=describe(transaction),
                 answer=transaction)


@check("params.deprecated-new-addresses", clauses=("4.3-P3", "9-R3"),
       description="The deprecated `newAddresses` param of getValidityProof is still supported")
def deprecated_new_addresses(ctx: CheckContext) -> None:
    answer = ctx.call("getValidityProof", {"newAddresses": [ctx.fresh_pubkey()]})
    if not answer.has_result:
        ctx.fail("Deprecated newAddresses refused", expected="a proof (deprecated, still supported)",
                 received=describe(answer), answer=answer)
