"""A target that refuses the key gets one clear reason and an inconclusive exit, not a FAIL per check (#11)."""

from __future__ import annotations

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import run
from csi_conformance.reference_server.options import ServerOptions

from .broken import serving


def _run(api_key: str | None):
    with serving(None, ServerOptions(api_key="right-key")) as url, Target(url, api_key=api_key) as target:
        return run(target, RunFacts(profile=PROFILES["spec"]))


def test_missing_key_is_one_clear_reason_and_inconclusive() -> None:
    result = _run(None)
    assert result.findings == []
    assert "HTTP 401" in result.precondition and "no API key was given" in result.precondition
    assert result.exit_code() == 3 and result.verdict() == "inconclusive"
    assert {check.status for check in result.checks} == {Status.SKIP}


def test_wrong_key_is_named_without_being_shown() -> None:
    result = _run("wrong-key")
    assert result.findings == []
    assert "the API key given was refused" in result.precondition
    assert "wrong-key" not in result.precondition
    assert result.exit_code() == 3


def test_right_key_is_certified() -> None:
    result = _run("right-key")
    assert result.precondition is None
    assert result.requests > 100
