"""Fixtures shared by the reference server's method tests."""

from __future__ import annotations

import pytest
from csi_conformance.reference_server.scenario import Scenario, open_scenario


@pytest.fixture(scope="module")
def s() -> Scenario:
    """The bundled default scenario, opened once per test module."""
    return open_scenario("default")
