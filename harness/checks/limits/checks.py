"""Family `limits`: §4.3 and §8 counts accepted and refused at each edge, and `limit` bounds.

What the spec leaves open is not judged as a spec rule: whether an empty list counts as given
(ambiguity empty-address-list) and whether `hashes` is required beside new addresses
(validity-hashes-required) are recorded as readings; the address tree is the one the target
names, never an assumed default. Live targets move: a refusal is a finding only once the
accounts asked are re-read and still live.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.harness.context import Answer, CheckContext, answer_value
from csi_conformance.harness.core.failures import CheckFailure, ReadingFailure, Skip
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import result_value
from csi_conformance.harness.core.registry import check
from csi_conformance.harness.judging.answers import outcome_path
from csi_conformance.harness.judging.refusals import expect_refusal
from csi_conformance.harness.judging.samples import items_of, sample_params
from csi_conformance.harness.verify.addresses import address_tree
from csi_conformance.harness.verify.batched import provable_hashes
from csi_conformance.schema import Method


def _live_hashes(ctx: CheckContext) -> list[str]:
    closed = set(ctx.keys["closed_hashes"])
    return provable_hashes(ctx, (h for h in ctx.keys["hashes"] if h not in closed))


def _countable_hashes(ctx: CheckContext, method: Method, wanted: int) -> tuple[list[str], list[str]]:
    """Live hashes to fill the counts with, and what was left out: v1 trees' first, then batched trees' (an
    account still in an output queue is proven by index, §2.10), each once a proof of it alone is given:
    practice refuses a queued account's proof in the wire form, which is no fault of a count (crypto.batched-
    accounts judges that refusal)."""
    hashes = _live_hashes(ctx)
    closed, provable = set(ctx.keys["closed_hashes"]), set(hashes)
    refused = 0
    for hash_ in (h for h in ctx.keys["hashes"] if h not in closed and h not in provable):
        if len(hashes) >= wanted:
            break
        if ctx.call(method.name, {"hashes": [hash_]}).has_result:
            hashes.append(hash_)
        else:
            refused += 1
    return hashes, [f"{refused} batched account(s) refused a proof of their own (still in an output queue, as the "
                    "wire form refuses it): not counted with"] if refused else []


def _gone(ctx: CheckContext, hashes: list[str]) -> str | None:
    """The first hash that is no longer a live account (re-read now), or None when all still are."""
    for hash_ in dict.fromkeys(hashes):
        value = ctx.call("getCompressedAccount", {"hash": hash_}).value
        if not isinstance(value, dict) or value.get("hash") != hash_:
            return hash_
    return None


@check("limits.validity-hashes", clauses=("8-L1", "4.3-R1", "4.3-P1", "7-C2"),
       description="getValidityProof accepts 1, 2, 3, 4 and 8 hashes and refuses the counts around them",
       methods=lambda m: m.limit_for("hashes") is not None)
def validity_hashes(ctx: CheckContext, method: Method) -> None:
    limit = method.limit_for("hashes")
    inside, outside = limit.edges()
    hashes, notes = _countable_hashes(ctx, method, max(inside))
    if not hashes:
        raise Skip(notes[0] if notes else "no live account hash discovered")
    notes += [f"counts {[n for n in inside if n > len(hashes)]} need more live accounts than the "
              f"{len(hashes)} discovered"] if any(n > len(hashes) for n in inside) else []
    for count in (n for n in inside if n <= len(hashes)):
        answer = ctx.call(method.name, {"hashes": hashes[:count]})
        if not answer.has_result:
            gone = _gone(ctx, hashes[:count])
            if gone:
                notes.append(f"{count} hashes not judged: account {gone} was consumed since discovery")
                continue
            ctx.fail(f"{count} hashes refused", expected=f"a proof for {count} live accounts",
                     received=answer_value(answer), answer=answer, path=outcome_path(answer))
        ctx.examined("counts")
    for count in outside:
        chosen = [hashes[i % len(hashes)] for i in range(count)]
        expect_refusal(ctx, ctx.call(method.name, {"hashes": chosen}), f"{count} hashes")
    if notes:
        raise Skip("; ".join(notes))


def _addresses(ctx: CheckContext, tree: str, count: int) -> list[dict]:
    return [{"address": ctx.fresh_pubkey(), "tree": tree} for _ in range(count)]


def _empty_list_reading(ctx: CheckContext, method: Method, hashes: list[str]) -> None:
    """`newAddressesWithTrees: []` beside one live hash: a proof reads the empty list as absent, an
    error as a list given with a count of 0. The spec allows both (ambiguity empty-address-list)."""
    answer = ctx.call(method.name, {"hashes": hashes[:1], "newAddressesWithTrees": []})
    if not answer.has_result and (answer.error is None or _gone(ctx, hashes[:1])):
        return  # a transport or 5xx fault (other checks report it), or the account was consumed meanwhile
    reading = "same-as-absent" if answer.has_result else "refused"
    ctx.observe("empty-address-list", (reading,))
    ctx.examined("readings")
    observed = ctx.contract.ambiguity("empty-address-list").observed
    if reading != observed:
        ctx.fail("Empty address list read otherwise", expected={"empty-address-list": observed},
                 received={"empty-address-list": [reading]}, answer=answer, basis=Basis.AMBIGUITY,
                 clauses=("4.3-R2", "4.3-P2"), path=outcome_path(answer), kind=ReadingFailure)


def _accepted(ctx: CheckContext, method: Method, params: dict[str, Any], hashes: list[str]) -> tuple[Answer, str]:
    """The answer to new addresses alone, or (when refused and a live hash is known) beside one hash:
    a target reading `hashes` as required (ambiguity validity-hashes-required) refuses them alone."""
    answer = ctx.call(method.name, params)
    if answer.has_result or not hashes:
        return answer, "optional"
    combined = ctx.call(method.name, {"hashes": hashes[:1], **params})
    return (combined, "required") if combined.has_result else (answer, "optional")


def _combined(ctx: CheckContext, method: Method, tree: str, count: int, hashes: list[str]) -> None:
    """The same count beside one live account's hash (a combined proof): §8 bounds each list on its own."""
    answer = ctx.call(method.name, {"hashes": hashes[:1], "newAddressesWithTrees": _addresses(ctx, tree, count)})
    if answer.has_result:
        ctx.examined("counts")
    elif not _gone(ctx, hashes[:1]):
        ctx.defer(CheckFailure(f"{count} new addresses refused beside a hash", expected=f"a combined proof for one "
                               f"account and {count} new addresses in tree {tree}", received=answer_value(answer),
                               answer=answer, method=method.name, path=outcome_path(answer)))


