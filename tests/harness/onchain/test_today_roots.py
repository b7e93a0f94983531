"""`onchain.root-history` against the reference over a chain of today's programs, over real HTTP on loopback.

Today's verifier refuses the installed prover's v1 proofs, but a root history needs no verifier: the
roots and root indices served for the accounts of the chain's v1 trees (`smt1…`, created, never
spent) and for its v1 address tree are looked up on-chain as over a chain of 0.18.0's programs. The
reference serves placeholder proofs here (no prover), which this check does not judge. Accounts
waiting in batched trees' output queues are never asked a proof of (test_queued.py spends them).
"""

from __future__ import annotations

import pytest
from csi_conformance.harness.checks.onchain.checks import SPENT_NO_V1
from csi_conformance.harness.core.model import RunResult, Status
from csi_conformance.harness.core.registry import REGISTRY
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.ledger_chain import ChainJudge
from csi_conformance.ledger_proofs.circuits import CIRCUITS
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Contract

from ..broken import Variant
from ..report.reprs import python_literals
from ..variants_onchain import HISTORY, SAYS, VARIANTS
from .test_checks import caught_in_words, checks_of, onchain_run

pytestmark = pytest.mark.chain
CHECK = "onchain.root-history"
OPTIONS = ServerOptions()
"""No prover: placeholder proofs, whose roots and root indices are the reference's all the same."""
ROOT_VARIANTS = [v for v in VARIANTS if v.name in ("root-index-off-by-one", "root-never-on-chain",
                                                   "address-root-seq-one-below")]
"""The 0.18.0 chain's variants that rewrite a served root or root index: over today's chain the root history
is what catches them all (`root-index-off-by-one` targets the verifier over 0.18.0's)."""
SAYS_HERE = {**SAYS, "root-index-off-by-one": "Root index names another on-chain root"}
"""The words of the root history's finding, where 0.18.0's chain has the verifier's."""


def _v1_largest(judge: ChainJudge, *, token: bool) -> int:
    """How many accounts of v1 trees the largest group of one kind holds."""
    v1 = set(judge.state_trees)
    return max((sum(judge.tree_of(h) in v1 for h in group.hashes) for group in judge.groups()
                if group.token is token), default=0)


def _expected_roots(judge: ChainJudge) -> tuple[int, int]:
    """The roots the plan asks of v1 accounts: every circuit the v1 groups fill (and one token account), then
    one new-address proof per address the plan asks."""
    reached = [c for c in CIRCUITS.values() if c.accounts <= _v1_largest(judge, token=False)]
    validity = sum(c.accounts + c.addresses for c in reached) + (_v1_largest(judge, token=True) > 0)
    return validity, sum(c.addresses for c in reached)


@pytest.fixture(scope="module")
def clean(today_ledger: Ledger, today_judge: ChainJudge) -> RunResult:
    return onchain_run(today_ledger, None, today_judge, OPTIONS)


def test_the_chain_mixes_v1_and_queued_accounts_in_one_holders_group(today_judge: ChainJudge) -> None:
    """What the plan must sort out: a user's accounts span the v1 tree and the batched trees."""
    v1 = set(today_judge.state_trees)
    assert len(v1) == 1 and next(iter(v1)).startswith("smt1")
    trees = [{today_judge.tree_of(h) in v1 for h in group.hashes} for group in today_judge.groups()]
    assert {True, False} in trees
    assert _v1_largest(today_judge, token=False) >= 2 and _v1_largest(today_judge, token=True) >= 1


def test_the_reference_passes_having_looked_up_v1_roots(clean: RunResult, today_judge: ChainJudge) -> None:
    checks = checks_of(clean)
    history = checks[CHECK]
    assert history.status is Status.PASS, [finding_text(f) for f in history.findings]
    validity, addresses = _expected_roots(today_judge)
    assert validity > addresses > 0
    assert history.examined == {"roots": validity + addresses}
    assert history.examined_methods == {"getValidityProof", "getMultipleNewAddressProofs"}
    accepted, spent = checks["onchain.proof-accepted"], checks["onchain.spent-account"]
    assert accepted.status is Status.NOT_APPLICABLE and "Custom 6043" in (accepted.skip_reason or "")
    assert (spent.status, spent.skip_reason) == (Status.NOT_APPLICABLE, SPENT_NO_V1)
    assert not [a for a in today_judge.spent_accounts() if today_judge.tree_of(a.hash) in today_judge.state_trees]
    assert clean.kit_errors() == []


@pytest.mark.parametrize("variant", ROOT_VARIANTS, ids=lambda v: v.name)
def test_a_wrong_root_or_index_is_caught_by_the_root_history(variant: Variant, today_ledger: Ledger,
                                                             today_judge: ChainJudge) -> None:
    result = onchain_run(today_ledger, variant, today_judge, OPTIONS)
    _, cited = caught_in_words(result, CHECK, variant.name, SAYS_HERE[variant.name])
    assert cited == {"ledger-T3"} and cited <= set(REGISTRY.get(CHECK).clauses)
    assert result.kit_errors() == [], [finding_text(f) for f in result.kit_errors()]
    assert python_literals(result, Contract.default()) == {}


def test_a_root_index_one_off_is_found_at_every_validity_root(today_ledger: Ledger, today_judge: ChainJudge) -> None:
    """Every root of every validity proof, of the v1 state tree's accounts and the address tree's addresses,
    named one index below where the chain holds it: each its own occurrence, the index expected said."""
    variant = next(v for v in VARIANTS if v.name == "root-index-off-by-one")
    findings = checks_of(onchain_run(today_ledger, variant, today_judge, OPTIONS))[CHECK].findings
    assert {f.title for f in findings} == {"Root index names another on-chain root"}
    assert sum(f.occurrences for f in findings) == _expected_roots(today_judge)[0]
    for finding in findings:
        assert finding.method == "getValidityProof" and finding.path.startswith("$.result.value.rootIndices[")
        assert finding.detail["tree"] in (*today_judge.state_trees, today_judge.address_tree)
        assert finding.expected == (finding.received + 1) % HISTORY
    assert any(f.detail["tree"] in today_judge.state_trees for f in findings)
