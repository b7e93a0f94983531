"""The harness catches each deliberately broken variant of the reference with the family meant to.

Each variant is served over real HTTP on loopback; the run is narrowed to the variant's family.
A variant declares the clauses its fault violates (`Variant.clauses`), and the findings that
catch it must cite every one: docs/clauses.md counts a clause covered only that way. A clause
where the spec says "not shown" cannot be violated, so no variant may declare it.
The clean reference, run in full, has no FAIL.
"""

from __future__ import annotations

import contextlib
from collections import Counter

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import Basis, Status
from csi_conformance.harness.core.paths import HTTP_STATUS
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.core.registry import FAMILIES, REGISTRY
from csi_conformance.harness.engine.options import RunOptions
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.harness.engine.session import certify
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.ledger_proofs.process import shared_prover
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Contract

from tests.conftest import PROOF_CHECK
from tests.ledger_proofs.support import installed_prover

from .broken import Variant, all_variants, ledger_folder, serving
from .report.reprs import python_literals
from .run_args import run_args
from .variants_proofs import VARIANTS as PROOF_VARIANTS

VARIANTS = all_variants()
SHOWN_VIOLATED = (Basis.SPEC, Basis.LEDGER, Basis.CONTRACT)
"""The findings that show a clause violated: one resting on a convention, observed practice or a reading
of an open point says the rule broken is not the clause's, whatever the finding cites."""


def _run(variant: Variant | None, **config):
    if variant is not None and variant.ledger is not None:
        return _run_over_ledger(variant, variant.ledger, only=config.get("only", ()))
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(Target(stack.enter_context(serving(variant))))
        reference = None
        if variant is not None and variant.scenario:
            reference = stack.enter_context(Target(stack.enter_context(serving(None, api=variant.api))))
            config["scenario"] = "default"
        if variant is not None:
            config["contract"] = Contract.for_api(variant.api)
        config.setdefault("skip", [PROOF_CHECK])  # the placeholder prover fails it: tests/harness/test_proof_check.py
        return run(target, *run_args(profile=PROFILES["spec"], **config), reference=reference)


def _run_over_ledger(variant: Variant | None, folder: str, *, only=()):
    """As `csi run --target URL --ledger file:FOLDER`: the session starts the clean reference over the folder."""
    with serving(variant, ledger=folder) as url:
        return certify(RunOptions(target=url, ledger=LedgerSource.files([ledger_folder(folder)]), report_dir=None,
                                  only=tuple(only), skip=(PROOF_CHECK,), api=variant.api if variant else "0.50.0"))


def test_every_family_has_at_least_two_variants() -> None:
    counts = Counter(variant.family for variant in VARIANTS)
    assert {family: counts[family] for family in FAMILIES if counts[family] < 2} == {}


def test_every_check_is_shown_able_to_fail() -> None:
    """A check no broken server makes FAIL may be unable to fail: each needs a variant it catches."""
    caught_by_some_variant = {variant.check for variant in VARIANTS}
    assert sorted(spec.id for spec in REGISTRY.all() if spec.id not in caught_by_some_variant) == []


def test_declared_clauses_are_rules_a_server_can_break(contract: Contract) -> None:
    """Known ids, none declared twice, and none a silence of the spec ("not shown": nothing to violate)."""
    wrong = {v.name: [c for c in v.clauses if c not in contract.clauses or contract.clauses[c].silent]
             for v in VARIANTS}
    assert {name: clauses for name, clauses in wrong.items() if clauses} == {}
    assert [v.name for v in VARIANTS if len(set(v.clauses)) != len(v.clauses)] == []


def test_variant_names_are_unique() -> None:
    assert [name for name, count in Counter(v.name for v in VARIANTS).items() if count > 1] == []


