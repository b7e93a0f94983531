"""Filling records what the reference server sends, and filling again changes no committed byte."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest
from csi_conformance.cases import CASES_DIR
from csi_conformance.cases.loader import load_cases, write_case
from csi_conformance.cases.tools.fill import Reference, fill, fill_files
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.reference_server.wiring import bundled_reference
from csi_conformance.schema import SPEC_VERSION

from tests.harness.csi_process import HANG_GUARD


@pytest.fixture(scope="module")
def committed() -> list:
    return load_cases()


def test_filling_again_gives_the_committed_files_byte_for_byte(committed: list) -> None:
    drifted = [case.name for case in fill(committed) if write_case(case) != case.path.read_text(encoding="utf-8")]
    assert not drifted, f"run `csi cases fill` and review: {drifted}"


def test_every_committed_case_is_filled(committed: list) -> None:
    assert [case.name for case in committed if case.response is None] == []


def test_two_references_answer_alike(committed: list) -> None:
    """Nothing in the reference depends on process state: a fresh one answers the same bytes."""
    proofs = [case for case in committed if case.method in ("getValidityProof", "getMultipleNewAddressProofs")]
    first, second = Reference(), Reference()
    assert proofs
    for case in proofs:
        assert dumps(first.answer(case)) == dumps(second.answer(case)), case.name


def test_the_recorded_line_is_the_body_sent_over_http(committed: list) -> None:
    """One case per method and scenario, replayed over real HTTP on loopback to a reference serving the spec's
    contract (the golden cases are its answers)."""
    picked = {(case.method, case.scenario): case for case in committed}
    for scenario in sorted({scenario for _, scenario in picked}):
        with bundled_reference(scenario, api=SPEC_VERSION) as url, \
                httpx.Client(base_url=url, timeout=HANG_GUARD) as client:
            for case in (case for (_, where), case in sorted(picked.items()) if where == scenario):
                reply = client.post("/", content=dumps(case.request).encode())
                assert reply.status_code == 200, case.name
                assert reply.content.decode() == dumps(case.response), case.name


def test_fill_files_rewrites_only_the_answer_lines(tmp_path: Path) -> None:
    shutil.copytree(CASES_DIR / "getIndexerSlot", tmp_path / "getIndexerSlot")
    path = tmp_path / "getIndexerSlot" / "slot.io"
    original = path.read_text(encoding="utf-8")
    path.write_text("\n".join(original.splitlines()[:-1]) + "\n", encoding="utf-8")
    count, changed = fill_files(tmp_path, method="getIndexerSlot")
    assert (count, changed) == (len(list((tmp_path / "getIndexerSlot").glob("*.io"))), [path])
    assert path.read_text(encoding="utf-8") == original
