"""Batched trees judged by what a run discovers, and a queued account's proof judged whole.

Each run serves a folder of today's real transactions on loopback and certifies it without `--ledger` (what
discovery finds alone), unless said: the clean reference passes crypto.validity-tree-infos over queued and
appended accounts, the v2 and limits checks examine batched accounts, and each fault of
variants_tree_infos.py (and the appended-served-queued one of variants_today_api.py) is caught at FAIL.
"""

from __future__ import annotations

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.harness.core.model import Status
from csi_conformance.harness.engine.options import RunOptions
from csi_conformance.harness.engine.session import certify
from csi_conformance.ledger_ingest import LedgerSource

from tests.conftest import PROOF_CHECK

from .broken import Variant, _five_hashes, ledger_folder, serving
from .variants_today_api import VARIANTS as TODAY_VARIANTS
from .variants_tree_infos import APPENDED, QUEUED_AND_APPENDED, TODAY, VARIANTS, _spec_form

TREE_INFOS = "crypto.validity-tree-infos"
BY_NAME = {variant.name: variant for variant in (*VARIANTS, *TODAY_VARIANTS)}


def _checks(variant: Variant | None, folder: str, only: tuple[str, ...], *, api: str = "0.50.0",
            ledger: bool = False) -> dict:
    """check id -> its result, the variant (or the clean reference) served over `folder`."""
    source = {"ledger": LedgerSource.files([ledger_folder(folder)])} if ledger else {}
    with serving(variant, ledger=folder, api=api) as url:
        result = certify(RunOptions(target=url, api=api, only=only, skip=(PROOF_CHECK,), report_dir=None, **source))
    return {check.check_id: check for check in result.checks}


def _titles(check) -> set[str]:
    return {finding.title for finding in check.findings if finding.status is Status.FAIL}


@pytest.mark.parametrize("ledger", [False, True], ids=["discovery", "ledger"])
def test_the_clean_spec_form_passes_over_queued_and_appended_accounts(ledger: bool) -> None:
    clean = Variant("clean-spec-form", "crypto", TREE_INFOS, dispatch=_spec_form(QUEUED_AND_APPENDED, lambda i: None))
    check = _checks(clean, QUEUED_AND_APPENDED, (TREE_INFOS,), ledger=ledger)[TREE_INFOS]
    assert check.status is Status.PASS, [f.title for f in check.findings]
    assert check.examined["accounts"] == 3  # the tree's likeliest appended and likeliest queued, the v1 tree's


def test_the_wire_form_leaves_tree_infos_not_applicable() -> None:
    check = _checks(None, QUEUED_AND_APPENDED, (TREE_INFOS,))[TREE_INFOS]
    assert check.status is Status.NOT_APPLICABLE and "wire form" in check.skip_reason


@pytest.mark.parametrize(("name", "titles"), [
    ("tree-infos-queue-given-as-tree", {"treeInfos.queue is not the tree's queue"}),
    ("tree-infos-state-without-queue", {"treeInfos.treeType is not the account's",
                                        "treeInfos.queue is not the tree's queue"}),
])
@pytest.mark.parametrize("ledger", [False, True], ids=["discovery", "ledger"])
def test_a_queued_accounts_tree_info_is_judged_whole(name: str, titles: set[str], ledger: bool) -> None:
    check = _checks(BY_NAME[name], QUEUED_AND_APPENDED, (TREE_INFOS,), ledger=ledger)[TREE_INFOS]
    assert check.status is Status.FAIL and titles <= _titles(check)
    if ledger:  # the reference names the queue: a wrong one is also not the account's
        assert "treeInfos.queue is not the account's" in _titles(check)


def test_the_batched_checks_examine_what_discovery_finds() -> None:
    """The measured run: today's API over a folder of batched-tree transactions, no --ledger."""
    checks = _checks(None, APPENDED, ("v2", "limits.validity-hashes", "crypto.batched-accounts"), api=TODAY)
    examined = {check_id: check.examined for check_id, check in checks.items()}
    assert examined["v2.prove-by-index"]["accounts"] >= 20 and examined["v2.merkle-context"]["accounts"] >= 20
    assert examined["limits.validity-hashes"]["counts"] == 5 and examined["crypto.batched-accounts"]["accounts"] == 2
    assert checks["v2.validity-root-indices"].status is Status.SKIP  # one tree: no combined proof to compare
    assert [check_id for check_id, check in checks.items() if check.status is Status.FAIL] == []


def test_an_appended_account_served_queued_is_caught_without_a_ledger() -> None:
    """No ledger: the target's own account proof folds the account's hash to its root, so it is in the tree."""
    check = _checks(BY_NAME["today-prove-by-index-appended"], QUEUED_AND_APPENDED, ("v2.prove-by-index",),
                    api=TODAY)["v2.prove-by-index"]
    assert check.status is Status.FAIL and _titles(check) == {"proveByIndex is not the account's place"}


def test_an_empty_root_for_an_appended_account_is_caught_without_a_ledger() -> None:
    check = _checks(BY_NAME["batched-empty-root"], APPENDED, ("crypto.batched-accounts",))["crypto.batched-accounts"]
    assert check.status is Status.FAIL and _titles(check) == {"Empty-tree root for an account in the tree"}


def test_a_root_index_fault_of_a_batched_tree_is_caught_through_its_appended_account() -> None:
    """Only the batched tree's appended accounts are served wrong: an account proven by index has no root index
    to get wrong, so the one asked of that tree must be an appended one."""
    checks = _checks(BY_NAME["today-batched-root-index-other-history"], QUEUED_AND_APPENDED,
                     ("v2.validity-root-indices",), api=TODAY)
    check = checks["v2.validity-root-indices"]
    assert check.status is Status.FAIL and _titles(check) == {"Root index not taken in the account's own tree"}


def test_count_limits_are_judged_over_batched_hashes_alone() -> None:
    """Every live account of the folder is in a batched tree: the counts are still asked, and five hashes
    answered as four is still caught."""
    broken = Variant("five-hashes-batched", "limits", "limits.validity-hashes", dispatch=_five_hashes)
    check = _checks(broken, APPENDED, ("limits.validity-hashes",))["limits.validity-hashes"]
    assert check.status is Status.FAIL and check.examined["counts"] == 5
