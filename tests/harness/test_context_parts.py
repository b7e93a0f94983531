"""The run's context in parts: facts that nothing can patch, a memo keyed by typed keys only, forks that share
the run's facts and memo but keep their own record and notes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import FrozenInstanceError

import pytest
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import CheckContext, Memo, MemoKey, RunFacts
from csi_conformance.harness.core.keys import Keys
from csi_conformance.harness.core.model import CheckResult
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import RunConfig
from csi_conformance.schema import Contract

COUNTED: MemoKey[list[str]] = MemoKey("counted", list)


@pytest.fixture
def ctx(contract: Contract) -> Iterator[CheckContext]:
    with Target("http://127.0.0.1:9") as target:  # never asked: nothing here sends a request
        yield CheckContext(RunFacts(contract=contract, profile=PROFILES["spec"], seed=7), target, lambda c, a: None)


def test_the_facts_are_frozen_through_the_context_and_the_run_config_too(ctx: CheckContext) -> None:
    with pytest.raises(FrozenInstanceError):
        ctx.facts.seed = 8  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        ctx.keys = Keys()
    with pytest.raises(FrozenInstanceError):
        RunConfig(profile=PROFILES["spec"]).max_requests = 10  # type: ignore[misc]
    assert (ctx.seed, ctx.contract, ctx.profile.name) == (7, ctx.facts.contract, "spec")


@pytest.mark.parametrize("use", [
    lambda memo: memo["schema.documents"],
    lambda memo: memo.get("schema.documents"),
    lambda memo: memo.__setitem__("schema.documents", {}),
    lambda memo: "schema.documents" in memo,
    lambda memo: memo.once("schema.documents", dict),
], ids=["read", "get", "put", "contains", "once"])
def test_the_memo_refuses_a_string_key(use: Callable[[Memo], object]) -> None:
    with pytest.raises(TypeError, match="MemoKey"):
        use(Memo())


def test_keys_of_the_same_name_are_told_apart_and_a_part_is_one_key() -> None:
    memo, one, other = Memo(), MemoKey[int]("same"), MemoKey[int]("same")
    memo[one] = 1
    assert (memo.get(one), memo.get(other), other in memo) == (1, None, False)
    with pytest.raises(KeyError):
        memo[other]  # no start: nothing is made
    assert COUNTED.at("a") is COUNTED.at("a") and COUNTED.at("a") is not COUNTED.at("b")
    assert COUNTED.at("a").name == "counted a"
    memo[COUNTED.at("a")].append("x")
    assert (memo[COUNTED.at("a")], memo[COUNTED.at("b")]) == (["x"], [])


def test_a_fork_shares_facts_and_memo_keeps_its_own_record_and_notes(ctx: CheckContext) -> None:
    ctx.enter(CheckResult("health.x", "health", (), ""), "getIndexerSlot")
    twin = ctx.fork("work", ctx.target, None)
    assert twin.facts is ctx.facts and twin.memo is ctx.memo and twin.keys is ctx.keys
    assert twin.current is None and ctx.current is not None
    twin.memo[COUNTED].append("from the fork")
    twin.notes.append("a note of the fork")
    twin.observe("some-point", ("a",))
    assert (ctx.memo[COUNTED], ctx.notes, ctx.answers_seen) == (["from the fork"], [], {"some-point": 1})
    ctx.absorb(twin)
    assert ctx.notes == ["a note of the fork"]


def test_once_works_a_value_out_once_in_a_fork_named_after_its_key(ctx: CheckContext) -> None:
    key, worked = MemoKey[str]("answer"), []

    def compute(fork: CheckContext) -> str:
        worked.append(fork)
        return f"worked out by {fork.fresh_pubkey()}"

    first = ctx.once(key, compute)
    assert ctx.once(key, compute) == first and len(worked) == 1 and worked[0] is not ctx
    assert ctx.memo_forks() == worked and ctx.memo_forks() == []
    again = CheckContext(ctx.facts, ctx.target, lambda c, a: None)
    assert again.once(key, compute) == first  # the same seed and key: the same randomness
