"""A correct reference is certified conformant whatever its ledger holds.

Scenario documents of telling shapes (reference_server/shapes.py: empty, one account, no tokens, no
delegates, no addresses, no data, everything closed, values of 2^60 and more, one owner with hundreds
of accounts, several state trees) are served by the reference over loopback (`bundled_reference`,
placeholder proofs) and certified by the harness under the default profile, `crypto.groth16-proof` left out by name (the
placeholder rightly fails it; tests/harness/test_proof_check.py runs it with the real prover). Any FAIL, any
kit error, any inconclusive run is a bug of the kit or of the reference: the test lists each one.

CI draws one document per shape (derandomized, so every run sees the same ones); `make soak` sets
CSI_SOAK_EXAMPLES to draw that many documents per shape (and CSI_SOAK_SEED to draw other ones).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.checks.params.drawing import drawn
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import RunResult, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.harness.report.matrix import RUN_WIDE, method_family_matrix
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import scenario_from_document, validate_document
from csi_conformance.reference_server.shapes import BIG, SHAPES, scenario_documents
from csi_conformance.reference_server.wiring import bundled_reference
from csi_conformance.schema import Contract
from hypothesis import HealthCheck, given, settings

from tests.conftest import PROOF_CHECK

SOAK = int(os.environ.get("CSI_SOAK_EXAMPLES", "0"))
SEED = int(os.environ.get("CSI_SOAK_SEED", "0"))
DRAWN = settings(max_examples=max(10, SOAK), derandomize=not SOAK, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _opened(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for tx in document["transactions"] if "error" not in tx for a in tx.get("open", ())]


def _closed(document: dict[str, Any]) -> set[str]:
    return {label for tx in document["transactions"] for label in tx.get("close", ())}


def _values(account: dict[str, Any]) -> list[int]:
    return [account["token"]["amount"]] if "token" in account else [account.get("lamports", 0)]


def _most_accounts_of_one_owner(document: dict[str, Any]) -> int:
    owners = [a["owner"] for a in _opened(document) if "owner" in a]
    return max((owners.count(o) for o in set(owners)), default=0)


HOLDS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "empty": lambda d: _opened(d) == [],
    "one-account": lambda d: len(_opened(d)) == 1,
    "no-tokens": lambda d: _opened(d) and not any("token" in a for a in _opened(d)),
    "no-delegates": lambda d: _opened(d) and not any("delegate" in a.get("token", {}) for a in _opened(d)),
    "no-addresses": lambda d: _opened(d) and not any("address" in a for a in _opened(d)),
    "no-data": lambda d: _opened(d) and not any("data" in a for a in _opened(d)),
    "everything-closed": lambda d: _opened(d) and {a["label"] for a in _opened(d)} == _closed(d),
    "values-from-2^60": lambda d: _opened(d) and all(v >= BIG for a in _opened(d) for v in _values(a)),
    "one-crowded-owner": lambda d: _most_accounts_of_one_owner(d) >= 200,
    "several-trees": lambda d: len(d["state_trees"]) >= 3,
}
"""What makes each shape that shape: a drawn document that lacks it would certify nothing new."""


def test_every_shape_is_defined_and_checked() -> None:
    assert set(HOLDS) == set(SHAPES)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_drawn_documents_are_valid_and_of_their_shape(shape: str) -> None:
    @DRAWN
    @given(scenario_documents(SHAPES[shape]))
    def drawn(document: dict[str, Any]) -> None:
        validate_document(document, f"<{shape}>")
        scenario_from_document(document, source=f"<{shape}>")  # the ledger rules hold too
        assert HOLDS[shape](document), dumps(document)[:2000]

    drawn()


def _problems(result: RunResult) -> list[str]:
    """Each FAIL and kit ERROR as `status check method: title | message head`, then why the run is inconclusive."""
    lines = [f"{f.status.value} {f.check_id} {f.method or '-'}: {f.title} | {finding_text(f).splitlines()[0][:160]}"
             for f in result.findings if f.status in (Status.FAIL, Status.ERROR)]
    lines += [f"inconclusive: {reason}" for reason in result.inconclusive]
    return lines + ([f"precondition: {result.precondition}"] if result.precondition else [])


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_correct_reference_is_certified_whatever_its_ledger(shape: str) -> None:
    """Documents are drawn first and certified after: the harness draws its own requests with
    hypothesis, which cannot run inside a `@given` test."""
    documents = drawn(scenario_documents(SHAPES[shape]), count=SOAK or 1, seed=SEED)
    assert documents
    for document in documents:
        validate_document(document, f"<{shape}>")
        with bundled_reference(document, ServerOptions()) as url, Target(url) as target:
            result = run(target, RunFacts(profile=PROFILES["spec"]), RunConfig(skip=[PROOF_CHECK]))
        problems = _problems(result)
        assert (result.exit_code(), problems) == (0, []), "\n".join(problems)


def test_the_matrix_of_a_clean_run_shows_no_skip_where_the_checks_did_their_work() -> None:
    """The Methods x families matrix of a clean run says what its check list says: no cell is SKIP where
    every check passed, neither for a method a rule cannot apply to (getIndexerHealth has no context, no
    account, no proof; the unknown-method probe is no method) nor for one where the target's reading of an
    open point leaves nothing to judge (getLatestNonVotingSignatures with no cursor)."""
    with bundled_reference("default", ServerOptions()) as url, Target(url) as target:
        result = run(target, RunFacts(profile=PROFILES["spec"]), RunConfig(skip=[PROOF_CHECK]))
    assert result.exit_code() == 0 and not [c for c in result.checks if c.status is Status.SKIP]
    matrix = method_family_matrix(result, Contract.default().methods)
    assert [cell for cell, status in matrix.items() if status is Status.SKIP] == []
    assert matrix[("getIndexerSlot", "crypto")] is Status.PASS  # its bare slot is a u64 (crypto.value-ranges)
    assert ("getIndexerHealth", "consistency") not in matrix and (RUN_WIDE, "schema") not in matrix
    assert ("getLatestNonVotingSignatures", "pagination") not in matrix
    assert matrix[("getValidityProof", "differential")] is Status.NOT_APPLICABLE  # nothing to compare with here
    assert all(matrix[(method, "schema")] is Status.PASS for method in Contract.default().methods)
