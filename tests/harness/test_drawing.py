"""Drawing examples (`harness.checks.params.drawing`): seeded, distinct, as many as hypothesis's test engine
would give, and the same wherever the kit runs: no draw depends on which modules are loaded."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.checks.params import drawing
from csi_conformance.harness.checks.params.drawing import drawn
from csi_conformance.harness.generate import invalid_params, valid_params
from csi_conformance.schema import Contract
from hypothesis import strategies as st

CONTRACT = Contract.default()
KEY = "1" * 32


def test_draws_directly_with_the_installed_hypothesis() -> None:
    """Protection: `drawn` falls back to hypothesis's slower test engine when the conjecture
    internals it uses move; that must be a failing test, not a silently slower run."""
    assert drawing.DIRECT


def test_the_same_seed_draws_the_same_examples() -> None:
    strategy = invalid_params(CONTRACT, CONTRACT.method("getCompressedAccountsByOwner"), {"owner": KEY})
    first = [case.params for case in drawn(strategy, count=24, seed=3)]
    assert first == [case.params for case in drawn(strategy, count=24, seed=3)]
    assert first != [case.params for case in drawn(strategy, count=24, seed=4)]


def test_no_example_twice_and_a_small_strategy_gives_all_it_has() -> None:
    """A strategy with 28 possible params gives those 28 for 100 asked, each once, as the engine does:
    the number of requests a run sends depends on it."""
    keys = {"hashes": [f"h{i}" for i in range(14)], "addresses": [f"a{i}" for i in range(14)]}
    strategy = valid_params(CONTRACT.method("getCompressedAccount"), keys)
    examples = drawn(strategy, count=100, seed=0)
    assert len(examples) == 28 and {dumps(p) for p in examples} == (
        {dumps({"hash": k}) for k in keys["hashes"]} | {dumps({"address": k}) for k in keys["addresses"]})
    assert len(drawing._drawn_by_engine(strategy, count=100, seed=0)) == 28


@pytest.mark.parametrize("method", sorted(CONTRACT.methods))
def test_as_many_examples_as_the_engine_draws(method: str) -> None:
    """Per method, valid and invalid params: the number of requests the harness sends is the engine's."""
    keys = {kind: [f"{kind}{i}" for i in range(3)] for kind in
            ("hashes", "addresses", "owners", "token_owners", "delegates", "mints", "signatures")}
    valid = valid_params(CONTRACT.method(method), keys)
    sample = drawn(valid, count=1, seed=0)[0]
    strategies = [valid, invalid_params(CONTRACT, CONTRACT.method(method), None),
                  invalid_params(CONTRACT, CONTRACT.method(method), sample)]
    for strategy in strategies:
        assert len(drawn(strategy, count=30, seed=0)) == len(drawing._drawn_by_engine(strategy, count=30, seed=0))


def test_first_example_is_the_simplest_and_filtered_ones_do_not_count() -> None:
    assert drawn(st.integers(0, 1000), count=5, seed=9)[0] == 0
    even = drawn(st.integers(0, 1000).filter(lambda n: n % 2 == 0), count=20, seed=0)
    assert len(even) == 20 and all(n % 2 == 0 for n in even)
    assert drawn(st.integers().filter(lambda n: False), count=5, seed=0) == []  # ends, with nothing


def test_no_draw_depends_on_the_modules_loaded(tmp_path, monkeypatch) -> None:
    """hypothesis's own provider now and then draws a constant read from the source of a module it takes for the
    user's (any file outside site-packages): the same seed drew other params in a checkout than in a `pip install`,
    and after a lazy import than before it. A module of such constants loaded between two draws changes nothing;
    the engine's draws, through hypothesis's provider, show that the planted constants do reach hypothesis."""
    strategy = st.lists(st.integers(1, 100_000), min_size=300, max_size=300)
    ours, engines = drawn(strategy, count=2, seed=5), drawing._drawn_by_engine(strategy, count=2, seed=5)
    planted = "csi_planted_constants"
    (tmp_path / f"{planted}.py").write_text(f"VALUES = ({', '.join(str(n) for n in range(20_011, 99_999, 997))})\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, planted, raising=False)
    importlib.import_module(planted)
    assert drawing._drawn_by_engine(strategy, count=2, seed=5) != engines  # the plant is read by hypothesis
    assert drawn(strategy, count=2, seed=5) == ours


def test_a_checkout_and_an_installed_kit_draw_the_same(tmp_path) -> None:
    """The params of a run in a process that loaded the whole catalogue (the kit's modules are local files in a
    checkout) are those of a process that loaded the drawing module alone."""
    script = ("import sys, hashlib; from hypothesis import strategies as st\n"
              "from csi_conformance.harness.checks.params.drawing import drawn\n"
              "if sys.argv[1] == 'all': import csi_conformance.harness.checks\n"
              "found = drawn(st.fixed_dictionaries({}, optional={'limit': st.integers(1, 1000)}), count=100, seed=0)\n"
              "print(hashlib.sha256(repr(found).encode()).hexdigest())\n")
    outputs = {subprocess.run([sys.executable, "-c", script, loaded], capture_output=True, text=True, check=True,
                              cwd=tmp_path).stdout for loaded in ("alone", "all")}
    assert len(outputs) == 1, outputs
