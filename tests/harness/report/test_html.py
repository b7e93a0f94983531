"""report.html: self-contained, every string escaped, and the facts a reader needs."""

from __future__ import annotations

import dataclasses
from html.parser import HTMLParser
from pathlib import Path

from harness.core.model import RunResult, Status
from harness.report import render_html, write_html
from harness.report.matrix import RUN_WIDE, method_family_matrix
from schema import Contract
from tests.harness.report import samples


class _Page(HTMLParser):
    """Collects tags, attributes and text; also checks that every opened element is closed."""

    VOID = frozenset({"meta", "br", "hr", "img", "link", "input"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, (tag, self.open[-5:])
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _page(source: str) -> _Page:
    page = _Page()
    page.feed(source)
    page.close()
    assert page.open == []
    return page


def test_written_page_is_self_contained(result: RunResult, contract: Contract, tmp_path: Path) -> None:
    path = write_html(result, tmp_path, contract)
    assert path == tmp_path / "report.html"
    page = _page(path.read_text(encoding="utf-8"))
    names = {tag for tag, _ in page.tags}
    assert {"html", "head", "style", "body", "table"} <= names
    assert not names & {"script", "link", "img", "iframe", "object"}
    assert not [attrs for _, attrs in page.tags if {"src", "href"} & set(attrs)]


def test_carries_the_facts(result: RunResult, contract: Contract) -> None:
    text = " ".join(_page(render_html(result, contract)).text)
    for fact in (samples.URL, "1234", "spec", "0.50.0", "2025-01-02T03:04:05+00:00", "12.3 s", "321",
                 "Gate (FAIL): failed, 2 finding(s) at or above FAIL", "Response id differs from request id",
                 "discovery found no delegate", contract.clause("8-L1").text, contract.clause("4.3-R1").text,
                 contract.ambiguity("token-state").question, "--data-raw", "HTTP 200"):
        assert fact in text, fact
    assert "<strong>Received:</strong> state 0" in render_html(result, contract)
    assert str(samples.BIG_AMOUNT) in text and str(samples.BIG_LAMPORTS) in text
    assert '"amount": 18446744073709551621' in text  # pretty JSON, exact


def test_summary_counts(result: RunResult, contract: Contract) -> None:
    source = render_html(result, contract)
    summary = source.split("<h2>Summary</h2>")[1].split("</section>")[0]
    checks_row = summary.split("<td>Checks</td>")[1].split("</tr>")[0]
    cells = [cell.split(">")[1] for cell in checks_row.split("</td>") if ">" in cell]
    assert cells == ["1", "2", "1", "1", "1", "2", "8"]  # PASS SKIP INFO AMBIGUOUS WARN FAIL total


def test_matrix_cells() -> None:
    matrix = method_family_matrix(samples.run_result(Contract.default()))
    assert matrix[("getCompressedAccount", "envelope")] is Status.FAIL
    assert matrix[("getIndexerSlot", "envelope")] is Status.WARN
    assert matrix[("getIndexerHealth", "envelope")] is Status.WARN  # worst of PASS (id-echo) and WARN
    assert matrix[("getCompressedTokenAccountsByOwner", "schema")] is Status.AMBIGUOUS
    assert matrix[("getCompressedTokenAccountsByDelegate", "schema")] is Status.PASS
    assert matrix[("getCompressedAccountsByOwner", "pagination")] is Status.SKIP
    assert matrix[("getCompressedAccount", "crypto")] is Status.PASS
    assert matrix[(RUN_WIDE, "transport")] is Status.INFO
    assert ("getIndexerSlot", "crypto") not in matrix
    assert not [cell for cell in matrix if cell[1] == "consistency"]  # a check that never ran


def test_matrix_rendering(result: RunResult, contract: Contract) -> None:
    source = render_html(result, contract)
    matrix = source.split("<h2>Methods × families</h2>")[1].split("</section>")[0]
    row = matrix.split("<code>getValidityProof</code>")[1].split("</tr>")[0]
    assert row.count("—") == 8 and 'class="s FAIL"' in row  # limits FAIL, other families nothing
    assert len(matrix.split("<tr>")) - 2 == len(contract.methods) + 1  # methods + the run-wide row


def test_observations_table(result: RunResult, contract: Contract) -> None:
    source = render_html(result, contract)
    section = source.split("<h2>Ambiguities</h2>")[1].split("</section>")[0]
    assert "<strong>integer</strong> (differs from observed practice)" in section
    assert "<strong>wrapped, bare</strong></td>" in section
    assert "integer: 5/5" in section


def test_hostile_strings_are_escaped(hostile: RunResult, contract: Contract, tmp_path: Path) -> None:
    source = write_html(hostile, tmp_path, contract).read_text(encoding="utf-8")
    assert "<script" not in source.lower()
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in source
    page = _page(source)
    assert not {tag for tag, _ in page.tags} & {"script"}
    text = " ".join(page.text)
    assert "(not a clause of this spec version)" in text  # 99-X9
    assert '"huge": "inf"' in text


def test_long_answers_are_cut_in_the_page_only(result: RunResult, contract: Contract) -> None:
    items = [{"hash": f"h{i}", "lamports": 2**64 + i} for i in range(2000)]
    first = result.checks[0].findings[0]
    result.checks[0].findings[0] = dataclasses.replace(first, response={"result": {"value": {"items": items}}})
    source = render_html(result, contract)
    assert "cut at 20000 characters: report.json holds all of it</em>" in source
    assert str(2**64 + 5) in source and str(2**64 + 1999) not in source
    assert len(source) < 200_000


def test_empty_run(contract: Contract) -> None:
    empty = RunResult(target="http://x/", profile="spec", seed=0, spec_version="0.50.0", started="now")
    text = " ".join(_page(render_html(empty, contract)).text)
    assert "Gate (FAIL): passed" in text
    assert "No answer touched a point the spec leaves open." in text
