"""The `onchain` family against the reference over a generated chain, with the real light prover and Light's
programs in LiteSVM judging every proof, over real HTTP on loopback.

The clean reference passes every onchain check, having judged proofs of every circuit family on-chain;
each broken variant (tests/harness/variants_onchain.py) is caught by the check it targets, at FAIL, in
the words the program's error means, and never as an error of the kit. Without a chain the checks
cannot apply.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import Basis, RunResult, Status
from csi_conformance.harness.core.paths import HTTP_STATUS
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.core.registry import REGISTRY
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.ledger_chain import ChainJudge
from csi_conformance.ledger_proofs.circuits import CIRCUITS
from csi_conformance.ledger_proofs.process import ProverProcess
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Contract

from ..broken import Variant
from ..report.reprs import python_literals
from ..variants_onchain import SAYS, VARIANTS
from .serving import serving_chain

pytestmark = pytest.mark.chain
LOG = "program log (last lines)"
FAMILIES = {"inclusion": 5 + 1, "non-inclusion": 2, "combined": 8}
"""Proofs judged on-chain per circuit family: every circuit once, and one of a token account."""
QUEUED = "onchain.queued-spend"
NO_QUEUE = ("the chain holds no account in a batched tree's output queue (its programs wrote v1 trees only, or "
            "none of its outputs went to a batched tree)")


def onchain_run(ledger: Ledger, variant: Variant | None, chain: ChainJudge | None, options: ServerOptions) -> RunResult:
    with serving_chain(ledger, variant, options) as url, Target(url, timeout=120) as target:
        return run(target, RunFacts(profile=PROFILES["spec"], chain=chain), RunConfig(only=["onchain"]))


def without_program_logs(result: RunResult) -> RunResult:
    """The run with the programs' own log lines left out of its findings: they are the program's text (Rust's
    `None` included), not values the kit turned into text."""
    for check in result.checks:
        check.findings = [dataclasses.replace(f, detail={k: v for k, v in f.detail.items() if k != LOG})
                          for f in check.findings]
    return result


def checks_of(result: RunResult) -> dict[str, Any]:
    return {check.check_id: check for check in result.checks}


def caught_in_words(result: RunResult, check_id: str, variant: str, says: str) -> tuple[Any, set[str]]:
    """The check that must catch `variant`: at FAIL, a finding saying `says`; with the clauses of the spec and
    the ledger its findings cite."""
    caught = checks_of(result)[check_id]
    assert caught.status is Status.FAIL, f"{check_id} missed {variant}: {caught.status} {caught.skip_reason}"
    texts = [finding_text(finding) for finding in caught.findings]
    assert any(says in text for text in texts), texts
    return caught, {clause for finding in caught.findings if finding.basis in (Basis.SPEC, Basis.LEDGER)
                    for clause in finding.clauses}


@pytest.fixture(scope="module")
def clean(ledger: Ledger, judge: ChainJudge, prover: ProverProcess) -> RunResult:
    return onchain_run(ledger, None, judge, ServerOptions(prover_url=prover.url))


def test_the_reference_over_the_chain_passes_every_onchain_check(clean: RunResult, judge: ChainJudge) -> None:
    checks = checks_of(clean)
    queued = checks.pop(QUEUED)  # 0.18.0's programs write v1 trees only
    assert (queued.status, queued.skip_reason) == (Status.NOT_APPLICABLE, NO_QUEUE)
    assert {check.status for check in checks.values()} == {Status.PASS}, [
        finding_text(f) for check in checks.values() for f in check.findings]
    assert checks["onchain.proof-accepted"].examined == {f"{family} proofs": n for family, n in FAMILIES.items()}
    elements = sum(c.accounts + c.addresses for c in CIRCUITS.values()) + 1
    addresses = sum(c.addresses for c in CIRCUITS.values())
    assert checks["onchain.root-history"].examined == {"roots": elements + addresses}
    assert checks["onchain.spent-account"].examined == {"spent accounts": 3}
    assert max(len(group.hashes) for group in judge.groups()) >= 8 and len(judge.spent_accounts()) >= 3


def test_the_spec_2_10_form_passes_too(ledger: Ledger, judge: ChainJudge, prover: ProverProcess) -> None:
    """Roots as JSON integers and trees in `treeInfos` (ambiguities bn-values, validity-proof-fields)."""
    result = onchain_run(ledger, None, judge, ServerOptions(prover_url=prover.url, proof_form="spec-2.10"))
    assert {check.status for check in result.checks if check.check_id != QUEUED} == {Status.PASS}, [
        finding_text(f) for f in result.findings]
    assert checks_of(result)["onchain.proof-accepted"].examined_total == sum(FAMILIES.values())


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_a_broken_proof_is_caught_in_the_programs_words(variant: Variant, ledger: Ledger, judge: ChainJudge,
                                                        prover: ProverProcess) -> None:
    result = onchain_run(ledger, variant, judge, ServerOptions(prover_url=prover.url))
    caught, cited = caught_in_words(result, variant.check, variant.name, SAYS[variant.name])
    assert variant.clauses and set(variant.clauses) <= cited <= set(REGISTRY.get(variant.check).clauses)
    assert all(f.path and (f.path.startswith("$") or f.path == HTTP_STATUS) for f in caught.findings)
    assert result.kit_errors() == [], [finding_text(f) for f in result.kit_errors()]
    assert python_literals(without_program_logs(result), Contract.default()) == {}


def test_a_refusal_carries_the_programs_code_meaning_and_log(ledger: Ledger, judge: ChainJudge,
                                                            prover: ProverProcess) -> None:
    variant = next(v for v in VARIANTS if v.name == "root-index-off-by-one")
    result = onchain_run(ledger, variant, judge, ServerOptions(prover_url=prover.url))
    refused = [f for f in checks_of(result)["onchain.proof-accepted"].findings if f.title.startswith("Proof refused")]
    assert len(refused) == sum(FAMILIES.values())  # every circuit, each its own finding
    detail = refused[0].detail
    assert detail["program error code"] == 13006 and "on-chain roots" in detail["meaning"]
    assert any("Error Code: Custom(13006)" in line for line in detail[LOG]) and detail["compute units"] > 0
    assert refused[0].received.startswith("refused: Custom(13006)")


def test_a_root_never_on_chain_is_invisible_to_the_program(ledger: Ledger, judge: ChainJudge,
                                                          prover: ProverProcess) -> None:
    """The program checks a proof against its own root at the index served: only the root history shows a
    served root the chain never held."""
    variant = next(v for v in VARIANTS if v.name == "root-never-on-chain")
    checks = checks_of(onchain_run(ledger, variant, judge, ServerOptions(prover_url=prover.url)))
    assert checks["onchain.proof-accepted"].status is Status.PASS
    (finding,) = checks["onchain.root-history"].findings
    assert finding.path == "$.result.value.roots[0]" and finding.occurrences == sum(FAMILIES.values())


def test_without_a_chain_the_checks_cannot_apply(ledger: Ledger, prover: ProverProcess) -> None:
    result = onchain_run(ledger, None, None, ServerOptions(prover_url=prover.url))
    assert [(c.status, c.skip_reason) for c in result.checks] == [(Status.NOT_APPLICABLE, "no --chain given")] * 4
