"""The `onchain` checks over a chain of today's programs (0.28.3) with Light's June 2025 verifying keys, the
default of `csi chain generate`: the reference serves real proofs of the installed prover, and today's system
program, whose verifier takes them, judges them in LiteSVM, over real HTTP on loopback.

Over the published 0.28.3 programs `onchain.proof-accepted` and `onchain.spent-account` cannot apply
(test_today_roots.py); here they examine the target's v1 proofs, and its v2 proofs of accounts the forester
appended to the batched trees, and pass for the reference; a target whose proofs name another root index (v1
and v2), or that proves an account the chain spent, is caught at FAIL in the words of today's programs.
"""

from __future__ import annotations

import pytest
from csi_conformance.harness.core.model import RunResult, Status
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.ledger_chain import ChainJudge
from csi_conformance.ledger_proofs.process import ProverProcess
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.prover_v2 import KIT_V2

from ..variants_onchain import SAYS, VARIANTS
from .test_checks import caught_in_words, checks_of, onchain_run

pytestmark = pytest.mark.chain
SAYS_TODAY = {
    "root-index-off-by-one": "refused: Custom(6043): light system program: ProofVerificationFailed",
    "spent-account-proven": SAYS["spent-account-proven"],
}
"""What the caught finding carries over today's programs: a proof that does not verify is their own 6043 (0.18.0's
verifier says 13006); the nullifier queue's 9002 is the same library's."""


@pytest.fixture(scope="module")
def clean(patched_ledger: Ledger, patched_judge: ChainJudge, prover: ProverProcess) -> RunResult:
    return onchain_run(patched_ledger, None, patched_judge, ServerOptions(prover_url=prover.url, v2_prover=KIT_V2))


def test_the_chain_has_v1_accounts_live_and_spent_and_verifies_v1_proofs(patched_judge: ChainJudge) -> None:
    v1 = set(patched_judge.state_trees)
    assert patched_judge.today and patched_judge.verifies_v1_proofs
    assert _v2_proofs(patched_judge) >= 2  # accounts the forester appended, one user's in one tree
    assert any(patched_judge.tree_of(a.hash) in v1 for a in patched_judge.spent_accounts())
    assert any(patched_judge.tree_of(h) in v1 for group in patched_judge.groups() for h in group.hashes)


def _v2_proofs(judge: ChainJudge) -> int:
    """How many v2 proofs the plan asks: one per count (1-4) the largest group of appended accounts fills."""
    return min(4, max(len(group.hashes) for group in judge.appended_groups()))


def test_the_reference_passes_having_proofs_judged_by_todays_program(clean: RunResult,
                                                                     patched_judge: ChainJudge) -> None:
    checks = checks_of(clean)
    assert {c.check_id: c.status for c in checks.values()} == dict.fromkeys(checks, Status.PASS), [
        finding_text(f) for c in checks.values() for f in c.findings]
    accepted = checks["onchain.proof-accepted"].examined
    assert set(accepted) == {"inclusion proofs", "non-inclusion proofs", "combined proofs",
                             "v2 inclusion proofs"}, accepted
    assert accepted["v2 inclusion proofs"] == _v2_proofs(patched_judge)  # inclusion_32_1, _2, … of them
    assert checks["onchain.spent-account"].examined["spent accounts"] >= 1
    assert clean.kit_errors() == []


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.name in SAYS_TODAY], ids=lambda v: v.name)
def test_a_broken_proof_is_caught_on_todays_program(variant, patched_ledger: Ledger, patched_judge: ChainJudge,
                                                   prover: ProverProcess) -> None:
    result = onchain_run(patched_ledger, variant, patched_judge, ServerOptions(prover_url=prover.url, v2_prover=KIT_V2))
    _, cited = caught_in_words(result, variant.check, variant.name, SAYS_TODAY[variant.name])
    assert set(variant.clauses) <= cited
    if variant.name == "root-index-off-by-one":  # the v2 proofs are refused too, by the June v2 keys
        refused = [f.title for c in checks_of(result).values() for f in c.findings if "inclusion_32_" in f.title]
        assert len(refused) == _v2_proofs(patched_judge), refused
    assert result.kit_errors() == [], [finding_text(f) for f in result.kit_errors()]
