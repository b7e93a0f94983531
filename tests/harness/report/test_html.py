"""report.html: self-contained, every string escaped, and the facts a reader needs."""

from __future__ import annotations

import dataclasses
from html.parser import HTMLParser
from pathlib import Path

from csi_conformance.harness.core.asked_again import AskedAgain
from csi_conformance.harness.core.model import Observation, RunResult, Status
from csi_conformance.harness.report import render_html, write_html
from csi_conformance.harness.report.matrix import RUN_WIDE, method_family_matrix
from csi_conformance.schema import Contract

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
    assert not [attrs for _, attrs in page.tags if "src" in attrs]
    links = [attrs["href"] for _, attrs in page.tags if "href" in attrs]
    ids = {attrs["id"] for _, attrs in page.tags if "id" in attrs}
    assert links and all(link.startswith("#") and link[1:] in ids for link in links)  # anchors within the page


def test_carries_the_facts(result: RunResult, contract: Contract) -> None:
    text = " ".join(_page(render_html(result, contract)).text)
    for fact in (samples.URL, "1234", "spec", "0.50.0", "2025-01-02T03:04:05+00:00", "12.3 s", "321",
                 "Not conformant", "2 findings at or above FAIL", "Response id differs from request id",
                 "discovery found no delegate", contract.clause("8-L1").text, contract.clause("4.3-R1").text,
                 contract.ambiguity("token-state").question, "--data-raw", "HTTP 200"):
        assert fact in text, fact
    assert '<p class="label">Received</p><pre>state 0</pre>' in render_html(result, contract)
    assert str(samples.BIG_AMOUNT) in text and str(samples.BIG_LAMPORTS) in text
    assert '"amount": 18446744073709551621' in text  # pretty JSON, exact


def test_summary_counts(result: RunResult, contract: Contract) -> None:
    source = render_html(result, contract)
    summary = source.split("<h2>Summary</h2>")[1].split("</section>")[0]
    checks_row = summary.split("<td>Checks</td>")[1].split("</tr>")[0]
    cells = [cell.split(">")[1] for cell in checks_row.split("</td>") if ">" in cell]
    assert cells == ["1", "0", "2", "0", "1", "1", "1", "0", "2", "8"]  # PASS N/A SKIP UNVERIFIED … ERROR FAIL total


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


def test_matrix_skips_methods_a_check_did_not_reach_and_hides_the_unknown_method_probe(contract: Contract) -> None:
    from csi_conformance.harness.core.model import Basis, CheckResult, Finding

    probe = Finding("envelope.unknown-method", "Unknown method not -32601", Status.FAIL, Basis.SPEC, ("7-C1",),
                    "getCompressedAccountz", "rule", "error code -32601", "-32000", None)
    checks = [CheckResult("envelope.unknown-method", "envelope", ("7-C1",), "d", [probe], runs=1),
              CheckResult("differential.mirror-balances", "differential", (), "d", runs=1,
                          examined={"owners": 3}, examined_methods={"getCompressedBalanceByOwner"}),
              CheckResult("params.exactly-one-of", "params", (), "d", runs=2,
                          methods={"getCompressedAccount", "getCompressedBalance"},
                          examined={"answers": 4}, examined_methods={"getCompressedAccount"})]
    run = RunResult(target="http://x/", profile="spec", seed=0, spec_version="0.50.0", started="now", checks=checks)
    matrix = method_family_matrix(run, contract.methods)
    assert matrix[(RUN_WIDE, "envelope")] is Status.FAIL
    assert not [cell for cell in matrix if cell[0] == "getCompressedAccountz"]
    assert matrix[("getCompressedBalanceByOwner", "differential")] is Status.PASS  # run-wide check, examined there
    assert matrix[("getCompressedAccount", "params")] is Status.PASS
    assert matrix[("getCompressedBalance", "params")] is Status.SKIP  # ran there, examined nothing
    source = render_html(run, contract)
    assert "getCompressedAccountz</code></td>" not in source and "<code>getCompressedAccountz</code>" in source


def test_matrix_rendering(result: RunResult, contract: Contract) -> None:
    source = render_html(result, contract)
    matrix = source.split("<h2>Methods × families</h2>")[1].split("</section>")[0]
    row = matrix.split("<code>getValidityProof</code>")[1].split("</tr>")[0]
    assert row.count("—") == 9 and 'class="s FAIL"' in row  # limits FAIL, other families nothing
    assert len(matrix.split("<tr>")) - 2 == len(contract.methods) + 1  # methods + the run-wide row


def test_observations_table(result: RunResult, contract: Contract) -> None:
    source = render_html(result, contract)
    section = source.split("<h2>Ambiguities</h2>")[1].split("</section>")[0]
    assert "<strong>integer</strong> (differs from observed practice)" in section
    assert "<strong>wrapped, bare</strong></td>" in section
    assert "integer: 5/5" in section


