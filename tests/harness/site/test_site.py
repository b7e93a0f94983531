"""`csi site build` over real reports: the lists per clause, alignment, history, byte-identical builds,
refusals, triage as a baseline, badges (runs.py makes the reports once per session)."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from csi_conformance.harness.core.baseline import apply_baseline, load_baseline
from csi_conformance.harness.core.model import RunResult
from csi_conformance.harness.faces.cli import main
from csi_conformance.harness.report.merge import load_report

from tests.harness.site.runs import PHOTON, REFERENCE

JUDGED = {"PASS", "INFO", "AMBIGUOUS", "WARN", "FAIL"}


class _Tags(HTMLParser):
    """Every start tag of a page with its attributes, and the text of each tag with an id."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def tags(page: Path) -> list[tuple[str, dict[str, str]]]:
    parser = _Tags()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.tags


def build(paths: list[Path], out: Path, *extra: str) -> int:
    return main(["site", "build", *map(str, paths), "-o", str(out), *extra])


def _matrix_reports(reports: dict[str, Path]) -> list[Path]:
    return [path for name, path in reports.items() if name != "vendor-narrow"]


def expected_lists(reports: list[Path], reference: str) -> tuple[set, set, set]:
    """The three lists worked out from the report files alone: each target at its latest version, over the
    spec's contract."""
    latest: dict[str, dict] = {}
    for path in reports:
        data = json.loads(path.read_text())
        if data["spec_version"] != "0.50.0":
            continue
        name = data["target_name"]
        if name not in latest or [int(p) for p in data["target_version"].split(".")] > \
                [int(p) for p in latest[name]["target_version"].split(".")]:
            latest[name] = data
    judged: dict[str, set] = {}
    failing: dict[str, set] = {}
    for name, data in latest.items():
        for check in data["checks"]:
            for clause in check["clauses"]:
                if check["status"] in JUDGED:
                    judged.setdefault(clause, set()).add(name)
                if check["status"] == "FAIL":
                    failing.setdefault(clause, set()).add(name)
    only, every, ref = set(), set(), set()
    for clause, names in judged.items():
        fails = failing.get(clause, set())
        if len(names) < 2 or not fails:
            continue
        if fails == names:
            every.add(clause)
        elif len(fails) == 1 and fails == {reference}:
            ref.add(clause)
        elif len(fails) == 1:
            only.add((clause, next(iter(fails))))
    return only, every, ref


def shown_lists(index: Path) -> tuple[set, set, set]:
    items = [attrs for tag, attrs in tags(index) if tag == "li" and "data-list" in attrs]
    only = {(a["data-clause"], a["data-target"]) for a in items if a["data-list"] == "only-on"}
    every = {a["data-clause"] for a in items if a["data-list"] == "everyone"}
    ref = {a["data-clause"] for a in items if a["data-list"] == "only-reference"}
    return only, every, ref


@pytest.mark.parametrize("reference", [REFERENCE, "result-beside-error"])
def test_the_lists_per_clause_are_the_ones_the_reports_give(reports: dict[str, Path], tmp_path: Path,
                                                            reference: str) -> None:
    paths = _matrix_reports(reports)
    assert build(paths, tmp_path / "site", "--reference-name", reference) == 0
    expected = expected_lists(paths, reference)
    if reference == REFERENCE:
        assert expected[0], "the broken variants fail clauses the others pass"
    else:
        assert expected[2], "a broken target taken as the reference is the only one to fail its clause"
    assert shown_lists(tmp_path / "site" / "index.html") == expected


def test_two_builds_are_byte_identical_whatever_the_order(reports: dict[str, Path], tmp_path: Path) -> None:
    paths = _matrix_reports(reports)
    assert build(paths, tmp_path / "one") == 0
    assert build(list(reversed(paths)), tmp_path / "two") == 0
    one = {p.relative_to(tmp_path / "one"): p.read_bytes() for p in sorted((tmp_path / "one").rglob("*"))
           if p.is_file()}
    two = {p.relative_to(tmp_path / "two"): p.read_bytes() for p in sorted((tmp_path / "two").rglob("*"))
           if p.is_file()}
    assert len(one) > 5 and one == two


def test_reports_of_another_contract_are_a_group_of_their_own(reports: dict[str, Path], tmp_path: Path) -> None:
    assert build(_matrix_reports(reports), tmp_path / "site") == 0
    index = (tmp_path / "site" / "index.html").read_text()
    sections = index.split("<section")[1:]
    assert len(sections) == 2
    spec, photon = sorted(sections, key=lambda s: PHOTON in s.split("</h2>")[0])
    assert "photon-reference" not in spec and "photon-reference" in photon
    assert "html-health" in spec and "html-health" not in photon


