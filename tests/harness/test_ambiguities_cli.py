"""`csi ambiguities`: the contract's open points for spec authors, and the readings each report's target followed.

Several vendors' reports make one table of who follows which reading. The reports are real: `csi run`
against the bundled reference and against broken variants of it, each served over HTTP on loopback.
"""

from __future__ import annotations

import re
from pathlib import Path

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
import pytest
from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.registry import REGISTRY
from csi_conformance.harness.faces.cli import main
from csi_conformance.harness.report import write_json
from csi_conformance.schema import Contract

from tests.conftest import PROOF_CHECK
from tests.harness.report import samples

from .broken import Variant, all_variants, serving


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
    assert "readings followed by" not in out and "Target followed" not in out
    assert '§3.1: "The wire example shows the string `initialized`.' in out  # the spec's own words


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
    assert "followed" not in token and "targets" not in token
    assert token["clauses"] == ["3.1-R1", *contract.ambiguity("token-state").also] and token["section"] == "3.1"
    assert token["quote"] == contract.ambiguity("token-state").quote
    assert token["checks"] == list(contract.ambiguity("token-state").checks)


def test_each_point_names_checks_of_the_catalogue(contract: Contract) -> None:
    unknown = {amb.id: [c for c in amb.checks if c not in {spec.id for spec in REGISTRY.all()}]
               for amb in contract.ambiguities.values()}
    assert {amb_id: checks for amb_id, checks in unknown.items() if checks} == {}


def test_with_a_report_the_readings_followed_are_added(capsys: pytest.CaptureFixture[str], contract: Contract,
                                                       tmp_path: Path) -> None:
    report = write_json(samples.run_result(contract), tmp_path)
    code, out, _ = _csi(capsys, "--report", str(report), "--json")
    rows = {row["id"]: row for row in jsonio.loads(out)["ambiguities"]}
    assert code == 0
    assert rows["token-state"]["followed"] == ["integer"]
    assert rows["token-state"]["counts"] == {"string": 0, "integer": 5} and rows["token-state"]["answers"] == 5
    assert rows["balance-wrapper"]["followed"] == ["wrapped", "bare"]
    assert rows["bn-values"]["followed"] is None  # the report records nothing about it
    assert rows["bn-values"]["reason"] == "not exercised by this run: the report does not say why"
    code, out, _ = _csi(capsys, "--report", str(report))
    assert f"readings followed by {samples.URL}" in out and "Target followed" in out
    assert "integer (string 0/5, integer 5/5)" in out
    assert "not exercised by this run" in out  # the reason, folded in its cell


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


def _report(tmp_path: Path, name: str, variant: Variant | None, *only: str) -> Path:
    """report.json of `csi run` against the reference, or a broken variant of it, on loopback."""
    folder = tmp_path / name
    with serving(variant) as url:
        code = main(["run", "--target", url, "--report-dir", str(folder), "--skip", PROOF_CHECK,
                     *(arg for check in only for arg in ("--only", check))])
    assert code in (0, 1), code
    return folder / "report.json"


