"""The reference passes its own certification on today's ledger: `csi serve --transactions` over each folder of
`fixtures/photon-head/` (batched state and address trees, the newer system program, a token account with TLV,
a devnet transaction far into long trees), certified by `csi run`, both as installed commands, over real HTTP
on loopback; one server per folder.

As in `test_certify_photon.py`: the reference runs without the prover (`--prover none`) and
`crypto.groth16-proof` is left out by name. Any FAIL or ERROR is a fault of the reference on the real ledger,
or a misjudgement of the harness: either way the test names it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_ingest import decode_transaction, read_paths

from tests.conftest import PROOF_CHECK
from tests.harness.csi_process import csi_run
from tests.ledger_ingest.test_batched_ingest import FIXTURES, FOLDERS
from tests.ledger_ingest.test_certify_photon import ask
from tests.reference_server.support import csi_serve

SOURCES = [Path("transactions") / folder for folder in FOLDERS] + [
    Path("blocks") / "index_compress_and_close_with_tlv"]


@pytest.fixture(scope="module", params=SOURCES, ids=lambda source: f"{source.parent}/{source.name}")
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    source = FIXTURES / request.param
    cwd = tmp_path_factory.mktemp("serve")
    with csi_serve("--port", "0", "--prover", "none", "--transactions", source, cwd=cwd) as server:
        yield server.url, source


def test_the_harness_certifies_the_reference_over_the_folder(served: tuple[str, Path], tmp_path: Path) -> None:
    url, source = served
    done = csi_run("--target", url, "--skip", PROOF_CHECK, cwd=tmp_path, env={"CSI_PROVER": "none"})
    report = done.report
    wrong = [f"{f['status']} {f['check_id']} {f.get('method')}: {f.get('message', '')[:300]}"
             for f in report["findings"] if f["status"] in ("FAIL", "ERROR")]
    assert wrong == [], "\n".join(wrong)
    assert done.code == 0, done.explain()
    assert not {c["id"] for c in report["checks"] if c["status"] in ("FAIL", "ERROR")}
    compression = {tx.signature_text for block in read_paths([source]) for tx in block.transactions
                   if tx.uses_compression}
    assert set(report["discovered"]["signatures"]) <= compression and report["discovered"]["signatures"]


def test_every_transaction_of_the_folder_is_served(served: tuple[str, Path]) -> None:
    """Each compression transaction of the folder answers its compression info with the transaction itself, as
    `getTransaction` gave it; the slot served is the last."""
    url, source = served
    blocks = read_paths([source])
    for block in blocks:
        for tx in block.transactions:
            if tx.uses_compression:
                answer = ask(url, "getTransactionWithCompressionInfo", {"signature": b58encode(tx.signature)})
                assert answer is not None and answer["transaction"]["slot"] == block.slot  # the real transaction
                assert decode_transaction(answer["transaction"]).signature_text == tx.signature_text
    assert ask(url, "getIndexerSlot", {}) == blocks[-1].slot
