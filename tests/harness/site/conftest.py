"""The reports of the site tests, made once per session by running the kit (runs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.harness.site.runs import all_reports


@pytest.fixture(scope="session")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return all_reports(tmp_path_factory.mktemp("site-reports"))
