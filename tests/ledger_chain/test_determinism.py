"""The same seed gives the same chain, byte for byte: deterministic keys, blockhashes and clock, draws that
depend on the seed alone, and proofs found again in the proof cache (a replay proves nothing)."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest
from csi_conformance.ledger_chain import Generated, generate
from csi_conformance.ledger_chain.draw import drawn
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_proofs.install import Installation
from hypothesis import strategies as st

from tests.ledger_chain.conftest import OPS, SEED

pytestmark = pytest.mark.chain


def _same_tree(a: Path, b: Path) -> bool:
    compared = filecmp.dircmp(a, b)
    return not (compared.left_only or compared.right_only or compared.diff_files or compared.funny_files)


def test_a_second_run_is_byte_identical_and_proves_nothing(generated: Generated, installation: Installation,
                                                           tmp_path: Path) -> None:
    prover = ChainProver()
    again = generate(OPS, SEED, tmp_path / "again", prover=prover, installation=installation)
    assert prover.proved == 0 and prover.cached == generated.proved + generated.cached
    assert sorted(p.name for p in again.folder.iterdir()) == sorted(p.name for p in generated.folder.iterdir())
    for path in generated.folder.iterdir():
        assert (again.folder / path.name).read_bytes() == path.read_bytes(), path.name
    other = generate(OPS, SEED + 1, tmp_path / "other", prover=ChainProver(), installation=installation)
    assert not _same_tree(other.folder, generated.folder)


def test_draws_depend_on_the_seed_alone() -> None:
    strategy = st.tuples(st.integers(0, 10**9), st.binary(min_size=4, max_size=4), st.permutations(range(6)))
    assert [drawn(strategy, seed) for seed in range(5)] == [drawn(strategy, seed) for seed in range(5)]
    assert len({repr(drawn(strategy, seed)) for seed in range(5)}) == 5
