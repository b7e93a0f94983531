"""Strict mode and one renamed member: one finding, under one check, naming the member itself.

A target that names the token data of its closed accounts `maybeTokenData` follows a reading the
spec allows but strict pins away. Every answer that carries one says so in the same way: the run
must show it once (with a count), at the member, not as a finding per check or per answer.
"""

from __future__ import annotations

import contextlib
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import RunConfig, run

from tests.conftest import PROOF_CHECK

from .broken import Variant, _each_node, serving


def _renamed(real: Any, method: str, params: Any) -> Any:
    def rename(node: dict) -> None:
        node["maybeTokenData"] = node.pop("optionalTokenData")

    return _each_node(real(method, params), lambda node: "optionalTokenData" in node, rename)


def test_one_renamed_member_is_one_finding_at_the_member() -> None:
    variant = Variant("maybe-token-data", "schema", "schema.result", dispatch=_renamed)
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(Target(stack.enter_context(serving(variant))))
        result = run(target, RunFacts(profile=PROFILES["strict"]), RunConfig(skip=[PROOF_CHECK]))
    findings = [f for f in result.findings if f.status is not Status.PASS]
    assert [(f.check_id, f.title) for f in findings] == [("schema.result", "Reading other than the pinned one")]
    (finding,) = findings
    assert finding.occurrences > 1
    assert finding.path.startswith("$.result.compressionInfo.closedAccounts[")
    assert finding.path.endswith("].optionalTokenData")
    assert finding.received == {"token-data-key": ["maybeTokenData"]}
    assert finding.expected == {"token-data-key": "optionalTokenData"}
