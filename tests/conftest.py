"""Shared fixtures of the kit's own tests."""

from __future__ import annotations

import pytest

from schema import Contract


@pytest.fixture(scope="session")
def contract() -> Contract:
    return Contract.default()
