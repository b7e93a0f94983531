"""Critical path first: the units that make the longest chains of dependent requests start before the others,
from a table a benchmark measures (harness/engine/chains.json); the order of judging does not move."""

from __future__ import annotations

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.harness.core.registry import REGISTRY
from csi_conformance.harness.engine.units import LONG_CHAIN, Unit, chains, long_chains
from csi_conformance.schema import Contract


def _units(*names: str) -> list[Unit]:
    spec = REGISTRY.get("health.ok")
    return [Unit(spec, None, name) for name in names]


def test_the_longest_chains_start_first_one_per_worker_at_most() -> None:
    units = _units("a", "walk", "b", "slot", "c", "short")
    known = {"walk": 33, "slot": 17, "short": LONG_CHAIN - 1, "gone": 99}
    assert long_chains(units, 8, known) == [1, 3]
    assert long_chains(units, 1, known) == [1]
    assert long_chains(units, 8, {}) == []


def test_the_measured_table_names_only_units_the_catalogue_plans() -> None:
    """A unit renamed or removed leaves a stale line: `benchmarks/measure_chains.py --write` makes the table
    again."""
    methods = {name for api in ("0.50.0", "photon-366a15b") for name in Contract.for_api(api).methods}
    checks = {spec.id: spec for spec in REGISTRY.all() if spec.kind == "active"}
    table = chains()
    assert table and min(table.values()) >= LONG_CHAIN
    for name in table:
        check, _, method = name.partition("/")
        assert check in checks, name
        assert (method in methods) if method else checks[check].methods is None, name
