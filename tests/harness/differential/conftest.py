"""Fixtures of the differential tests: a reference over the default scenario, and cases built on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from csi_conformance.cases.model import Case
from csi_conformance.harness.connection import Target
from csi_conformance.reference_server.wiring import bundled_reference


@pytest.fixture(scope="package")
def reference_url() -> Iterator[str]:
    with bundled_reference("default") as url:
        yield url


def _value(target: Target, method: str, params: object) -> object:
    return target.call(method, params).json["result"]["value"]


@pytest.fixture(scope="package")
def keys(reference_url: str) -> dict[str, str]:
    """An owner with several pages of accounts, one of its hashes, an address, a token owner and the
    reference's cursor to the second page: found through the API, so no test restates the scenario."""
    with Target(reference_url) as reference:
        owners, token_owners, addresses = set(), set(), set()
        for item in _value(reference, "getLatestCompressionSignatures", {"limit": 50})["items"]:
            info = reference.call("getTransactionWithCompressionInfo", {"signature": item["signature"]}).json
            for opened in info["result"]["compressionInfo"]["openedAccounts"]:
                owners.add(opened["account"]["owner"])
                if opened["account"]["address"]:
                    addresses.add(opened["account"]["address"])
                if opened["optionalTokenData"]:
                    token_owners.add(opened["optionalTokenData"]["owner"])
        lists = {owner: _value(reference, "getCompressedAccountsByOwner", {"owner": owner})["items"]
                 for owner in sorted(owners)}
        owner = max(lists, key=lambda o: len(lists[o]))
        cursor = _value(reference, "getCompressedAccountsByOwner", {"owner": owner, "limit": 3})["cursor"]
    assert len(lists[owner]) > 6 and cursor and addresses and token_owners
    return {"owner": owner, "hash": lists[owner][0]["hash"], "address": sorted(addresses)[0],
            "token_owner": sorted(token_owners)[0], "cursor": cursor}


def case(method: str, name: str, params: object, mode: str = "exact", clauses: tuple[str, ...] = ("4.2-M1",),
         ambiguity: str | None = None) -> Case:
    request = {"jsonrpc": "2.0", "id": f"{method}/{name}", "method": method, "params": params}
    return Case(f"{method}/{name}", method, Path(f"{method}/{name}.io"), name, clauses, mode, "default", request,
                ambiguity=ambiguity)


@pytest.fixture(scope="package")
def built_cases(keys: dict[str, str]) -> list[Case]:
    """A handful of cases in every mode: values, a second page, an error, an invariant, a schema case."""
    return [
        case("getCompressedAccount", "by-hash", {"hash": keys["hash"]}),
        case("getCompressedBalanceByOwner", "owner", {"owner": keys["owner"]}, clauses=("4.2-M4",)),
        case("getCompressedAccountsByOwner", "page-two", {"owner": keys["owner"], "limit": 3,
                                                          "cursor": keys["cursor"]}, clauses=("4.2-M5", "4.1-R8")),
        case("getCompressedAccount", "both-given", {"address": keys["address"], "hash": keys["hash"]},
             clauses=("7-C1",)),
        case("getCompressedAccount", "neither", {}, mode="invariant:error", clauses=("7-C1",)),
        case("getCompressedTokenAccountsByOwner", "token-owner", {"owner": keys["token_owner"]}, mode="schema",
             clauses=("4.2-M6",), ambiguity="token-state"),
    ]
