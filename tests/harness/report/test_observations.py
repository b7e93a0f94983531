"""report.json's observations: every point with its evidence, or why the run had none, as the schema says."""

from __future__ import annotations

import dataclasses
import json

from csi_conformance.harness.core.model import Observation, RunResult
from csi_conformance.harness.report import SCHEMA_PATH, to_json
from csi_conformance.schema import Contract
from jsonschema import Draft202012Validator

WHY = "not exercised by this run: it takes token data whose `tlv` is not null, and none came (x ran and saw none)"


def _with_untouched(result: RunResult, contract: Contract) -> RunResult:
    amb = contract.ambiguity("tlv-format")
    untouched = Observation(amb.id, amb.clause, amb.question, amb.observed, dict.fromkeys(amb.readings, 0), 0, WHY)
    return dataclasses.replace(result, observations=[*result.observations, untouched])


def test_a_point_without_evidence_says_why(result: RunResult, contract: Contract) -> None:
    observations = {o["ambiguity"]: o for o in to_json(_with_untouched(result, contract))["observations"]}
    assert observations["tlv-format"]["reason"] == WHY
    assert (observations["tlv-format"]["answers"], observations["tlv-format"]["readings"]) == (0, [])
    assert observations["token-state"]["reason"] is None and observations["token-state"]["answers"] == 5


def test_observations_match_the_schema(result: RunResult, contract: Contract) -> None:
    validator = Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    document = to_json(_with_untouched(result, contract))
    assert [e.message for e in validator.iter_errors(document)] == []
    del document["observations"][-1]["reason"]
    assert [e.message for e in validator.iter_errors(document)] != []  # the reason is required, null or text
