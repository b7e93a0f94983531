"""Fixtures of the report tests: hand-built run results (see samples.py)."""

from __future__ import annotations

import pytest
from csi_conformance.harness.core.model import RunResult
from csi_conformance.schema import Contract

from tests.harness.report import samples


@pytest.fixture
def result(contract: Contract) -> RunResult:
    return samples.run_result(contract)


@pytest.fixture
def hostile(contract: Contract) -> RunResult:
    return samples.hostile_result(contract)


@pytest.fixture
def passing(contract: Contract) -> RunResult:
    return samples.passing_result(contract)
