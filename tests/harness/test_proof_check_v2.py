"""crypto.groth16-proof on accounts appended to a batched tree: real v2 proofs from the 0.27.0 prover, verified.

Over Photon's `batch_append_nullify` test data (a batched state tree whose forester appended outputs), the
reference serves v2 inclusion proofs (height 32, one public input: the hash chain of roots and leaves) from
the light prover of the v2 circuits; the check asks them alone and together, and verifies each under Light's
June-2025 keys. A root or a leaf altered after the proof was made fails it, naming the v2 circuit. Needs both
provers: installed when missing, so on a machine without npm these tests fail, never skip.
"""

from __future__ import annotations

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.harness.core.model import CheckResult, Status
from csi_conformance.harness.engine.options import RunOptions
from csi_conformance.harness.engine.session import certify
from csi_conformance.harness.report.junit import finding_text
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.ledger_proofs.process import shared_prover, shared_v2_prover
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.prover_v2 import KIT_V2

from tests.ledger_proofs.support import installed_prover, installed_v2_prover

from .broken import Variant, ledger_folder, serving
from .variants_proofs import VARIANTS

pytestmark = pytest.mark.prover
CHECK = "crypto.groth16-proof"
FOLDER = "batch_append_nullify"
V2 = "v2 proofs (batched trees)"


@pytest.fixture(scope="module")
def options() -> ServerOptions:
    installed_v2_prover()
    shared_v2_prover(wait=False)  # its keys load while the v1 prover starts
    return ServerOptions(prover_url=shared_prover(installed_prover()).url, v2_prover=KIT_V2)


def _check(variant: Variant | None, options: ServerOptions) -> CheckResult:
    """As `csi run --target URL --ledger file:FOLDER --only crypto.groth16-proof`."""
    with serving(variant, options, ledger=FOLDER) as url:
        result = certify(RunOptions(target=url, ledger=LedgerSource.files([ledger_folder(FOLDER)]),
                                    report_dir=None, only=(CHECK,), timeout=120))
    (check,) = result.checks
    return check


def test_v2_proofs_of_appended_accounts_verify(options: ServerOptions) -> None:
    check = _check(None, options)
    assert check.status is Status.PASS, [finding_text(f) for f in check.findings]
    assert check.examined[V2] == 4  # inclusion_32_1 … inclusion_32_4: every count a June-2025 key proves
    assert check.examined["proofs of the 0.18.0 setup"] == check.examined["proofs"]


@pytest.mark.parametrize("name", ["proof-root-altered", "proof-leaf-altered"])
def test_altered_v2_answer_fails(options: ServerOptions, name: str) -> None:
    (variant,) = [v for v in VARIANTS if v.name == name]
    check = _check(variant, options)
    assert check.status is Status.FAIL
    assert any("inclusion_32_" in f.title for f in check.findings), [f.title for f in check.findings]
