"""Hashing and root rules of today's ledger, judged as Light's programs apply them.

The reference served over real transactions with batched trees (Photon's test data: classic token accounts
hashed v2 in a batched tree; a batched tree after appends and a nullification) is certified with no FAIL from
the crypto checks and the mirror, with no reference to compare with (`csi run --target URL` alone): a v2 token
data hash and a batched tree's own root index are the programs' rules, not faults. The broken variants of
`variants_batched_hashing.py` each FAIL by the check meant to catch them.
"""

from __future__ import annotations

import functools

import pytest
from csi_conformance.harness.core.model import Status
from csi_conformance.harness.engine.options import RunOptions
from csi_conformance.harness.engine.session import certify
from csi_conformance.harness.report.junit import finding_text

from tests.conftest import PROOF_CHECK

from .broken import Variant, serving
from .test_broken_variants import _run_over_ledger
from .variants_batched import APPENDS_AND_NULLIFIES, QUEUED_AND_APPENDED
from .variants_batched_hashing import TOKEN_FOLDER, VARIANTS

JUDGED = ("crypto.", "differential.mirror-")


def _certified_alone(folder: str):
    """As `csi serve --transactions FOLDER` then `csi run --target URL`: no ledger, the mirror built from discovery."""
    with serving(None, ledger=folder) as url:
        return certify(RunOptions(target=url, report_dir=None, only=("crypto", "differential"), skip=(PROOF_CHECK,)))


@functools.cache
def _alone(folder: str):
    return _certified_alone(folder)


@pytest.fixture(scope="module", params=[TOKEN_FOLDER, QUEUED_AND_APPENDED, APPENDS_AND_NULLIFIES])
def alone(request):
    return request.param, _alone(request.param)


def test_the_reference_over_batched_trees_has_no_fail(alone) -> None:
    _, result = alone
    fails = [(f.check_id, f.title, finding_text(f)[:200]) for f in result.findings
             if f.status is Status.FAIL and f.check_id.startswith(JUDGED)]
    assert fails == []


def test_v2_token_hashes_are_judged_not_skipped() -> None:
    by_id = {check.check_id: check for check in _alone(TOKEN_FOLDER).checks}
    assert by_id["crypto.token-data-hash"].examined.get("token accounts", 0) >= 7
    assert by_id["differential.mirror-accounts"].examined


def test_a_batched_tree_is_judged_by_its_own_rules() -> None:
    """After 30 appends and a nullification the root index (4) is a place in the tree's own history: the root is
    judged where the kit can rebuild it, and what it cannot (the root-history length, the nullifiers) is said."""
    roots = {check.check_id: check for check in _alone(QUEUED_AND_APPENDED).checks}["crypto.tree-roots"]
    assert roots.examined.get("roots", 0) >= 1
    notes = " ".join(roots.unreached)
    assert "its own root history" in notes and "nullifiers" in notes


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_variant_fails_by_its_check(variant: Variant) -> None:
    result = _run_over_ledger(variant, variant.ledger, only=[variant.check])
    caught = {check.check_id: check for check in result.checks}[variant.check]
    assert caught.status is Status.FAIL, f"{variant.name} not caught: {caught.status} {caught.skip_reason}"
    assert set(variant.clauses) <= {clause for finding in caught.findings for clause in finding.clauses}
