"""`csi cases check` passes on the committed cases and catches each way a case can go wrong."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from csi_conformance.cases import CASES_DIR
from csi_conformance.harness.faces.cli import main


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """Every committed case, in a folder of its own."""
    for folder in CASES_DIR.iterdir():
        if folder.is_dir() and any(folder.glob("*.io")):
            shutil.copytree(folder, tmp_path / folder.name)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_check_passes_on_the_committed_cases(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cases", "check"]) == 0
    out = capsys.readouterr().out
    assert "FAIL" not in out and "over 19 methods: every case holds" in out


def test_check_fails_on_a_tampered_balance(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _edit(copy / "getCompressedAccountBalance" / "by-hash.io", '"value":1000}', '"value":1001}')
    assert main(["cases", "check", "--root", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "FAIL getCompressedAccountBalance/by-hash: the reference now answers differently at $.result.value" in out
    assert "recorded 1001, now 1000" in out and "1 case off" in out


def test_check_names_each_kind_of_problem(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    slot = copy / "getIndexerSlot"
    _edit(slot / "slot.io", '"result":1010}', '"result":"1010"}')
    _edit(slot / "params-empty-object.io", '"params":{}', '"params":{},"jsonrpc":"1.0"')
    _edit(slot / "error-jsonrpc-1-0.io", "mode: invariant:error", "mode: exact")
    _edit(slot / "empty-scenario.io", "mode: exact", "mode: invariant:error")
    lines = (slot / "error-jsonrpc-null.io").read_text(encoding="utf-8").splitlines()
    (slot / "error-jsonrpc-null.io").write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    assert main(["cases", "check", "--root", str(copy), "--method", "getIndexerSlot"]) == 1
    out = capsys.readouterr().out
    for expected in (
        "getIndexerSlot/slot: the recorded answer breaks the contract",
        "getIndexerSlot/params-empty-object: the request breaks the contract",
        "getIndexerSlot/error-jsonrpc-1-0: an error answer in mode exact",
        "getIndexerSlot/error-jsonrpc-1-0: the request breaks the contract",
        "getIndexerSlot/empty-scenario: the recorded answer breaks invariant error",
        "getIndexerSlot/error-jsonrpc-null: no answer recorded",
    ):
        assert expected in out, expected


def test_check_exits_2_on_a_malformed_file(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy / "getIndexerHealth" / "ok.io"
    _edit(path, "// mode: exact", "// mode: exact\nstray")
    assert main(["cases", "check", "--root", str(copy)]) == 2
    assert f"{path}:4:" in capsys.readouterr().err


def test_fill_repairs_what_check_found(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _edit(copy / "getCompressedBalance" / "u64-lamports.io", "9223372036854775808", "9223372036854775807")
    assert main(["cases", "check", "--root", str(copy), "--method", "getCompressedBalance"]) == 1
    assert main(["cases", "fill", "--root", str(copy), "--method", "getCompressedBalance"]) == 0
    assert "1 changed" in capsys.readouterr().out
    assert main(["cases", "check", "--root", str(copy), "--method", "getCompressedBalance"]) == 0