def test_a_report_of_another_format_is_refused_in_one_line(reports: dict[str, Path], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(reports[REFERENCE].read_text())
    data["format_version"] = 2
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    capsys.readouterr()
    assert build([reports["html-health"], old], tmp_path / "site") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "old.json" in err and "format 2" in err
    assert not (tmp_path / "site").exists()


def test_a_folder_that_is_not_a_site_is_not_replaced(reports: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep")
    assert build([reports[REFERENCE]], tmp_path) == 2
    assert (tmp_path / "mine.txt").read_text() == "keep"


def _changed(before: RunResult, after: RunResult) -> set[str]:
    old = {c.check_id: c.status for c in before.checks}
    new = {c.check_id: c.status for c in after.checks}
    return {check for check in old.keys() | new.keys() if old.get(check) != new.get(check)}


def test_the_history_shows_exactly_the_checks_that_changed(reports: dict[str, Path], tmp_path: Path) -> None:
    assert build([reports["vendor-1.10"], reports["vendor-1.9"]], tmp_path / "site") == 0
    page = tmp_path / "site" / "targets" / "vendor.html"
    rows = {attrs["data-check"] for tag, attrs in tags(page) if tag == "tr" and "data-check" in attrs}
    changed = _changed(load_report(reports["vendor-1.9"]), load_report(reports["vendor-1.10"]))
    assert changed and rows == changed
    text = page.read_text()
    assert text.index('"col">1.9</th>') < text.index('"col">1.10</th>'), "versions in the order people read them"


def test_triage_shows_in_cells_and_works_as_a_baseline(reports: dict[str, Path], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    issue = "https://github.com/example/indexer/issues/7"
    triage = tmp_path / "triage.yaml"
    triage.write_text(f"- {{target: html-health, check: transport.answered, issue: '{issue}'}}\n"
                      f"- {{target: reference, clause: 4.1-R3, issue: '{issue}-never-failed'}}\n")
    assert build([reports["html-health"], reports[REFERENCE]], tmp_path / "site", "--triage", str(triage)) == 0
    index = (tmp_path / "site" / "index.html").read_text()
    assert f'href="{issue}"' in index and f"{issue}-never-failed" not in index  # a passing cell needs none
    baseline = tmp_path / "baseline.yaml"
    assert main(["site", "baseline", str(triage), str(reports["html-health"]), "-o", str(baseline)]) == 0
    result = load_report(reports["html-health"])
    assert result.exit_code() == 1
    entries = load_baseline(baseline, checks={c.check_id for c in result.checks}, methods=set())
    apply_baseline(result, entries)
    assert result.exit_code() == 0, "the triaged failure no longer blocks the gate"


def test_a_triage_file_that_cannot_work_is_refused(reports: dict[str, Path], tmp_path: Path) -> None:
    triage = tmp_path / "triage.yaml"
    triage.write_text("- {target: x, check: a.b, clause: 4.1-R3, issue: 'https://e/1'}\n")
    assert build([reports[REFERENCE]], tmp_path / "site", "--triage", str(triage)) == 2
    triage.write_text("- {target: x, check: a.b, issue: 'javascript:alert(1)'}\n")
    assert build([reports[REFERENCE]], tmp_path / "site", "--triage", str(triage)) == 2


def test_badges_are_an_svg_and_a_shields_endpoint_per_target_and_contract(reports: dict[str, Path],
                                                                          tmp_path: Path) -> None:
    assert build(_matrix_reports(reports), tmp_path / "site") == 0
    badges = tmp_path / "site" / "badges"
    endpoint = json.loads((badges / "html-health-0.50.0.json").read_text())
    assert endpoint == {"schemaVersion": 1, "label": "csi 0.50.0", "message": "not conformant", "color": "red"}
    assert json.loads((badges / "photon-reference-photon-366a15b.json").read_text())["message"] == "conformant"
    svg = ET.fromstring((badges / "html-health-0.50.0.svg").read_text())
    assert svg.tag.endswith("svg") and "not conformant" in svg.get("aria-label")
    assert not any(el.get("href") or el.get("{http://www.w3.org/1999/xlink}href") for el in svg.iter())
    page = (tmp_path / "site" / "targets" / "html-health.html").read_text()
    assert "img.shields.io/endpoint?url=" in page and "badges/html-health-0.50.0.svg" in page


def test_a_hostile_target_name_is_escaped(reports: dict[str, Path], tmp_path: Path) -> None:
    data = json.loads(reports["html-health"].read_text())
    data["target_name"] = '<script>alert(1)</script>"/../../x'
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(data))
    assert build([hostile], tmp_path / "site") == 0
    files = [p for p in (tmp_path / "site").rglob("*") if p.is_file()]
    assert all(p.resolve().is_relative_to((tmp_path / "site").resolve()) for p in files)
    assert not any("<script>" in p.read_text() for p in files)


def test_the_ambiguity_page_shows_each_targets_reading(reports: dict[str, Path], tmp_path: Path) -> None:
    assert build(_matrix_reports(reports), tmp_path / "site") == 0
    page = (tmp_path / "site" / "ambiguities.html").read_text()
    observed = json.loads(reports[REFERENCE].read_text())["observations"]
    told = next(o for o in observed if o["answers"])
    assert f'id="point-0.50.0-{told["ambiguity"]}"' in page
    row = page.split(f'id="point-0.50.0-{told["ambiguity"]}"')[1].split("</tr>")[0]
    assert f'<td>{", ".join(told["readings"])}<span class="basis">' in row
    shutil.rmtree(tmp_path / "site")


def test_a_run_of_the_bundled_reference_is_the_reference_when_none_is_named(tmp_path: Path) -> None:
    """`csi run` with no `--target` (its report names the target `bundled reference …`) is the reference of its
    group without `--reference-name`; a target certified over the same scenario lines up with it."""
    from csi_conformance.harness.engine.session import certify

    from tests.harness.site.runs import ONLY, certified

    certify({"only": ONLY, "report-dir": str(tmp_path / "bundled")})
    broken = certified(tmp_path, "html-health", "html-health", scenario="default")
    paths = [tmp_path / "bundled" / "report.json", broken]
    assert build(paths, tmp_path / "site") == 0
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert index.count("(reference)") == 1 and "bundled reference (default scenario)</a> (reference)" in index
    assert index.count('<section aria-labelledby="group-') == 1  # one group: the same contract, ledger and kit
    assert build([broken], tmp_path / "alone") == 0  # no run of the bundled reference: no reference at all
    assert "(reference)" not in (tmp_path / "alone" / "index.html").read_text(encoding="utf-8")