def _element_read(ctx: CheckContext, element: dict) -> None:
    """New addresses proven show the element shape the target reads (ambiguity new-address-element)."""
    amb = ctx.contract.ambiguity("new-address-element")
    ctx.observe(amb.id, ctx.contract.readings_followed(amb.id, element, amb.definition))


@check("limits.validity-addresses", clauses=("8-L2", "4.3-R2", "4.3-P2", "7-C2"),
       description="getValidityProof accepts 1 or 2 new addresses in the target's address tree, alone and beside a "
                   "live account's hash, and refuses 3",
       methods=lambda m: m.limit_for("newAddressesWithTrees") is not None)
def validity_addresses(ctx: CheckContext, method: Method) -> None:
    limit = method.limit_for("newAddressesWithTrees")
    tree = address_tree(ctx)
    if tree is None:
        raise Skip("getMultipleNewAddressProofs named no address tree to create addresses in")
    hashes = _live_hashes(ctx)
    inside, outside = limit.edges()
    beside: dict[str, Any] = {}
    for count in inside:
        answer, reading = _accepted(ctx, method, {"newAddressesWithTrees": _addresses(ctx, tree, count)}, hashes)
        if not answer.has_result:
            ctx.fail(f"{count} new addresses refused", expected=f"a proof for {count} new addresses in tree {tree}",
                     received=answer_value(answer), answer=answer, path=outcome_path(answer))
        ctx.observe("validity-hashes-required", (reading,))
        _element_read(ctx, answer.params["newAddressesWithTrees"][0])
        ctx.examined("counts")
        beside = {"hashes": hashes[:1]} if reading == "required" else beside
        if hashes and reading == "optional":
            _combined(ctx, method, tree, count, hashes)
    for count in (n for n in outside if n > max(inside)):  # a count of 0 is the empty list: an ambiguity
        params = {**beside, "newAddressesWithTrees": _addresses(ctx, tree, count)}  # refused for its count alone
        expect_refusal(ctx, ctx.call(method.name, params), f"{count} new addresses")
    if hashes:
        _empty_list_reading(ctx, method, hashes)


@check("limits.page-limit", clauses=("4.2-N3", "8-S2"),
       description="`limit` bounds the items of a page; the observed maximum is accepted and one more refused",
       methods=lambda m: m.paginated and "limit" in m.param_names)
def page_limit(ctx: CheckContext, method: Method) -> None:
    params = sample_params(ctx, method)
    answer = ctx.call(method.name, {**params, "limit": 1})
    items = items_of(method, answer.value)
    if items is None:
        ctx.fail("No page with limit 1", expected="a page", received=answer_value(answer), answer=answer,
                 path=outcome_path(answer))
    if len(items) > 1:
        ctx.fail("Page longer than limit", expected="at most 1 item with limit 1", received=f"{len(items)} items",
                 answer=answer, path=result_value(method.pagination.items))
    ctx.examined("pages")
    maximum = method.observed.get("limit", {}).get("max")
    if maximum is None:
        return
    at_max = ctx.call(method.name, {**params, "limit": maximum})
    if not at_max.has_result:
        ctx.fail("Maximum limit refused", expected=f"limit {maximum} accepted (observed maximum)",
                 received=answer_value(at_max), answer=at_max, basis=Basis.OBSERVED, path=outcome_path(at_max))
    expect_refusal(ctx, ctx.call(method.name, {**params, "limit": maximum + 1}), f"limit {maximum + 1}",
                   basis=Basis.OBSERVED)
    ctx.examined("pages", 2)
