"""csi report merge: the merged run gates like csi run, and grouped findings add up across shards."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from csi_conformance.harness.core.asked_again import AskedAgain
from csi_conformance.harness.core.model import RunResult, Status
from csi_conformance.harness.report import write_json
from csi_conformance.harness.report.merge import load_report, merge_results
from csi_conformance.schema import Contract

from tests.harness.report import samples


def _shard(contract: Contract, shard: str, **changes) -> RunResult:
    result = samples.run_result(contract)
    result.shard = shard
    return dataclasses.replace(result, **changes)


def _round_trip(result: RunResult, directory: Path) -> RunResult:
    directory.mkdir()
    write_json(result, directory)
    return load_report(directory)


def test_a_missing_shard_makes_the_merge_inconclusive(contract: Contract, tmp_path: Path) -> None:
    only = _round_trip(_shard(contract, "1/2"), tmp_path / "s1")
    merged = merge_results([only])
    assert merged.inconclusive[0] == "shard 2 missing: the checks they own were not run in this report"
    assert merged.exit_code(Status.WARN) == 1  # findings still fail a gate they reach
    for check in merged.checks:
        check.findings.clear()
    assert (merged.verdict(), merged.exit_code()) == ("inconclusive", 3)


def test_stopped_or_interrupted_shards_make_the_merge_inconclusive(contract: Contract, tmp_path: Path) -> None:
    clean = _shard(contract, "1/2")
    stopped = _shard(contract, "2/2", stopped="stopped asking: 3 requests in a row ended with HTTP 429")
    merged = merge_results([_round_trip(clean, tmp_path / "a"), _round_trip(stopped, tmp_path / "b")])
    assert "shard 2/2: stopped asking: 3 requests in a row ended with HTTP 429" in merged.inconclusive
    interrupted = merge_results([_round_trip(_shard(contract, "1/1", interrupted=True), tmp_path / "c")])
    assert interrupted.exit_code() == 130 and "shard 1/1: interrupted before it finished" in interrupted.inconclusive


def test_the_same_fault_in_two_shards_is_one_finding_with_the_counts_added(contract: Contract, tmp_path: Path) -> None:
    first, second = _shard(contract, "1/2"), _shard(contract, "2/2")
    finding = first.checks[0].findings[0]
    first.checks[0].findings[0] = dataclasses.replace(finding, occurrences=5)
    second.checks[0].findings[0] = dataclasses.replace(
        finding, occurrences=3, examples=({"message": "Expected: 1\nReceived: 2", "request": None, "curl": None},))
    second.checks[-1].examined["answers"] = 30
    merged = merge_results([_round_trip(first, tmp_path / "a"), _round_trip(second, tmp_path / "b")])
    check = merged.checks[0]
    assert len(check.findings) == 2 and check.findings[0].occurrences == 8
    assert check.findings[0].examples == ({"message": "Expected: 1\nReceived: 2", "request": None, "curl": None},)
    account_hash = next(c for c in merged.checks if c.check_id == "crypto.account-hash")
    assert account_hash.examined == {"answers": 42} and account_hash.status is Status.PASS
    assert account_hash.examined_methods == {"getCompressedAccount"}


def test_a_report_read_back_keeps_na_partial_and_untold_points(contract: Contract, tmp_path: Path) -> None:
    """What a check could not apply to, what it did not reach, and why a point went untold survive the report."""
    from csi_conformance.harness.core.model import CheckResult, Observation

    result = _shard(contract, "1/1")
    result.checks += [CheckResult("onchain.root-history", "onchain", ("ledger-T3",), "roots on-chain",
                                  not_applicable="no --chain given"),
                      CheckResult("health.slot-behind-answers", "health", ("4.2-M19",), "pairs", examined={"pairs": 4},
                                  unreached=["getValidityProof: 8 hashes: 5 live accounts discovered"])]
    result.observations = [Observation("tlv-format", "2.5-R1", "q", "base64", {}, 0, reason="no token data came")]
    merged = merge_results([_round_trip(result, tmp_path / "a")])
    by_id = {check.check_id: check for check in merged.checks}
    assert by_id["onchain.root-history"].status is Status.NOT_APPLICABLE
    assert by_id["onchain.root-history"].skip_reason == "no --chain given"
    assert by_id["health.slot-behind-answers"].partial
    assert by_id["health.slot-behind-answers"].not_reached == ["getValidityProof: 8 hashes: 5 live accounts discovered"]
    assert [o.reason for o in merged.observations] == ["no token data came"]


def test_a_check_split_across_shards_merges_into_the_whole_checks_status(contract: Contract,
                                                                         tmp_path: Path) -> None:
    """A shard that owns none of a check's work has it N/A, one whose part examined nothing has it SKIP without
    failing `--fail-on skip`: the merge is the whole check, PASS, partial only where a part skipped with a reason."""
    from csi_conformance.harness.core.model import CheckResult

    def shard(name: str, *checks: CheckResult) -> RunResult:
        return _shard(contract, name, checks=list(checks))

    elsewhere = CheckResult("health.ok", "health", ("4.2-M1",), "ok", other_shards=True)
    whole_here = CheckResult("health.ok", "health", ("4.2-M1",), "ok", runs=1, examined={"answers": 1})
    quiet_part = CheckResult("params.not-found", "params", ("4.1",), "nf", runs=2, other_shards=True)
    done_part = CheckResult("params.not-found", "params", ("4.1",), "nf", runs=3, examined={"answers": 3},
                            other_shards=True)
    keyless_part = CheckResult("limits.page", "limits", ("4.1",), "pages", runs=1, other_shards=True,
                               skipped=["getCompressedMintTokenHolders: no mint discovered"])
    limit_done = CheckResult("limits.page", "limits", ("4.1",), "pages", runs=4, examined={"pages": 4},
                             other_shards=True)
    first = shard("1/2", elsewhere, quiet_part, keyless_part)
    second = shard("2/2", whole_here, done_part, limit_done)
    assert [c.status for c in first.checks] == [Status.NOT_APPLICABLE, Status.SKIP, Status.SKIP]
    assert first.exit_code(Status.SKIP) == 0 and first.verdict(Status.SKIP) == "conformant"
    merged = merge_results([_round_trip(first, tmp_path / "a"), _round_trip(second, tmp_path / "b")])
    by_id = {check.check_id: check for check in merged.checks}
    assert {name: check.status for name, check in by_id.items()} == dict.fromkeys(by_id, Status.PASS)
    assert [name for name, check in by_id.items() if check.partial] == ["limits.page"]
    assert by_id["limits.page"].not_reached == ["getCompressedMintTokenHolders: no mint discovered"]
    assert merged.exit_code(Status.SKIP) == 0
    nothing = merge_results([_round_trip(shard("1/2", quiet_part), tmp_path / "c"),
                             _round_trip(shard("2/2", dataclasses.replace(quiet_part, runs=0)), tmp_path / "d")])
    assert nothing.checks[0].status is Status.SKIP and nothing.exit_code(Status.SKIP) == 3


def test_the_requests_asked_again_of_every_shard_are_kept(contract: Contract, tmp_path: Path) -> None:
    asked = [AskedAgain("getValidityProof", "/", 60.0, 7, "timeout after 60.0 s (no response)", True,
                        "answered HTTP 200 in 12.0 s"),
             AskedAgain("getValidityProof", "/", 60.0, 3, "timeout after 60.0 s (no response)", False,
                        "timeout after 60.0 s (no response), alone too")]
    first, second = _shard(contract, "1/2", asked_again=asked[:1]), _shard(contract, "2/2", asked_again=asked[1:])
    merged = merge_results([_round_trip(first, tmp_path / "a"), _round_trip(second, tmp_path / "b")])
    assert merged.asked_again == asked
