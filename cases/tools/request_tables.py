"""The golden cases written method by method: the requests that are not derived from the contract.

Each function adds one method group's cases to a `Builder`; `cases.tools.generate_requests` runs them
after the cases it derives from the contract (limits, pages, error rules, not-found rules).
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from csi_conformance.cases.tools.case_builder import NO_PARAMS, Builder, stale_scenarios
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_crypto import TOKEN_PROGRAM_ID

__all__ = ["TABLES"]


def account_cases(b: Builder) -> None:
    n, m = b.names, "getCompressedAccount"
    b.add(m, "by-hash", {"hash": n.hash("c1")}, ["2.3-R1", "2.4-R1"], "an account with data, by hash")
    b.add(m, "by-hash-tree2", {"hash": n.hash("c4")}, ["2.3-R1"], "an account of the second state tree")
    b.add(m, "by-address", {"address": n.address("c8")}, ["2.3-R1"], "an account with an address, by address")
    b.add(m, "by-address-updated", {"address": n.address("r1")}, ["3.2-R1", "3.2-R2"],
          "an address carried by an update names the new account")
    b.add(m, "by-hash-u64-discriminator", {"hash": n.hash("r2")}, ["2.1-R6", "2.4-R1"],
          "discriminator u64 max, as an exact integer")
    b.add(m, "by-hash-token-account", {"hash": n.hash("t1")}, ["2.3-R1"], "a token account as a CompressedAccount")
    b.add(m, "by-hash-big-lamports", {"hash": n.hash("v2")}, ["2.3-R1"], "lamports 2^63 as an exact integer")
    b.add(m, "optional-null", {"hash": n.hash("c6")}, ["2.3-R1"], "an account without address and data",
          mode="schema", ambiguity="optional-null")
    b.add(m, "seq-of-a-v1-account", {"hash": n.hash("c4")}, ["2.3-R1"],
          "seq of an account of a v1 tree: an integer under every reading (a batched tree's may be null)",
          mode="schema", ambiguity="batched-seq")
    b.add(m, "not-found-hash", {"hash": b58encode(bytes(range(1, 33)))}, ["7-N1"], "an unknown hash: a null value",
          mode="invariant:null-value")
    b.add(m, "not-found-address", {"address": n.fresh_addresses(1)[0]}, ["7-N1"], "an unknown address: a null value")
    b.add(m, "closed-by-hash", {"hash": n.hash("c2")}, ["7-N1", "3.2-R2"], "a consumed account is not found",
          mode="invariant:null-value")
    b.add(m, "closed-by-address", {"address": n.address("c3")}, ["7-N1", "3.2-R2"],
          "the address of a consumed account finds nothing", mode="invariant:null-value")
    b.error(m, "error-exactly-one-of-both-null", {"address": None, "hash": None}, ["7-C1", "4.2-N1"],
            "both members null is neither given")
    b.error(m, "error-exactly-one-of-case", {"Hash": n.hash("c1")}, ["7-C1", "4.1-R9"],
            "member names are case-sensitive: `Hash` names no member, so neither is given")
    b.error(m, "error-hash-not-base58", {"hash": "0OIl" + n.hash("c1")[4:]}, ["2.1-R2"], "a hash that is not base58")
    b.error(m, "error-hash-16-bytes", {"hash": b58encode(bytes(range(1, 17)))}, ["2.1-R2"],
            "a hash of 16 bytes is not a Hash", ambiguity="error-codes")
    b.add(m, "request-id-integer", {"hash": n.hash("c1")}, ["4.1-R4", "4.1-R6"], "an integer id is echoed as given",
          mode="schema", ambiguity="request-id", envelope={"id": 7})


def balance_cases(b: Builder) -> None:
    n = b.names
    for m in ("getCompressedAccountBalance", "getCompressedBalance"):
        b.add(m, "by-hash", {"hash": n.hash("c1")}, ["4.1-R7"], "lamports of an account, by hash")
        b.add(m, "by-address", {"address": n.address("c8")}, ["4.1-R7"], "lamports of an account, by address")
        b.add(m, "big-lamports", {"hash": n.hash("v1")}, ["2.1-R3"], "2^53 + 1 lamports, exact")
        b.add(m, "u64-lamports", {"address": None, "hash": n.hash("v2")}, ["2.1-R3"],
              "2^63 lamports, exact; a null address is absent")
        b.add(m, "closed-account", {"hash": n.hash("c2")}, ["3.2-R2"],
              "a consumed account: 0 as observed, the spec is silent", mode="schema")
        b.add(m, "unknown-account", {"address": n.fresh_addresses(1)[0]}, ["4.1-R7"],
              "an unknown account: 0 as observed, the spec is silent", mode="schema")
        b.add(m, "wrapper", {"hash": n.hash("c4")}, ["4.1-R6", "4.1-R7"],
              "inside the JSON-RPC wrapper or the bare {context, value}", mode="schema", ambiguity="balance-wrapper")


def owner_balance_cases(b: Builder) -> None:
    n, m = b.names, "getCompressedBalanceByOwner"
    b.add(m, "counter", {"owner": n.key("counter")}, ["4.1-R7"], "the sum over an owner's live accounts")
    b.add(m, "vault-big", {"owner": n.key("vault")}, ["2.1-R3"], "a sum above 2^63, exact")
    b.add(m, "registry", {"owner": n.key("registry")}, [], "an owner whose account was updated: the live one counts")
    b.add(m, "token-program", {"owner": b58encode(TOKEN_PROGRAM_ID)}, [], "the token program as owner")
    b.add(m, "idle", {"owner": n.key("idle")}, [], "an owner without accounts: 0")
    b.error(m, "error-missing-owner", {}, ["4.1-R5"], "params without `owner` are refused")
    b.error(m, "error-owner-not-base58", {"owner": "owner"}, ["2.1-R1"], "an owner that is not base58")


def accounts_by_owner_cases(b: Builder) -> None:
    n, m = b.names, "getCompressedAccountsByOwner"
    owner = {"owner": n.key("counter")}
    one, two = b58encode(bytes([0, 1])), b58encode(bytes([2]))
    listed = b.add(m, "counter", owner, ["2.3-R1", "4.1-R8"],
                   "every live account of an owner, hash ascending (observed)")
    b.add(m, "registry", {"owner": n.key("registry")}, ["2.1-R6"], "discriminators above 2^53 in a list")
    b.add(m, "vault", {"owner": n.key("vault")}, ["2.1-R3"], "lamports above 2^53 in a list")
    b.add(m, "limit-0", {**owner, "limit": 0}, ["4.2-N3", "8-S2"], "limit 0: the spec is silent", mode="schema")
    b.error(m, "error-limit-negative", {**owner, "limit": -1}, ["2.1-R3"], "a negative limit is refused")
    for stem, window, what in (("window", (1, 2), "two bytes from offset 1"), ("zero-length", (0, 0), "no byte"),
                               ("past-end", (100, 4), "past the data: empty"), ("long", (2, 100), "to the end")):
        b.add(m, f"data-slice-{stem}", {**owner, "dataSlice": {"offset": window[0], "length": window[1]}},
              ["4.2-N2", "2.4-R2"], f"dataSlice cuts data.data only: {what}")
    memcmp = {"memcmp": {"offset": 0, "bytes": one}}
    b.add(m, "filter-memcmp", {**owner, "filters": [memcmp]}, ["2.11-R4"], "memcmp at offset 0 (observed shape)",
          mode="schema", ambiguity="filters-shape")
    b.add(m, "filter-memcmp-exact", {**owner, "filters": [memcmp]}, ["2.11-R4"],
          "memcmp keeps the accounts whose data starts with the bytes")
    b.add(m, "filter-memcmp-offset", {**owner, "filters": [{"memcmp": {"offset": 1, "bytes": two}}]}, ["2.11-R4"],
          "memcmp at offset 1")
    b.add(m, "filter-memcmp-and", {**owner, "filters": [memcmp, {"memcmp": {"offset": 2, "bytes": two}}]},
          ["2.11-R4"], "two memcmp filters are ANDed")
    b.add(m, "filter-memcmp-none", {**owner, "filters": [{"memcmp": {"offset": 0, "bytes": two + two}}]},
          ["2.11-R4"], "no account matches: an empty page")
    b.add(m, "filter-and-slice", {**owner, "filters": [memcmp], "dataSlice": {"offset": 0, "length": 1}},
          ["2.11-R4", "4.2-N2"], "a filter reads the whole data, the slice cuts the answer")
    top = b.contract.method(m).observed["max_filters"]
    b.add(m, f"filters-{top}", {**owner, "filters": [memcmp] * top}, ["2.11-R4"],
          f"{top} filters, the observed maximum")
    b.error(m, f"error-filters-{top + 1}", {**owner, "filters": [memcmp] * (top + 1)}, ["2.11-R4"],
            f"{top + 1} filters, past the observed maximum")
    b.add(m, "empty-scenario", owner, ["7-N3"], "an indexer that saw nothing: no accounts", scenario="empty",
          mode="invariant:empty-items")
    first = next(raw[:1] for raw in (base64.b64decode((a["data"] or {}).get("data") or "")
                                     for a in b.value(listed)["items"]) if raw)
    b.add(m, "filter-memcmp-paged", {**owner, "filters": [{"memcmp": {"offset": 0, "bytes": b58encode(first)}}],
                                     "limit": 1}, ["2.11-R4", "4.1-R8"],
          "a filter on the first listed account's first byte holds on every page: the accounts after it are left out")
    b.add(m, "data-slice-paged", {**owner, "dataSlice": {"offset": 1, "length": 2}, "limit": 2}, ["4.2-N2", "4.1-R8"],
          "dataSlice holds on every page, two accounts a page")


def token_cases(b: Builder) -> None:
    n = b.names
    m = "getCompressedTokenAccountsByOwner"
    b.add(m, "alice", {"owner": n.key("alice")}, ["2.6-R1", "2.5-R1"], "token accounts with delegates, mint then hash")
    b.add(m, "bob-u64-frozen", {"owner": n.key("bob")}, ["2.1-R6"], "amount u64 max, a frozen account")
    b.add(m, "token-state", {"owner": n.key("bob")}, ["3.1-R1", "2.5-R1"], "a frozen account's state",
          mode="schema", ambiguity="token-state")
    b.add(m, "tlv", {"owner": n.key("carol")}, ["2.5-R1", "2.11-R5"], "an account with tlv extension data",
          mode="schema", ambiguity="tlv-format")
    b.add(m, "mint", {"owner": n.key("alice"), "mint": n.key("usdc")}, ["4.2-N4"], "mint restricts to one token")
    b.add(m, "mint-closed", {"owner": n.key("alice"), "mint": n.key("bonk")}, ["4.2-N4", "3.2-R2"],
          "the only account of that mint was consumed: an empty page")
    b.add(m, "mint-paged", {"owner": n.key("carol"), "mint": n.key("bonk"), "limit": 1}, ["4.2-N4", "4.1-R8"],
          "mint holds on every page, one account a page (carol's other mint sorts after)")
    b.error(m, "error-mint-not-base58", {"owner": n.key("alice"), "mint": "mint"}, ["2.1-R1"],
            "a mint that is not base58")
    m = "getCompressedTokenAccountsByDelegate"
    b.add(m, "dave", {"delegate": n.key("dave")}, ["4.2-N5", "2.6-R1"], "live accounts delegated to dave")
    b.add(m, "erin", {"delegate": n.key("erin")}, ["4.2-N5"], "one account delegated to erin")
    b.add(m, "mint", {"delegate": n.key("dave"), "mint": n.key("bonk")}, ["4.2-N4"], "mint restricts to one token")
    b.add(m, "mint-paged", {"delegate": n.key("dave"), "mint": n.key("bonk"), "limit": 1}, ["4.2-N4", "4.1-R8"],
          "mint holds on every page, one account a page (dave's other mint sorts after)")
    b.add(m, "owner-is-not-delegate", {"delegate": n.key("alice")}, ["4.2-N5"],
          "an owner is not a delegate of its own accounts: an empty page")
    m = "getCompressedTokenBalancesByOwner"
    b.add(m, "alice", {"owner": n.key("alice")}, ["2.7-R1", "2.1-R6"], "a sum above 2^53 per mint")
    b.add(m, "bob", {"owner": n.key("bob")}, ["2.7-R1"], "u64 max, and a consumed account left out")
    b.add(m, "carol", {"owner": n.key("carol")}, ["2.7-R1"], "two mints, mint ascending (observed)")
    b.add(m, "mint", {"owner": n.key("alice"), "mint": n.key("usdc")}, ["4.2-N4"], "mint restricts to one token")
    b.add(m, "mint-closed", {"owner": n.key("alice"), "mint": n.key("bonk")}, ["4.2-N4", "3.2-R2"],
          "the only account of that mint was consumed: no balance")
    b.add(m, "mint-paged", {"owner": n.key("carol"), "mint": n.key("bonk"), "limit": 1}, ["4.2-N4", "4.1-R8"],
          "mint holds on the page after its balance: the next page is empty")
    m = "getCompressedTokenAccountBalance"
    b.add(m, "by-hash", {"hash": n.hash("t1")}, ["2.1-R6"], "an amount of 2^53 + 1, exact")
    b.add(m, "u64-max", {"hash": n.hash("t4")}, ["2.1-R6"], "an amount of u64 max, exact")
    b.add(m, "tlv-account", {"hash": n.hash("t5")}, [], "an account with tlv")
    b.add(m, "closed", {"hash": n.hash("t3")}, ["3.2-R2"], "a consumed account: 0 as observed", mode="schema")
    b.add(m, "not-a-token-account", {"hash": n.hash("c1")}, [], "a program account: 0 as observed", mode="schema")
    b.add(m, "unknown", {"address": n.fresh_addresses(1)[0]}, [], "an unknown account: 0 as observed", mode="schema")


def transaction_cases(b: Builder) -> None:
    n, m = b.names, "getTransactionWithCompressionInfo"
    b.add(m, "opened", {"signature": n.signature(0)}, ["2.11-R1", "3.2-R1"], "a transaction opening four accounts")
    b.add(m, "closed-and-opened", {"signature": n.signature(5)}, ["2.11-R1", "2.11-R2", "3.2-R2"],
          "a transaction consuming a program and a token account")
    b.add(m, "update", {"signature": n.signature(9)}, ["3.2-R1", "3.2-R2"], "an update carrying an address")
    b.add(m, "token-data-key", {"signature": n.signature(4)}, ["2.11-R2"], "token data of opened token accounts",
          mode="schema", ambiguity="token-data-key")
    b.add(m, "compression-info-key", {"signature": n.signature(3)}, ["4.2-M10"], "the compression info member's name",
          mode="schema", ambiguity="compression-info-key")
    b.add(m, "context", {"signature": n.signature(1)}, ["1-R1"], "a bare object or a {context, value} result",
          mode="schema", ambiguity="transaction-context")
    for stem, index in (("failed", 2), ("failed-with-close", 8)):
        b.add(m, stem, {"signature": n.signature(index)}, ["7-N2", "4.2-N7"],
              "a failed transaction involves no compressed account: null", mode="invariant:null-answer")
    b.add(m, "unknown", {"signature": b58encode(bytes(range(64)))}, ["7-N2"], "an unknown signature: null",
          mode="invariant:null-answer")
    b.error(m, "error-missing-signature", {}, ["4.1-R5"], "params without `signature` are refused")
    b.error(m, "error-signature-32-bytes", {"signature": n.hash("c1")}, ["2.1-R5"], "32 bytes are not a Signature")


def signature_cases(b: Builder) -> None:
    n = b.names
    m = "getCompressionSignaturesForAddress"
    b.add(m, "updated-address", {"address": n.address("r1")}, ["3.2-R1", "2.8-R1"],
          "opened, then carried by an update: both transactions, newest first")
    b.add(m, "closed-address", {"address": n.address("c3")}, ["3.2-R2"], "opened, then consumed")
    b.add(m, "one", {"address": n.address("c8")}, ["2.8-R1"], "one transaction")
    m = "getCompressionSignaturesForOwner"
    for owner in ("counter", "registry", "vault"):
        b.add(m, owner, {"owner": n.key(owner)}, ["2.8-R1"], f"transactions that touched {owner}'s accounts")
    b.add(m, "token-program", {"owner": b58encode(TOKEN_PROGRAM_ID)}, [], "the token program as owner")
    m = "getCompressionSignaturesForTokenOwner"
    for owner in ("alice", "carol"):
        b.add(m, owner, {"owner": n.key(owner)}, ["2.8-R1"], f"transactions that touched {owner}'s token accounts")
    b.add(m, "program-owner", {"owner": n.key("counter")}, [], "a program owner owns no token account: an empty page")
    m = "getLatestCompressionSignatures"
    b.add(m, "all", {}, ["2.8-R1"], "every successful transaction, newest first; failed ones left out")
    m = "getLatestNonVotingSignatures"
    b.add(m, "all", {}, ["2.8-R2"], "every transaction with its error text, failed ones too")
    b.add(m, "error-member", {}, ["2.8-R2"], "`error` null for a success, or absent", mode="schema",
          ambiguity="signature-error")
    b.add(m, "cursor", {"limit": 2}, ["4.1-R8"], "a page without a cursor member, or with one", mode="schema",
          ambiguity="latest-nonvoting-cursor")


def new_address_cases(b: Builder) -> None:
    n, m = b.names, "getMultipleNewAddressProofs"
    top = b.contract.method(m).observed["max_addresses"]
    fresh = n.fresh_addresses(top + 1)
    b.add(m, "one", fresh[:1], ["2.9-R1"], "a non-inclusion proof of a fresh address")
    b.add(m, "two", fresh[:2], ["2.9-R1"], "two proofs, in the order asked")
    b.add(m, "zero", [], [], "no address: the spec is silent", mode="schema")
    b.add(m, f"limit-addresses-{top}", fresh[:top], [], f"{top} addresses, the observed maximum")
    b.error(m, f"limit-addresses-{top + 1}", fresh, [], f"{top + 1} addresses, past the observed maximum")
    b.add(m, "fresh-tree", fresh[:1], ["2.9-R1"], "an address tree with no address yet", scenario="empty")
    b.error(m, "error-address-exists", [n.address("c8")], [], "a taken address has no non-inclusion proof")
    b.error(m, "error-address-exists-closed", [fresh[0], n.address("c3")], [],
            "an address stays taken after its account is consumed")
    b.error(m, "error-not-an-array", {"addresses": fresh[:1]}, ["4.1-R5"], "params are an array of Pubkey")
    b.error(m, "error-address-not-base58", ["address"], ["2.1-R1"], "an address that is not base58")


def validity_proof_cases(b: Builder) -> None:
    """Success answers are compared exactly: the differential leaves out only `compressedProof` (a real
    prover's bytes are not the reference's offline points); roots, leaves, indices and trees are the
    scenario's. A case tagged with a point keeps mode `schema` (it pins no reading), and its values
    are still compared once both readings are brought to one."""
    n, m = b.names, "getValidityProof"
    method, live, fresh = b.contract.method(m), n.live_hashes(), n.fresh_addresses(4)
    tree = b58encode(n.ledger.address_tree_key)

    def with_trees(count: int) -> list[dict[str, str]]:
        return [{"address": address, "tree": tree} for address in fresh[:count]]

    counts: dict[str, Callable[[int], dict[str, Any]]] = {
        "hashes": lambda count: {"hashes": live[:count]},
        "newAddressesWithTrees": lambda count: ({"hashes": live[:1], "newAddressesWithTrees": with_trees(count)}
                                                if count else {"newAddressesWithTrees": []}),
    }
    for limit in method.limits:
        inside, outside = limit.edges()
        for count in inside:
            b.add(m, f"limit-{limit.param}-{count}", counts[limit.param](count), list(limit.clauses),
                  f"{count} {limit.param}: an allowed count")
        for count in outside:
            b.error(m, f"limit-{limit.param}-{count}", counts[limit.param](count), [*limit.clauses, "7-C2"],
                    f"{count} {limit.param}: a count outside the allowed ones")
    most = method.observed["combined_max"]
    b.add(m, "combined-max", {"hashes": live[:most["hashes"]], "newAddressesWithTrees": with_trees(most[
        "newAddressesWithTrees"])}, ["8-L1", "8-L2"], "the largest combined proof (observed)")
    b.error(m, "error-combined-too-many", {"hashes": live[:8], "newAddressesWithTrees": with_trees(1)},
            ["8-L1", "8-L2"], "8 hashes with an address: no combined circuit (observed)")
    b.error(m, "error-account-unknown", {"hashes": [b58encode(bytes(range(1, 33)))]}, ["4.3-R3", "7-C2"],
            "an unknown account has no proof")
    b.error(m, "error-account-consumed", {"hashes": [n.hash("c2")]}, ["4.3-R3", "4.3-R4", "3.2-R3", "7-C2"],
            "a consumed account has no proof")
    b.error(m, "error-account-consumed-among-live", {"hashes": [live[0], n.hash("c3")]}, ["4.3-R3", "7-C2"],
            "one consumed account fails the whole proof")
    b.error(m, "error-mutually-exclusive", {"hashes": live[:1], "newAddresses": fresh[:1],
                                            "newAddressesWithTrees": with_trees(1)}, ["9-R3"],
            "the deprecated newAddresses with newAddressesWithTrees (observed)")
    b.error(m, "error-address-exists", {"hashes": live[:1], "newAddressesWithTrees": [
        {"address": n.address("c8"), "tree": tree}]}, ["4.3-P2"], "a taken address cannot be created")
    b.error(m, "error-address-tree-unknown", {"hashes": live[:1], "newAddressesWithTrees": [
        {"address": fresh[0], "tree": n.key("tree1")}]}, ["4.3-P2"], "a state tree is not an address tree")
    b.error(m, "error-hash-not-base58", {"hashes": ["hash"]}, ["4.3-P1", "2.1-R2"], "a hash that is not base58",
            ambiguity="error-http-status")
    b.add(m, "deprecated-new-addresses", {"hashes": live[:1], "newAddresses": fresh[:1]}, ["9-R3", "4.3-P3"],
          "the deprecated newAddresses still works (default address tree)")
    b.add(m, "addresses-only", {"newAddressesWithTrees": with_trees(1)}, ["4.3-P1"],
          "no hashes, only a new address", mode="schema", ambiguity="validity-hashes-required")
    b.add(m, "empty-address-list", {"hashes": live[:1], "newAddressesWithTrees": []}, ["4.3-R2"],
          "an empty newAddressesWithTrees beside hashes: read as absent, or refused as a count of 0", mode="schema",
          ambiguity="empty-address-list")
    b.add(m, "new-address-element", {"hashes": live[:1], "newAddressesWithTrees": with_trees(2)}, ["4.3-P2"],
          "newAddressesWithTrees elements as {address, tree}", mode="schema", ambiguity="new-address-element")
    b.add(m, "proof-fields", {"hashes": [n.hash("c1"), n.hash("c4")]}, ["2.10-R1"],
          "two state trees: wire fields or §2.10's", mode="schema", ambiguity="validity-proof-fields")
    b.add(m, "bn-values", {"hashes": [n.hash("t1")]}, ["2.1-R6", "2.10-R1"], "roots and leaves as BN",
          mode="schema", ambiguity="bn-values")
    b.add(m, "compressed-proof-shape", {"hashes": [n.hash("c5")]}, ["2.10-R2"], "the inside of compressedProof",
          mode="schema", ambiguity="compressed-proof-shape")


def indexer_cases(b: Builder) -> None:
    m = "getIndexerHealth"
    b.add(m, "ok", NO_PARAMS, ["4.2-N6"], "a healthy indexer: ok (tip 4 slots ahead)")
    b.add(m, "empty-scenario", NO_PARAMS, ["4.2-N6"], "an indexer that saw nothing is healthy", scenario="empty")
    b.add(m, "params-empty-array", [], ["4.1-R5"], "an empty params array reads as none")
    for name in stale_scenarios():
        b.error(m, f"error-stale-{name}", NO_PARAMS, ["7-C3", "4.2-N6"], "the tip is too far ahead", scenario=name)
    m = "getIndexerSlot"
    b.add(m, "slot", NO_PARAMS, [], "the last indexed slot, a bare integer")
    b.add(m, "empty-scenario", NO_PARAMS, [], "an indexer that saw nothing", scenario="empty")
    b.add(m, "params-empty-object", {}, ["4.1-R5"], "an empty params object reads as none")
    b.error(m, "error-jsonrpc-1-0", NO_PARAMS, ["9-R1", "4.1-R4"], "jsonrpc must be 2.0",
            envelope={"jsonrpc": "1.0"})
    b.error(m, "error-jsonrpc-number", NO_PARAMS, ["9-R1"], "jsonrpc must be the string 2.0",
            envelope={"jsonrpc": 2.0})
    b.error(m, "error-jsonrpc-null", NO_PARAMS, ["9-R1", "4.1-R4"], "jsonrpc must not be null",
            envelope={"jsonrpc": None})


TABLES = (account_cases, balance_cases, owner_balance_cases, accounts_by_owner_cases, token_cases, transaction_cases,
          signature_cases, new_address_cases, validity_proof_cases, indexer_cases)
"""Every method group, in the order the cases are generated."""
