"""The run's context in parts: facts that nothing can patch, a memo keyed by typed keys only, forks that share
the run's facts and memo but keep their own record and notes; and the face a check gets, which holds nothing of
the engine."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import FrozenInstanceError

import pytest
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import CheckContext, Memo, MemoKey, RunFacts, steering
from csi_conformance.harness.core.keys import Keys
from csi_conformance.harness.core.model import CheckResult
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.schema import Contract

COUNTED: MemoKey[list[str]] = MemoKey("counted", list)


@pytest.fixture
def ctx(contract: Contract) -> Iterator[CheckContext]:
    with Target("http://127.0.0.1:9") as target:  # never asked: nothing here sends a request
        yield CheckContext(RunFacts(contract=contract, profile=PROFILES["spec"], seed=7), target, lambda c, a: None)


def test_the_facts_are_frozen_and_hold_no_keys(ctx: CheckContext) -> None:
    with pytest.raises(FrozenInstanceError):
        ctx.facts.seed = 8  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        RunFacts(profile=PROFILES["spec"]).max_requests = 10  # type: ignore[misc]
    assert not hasattr(ctx.facts, "keys") and isinstance(ctx.keys, Keys)  # discovery grows the keys: no fact
    assert (ctx.facts.seed, ctx.contract, ctx.facts.profile.name) == (7, ctx.facts.contract, "spec")


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
    steering.enter(ctx, CheckResult("health.x", "health", (), ""), "getIndexerSlot")
    twin = steering.fork(ctx, "work", steering.target_of(ctx), None)
    assert twin.facts is ctx.facts and twin.memo is ctx.memo and twin.keys is ctx.keys
    twin.examined("answers")
    assert (twin.examined_anything, ctx.examined_anything) == (False, False)  # a fork runs no check of its own
    ctx.examined("answers")
    assert ctx.examined_anything and ctx.unreached("a bound") == ["getIndexerSlot: a bound"]
    twin.memo[COUNTED].append("from the fork")
    twin.note("a note of the fork")
    twin.observe("some-point", ("a",))
    assert (ctx.memo[COUNTED], ctx.observed.notes, ctx.observed.answers_seen) == (
        ["from the fork"], [], {"some-point": 1})
    steering.absorb(ctx, twin)
    assert ctx.observed.notes == ["a note of the fork"]


def test_once_works_a_value_out_once_in_a_fork_named_after_its_key(ctx: CheckContext) -> None:
    key, worked = MemoKey[str]("answer"), []

    def compute(fork: CheckContext) -> str:
        worked.append(fork)
        return f"worked out by {fork.fresh_pubkey()}"

    first = ctx.once(key, compute)
    assert ctx.once(key, compute) == first and len(worked) == 1 and worked[0] is not ctx
    assert steering.memo_forks(ctx) == worked and steering.memo_forks(ctx) == []
    again = CheckContext(ctx.facts, steering.target_of(ctx), lambda c, a: None)
    assert again.once(key, compute) == first  # the same seed and key: the same randomness


FACE = {"facts", "contract", "keys", "observed", "memo",  # what a check reads (and where it keeps what it works out)
        "call", "call_many", "send", "ask_reference", "send_reference", "once", "fresh_pubkey", "random_bytes",
        "has_reference", "stopped", "out_of_requests", "sent_here", "terms",  # what it asks, and may know of asking
        "method", "fail", "defer", "examined", "examined_anything", "unreached", "observe", "note"}  # where it writes
"""The face of `CheckContext`: nothing of the engine (entering a check, forks, the pool, the target's handle)."""


def _public(ctx: CheckContext) -> set[str]:
    return {name for name in {*vars(ctx), *dir(type(ctx))} if not name.startswith("_")}


def test_the_face_is_what_a_check_reads_asks_and_writes(ctx: CheckContext) -> None:
    assert _public(ctx) == FACE


def _outside_the_face(source: str, face: set[str]) -> set[str]:
    """The names a module reads from a context (`ctx.`, `twin.`, `self.ctx.`) that the face lacks."""
    import re

    return {match for match in re.findall(r"\b(?:ctx|twin|fork)\.([a-z_]+)", source) if match not in face}


def test_no_check_reaches_past_the_face_nor_imports_the_engine() -> None:
    from pathlib import Path

    harness = Path(__file__).resolve().parents[2] / "harness"
    below_engine = [path for room in ("checks", "judging", "verify") for path in (harness / room).rglob("*.py")]
    below_engine.append(harness / "discover.py")
    reached = {f"{path.name}: {name}" for path in below_engine
               for name in _outside_the_face(path.read_text(encoding="utf-8"), FACE)}
    assert below_engine and not reached
    importing = [path.name for path in below_engine
                 if "harness.engine" in (text := path.read_text(encoding="utf-8")) or "steering" in text]
    assert not importing


def test_the_face_rule_catches_a_check_that_reaches_for_the_target() -> None:
    planted = "def check(ctx):\n    if ctx.target.api_key and ctx.current.examined:\n        ctx.fail('x')\n"
    assert _outside_the_face(planted, FACE) == {"target", "current"}
