"""A hash that does not recompute names the member at fault, when another input the run saw explains it; and
the proofs of such accounts are not blamed for the account's own wrong member."""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import RunConfig, run

from tests.conftest import PROOF_CHECK

from .broken import VARIANTS, Variant, _each_account, _set, all_variants, serving

SHIFTED = next(v for v in VARIANTS if v.name == "shifted-leaf-index")


def _lamports_hidden(real, method: str, params: Any) -> Any:
    """Lamports one more than the hash was built with: lamports are no input the run sees elsewhere, so no
    member explains the hash and the finding is about the hash itself."""
    return _each_account(copy.deepcopy(real(method, params)), lambda a: _set(a, "lamports", a["lamports"] + 1))


LAMPORTS = Variant("lamports-off-by-one", "crypto", "crypto.account-hash", dispatch=_lamports_hidden)


def _crypto_run(variant):
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(Target(stack.enter_context(serving(variant))))
        return run(target, RunFacts(profile=PROFILES["spec"]), RunConfig(only=["crypto"], skip=[PROOF_CHECK]))


def test_a_wrong_leaf_index_is_reported_at_the_leaf_index_with_the_right_one() -> None:
    result = _crypto_run(SHIFTED)
    findings = [f for f in result.findings if f.check_id == "crypto.account-hash"]
    assert findings and {f.title for f in findings} == {"Account leafIndex disagrees with its hash"}
    assert all(f.path.endswith(".leafIndex") and f.expected == f.received - 1 for f in findings)
    assert all(f.detail == {"the hash recomputes with": {"leafIndex": f.expected}} for f in findings)


def test_proofs_are_not_blamed_for_an_account_whose_own_fields_are_wrong() -> None:
    result = _crypto_run(SHIFTED)
    blamed = [f for f in result.findings if f.check_id == "crypto.validity-proof" and f.status is Status.FAIL]
    assert blamed == []


def test_a_hash_no_single_member_explains_is_a_wrong_hash() -> None:
    result = _crypto_run(LAMPORTS)
    findings = [f for f in result.findings if f.check_id == "crypto.account-hash"]
    assert findings and {f.title for f in findings} == {"Account hash does not recompute"}
    assert all(f.path.endswith(".hash") and f.expected != f.received for f in findings)


STALE = next(v for v in all_variants() if v.name == "address-proof-stale-tree")


def test_a_taken_address_missing_from_the_tree_is_no_finding_without_a_reference() -> None:
    """A correct indexer proves against the tree while a new address waits in the queue for a forester; from
    the API alone that looks like a stale tree. Without a reference the check says what it could not tell,
    and never blames the target; with one (the variant test) the stale tree is a FAIL."""
    result = _crypto_run(STALE)
    check = next(c for c in result.checks if c.check_id == "crypto.new-address-proof")
    assert check.status is Status.PASS and not check.findings
    assert any("waiting in the address queue" in text for text in check.not_reached)
