"""Each reading of each ambiguity is accepted where a profile allows it and rejected where not."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from csi_conformance.groundwork.errors import ContractError
from csi_conformance.schema import Contract

SAMPLES = {k: v for k, v in yaml.safe_load((Path(__file__).parent / "ambiguity_samples.yaml").read_text()).items()
           if not k.startswith("_")}


def _cases():
    for amb_id, entry in SAMPLES.items():
        for reading, sample in entry.items():
            if reading != "definition":
                yield pytest.param(amb_id, entry["definition"], reading, sample, id=f"{amb_id}:{reading}")


def test_every_reading_has_a_sample(contract: Contract) -> None:
    expected = {(a.id, r) for a in contract.ambiguities.values() for r in a.readings}
    sampled = {(a, r) for a, entry in SAMPLES.items() for r in entry if r != "definition"}
    assert sampled == expected


def test_every_ambiguity_is_observable(contract: Contract) -> None:
    """At least one reading of each point can be told apart from another on the wire."""
    for amb_id, entry in SAMPLES.items():
        assert any(s["rejected_under"] for r, s in entry.items() if r != "definition"), amb_id


@pytest.mark.parametrize(("amb_id", "definition", "reading", "sample"), list(_cases()))
def test_reading_accepted_when_allowed_rejected_otherwise(contract, amb_id, definition, reading, sample) -> None:
    instance = sample["instance"]
    assert contract.validator(definition, {amb_id: [reading]}).violations(instance) == []
    assert contract.validator(definition).is_valid(instance), "the permissive contract accepts every reading"
    for other in sample["rejected_under"]:
        assert not contract.validator(definition, {amb_id: [other]}).is_valid(instance), other


@pytest.mark.parametrize(("amb_id", "definition", "reading", "sample"), list(_cases()))
def test_readings_followed_names_the_reading(contract, amb_id, definition, reading, sample) -> None:
    followed = contract.readings_followed(amb_id, sample["instance"], definition)
    assert reading in followed
    assert not set(followed) & set(sample["rejected_under"])


def test_readings_followed_ignores_unrelated_faults(contract: Contract) -> None:
    token = dict(SAMPLES["token-state"]["integer"]["instance"], mint="not-base58!")
    assert contract.readings_followed("token-state", token, "TokenData") == ("integer",)


def test_unknown_reading_or_ambiguity_is_a_contract_error(contract: Contract) -> None:
    with pytest.raises(ContractError, match="token-state"):
        contract.validator("TokenData", {"token-state": ["hex"]})
    with pytest.raises(ContractError, match="no-such"):
        contract.validator("TokenData", {"no-such": ["x"]})


def test_spec_named_ambiguities_are_recorded(contract: Contract) -> None:
    """The points the spec itself leaves open, each with its clause and the observed reading."""
    named = {"token-state", "balance-wrapper", "token-data-key", "request-id", "latest-nonvoting-cursor",
             "validity-hashes-required", "bn-values", "error-codes", "error-http-status", "filters-shape",
             "tlv-format", "api-key-missing"}
    assert named <= set(contract.ambiguities)
    for amb in contract.ambiguities.values():
        assert amb.clause in contract.clauses
        assert amb.observed in amb.readings