@pytest.fixture(scope="module")
def vendors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Three vendors: the reference (a whole run), one reading token state as the client guide's
    number, one sending JSON-RPC errors with HTTP 400 (runs narrowed to the families that see it)."""
    tmp_path = tmp_path_factory.mktemp("vendors")
    variants = {variant.name: variant for variant in all_variants()}
    return {"reference": _report(tmp_path, "reference", None),
            "numeric": _report(tmp_path, "numeric", variants["token-state-integer"], "schema"),
            "status": _report(tmp_path, "status", variants["errors-with-http-400"], "transport", "params")}


def _targets(capsys: pytest.CaptureFixture[str], *reports: Path) -> tuple[list[str], dict[str, dict]]:
    code, out, _ = _csi(capsys, "--report", *map(str, reports), "--json")
    assert code == 0
    document = jsonio.loads(out)
    rows = {row["id"]: {seen["target"]: seen for seen in row["targets"]} for row in document["ambiguities"]}
    return document["targets"], rows


def test_a_whole_run_of_the_reference_tells_every_point(capsys: pytest.CaptureFixture[str], contract: Contract,
                                                        vendors: dict[str, Path]) -> None:
    (target,), rows = _targets(capsys, vendors["reference"])
    assert list(rows) == list(contract.ambiguities)
    untold = {amb_id: seen[target]["reason"] for amb_id, seen in rows.items() if not seen[target]["answers"]}
    assert untold == {}
    followed = {amb_id: seen[target]["followed"] for amb_id, seen in rows.items()}
    assert {amb.id for amb in contract.ambiguities.values() if amb.observed not in followed[amb.id]} == set()
    assert followed["request-id"] == ["json-rpc"] and followed["new-address-element"] == ["object"]
    assert set(followed["tlv-format"]) == {"base64", "any-string"}  # base64 text: both readings hold it
    assert set(followed["error-codes"]) == {"any-integer", "json-rpc"}


def test_several_reports_make_one_table_of_who_follows_which_reading(capsys: pytest.CaptureFixture[str],
                                                                     vendors: dict[str, Path]) -> None:
    targets, rows = _targets(capsys, vendors["reference"], vendors["numeric"], vendors["status"])
    assert len(targets) == len(set(targets)) == 3
    reference, numeric, status = targets
    assert rows["token-state"][reference]["followed"] == ["string"]
    assert rows["token-state"][numeric]["followed"] == ["integer"]
    assert rows["error-http-status"][reference]["followed"] == ["http-200"]
    assert rows["error-http-status"][status]["followed"] == ["http-error"]
    untold = rows["token-state"][status]
    assert untold["followed"] is None and untold["answers"] == 0
    assert untold["reason"].startswith("not exercised by this run: it takes an answer holding token data")
    assert "schema.ambiguity-readings was not run" in untold["reason"]


def test_several_reports_on_the_console(capsys: pytest.CaptureFixture[str], contract: Contract,
                                       vendors: dict[str, Path]) -> None:
    targets, _ = _targets(capsys, vendors["reference"], vendors["numeric"], vendors["status"])
    code, out, _ = _csi(capsys, "--report", *(str(vendors[name]) for name in ("reference", "numeric", "status")))
    assert code == 0
    assert all(target in out for target in targets) and f"({len(contract.ambiguities)} told)" in out
    token = out.split("token-state")[1].split("balance-wrapper")[0]
    assert re.search(r"│ string (\d+)/\1 +│ integer (\d+)/\2 +│ not exercised", token), token
    why = out.split(f"Not exercised by this run of {targets[2]}:")[1]  # under the table, for the narrowed run
    assert "\n  token-state: it takes an answer holding token data (`tokenData.state`), and none came (" in why
    assert f"Not exercised by this run of {targets[0]}:" not in out  # the whole run told every point


def test_one_target_twice_is_told_apart_by_its_file(capsys: pytest.CaptureFixture[str], vendors: dict[str, Path],
                                                    tmp_path: Path) -> None:
    copy = tmp_path / "again.json"
    copy.write_bytes(vendors["reference"].read_bytes())
    targets, rows = _targets(capsys, vendors["reference"], copy)
    assert targets[0] != targets[1] and str(vendors["reference"]) in targets[0] and str(copy) in targets[1]
    first, second = (dict(rows["token-state"][target], target=None) for target in targets)
    assert first == second and first["followed"] == ["string"]


def test_one_unreadable_report_among_several_exits_2(capsys: pytest.CaptureFixture[str], vendors: dict[str, Path],
                                                     tmp_path: Path) -> None:
    code, _, err = _csi(capsys, "--report", str(vendors["reference"]), str(tmp_path / "none.json"))
    assert code == 2 and "none.json" in err and "cannot read the report" in err


def test_piped_the_table_breaks_no_name() -> None:
    """Into a pipe or a file (no terminal, no COLUMNS), the table is laid out wide: no method name is cut."""
    import os
    import subprocess
    import sys

    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    done = subprocess.run([str(Path(sys.executable).with_name("csi")), "ambiguities"], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "getCompressedAccountBalance and getCompressedBalance answer" in done.stdout
