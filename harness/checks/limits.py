"""Family `limits`: §4.3 and §8 counts accepted and refused at each edge, and `limit` bounds."""

from __future__ import annotations

from harness.checks.params import expect_refusal
from harness.checks.samples import items_of, sample_params
from harness.core.failures import Skip
from harness.core.model import Basis
from harness.core.registry import check
from harness.engine.context import CheckContext, describe
from schema import Method


def _live_hashes(ctx: CheckContext) -> list[str]:
    closed = set(ctx.keys["closed_hashes"])
    return [h for h in ctx.keys["hashes"] if h not in closed]


@check("limits.validity-hashes", clauses=("8-L1", "4.3-R1", "4.3-P1", "7-C2"),
       description="getValidityProof accepts 1, 2, 3, 4 and 8 hashes and refuses the counts around them",
       methods=lambda m: m.limit_for("hashes") is not None)
def validity_hashes(ctx: CheckContext, method: Method) -> None:
    limit = method.limit_for("hashes")
    hashes = _live_hashes(ctx)
    if not hashes:
        raise Skip("no live account hash discovered")
    inside, outside = limit.edges()
    untested = [n for n in inside if n > len(hashes)]
    for count in (n for n in inside if n <= len(hashes)):
        answer = ctx.call(method.name, {"hashes": hashes[:count]})
        if not answer.has_result:
            ctx.fail(f"{count} hashes refused", expected=f"a proof for {count} live accounts",
                     received=describe(answer), answer=answer)
    for count in outside:
        chosen = [hashes[i % len(hashes)] for i in range(count)]
        expect_refusal(ctx, ctx.call(method.name, {"hashes": chosen}), f"{count} hashes")
    if untested:
        raise Skip(f"counts {untested} need more live accounts than the {len(hashes)} discovered")


def _address_tree(ctx: CheckContext, method: Method) -> str:
    return method.observed.get("default_address_tree", ctx.fresh_pubkey())


@check("limits.validity-addresses", clauses=("8-L2", "4.3-R2", "4.3-P2", "7-C2"),
       description="getValidityProof accepts 1 or 2 new addresses and refuses 3",
       methods=lambda m: m.limit_for("newAddressesWithTrees") is not None)
def validity_addresses(ctx: CheckContext, method: Method) -> None:
    limit = method.limit_for("newAddressesWithTrees")
    tree = _address_tree(ctx, method)
    inside, outside = limit.edges()
    for count in inside:
        elements = [{"address": ctx.fresh_pubkey(), "tree": tree} for _ in range(count)]
        answer = ctx.call(method.name, {"newAddressesWithTrees": elements})
        if not answer.has_result:
            ctx.fail(f"{count} new addresses refused", expected=f"a proof for {count} new addresses",
                     received=describe(answer), answer=answer)
    for count in (n for n in outside if n > 0):
        elements = [{"address": ctx.fresh_pubkey(), "tree": tree} for _ in range(count)]
        expect_refusal(ctx, ctx.call(method.name, {"newAddressesWithTrees": elements}), f"{count} new addresses")


@check("limits.page-limit", clauses=("4.2-N3", "8-S2"),
       description="`limit` bounds the items of a page; the observed maximum is accepted and one more refused",
       methods=lambda m: m.paginated and "limit" in m.param_names)
def page_limit(ctx: CheckContext, method: Method) -> None:
    params = sample_params(ctx, method)
    answer = ctx.call(method.name, {**params, "limit": 1})
    items = items_of(method, answer.value)
    if items is None:
        ctx.fail("No page with limit 1", expected="a page", received=describe(answer), answer=answer)
    if len(items) > 1:
        ctx.fail("Page longer than limit", expected="at most 1 item with limit 1", received=f"{len(items)} items",
                 answer=answer)
    maximum = method.observed.get("limit", {}).get("max")
    if maximum is None:
        return
    at_max = ctx.call(method.name, {**params, "limit": maximum})
    if not at_max.has_result:
        ctx.fail("Maximum limit refused", expected=f"limit {maximum} accepted (observed maximum)",
                 received=describe(at_max), answer=at_max, basis=Basis.OBSERVED)
    expect_refusal(ctx, ctx.call(method.name, {**params, "limit": maximum + 1}), f"limit {maximum + 1}",
                   basis=Basis.OBSERVED)
