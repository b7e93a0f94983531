"""Run results built by hand, as the engine would build them: several families, methods and statuses."""

from __future__ import annotations

from csi_conformance.harness.core.model import Basis, CheckResult, Finding, Observation, RunResult, Status
from csi_conformance.schema import Contract

BIG_AMOUNT = 2**64 + 5
BIG_LAMPORTS = 2**70 + 1
BIG_REQUEST = 2**63 + 7
URL = "http://127.0.0.1:8899/?api-key=REDACTED"
OWNER = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"


def _curl(body: str) -> str:
    return f"curl -sS -X POST '{URL}' -H 'Content-Type: application/json' --data-raw '{body}'"


def _observation(contract: Contract, ambiguity: str, counts: dict[str, int], answers: int) -> Observation:
    amb = contract.ambiguity(ambiguity)
    return Observation(amb.id, amb.clause, amb.question, amb.observed, counts, answers)


def id_echo() -> CheckResult:
    request = {"jsonrpc": "2.0", "id": "test-account", "method": "getCompressedAccount",
               "params": {"hash": "11111111111111111111111111111111"}}
    fail = Finding("envelope.id-echo", "Response id differs from request id", Status.FAIL, Basis.SPEC, ("4.1-R4",),
                   "getCompressedAccount", "mismatch", "test-account", 7, "$.id", request,
                   {"jsonrpc": "2.0", "id": 7, "result": {"context": {"slot": 42}, "value": None}}, 200,
                   _curl('{"jsonrpc":"2.0","id":"test-account","method":"getCompressedAccount"}'), 1234)
    warn = Finding("envelope.id-echo", "Numeric id not echoed as a number", Status.WARN, Basis.JSON_RPC, ("4.1-R4",),
                   "getIndexerSlot", "mismatch", 5, "5", "$.id",
                   {"jsonrpc": "2.0", "id": 5, "method": "getIndexerSlot"}, {"jsonrpc": "2.0", "id": "5", "result": 42},
                   200, _curl('{"jsonrpc":"2.0","id":5,"method":"getIndexerSlot"}'), 1234)
    return CheckResult("envelope.id-echo", "envelope", ("4.1-R4",),
                       "The answer's id is the request's id", [fail, warn], runs=19,
                       methods={"getCompressedAccount", "getIndexerSlot", "getIndexerHealth"},
                       examined={"answers": 19}, examined_methods={"getCompressedAccount", "getIndexerSlot",
                                                                  "getIndexerHealth"})


def slot_warn() -> CheckResult:
    finding = Finding("envelope.jsonrpc-version", "jsonrpc member missing", Status.WARN, Basis.JSON_RPC, ("9-R1",),
                      "getIndexerHealth", "rule", 'a `jsonrpc` member "2.0"', "no `jsonrpc` member", "$.jsonrpc",
                      {"jsonrpc": "2.0", "id": "test-account", "method": "getIndexerHealth"}, {"id": "test-account",
                                                                                              "result": "ok"},
                      200, _curl('{"jsonrpc":"2.0","id":"test-account","method":"getIndexerHealth"}'), 1234)
    return CheckResult("envelope.jsonrpc-version", "envelope", ("9-R1",),
                       "Every answer carries jsonrpc 2.0", [finding], runs=30, methods={"getIndexerHealth"},
                       examined={"answers": 30}, examined_methods={"getIndexerHealth"})


def token_state() -> CheckResult:
    request = {"jsonrpc": "2.0", "id": "test-account", "method": "getCompressedTokenAccountsByOwner",
               "params": {"owner": OWNER, "limit": BIG_REQUEST}}
    response = {"jsonrpc": "2.0", "id": "test-account", "result": {"context": {"slot": 42}, "value": {
        "cursor": None, "items": [{"account": {"lamports": BIG_LAMPORTS, "owner": OWNER},
                                   "tokenData": {"amount": BIG_AMOUNT, "state": 0, "mint": OWNER}}]}}}
    finding = Finding("schema.token-state", "TokenData state read as the numeric enumeration", Status.AMBIGUOUS,
                      Basis.AMBIGUITY, ("3.1-R1",), "getCompressedTokenAccountsByOwner",
                      "rule", "state as the string 'initialized' (observed practice)", "state 0", None,
                      request, response, 200, _curl('{"method":"getCompressedTokenAccountsByOwner"}'), 1234)
    return CheckResult("schema.token-state", "schema", ("3.1-R1", "2.5-R1"),
                       "TokenData.state follows one reading", [finding], runs=40,
                       methods={"getCompressedTokenAccountsByOwner", "getCompressedTokenAccountsByDelegate"},
                       examined={"accounts": 40}, examined_methods={"getCompressedTokenAccountsByOwner",
                                                                   "getCompressedTokenAccountsByDelegate"})