def test_every_point_is_listed_with_its_evidence(result: RunResult, contract: Contract) -> None:
    """A point no answer touched is listed too, saying why; one the run told, with its readings."""
    untouched = Observation("tlv-format", "2.11-R5", "q", "base64", {"base64": 0, "any-string": 0}, 0,
                            "not exercised by this run: it takes token data whose `tlv` is not null, and none came")
    result = dataclasses.replace(result, observations=[*result.observations, untouched])
    section = render_html(result, contract).split("<h2>Ambiguities</h2>")[1].split("</section>")[0]
    rows = section.split("<tr>")[2:]
    assert [row.split("<code>")[1].split("</code>")[0] for row in rows] == list(contract.ambiguities)
    tlv = next(row for row in rows if "<code>tlv-format</code>" in row)
    assert "<em>not exercised by this run: it takes token data whose `tlv` is not null, and none came</em>" in tlv
    bn = next(row for row in rows if "<code>bn-values</code>" in row)
    assert "not exercised by this run: no answer recorded it" in bn  # not in the report at all
    assert "this run's answers told the reading of 2." in section


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
    assert "Conformant" in text and "0 findings at or above FAIL" in text
    assert f"{len(contract.ambiguities)} points the spec leaves open or states twice; this run's answers told " \
           "the reading of 0." in text
    assert text.count("not exercised by this run: no answer recorded it") == len(contract.ambiguities)


def test_opens_on_the_verdict_then_the_findings_then_the_catalogue(result: RunResult, contract: Contract) -> None:
    source = render_html(result, contract)
    body = source.split("<body>")[1]
    banner, findings, checks = (body.index('id="verdict"'), body.index('id="findings"'), body.index('id="checks"'))
    assert banner < findings < checks < body.index("<h2>Methods × families</h2>") or banner < findings < checks
    assert body.index("<h1>") < banner < body.index("<h2>")  # nothing but the title before the banner
    verdict = body[banner:findings]
    assert '<p class="word">Not conformant</p>' in verdict and "background:#b3261e" in verdict
    assert "2 findings at or above FAIL; checks: 2 FAIL, 1 WARN, 1 AMBIGUOUS, 1 INFO, 2 SKIP, 1 PASS" in verdict
    first = body[findings:].split('<article class="finding')[1]
    assert "Response id differs from request id" in first  # the worst check's worst finding comes first


def test_a_finding_shows_member_values_as_json_clause_and_curl(result: RunResult, contract: Contract) -> None:
    check = result.checks[0]
    check.findings[0] = dataclasses.replace(
        check.findings[0], occurrences=22, curl=None,
        kind="mismatch", expected={"value": 100000}, received={"value": 7}, path="$.result.value.items[3].leafIndex",
        examples=({"path": None, "expected": 1, "received": 2, "request": None, "curl": "curl -sS other"},))
    text = " ".join(" ".join(_page(render_html(result, contract)).text).split())
    assert "Response id differs from request id ×22" in text
    assert "Member: $.result.value.items[3].leafIndex" in text
    assert 'Expected { "value": 100000 }' in text
    assert 'Received { "value": 7 }' in text
    assert contract.clause("4.1-R4").text in text and "Basis: the spec" in text
    assert 'curl -sS -i "http://127.0.0.1:8899/?api-key=${CSI_API_KEY}"' in text  # rebuilt from the request
    assert "1 other example(s) of the 22 answers" in text and "curl -sS other" in text
    assert "1 finding, 22 answers" in text  # the table of contents


def test_errors_of_the_kit_unverified_and_inconclusive_reasons(contract: Contract) -> None:
    from csi_conformance.harness.core.model import Basis, CheckResult, Finding

    kit = Finding("crypto.proof-verifies", "The kit could not complete this check", Status.ERROR, Basis.KIT,
                  ("2.3-R2",), "getValidityProof", "rule", "the check to run to its end", "KeyError", None)
    null = Finding("crypto.proof-verifies", "Null proof not verified", Status.UNVERIFIED, Basis.LEDGER, ("2.3-R2",),
                   "getValidityProof", "rule", "a proof", "null", None)
    run = RunResult(target="http://x/", profile="spec", seed=0, spec_version="0.50.0", started="now",
                    checks=[CheckResult("crypto.proof-verifies", "crypto", ("2.3-R2",), "d", [kit, null], runs=1,
                                        examined={"proofs": 2}, examined_methods={"getValidityProof"})],
                    inconclusive=["the kit itself failed in 1 checks (crypto.proof-verifies)"])
    source = render_html(run, contract)
    text = " ".join(" ".join(_page(source).text).split())
    assert "Inconclusive" in text and "background:#9a5b00" in source
    assert "the kit itself failed in 1 checks (crypto.proof-verifies)" in text
    assert "an error of the kit, not of the target" in text and 'class="s ERROR"' in source
    assert 'class="s UNVERIFIED"' in source and "ledger-facts.md, not the spec text" in text
    assert "proofs 2 · 1/0 methods" not in text and "proofs 2" in text


def test_the_requests_asked_again_are_among_the_facts(result: RunResult, contract: Contract) -> None:
    asked = AskedAgain("getValidityProof", "/", 60.0, 7, "timeout after 60.0 s (no response)", True,
                       "answered HTTP 200 in 12.0 s")
    page = render_html(dataclasses.replace(result, asked_again=[asked]), contract)
    assert "<th>Asked again</th><td>Asked again alone: 1 request(s)" in page and "getValidityProof 1" in page
    assert "Asked again" not in render_html(result, contract)
