"""What the answer checks (envelope, transport, schema) and the params family say, over real HTTP on loopback.

A pinned reading is reported as a pinned reading; a failure body §7 states is judged on the spec;
a server that answers nothing but HTML gets FAILs where the spec is broken and SKIP where nothing
could be judged, never PASS for what it never showed; messages show JSON and name JSON paths.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import Basis, RunResult, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.harness.report.junit import finding_text

from .broken import Dispatch, Variant, _string_lamports, serving
from .variants_schema import token_state_integer

HTML = {"content-type": "text/html"}
BODY_CHECK = ["schema.error-body", "transport.path-forms"]  # path-forms asks every method, getIndexerHealth too


def _run(url_context: Any, only: list[str], profile: str = "spec") -> RunResult:
    with url_context as url, Target(url) as target:
        return run(target, RunFacts(profile=PROFILES[profile]), RunConfig(only=only))


def _check(result: RunResult, check_id: str):
    return next(check for check in result.checks if check.check_id == check_id)


def test_strict_reports_the_reading_it_pins_not_a_broken_spec() -> None:
    """#11.13: TokenData.state as an integer is a reading the spec allows; strict pins `string`."""
    variant = Variant("token-state-integer", "schema", "schema.result", dispatch=token_state_integer)
    result = _run(serving(variant), ["schema"], "strict")
    findings = _check(result, "schema.result").findings
    assert [f.title for f in findings if f.basis is Basis.SPEC] == []
    pinned = [f for f in findings if f.title == "Reading other than the pinned one"]
    assert pinned and {(f.status, f.basis) for f in pinned} == {(Status.FAIL, Basis.AMBIGUITY)}
    assert all(f.expected == {"token-state": "string"} and f.received == {"token-state": ["integer"]}
               and "3.1-R1" in f.clauses for f in pinned)


def test_the_same_answer_under_spec_is_ambiguous_not_failed() -> None:
    result = _run(serving(Variant("token-state-integer", "schema", "schema.result",
                                  dispatch=token_state_integer)), ["schema"])
    assert not [f for f in result.findings if f.status is Status.FAIL]
    readings = _check(result, "schema.ambiguity-readings").findings
    assert readings and {f.status for f in readings} == {Status.AMBIGUOUS}
    assert all(f.expected == {"token-state": "string"} and f.received == {"token-state": ["integer"]}
               for f in readings)


def _health_as(status: int, body: bytes, headers: dict):
    def rewrite(path: str, got: int, old: dict, answer: bytes) -> tuple[int, dict, bytes]:
        return (status, {**old, **headers}, body) if b'"result":"ok"' in answer else (got, old, answer)

    return rewrite


def test_an_html_500_body_breaks_the_spec() -> None:
    """#12: §7 gives the HTTP 500 body as `{error: string}` (7-R3): an HTML page is a spec FAIL."""
    variant = Variant("html-500", "schema", "schema.error-body",
                      http=_health_as(500, b"<html><body>Internal Server Error</body></html>", HTML))
    findings = _check(_run(serving(variant), BODY_CHECK), "schema.error-body").findings
    assert [(f.method, f.title, f.status, f.basis, f.clauses) for f in findings] == [
        ("getIndexerHealth", "Malformed HTTP 500 body", Status.FAIL, Basis.SPEC, ("7-R3",))]


def test_a_429_body_that_is_not_error_string_breaks_the_spec() -> None:
    """§7 gives the HTTP 429 body as `{error: string}` (7-R2); the last 429 of a flood is judged too."""
    variant = Variant("json-429", "schema", "schema.error-body",
                      http=_health_as(429, b'{"message": "slow down"}', {"retry-after": "0"}))
    findings = _check(_run(serving(variant), BODY_CHECK), "schema.error-body").findings
    assert {(f.title, f.status, f.basis, f.clauses) for f in findings} == {
        ("Malformed HTTP 429 body", Status.FAIL, Basis.SPEC, ("7-R2",))}
    assert findings[0].received == {"message": "slow down"}


class _Html501(SimpleHTTPRequestHandler):
    """What `python -m http.server` does to a POST: 501 with an HTML page."""

    def log_message(self, *args: Any) -> None:
        pass


@contextlib.contextmanager
def html_501_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Html501)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_a_url_answering_html_to_everything_is_no_indexer_and_the_run_inconclusive() -> None:
    """A wrong URL (a web page, a path that 404s) is not an indexer failing every check: the preflight
    getIndexerSlot got no JSON-RPC answer, so the run says what came back and asks whether the URL is the
    JSON-RPC one; no check runs, nothing passes, and the exit code is 3 (inconclusive), not 1."""
    with html_501_server() as url:
        result = _run(contextlib.nullcontext(url), ["envelope", "transport", "schema", "params"])
    said = result.precondition
    assert said.startswith("getIndexerSlot got no JSON-RPC answer (HTTP 501, text/html beginning <!DOCTYPE")
    assert said.endswith(f"is {url}/ the indexer's JSON-RPC URL?")
    assert {check.status for check in result.checks} == {Status.SKIP} and result.findings == []
    assert (result.exit_code(), result.verdict()) == (3, "inconclusive")


def _answer_100000(real: Dispatch, method: str, params: Any) -> Any:
    result = real(method, params)
    if method == "getCompressedAccount" and isinstance(result, dict) and result.get("value") is None:
        return {**result, "value": 100000}
    return result


def test_received_shows_json_not_python_repr() -> None:
    variant = Variant("value-100000", "params", "params.not-found", dispatch=_answer_100000)
    [finding] = _check(_run(serving(variant), ["params.not-found"]), "params.not-found").findings
    assert finding.received["value"] == 100000
    text = finding_text(finding)
    assert '"value":100000' in text and "'value'" not in text


def test_schema_errors_name_the_json_path_of_the_wrong_member() -> None:
    """#12: not "is not valid under any of the schemas listed in the 'anyOf' keyword" plus the whole answer."""
    variant = Variant("string-lamports", "schema", "schema.result", dispatch=_string_lamports)
    result = _run(serving(variant), ["schema.result", "transport.path-forms"])
    findings = [f for f in _check(result, "schema.result").findings if f.method == "getCompressedAccount"]
    assert findings
    finding = findings[0]
    assert finding.path == "$.result.value.lamports" and isinstance(finding.received, str)
    assert finding.expected.startswith("/result/value/lamports: ") and '"integer"' in finding.expected
    assert "anyOf" not in finding.expected and len(finding.expected) < 300