def validity_hashes() -> CheckResult:
    request = {"jsonrpc": "2.0", "id": "test-account", "method": "getValidityProof",
               "params": {"hashes": ["11111111111111111111111111111111"] * 5}}
    finding = Finding("limits.validity-hashes", "Hash count outside the allowed set accepted", Status.FAIL,
                      Basis.SPEC, ("8-L1", "4.3-R1"), "getValidityProof",
                      "rule", "an error for 5 hashes", "a proof", None, request,
                      {"jsonrpc": "2.0", "id": "test-account", "result": {"context": {"slot": 42}, "value": {}}},
                      200, _curl('{"method":"getValidityProof","params":{"hashes":[1,2,3,4,5]}}'), 1234)
    return CheckResult("limits.validity-hashes", "limits", ("8-L1", "4.3-R1"),
                       "getValidityProof accepts 1, 2, 3, 4, 8 hashes and refuses other counts", [finding], runs=1,
                       methods={"getValidityProof"}, examined={"answers": 1}, examined_methods={"getValidityProof"})


def post_only() -> CheckResult:
    finding = Finding("transport.post-only", "GET answered with a body", Status.INFO, Basis.OBSERVED, ("4.1-R1",),
                      None, "rule", "HTTP 405 to a GET", "HTTP 200 with HTML", None, None,
                      {"body": "<html>hello</html>", "json_error": "Expecting value"}, 200,
                      f"curl -sS '{URL}'", 1234)
    return CheckResult("transport.post-only", "transport", ("4.1-R1",),
                       "A GET is refused", [finding], runs=1, examined={"answers": 1})


def plain(check_id: str, clauses: tuple[str, ...], *, runs: int, methods: set[str] | None = None,
          skipped: list[str] | None = None, examined: int = 0) -> CheckResult:
    """A check without findings: PASS when it examined something, else SKIP."""
    return CheckResult(check_id, check_id.split(".")[0], clauses, f"Verifies {check_id}", [], runs,
                       skipped or [], methods or set(), examined={"answers": examined} if examined else {},
                       examined_methods=set(methods or ()) if examined else set())


def run_result(contract: Contract) -> RunResult:
    """Eight checks over seven families: two FAIL, one WARN-only, one AMBIGUOUS, one INFO, one PASS, two SKIP."""
    checks = [
        id_echo(),
        slot_warn(),
        post_only(),
        token_state(),
        validity_hashes(),
        plain("pagination.null-cursor", ("4.1-R8",), runs=3, methods={"getCompressedAccountsByOwner"},
              skipped=["no owner with more than one page discovered"] * 3),
        plain("consistency.balance-sum", ("4.2-M4",), runs=0),
        plain("crypto.account-hash", ("2.3-R2",), runs=12, methods={"getCompressedAccount"}, examined=12),
    ]
    observations = [_observation(contract, "token-state", {"string": 0, "integer": 5}, 5),
                    _observation(contract, "balance-wrapper", {"wrapped": 2, "bare": 2}, 2)]
    return RunResult(target=URL, profile="spec", seed=1234, spec_version=contract.version,
                     started="2025-01-02T03:04:05+00:00", duration=12.3456, requests=321, checks=checks,
                     discovered={"accounts": ["A1", "A2", "A3"], "owners": [OWNER, "B2"], "signatures": []},
                     observations=observations, notes=["discovery found no delegate"])


HOSTILE = "<script>alert('x')</script> & \x00\x1b[31m[bold]red[/]\ud800 ]]> \u2028"


def hostile_result(contract: Contract) -> RunResult:
    """Strings a hostile target controls, everywhere a target can put them."""
    finding = Finding("envelope.id-echo", f"Title {HOSTILE}", Status.FAIL, Basis.SPEC, ("4.1-R4", "99-X9"),
                      "getIndexerSlot", "rule", "x", HOSTILE, None,
                      {"jsonrpc": "2.0", "id": HOSTILE, "method": "getIndexerSlot", "raw": b"\xff\x00"},
                      {"error": HOSTILE, "huge": float("inf"), HOSTILE: [1.5, 2**80]}, 500,
                      f"curl '{URL}' --data-raw '{HOSTILE}'", 9)
    check = CheckResult("envelope.id-echo", "envelope", ("4.1-R4",), HOSTILE, [finding], runs=1,
                        methods={"getIndexerSlot"})
    skipped = plain("health.indexer-health", ("7-C3",), runs=1, skipped=[HOSTILE])
    return RunResult(target=f"http://{HOSTILE}/", profile="spec", seed=9, spec_version=contract.version,
                     started="2025-01-02T03:04:05+00:00", checks=[check, skipped],
                     discovered={HOSTILE: [HOSTILE]}, notes=[HOSTILE])


def passing_result(contract: Contract) -> RunResult:
    """A run whose worst finding is a WARN: the gate passes at FAIL and fails at WARN."""
    return RunResult(target=URL, profile="lenient", seed=1, spec_version=contract.version,
                     started="2025-01-02T03:04:05+00:00", checks=[slot_warn(), plain("crypto.account-hash",
                                                                                     ("2.3-R2",), runs=2,
                                                                                     examined=2)])
