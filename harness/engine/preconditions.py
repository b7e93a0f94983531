"""What must hold before the first judged request, or the run says what to fix instead of judging.

A target that cannot be reached, refuses the key, is no indexer at all (a web page, a Solana node),
has not caught up with the ledger it is compared over, or indexed another ledger altogether would
fail nearly every check for one reason: each of these ends the run with exit code 3 and one line
saying that reason (`PreconditionUnmet`), never a finding on every check.
"""

from __future__ import annotations

from collections.abc import Sequence

from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.connection import NOT_JSON, Exchange
from csi_conformance.harness.context import CheckContext, steering
from csi_conformance.harness.context.served import METHOD_NOT_FOUND
from csi_conformance.harness.core.errors import PreconditionUnmet

__all__ = ["PROBED_SIGNATURES", "caught_up", "knows_ledger", "preflight"]

PROBED_SIGNATURES = 5
"""How many of the ledger's transactions are asked of the target before the run (spread over the ledger)."""


def preflight(ctx: CheckContext) -> None:
    """The target must answer at all, let the kit in, and be an indexer: no connection, no answer, a refused
    key, or a URL that is not an indexer's JSON-RPC URL (HTTP 404 there, an answer that is no JSON-RPC, a Solana
    node) ends the run with exit code 3 and one clear reason."""
    exchange = ctx.call("getIndexerSlot", judge=False).exchange
    failure = exchange.target_error()
    if failure is not None:
        raise failure
    if exchange.status is None:
        raise PreconditionUnmet(f"no HTTP answer to getIndexerSlot: {exchange.error}")
    if exchange.status in (401, 403):
        given = "the API key given was refused" if steering.target_of(ctx).api_key else "no API key was given"
        raise PreconditionUnmet(f"the target answers HTTP {exchange.status} to getIndexerSlot: {given}; "
                                "check the key (--api-key or $CSI_API_KEY)")
    target = steering.target_of(ctx)
    url = target.redactor.url(target.base_url)
    if exchange.status == 404:  # nothing at that path, whatever the body says (a JSON one included)
        raise PreconditionUnmet(f"HTTP 404 at {url}: is {url} the indexer's JSON-RPC URL?")
    if not _json_rpc_like(exchange):
        raise PreconditionUnmet(f"getIndexerSlot got no JSON-RPC answer ({_what_came(exchange)}): is "
                                f"{url} the indexer's JSON-RPC URL?")
    error = exchange.json.get("error")
    if isinstance(error, dict) and error.get("code") == METHOD_NOT_FOUND:
        raise PreconditionUnmet(f"getIndexerSlot is not a method there (error {METHOD_NOT_FOUND} "
                                f"{dumps(error.get('message'))[:80]}){_solana_node(ctx)}: is {url} the indexer's "
                                "JSON-RPC URL?")


def _solana_node(ctx: CheckContext) -> str:
    """`, and it answers getVersion as a Solana node (solana-core 2.1.0)`, when it does; else nothing."""
    version = ctx.call("getVersion", judge=False).result
    core = version.get("solana-core") if isinstance(version, dict) else None
    return f", and it answers getVersion as a Solana node does (solana-core {core})" if isinstance(core, str) else ""


def _json_rpc_like(exchange: Exchange) -> bool:
    """Whether an answer could come from an indexer: a JSON-RPC object, or §7's `{error: string}` body."""
    body = exchange.json
    return isinstance(body, dict) and bool({"jsonrpc", "result", "error"} & set(body))


def _what_came(exchange: Exchange) -> str:
    """What came back, in a few words: the status, and the body's first characters or its kind."""
    kind = exchange.headers.get("content-type", "no content type").split(";")[0]
    if exchange.json is NOT_JSON:
        head = " ".join(exchange.body[:80].decode("utf-8", "replace").split())
        return f"HTTP {exchange.status}, {kind} beginning {head}" if head else f"HTTP {exchange.status}, an empty body"
    return f"HTTP {exchange.status}, JSON that is no JSON-RPC answer: {dumps(exchange.json)[:80]}"


def knows_ledger(ctx: CheckContext, signatures: Sequence[str]) -> None:
    """With a ledger (`--chain`, `--ledger`, `--ledger-rpc`), the target must know some of its transactions: a
    target that answers null for every one asked indexed another ledger (or none), and every comparison would
    only say so."""
    if not ctx.has_reference or not signatures:
        return
    step = max(len(signatures) // PROBED_SIGNATURES, 1)
    asked = list(dict.fromkeys([*signatures[::step][:PROBED_SIGNATURES - 1], signatures[-1]]))
    for signature in asked:
        answer = ctx.call("getTransactionWithCompressionInfo", {"signature": signature}, id="csi-precondition",
                          judge=False)
        if answer.exchange.json is NOT_JSON or not isinstance(answer.exchange.json, dict) \
                or "result" not in answer.exchange.json or answer.result is not None:
            return  # known, or an answer that is no plain "unknown": the checks judge it
    slot = ctx.call("getIndexerSlot", id="csi-precondition", judge=False).result
    raise PreconditionUnmet(f"the target knows none of the {len(signatures)} transactions of the {ctx.facts.scenario} "
                            f"(getTransactionWithCompressionInfo answered null for all {len(asked)} asked, e.g. "
                            f"{asked[0]}; its getIndexerSlot is {dumps(slot)}): did it index this ledger?")


def caught_up(ctx: CheckContext) -> None:
    """With a reference, the target must have indexed the whole scenario: its slot must have reached
    the reference's (the scenario's last slot), or every difference would only say it is behind."""
    if not ctx.has_reference:
        return
    expected = ctx.ask_reference("getIndexerSlot", id="csi-precondition").result
    if type(expected) is not int:
        raise PreconditionUnmet(f"the reference server over {ctx.facts.scenario} gave no slot")
    answer = ctx.call("getIndexerSlot", id="csi-precondition", judge=False)
    slot = answer.result
    if type(slot) is not int:
        raise PreconditionUnmet(f"getIndexerSlot gave no integer slot, so the harness cannot tell whether the "
                                f"target has indexed scenario {ctx.facts.scenario} (last slot {expected})")
    if slot < expected:
        what, advice = _behind(ctx)
        raise PreconditionUnmet(f"the target has indexed up to slot {slot}, but {what} ends at slot {expected}: "
                                f"{advice}")
    if slot > expected:
        ctx.note(f"the target is at slot {slot}, past the scenario's last slot {expected}: "
                 "later transactions can show up as differences")
    if ctx.facts.reference_partial_trees:
        trees = ", ".join(sorted(ctx.facts.reference_partial_trees))
        ctx.note(f"the {ctx.facts.scenario} starts mid-chain (trees {trees} hold leaves it never saw): it is compared "
                 "with a target that indexed the same slice, and no root of those trees is compared")


def _behind(ctx: CheckContext) -> tuple[str, str]:
    """What a target behind the reference has not finished indexing, and what to do about it."""
    if ctx.facts.chain is not None:
        return "the chain", ("point the indexer at `csi chain serve` over it and wait until it has indexed its "
                             "last block")
    if (ctx.facts.scenario or "").startswith("ledger "):
        return f"the {ctx.facts.scenario}", "wait until the target has indexed all of it"
    return f"scenario {ctx.facts.scenario}", "load the scenario and wait until the target has caught up"
