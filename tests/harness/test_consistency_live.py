"""Consistency checks on targets that are right but move, or answer in a reading the contract allows.

Each server here is correct; none of these checks may FAIL it, and each must still examine
something (a check that skipped everything would also have no FAIL).
"""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.model import RunResult, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.harness.report.junit import finding_text

from .broken import Dispatch, Variant, serving

DISCOVERY = {"getIndexerSlot", "getLatestCompressionSignatures", "getTransactionWithCompressionInfo",
             "getCompressedAccountsByOwner", "getCompressedTokenAccountsByOwner"}
"""What discovery asks; the first other request is a check's, after discovery."""


def _run(dispatch: Any, only: list[str]) -> RunResult:
    variant = Variant("correct", "consistency", only[0], dispatch=dispatch)
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(Target(stack.enter_context(serving(variant))))
        return run(target, RunFacts(profile=PROFILES["spec"]), RunConfig(only=only))


class _Moving:
    """A correct indexer that consumes some accounts right after discovery: every method then
    agrees that they are gone (lookups null, balances 0, lists and sums without them)."""

    def __init__(self) -> None:
        self.moved = False
        self.gone: dict[str, dict] = {}  # hash -> the account, or token account item

    def __call__(self, real: Dispatch, method: str, params: Any) -> Any:
        if not self.moved and method not in DISCOVERY:
            self.moved = True
            self._consume(real)
        return self._answer(real, method, params) if self.moved else real(method, params)

    def _consume(self, real: Dispatch) -> None:
        """Every other live account the ledger's transactions opened."""
        live = []
        for item in real("getLatestCompressionSignatures", {"limit": 1000})["value"]["items"]:
            info = real("getTransactionWithCompressionInfo", {"signature": item["signature"]}) or {}
            for entry in info.get("compressionInfo", {}).get("openedAccounts", []):
                if real("getCompressedAccount", {"hash": entry["account"]["hash"]})["value"] is not None:
                    live.append({"account": entry["account"], "tokenData": entry.get("optionalTokenData")})
        self.gone = {item["account"]["hash"]: item for item in live[::2]}

    def _answer(self, real: Dispatch, method: str, params: Any) -> Any:
        result = copy.deepcopy(real(method, params))
        if not isinstance(params, dict):
            return result
        gone_addresses = {v["account"]["address"] for v in self.gone.values() if v["account"].get("address")}
        if params.get("hash") in self.gone or params.get("address") in gone_addresses:
            return {**result, "value": self._nothing(method)}
        value = result.get("value") if isinstance(result, dict) else None
        if isinstance(value, dict) and isinstance(value.get("items"), list):
            value["items"] = [i for i in value["items"] if _hash(i) not in self.gone]
        if method == "getCompressedBalanceByOwner":
            result["value"] -= sum(v["account"]["lamports"] for v in self.gone.values()
                                   if v["account"]["owner"] == params["owner"])
        if method == "getCompressedTokenBalancesByOwner":
            for balance in value["token_balances"]:
                balance["balance"] -= sum(v["tokenData"]["amount"] for v in self.gone.values() if v["tokenData"]
                                          and v["tokenData"]["owner"] == params["owner"]
                                          and v["tokenData"]["mint"] == balance["mint"])
        return result

    @staticmethod
    def _nothing(method: str) -> Any:
        return {"getCompressedAccount": None, "getCompressedTokenAccountBalance": {"amount": 0}}.get(method, 0)


def _hash(item: Any) -> Any:
    return item["account"]["hash"] if "account" in item else item.get("hash")


BALANCE_CHECKS = ["consistency.account-balance", "consistency.token-account-balance", "consistency.hash-address",
                  "consistency.balance-by-owner", "consistency.token-balances", "consistency.delegate"]


def test_accounts_consumed_after_discovery_are_not_failed() -> None:
    moving = _Moving()
    result = _run(moving, BALANCE_CHECKS)
    assert moving.moved and moving.gone, "the server never moved: the test would prove nothing"
    by_id = {check.check_id: check for check in result.checks}
    fails = [(f.check_id, f.title, finding_text(f)[:160]) for f in result.findings if f.status is Status.FAIL]
    assert fails == []
    assert {check_id: by_id[check_id].status for check_id in BALANCE_CHECKS} == dict.fromkeys(BALANCE_CHECKS,
                                                                                                 Status.PASS)
    assert any("consumed since discovery" in text for check in result.checks for text in check.not_reached)


def _context_null(real: Dispatch, method: str, params: Any) -> Any:
    """The `context` reading of transaction-context: `{context, value}`, value null when there is no info."""
    result = real(method, params)
    if method == "getTransactionWithCompressionInfo":
        return {"context": {"slot": real("getIndexerSlot", None)}, "value": result}
    return result


def test_null_info_in_the_context_reading_passes() -> None:
    result = _run(_context_null, ["consistency.non-compression-transaction"])
    check = result.checks[0]
    assert (check.status, check.findings, check.examined) == (Status.PASS, [], {"transactions": 2})
