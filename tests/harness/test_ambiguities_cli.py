"""`csi ambiguities`: the contract's open points for spec authors, and the readings a report's target followed."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.faces.cli import main
from harness.report import write_json
from schema import Contract, jsonio
from tests.harness.report import samples


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")  # table cells stay on one line, so the tests can find them


def _csi(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["ambiguities", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_without_a_report_every_point_is_listed(capsys: pytest.CaptureFixture[str], contract: Contract) -> None:
    code, out, _ = _csi(capsys)
    assert code == 0
    for amb in contract.ambiguities.values():
        assert amb.id in out and amb.clause in out
    assert "client guide (§3.1)" in out and "observed: string" in out
    assert "Target followed" not in out


def test_json_lists_points_readings_and_sources(capsys: pytest.CaptureFixture[str], contract: Contract) -> None:
    code, out, _ = _csi(capsys, "--json")
    document = jsonio.loads(out)
    assert code == 0 and document["target"] is None
    rows = {row["id"]: row for row in document["ambiguities"]}
    assert list(rows) == list(contract.ambiguities)
    token = rows["token-state"]
    assert (token["clause"], token["observed_practice"], token["subject"]) == ("3.1-R1", "string", "value")
    assert token["readings"] == [{"name": "string", "source": "spec wire example (§2.5, §3.1)"},
                                 {"name": "integer", "source": "client guide (§3.1)"}]
    assert "followed" not in token


def test_with_a_report_the_readings_followed_are_added(capsys: pytest.CaptureFixture[str], contract: Contract,
                                                       tmp_path: Path) -> None:
    report = write_json(samples.run_result(contract), tmp_path)
    code, out, _ = _csi(capsys, "--report", str(report), "--json")
    rows = {row["id"]: row for row in jsonio.loads(out)["ambiguities"]}
    assert code == 0
    assert rows["token-state"]["followed"] == ["integer"]
    assert rows["token-state"]["counts"] == {"string": 0, "integer": 5} and rows["token-state"]["answers"] == 5
    assert rows["balance-wrapper"]["followed"] == ["wrapped", "bare"]
    assert rows["bn-values"]["followed"] is None  # no answer touched it
    code, out, _ = _csi(capsys, "--report", str(report))
    assert "Target followed" in out and "integer (string 0/5, integer 5/5)" in out
    assert "not touched by any answer" in out and samples.URL in out


@pytest.mark.parametrize("content", [b"{not json", b'{"findings": []}', b"[1, 2]"])
def test_a_file_that_is_no_report_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          content: bytes) -> None:
    path = tmp_path / "report.json"
    path.write_bytes(content)
    code, _, err = _csi(capsys, "--report", str(path))
    assert code == 2 and str(path) in err


def test_a_missing_report_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _csi(capsys, "--report", str(tmp_path / "none.json"))
    assert code == 2 and "cannot read the report" in err