@pytest.mark.parametrize("variant", [v for v in VARIANTS if not v.prover], ids=lambda v: v.name)
def test_variant_is_caught_by_its_family(variant: Variant) -> None:
    result = _run(variant, only=list(variant.only or [variant.family]))
    by_id = {check.check_id: check for check in result.checks}
    caught = by_id[variant.check]
    assert caught.findings, f"{variant.check} missed {variant.name}: {caught.status} {caught.skip_reason}"
    cited = {clause for finding in caught.findings if finding.basis in SHOWN_VIOLATED for clause in finding.clauses}
    assert set(variant.clauses) <= cited, f"{variant.name}: findings on the spec's or the ledger's rules cite " \
        f"{sorted(cited)}"
    expected = PROFILES["spec"].status_for(REGISTRY.get(variant.check).basis)
    assert caught.status.rank >= expected.rank
    if REGISTRY.get(variant.check).basis is Basis.SPEC:
        assert caught.status is Status.FAIL
    unnamed = [finding.title for finding in caught.findings if not _names_a_member(finding.path)]
    assert unnamed == [], f"{variant.name}: findings that name no member: {unnamed}"
    assert python_literals(result, Contract.default()) == {}, f"{variant.name}: a value travelled as str()"


@pytest.mark.prover
@pytest.mark.parametrize("variant", PROOF_VARIANTS, ids=lambda v: v.name)
def test_proof_variant_cites_its_clauses(variant: Variant) -> None:
    """A broken proof needs the real prover (tests/harness/test_proof_check.py runs them all); it earns
    its clauses the same way: served with the prover, its check FAILs it citing each declared clause.
    (The onchain variants are held to the same rule by tests/harness/onchain/test_checks.py.)"""
    options = ServerOptions(prover_url=shared_prover(installed_prover()).url)
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(Target(stack.enter_context(serving(variant, options)), timeout=60))
        result = run(target, RunFacts(profile=PROFILES["spec"]), RunConfig(only=[variant.check]))
    (caught,) = result.checks
    assert caught.status is Status.FAIL, f"{variant.name} not caught: {caught.status} {caught.skip_reason}"
    assert set(variant.clauses) <= {clause for finding in caught.findings if finding.basis in SHOWN_VIOLATED
                                    for clause in finding.clauses}


def _names_a_member(path: str | None) -> bool:
    """A JSON path into the answer (`$.result.value.items[0].hash`), the HTTP status or a header."""
    return bool(path) and (path.startswith("$") or path == HTTP_STATUS or path.startswith("HTTP header "))


LEDGER_VARIANTS = [v for v in VARIANTS if v.ledger is not None]


@pytest.mark.parametrize("folder", sorted({v.ledger for v in LEDGER_VARIANTS}))
def test_clean_reference_over_a_ledger_has_no_fail(folder: str) -> None:
    """Over each folder a variant serves, the clean reference: no FAIL, and every check a variant over it
    names examined something (a check that skips would pass the clean run and miss the variant alike)."""
    variants = [v for v in LEDGER_VARIANTS if v.ledger == folder]
    result = _run_over_ledger(None, folder, only=sorted({v.family for v in variants}))
    fails = [(f.check_id, f.title, finding_text(f)[:200]) for f in result.findings if f.status is Status.FAIL]
    assert fails == []
    by_id = {check.check_id: check for check in result.checks}
    assert {v.check: by_id[v.check].status for v in variants if by_id[v.check].status is Status.SKIP} == {}


@pytest.fixture(scope="module")
def clean_run():
    return _run(None)


def test_clean_reference_has_no_fail(clean_run) -> None:
    fails = [(f.check_id, f.method, f.title, finding_text(f)[:200]) for f in clean_run.findings
             if f.status is Status.FAIL]
    assert fails == []


def test_clean_reference_is_exercised(clean_run) -> None:
    """A clean run that skips everything would also have no FAIL: most checks must really run."""
    statuses = Counter(check.status for check in clean_run.checks)
    assert statuses[Status.SKIP] <= len(clean_run.checks) // 5, [
        (c.check_id, c.skip_reason) for c in clean_run.checks if c.status is Status.SKIP]
    assert clean_run.requests >= 300
    assert clean_run.discovered["hashes"] and clean_run.discovered["token_owners"]
