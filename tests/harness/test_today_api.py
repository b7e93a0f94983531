"""`csi run --api photon-366a15b`: the harness certifies against the API clients call today.

A clean reference serving the second contract, over the default scenario and over a ledger of batched trees,
is CONFORMANT with every method of that contract examined (read from report.json); the `v2` family is N/A in
a run of the spec's contract; an unknown `--api` is a usage error naming the contracts there are; a missing
V2 method's finding names the client versions that call it. (Each variant of variants_today_api.py is caught
at FAIL by tests/harness/test_broken_variants.py.)
"""

from __future__ import annotations

import json

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.harness.core.errors import UsageError
from csi_conformance.harness.core.model import Status
from csi_conformance.harness.engine.options import RunOptions
from csi_conformance.harness.engine.session import certify
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.schema import Contract

from tests.conftest import PROOF_CHECK

from .broken import ledger_folder, serving
from .variants_today_api import MISSING, QUEUED_AND_APPENDED, TODAY, VARIANTS

V2_CHECKS = ("v2.method-present", "v2.merkle-context", "v2.prove-by-index", "v2.validity-root-indices")


def test_unknown_api_is_a_usage_error_naming_the_contracts() -> None:
    with pytest.raises(UsageError) as error:
        RunOptions.from_inputs({"api": "photon-0000000"})
    assert "--api" in str(error.value) and "0.50.0" in str(error.value) and TODAY in str(error.value)
    result = certify({"api": "nope", "report-dir": None})
    assert result.exit_code(Status.FAIL) == 2


def test_default_api_is_the_spec_and_v2_checks_are_not_applicable() -> None:
    assert RunOptions.from_inputs({}).api == "0.50.0"
    with serving(None, api=TODAY) as url:
        result = certify(RunOptions(target=url, only=("v2",), report_dir=None))
    assert result.spec_version == "0.50.0"
    assert {check.check_id: check.status for check in result.checks} == dict.fromkeys(V2_CHECKS,
                                                                                     Status.NOT_APPLICABLE)


@pytest.mark.parametrize("ledger", [None, QUEUED_AND_APPENDED], ids=["default-scenario", "batched-ledger"])
def test_clean_reference_is_conformant_with_every_method_examined(ledger, tmp_path) -> None:
    source = {"ledger": LedgerSource.files([ledger_folder(ledger)])} if ledger else {}
    with serving(None, ledger=ledger, api=TODAY) as url:
        result = certify(RunOptions(target=url, api=TODAY, report_dir=tmp_path, skip=(PROOF_CHECK,), **source))
    report = json.loads((tmp_path / "report.json").read_text())
    fails = [(f["check_id"], f["title"]) for f in report["findings"] if f["status"] == "FAIL"]
    assert fails == [] and result.exit_code(Status.FAIL) == 0
    assert report["spec_version"] == TODAY
    examined = {method for check in report["checks"] for method in check["examined_methods"]}
    assert sorted(set(Contract.for_api(TODAY).methods) - examined) == []
    by_id = {check["id"]: check for check in report["checks"]}
    assert {check: by_id[check]["status"] for check in V2_CHECKS} == dict.fromkeys(V2_CHECKS, "PASS")
    assert by_id["v2.method-present"]["examined"] == {"methods": len(Contract.for_api(TODAY).own_methods())}
    assert by_id["v2.merkle-context"]["examined"]["accounts"] >= 10
    assert by_id["v2.validity-root-indices"]["examined"]["accounts"] >= 2


def test_a_missing_v2_method_names_the_clients_that_call_it() -> None:
    (variant,) = [v for v in VARIANTS if v.check == "v2.method-present"]
    with serving(variant) as url:
        result = certify(RunOptions(target=url, api=TODAY, only=("v2.method-present",), report_dir=None))
    (finding,) = result.findings
    assert finding.status is Status.FAIL and finding.method == MISSING
    callers = ["@lightprotocol/stateless.js 0.23.3", "light-client 0.23.0 (Rust)"]
    assert all(caller in finding.expected for caller in callers)
    assert finding.detail == {"called_by": callers, "not served": MISSING}
