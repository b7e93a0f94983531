"""What examined nothing is visible: every SKIP check with its reason on the console and in report.html's banner
(linked to its row), the N/A ones counted with theirs, junit.xml's `<skipped>` saying the same, and what the
checks of batched trees examined on a target that holds some. Whole runs over real HTTP on loopback."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

from csi_conformance.harness.core.model import CheckResult, RunResult
from csi_conformance.harness.report import ConsoleReporter, render_html
from csi_conformance.harness.report.console import SHOWN_CHECKS, SHOWN_VALUE
from csi_conformance.harness.report.html_unexamined import SHOWN_REASON
from csi_conformance.harness.report.unexamined import BATCHED_CHECKS, batched_coverage
from csi_conformance.schema import Contract
from rich.console import Console

from tests.harness.broken import serving
from tests.harness.csi_process import Finished, csi_run
from tests.harness.report import samples

EMPTY_RUN = ("--scenario", "empty", "--only", "consistency.balance-by-owner", "--only", "consistency.filters",
             "--only", "consistency.delegate", "--only", "envelope.id-echoed", "--only", "onchain.root-history")
"""Over the empty scenario: two checks skipped for one reason, one for another, one N/A, one PASS."""


class _Banner(HTMLParser):
    """The verdict banner's text, and its lists of what examined nothing: per item its text and links, the
    SKIP list apart from the N/A fold (`<details>`)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: dict[str, list[tuple[str, list[str]]]] = {"SKIP": [], "N/A": []}
        self.words: list[str] = []
        self._after = self._folded = False
        self._item: tuple[list[str], list[str]] | None = None

    @property
    def text(self) -> str:
        return " ".join("".join(self.words).split())

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self._after |= dict(attrs).get("id") == "unexamined"
        if tag == "details":
            self._folded = True
        elif tag == "li" and self._after:
            self._item = ([], [])
        elif tag == "a" and self._item is not None:
            self._item[1].append(dict(attrs)["href"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "li" and self._item is not None:
            self.items["N/A" if self._folded else "SKIP"].append(("".join(self._item[0]), self._item[1]))
            self._item = None

    def handle_data(self, data: str) -> None:
        self.words.append(data)
        if self._item is not None:
            self._item[0].append(data)


def _banner(source: str) -> _Banner:
    parser = _Banner()
    parser.feed("<div " + source.split('<div class="banner" ')[1].split("</div>")[0] + "</div>")
    return parser


def _row_ids(source: str) -> dict[str, str]:
    """Check id -> the id of its row in the catalogue of checks."""
    checks = source.split('<section id="checks">')[1]
    return {check: row for row, check in re.findall(r'<tr id="([^"]+)"><td><code>([^<]+)</code>', checks)}


def _by_status(done: Finished, status: str) -> dict[str, str]:
    """Check id -> the reason report.json gives, for the checks of `status`."""
    return {check["id"]: check["skip_reason"] for check in done.report["checks"] if check["status"] == status}


def test_every_skip_and_na_is_listed_with_its_reason_in_console_banner_and_junit(tmp_path: Path) -> None:
    done = csi_run(*EMPTY_RUN, cwd=tmp_path)
    assert done.code == 0, done.explain()
    skipped, not_applicable = _by_status(done, "SKIP"), _by_status(done, "N/A")
    assert set(skipped) == {"consistency.balance-by-owner", "consistency.filters", "consistency.delegate"}
    assert set(not_applicable) == {"onchain.root-history"}
    lines = done.stdout.splitlines()
    assert "3 SKIP: checks that could apply examined nothing, so they certify nothing; why:" in lines
    assert "SKIP  consistency.balance-by-owner, consistency.filters: no owners discovered" in lines  # grouped
    assert "SKIP  consistency.delegate: no delegates discovered" in lines
    assert "1 N/A: checks that cannot apply to this run's mode; why:" in lines
    assert "N/A   onchain.root-history: no --chain given" in lines
    for status, checks in (("SKIP", skipped), ("N/A", not_applicable)):
        for check, reason in checks.items():
            assert any(line.startswith(f"{status:<5} ") and check in line and line.endswith(f": {reason}")
                       for line in lines), (check, reason)
    assert lines.index("N/A   onchain.root-history: no --chain given") < lines.index(
        "Threshold FAIL (--fail-on): no finding at or above it")  # before the verdict

    source = (done.report_dir / "report.html").read_text(encoding="utf-8")
    banner, rows = _banner(source), _row_ids(source)
    assert "3 checks examined nothing (SKIP): they could apply, and certify nothing. Why:" in banner.text
    assert "1 check cannot apply to this run's mode (N/A)" in banner.text
    for status, checks in (("SKIP", skipped), ("N/A", not_applicable)):
        linked = {}
        for text, links in banner.items[status]:
            reason = text.rsplit(": ", 1)[0]
            linked.update({href[1:]: reason for href in links})
        assert linked == {rows[check]: reason for check, reason in checks.items()}, status

    junit = ElementTree.parse(done.report_dir / "junit.xml").getroot()
    messages = {case.get("name"): case.find("skipped").get("message") for case in junit.iter("testcase")
                if case.find("skipped") is not None}
    assert messages == {**skipped, **{check: f"not applicable: {reason}" for check, reason in not_applicable.items()}}


def test_a_run_in_which_every_check_examined_something_says_so(tmp_path: Path) -> None:
    done = csi_run("--only", "envelope.id-echoed", "--only", "crypto.account-hash", cwd=tmp_path)
    assert done.code == 0, done.explain()
    assert done.statuses() == {"PASS": 2}
    assert not [line for line in done.stdout.splitlines() if line.startswith(("SKIP ", "N/A ", "Batched"))]
    source = (done.report_dir / "report.html").read_text(encoding="utf-8")
    banner = _banner(source)
    assert "Every check that could apply examined something: 0 SKIP." in banner.text
    assert banner.items == {"SKIP": [], "N/A": []} and "cannot apply" not in banner.text


def test_a_target_with_batched_trees_shows_what_their_checks_examined(tmp_path: Path) -> None:
    with serving(None, ledger="batched_tree_transactions", api="photon-366a15b") as url:
        done = csi_run("--target", url, "--api", "photon-366a15b", *(arg for check in BATCHED_CHECKS
                                                                      for arg in ("--only", check)), cwd=tmp_path)
    assert done.code == 0, done.explain()
    trees = len(done.report["discovered"]["batched_trees"])
    checks = {check["id"]: check for check in done.report["checks"]}
    assert trees >= 1 and set(checks) == set(BATCHED_CHECKS)
    assert checks["crypto.batched-accounts"]["examined"]  # the ledger's batched accounts were reached

    def said(check: dict) -> str:
        examined = ", ".join(f"{kind} {count}" for kind, count in sorted(check["examined"].items())) or "nothing"
        partial = ", partial" if check["status"] == "PASS" and check["not_reached"] else ""
        return f"{check['id']} {examined} ({check['status']}{partial})"

    line = next(line for line in done.stdout.splitlines() if line.startswith("Batched trees:"))
    assert line == (f"Batched trees: {trees} on the target; their checks examined: "
                    + ", ".join(said(checks[check]) for check in checks))
    source = (done.report_dir / "report.html").read_text(encoding="utf-8")
    fact = source.split("<th>Batched trees</th><td>")[1].split("</td>")[0]
    assert f"{trees} on the target; what their checks examined: " in fact
    assert set(re.findall(r'href="#([^"]+)"', fact)) == {_row_ids(source)[check] for check in checks}


def _console(result: RunResult) -> list[str]:
    console = Console(file=io.StringIO(), width=120)
    ConsoleReporter(console).print_summary(result)
    return console.file.getvalue().splitlines()


def _skipped(check_id: str, *reasons: str) -> CheckResult:
    return samples.plain(check_id, ("4.1-R8",), runs=1, methods={"getCompressedAccountsByOwner"},
                         skipped=list(reasons))


def test_many_checks_and_long_reasons_are_cut_on_the_console_and_in_the_banner_only(contract: Contract) -> None:
    long = "no key discovered; " * 40
    many = [_skipped(f"pagination.case-{i:02}", "no owner discovered") for i in range(SHOWN_CHECKS + 3)]
    run = RunResult(target="http://x/", profile="spec", seed=0, spec_version="0.50.0", started="now",
                    checks=[*many, _skipped("consistency.long", long)])
    lines = _console(run)
    grouped = next(line for line in lines if line.startswith("SKIP  pagination.case-00"))
    assert grouped.endswith(f"pagination.case-{SHOWN_CHECKS - 1:02} and 3 more: no owner discovered")
    cut = next(line for line in lines if line.startswith("SKIP  consistency.long"))
    assert cut.endswith("…") and len(cut) == len("SKIP  consistency.long: ") + SHOWN_VALUE
    source = render_html(run, contract)
    banner = _banner(source)
    assert [len(links) for _, links in banner.items["SKIP"]] == [SHOWN_CHECKS + 3, 1]  # every check linked
    assert len(banner.items["SKIP"][1][0]) == SHOWN_REASON + len(": consistency.long")
    assert long.strip().rstrip(";") in " ".join(source.split('<section id="checks">')[1].split())  # all of it


def test_reasons_a_target_wrote_stay_text(contract: Contract) -> None:
    run = RunResult(target="http://x/", profile="spec", seed=0, spec_version="0.50.0", started="now",
                    checks=[_skipped("consistency.hostile", f"account {samples.HOSTILE} was consumed")])
    line = next(line for line in _console(run) if line.startswith("SKIP "))
    assert "\x1b" not in line and "<script>alert('x')</script> & \\x00\\x1b[31m[bold]red[/]" in line
    source = render_html(run, contract)
    assert "<script" not in source.lower()
    assert "account <script>alert('x')</script> & " in _banner(source).items["SKIP"][0][0]  # as text, escaped


def test_batched_coverage_only_where_batched_trees_are(result: RunResult) -> None:
    assert batched_coverage(result) is None  # v1 trees only: the line would be noise
    assert not [line for line in _console(result) if line.startswith("Batched")]
    idle = CheckResult("v2.prove-by-index", "v2", ("photon-R1",), "d", runs=1)
    found = CheckResult("crypto.batched-accounts", "crypto", ("ledger-B2",), "d", runs=1, examined={"accounts": 2})
    held = RunResult(target="http://x/", profile="spec", seed=0, spec_version="0.50.0", started="now",
                     checks=[idle], discovered={"batched_trees": ["T1", "T2"]})
    assert _console(held)[-3] == ("Batched trees: 2 on the target; their checks examined: v2.prove-by-index nothing "
                                  "(SKIP)")
    unnamed = RunResult(target="http://x/", profile="spec", seed=0, spec_version="0.50.0", started="now",
                        checks=[found, idle])  # a contract without getQueueInfo, a ledger with batched trees
    assert _console(unnamed)[-3] == ("Batched trees: their checks examined: crypto.batched-accounts accounts 2 "
                                     "(PASS), v2.prove-by-index nothing (SKIP)")
