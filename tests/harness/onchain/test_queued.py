"""`onchain.queued-spend` against the reference over a chain of today's programs: every account waiting in a
batched tree's output queue spent by index, in a transaction Light's programs simulate in LiteSVM, at the
place the target serves for it, over real HTTP on loopback.

The clean reference passes, having put every queued account before the programs; each broken variant
(tests/harness/variants_queued.py) is caught at FAIL in the programs' words. The checks that put
v1 proofs before the programs say why they cannot apply over such a chain (its v1 roots are looked
up all the same: test_today_roots.py), and over a chain of 0.18.0's programs the queued check
cannot apply (test_checks.py).
"""

from __future__ import annotations

import pytest
from csi_conformance.harness.core.model import Status
from csi_conformance.harness.core.registry import REGISTRY
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.ledger_chain import ChainJudge
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.schema import Contract

from ..broken import Variant
from ..report.reprs import python_literals
from ..variants_queued import BATCHED, CHECK, SAYS, VARIANTS
from .test_checks import caught_in_words, checks_of, onchain_run, without_program_logs

pytestmark = pytest.mark.chain
OPTIONS = ServerOptions()
"""No prover: the queued check asks no proof, and no proof is put before today's verifier."""


@pytest.fixture(scope="module")
def clean(today_ledger: Ledger, today_judge: ChainJudge):
    return onchain_run(today_ledger, None, today_judge, OPTIONS)


def test_the_chain_holds_queued_accounts_live_and_spent_plain_and_token(today_judge: ChainJudge) -> None:
    queued = today_judge.queued_accounts()
    assert {(a.spent, a.token) for a in queued} == {(False, False), (False, True), (True, False), (True, True)}
    assert {a.tree for a in queued} == set(BATCHED) and all(a.spendable for a in queued)


def test_the_reference_passes_having_spent_every_queued_account_by_index(clean, today_judge: ChainJudge) -> None:
    checks = checks_of(clean)
    queued = checks.pop(CHECK)
    assert queued.status is Status.PASS, [finding_text(f) for f in queued.findings]
    accounts = today_judge.queued_accounts()
    assert queued.examined == {"queued accounts": sum(not a.spent for a in accounts),
                               "spent queued accounts": sum(a.spent for a in accounts)}
    assert queued.examined["queued accounts"] > 0
    assert checks.pop("onchain.root-history").status is Status.PASS  # v1 roots: test_today_roots.py
    assert checks.pop("onchain.spent-account").status is Status.NOT_APPLICABLE  # no v1 account spent
    (accepted,) = checks.values()  # v1 proofs over today's chain: refused by its verifier, so not judged
    assert accepted.status is Status.NOT_APPLICABLE and "Custom 6043" in (accepted.skip_reason or ""), accepted
    assert clean.kit_errors() == []


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_a_wrong_place_is_caught_in_the_programs_words(variant: Variant, today_ledger: Ledger,
                                                       today_judge: ChainJudge) -> None:
    result = onchain_run(today_ledger, variant, today_judge, OPTIONS)
    caught, cited = caught_in_words(result, CHECK, variant.name, SAYS[variant.name])
    assert set(variant.clauses) <= cited <= set(REGISTRY.get(CHECK).clauses)
    assert all(f.path and f.path.startswith("$") for f in caught.findings)
    assert result.kit_errors() == [], [finding_text(f) for f in result.kit_errors()]
    assert python_literals(without_program_logs(result), Contract.default()) == {}


def test_every_live_queued_account_at_a_wrong_leaf_is_its_own_refusal(today_ledger: Ledger,
                                                                      today_judge: ChainJudge) -> None:
    variant = next(v for v in VARIANTS if v.name == "queued-leaf-index-one-up")
    findings = checks_of(onchain_run(today_ledger, variant, today_judge, OPTIONS))[CHECK].findings
    live = [a for a in today_judge.queued_accounts() if not a.spent]
    refused = [f for f in findings if f.title == "Queued account refused on-chain at the leaf index served"]
    assert sum(f.occurrences for f in refused) == len(live)
    codes = {f.detail["program error code"] for f in refused}
    assert codes <= {14307, 14309} and 14307 in codes
    assert all(f.detail["leaf index served"] == f.detail["on-chain leaf index"] + 1 for f in refused)


def test_the_programs_refuse_a_queued_account_at_any_place_but_its_own(today_judge: ChainJudge) -> None:
    """The face's verdicts, place by place, with the error codes found by trying (numbers, and their words)."""
    live = next(a for a in today_judge.queued_accounts() if not a.spent and not a.token)
    spent = next(a for a in today_judge.queued_accounts() if a.spent)
    assert today_judge.judge_spend_by_index(live.hash, tree=live.tree, leaf_index=live.leaf_index).accepted
    places = {"next leaf": (live.tree, live.leaf_index + 1), "past the queue": (live.tree, 2**20),
              "its queue as tree": (live.queue, live.leaf_index), "a v1 tree": (today_judge.state_trees[0], 0),
              "spent": (spent.tree, spent.leaf_index)}
    verdicts = {name: today_judge.judge_spend_by_index(spent.hash if name == "spent" else live.hash, tree=tree,
                                                       leaf_index=index) for name, (tree, index) in places.items()}
    assert {name: v.code for name, v in verdicts.items()} == {
        "next leaf": 14307 if live.leaf_index + 1 < _received(today_judge, live.tree) else 14309,
        "past the queue": 14309, "its queue as tree": 6042, "a v1 tree": 6036, "spent": 14307}
    assert "StateMerkleTreeAccountDiscriminatorMismatch" in verdicts["its queue as tree"].meaning
    assert "V1AccountMarkedAsProofByIndex" in verdicts["a v1 tree"].meaning
    with pytest.raises(ValueError, match="no queued account"):
        today_judge.judge_spend_by_index(bytes(32), tree=live.tree, leaf_index=0)
    with pytest.raises(ValueError, match="no u32"):
        today_judge.judge_spend_by_index(live.hash, tree=live.tree, leaf_index=2**32)
    with pytest.raises(ValueError, match="no public key"):
        today_judge.judge_spend_by_index(live.hash, tree="not a key!", leaf_index=0)


def _received(judge: ChainJudge, tree: str) -> int:
    """How many values the tree's output queue received (its next index): the leaves below it hold a value."""
    return 1 + max(a.leaf_index for a in judge.queued_accounts() if a.tree == tree)
