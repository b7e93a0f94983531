"""The golden cases a scenario differential replays (`cases/`), read once per run."""

from __future__ import annotations

from csi_conformance.cases.loader import load_cases

__all__ = ["scenario_cases"]


def scenario_cases(scenario: str) -> list:
    """The golden cases recorded over `scenario` (a bundled name; a scenario file has none);
    `ConfigError` for a case file that cannot be read."""
    return [case for case in load_cases() if case.scenario == scenario]
