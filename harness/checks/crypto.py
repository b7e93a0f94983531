"""Family `crypto`: hashes and proofs recomputed as the ledger builds them (ledger-facts.md).

Every CompressedAccount in any answer has its hash recomputed from its own fields; token
accounts have their data hash recomputed from their token data; new-address proofs must fold to
their root and bracket the address; validity proofs must name the accounts asked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from harness.core.failures import Skip
from harness.core.registry import answer_check, check
from harness.engine.context import Answer, CheckContext, describe
from ledger_crypto import (
    NonInclusionProof,
    account_hash,
    b58decode,
    b58encode,
    token_data_hash,
    verify_non_inclusion,
)
from ledger_crypto.groth16 import is_valid_compressed_proof

ACCOUNT_FIELDS = ("hash", "owner", "tree", "leafIndex", "lamports")


def _accounts_in(node: Any) -> Iterator[tuple[dict, dict | None]]:
    """(account, its token data or None) for every CompressedAccount anywhere in an answer."""
    if isinstance(node, dict):
        if all(key in node for key in ACCOUNT_FIELDS):
            yield node, None
            return
        if isinstance(node.get("account"), dict):
            token = next((node[k] for k in ("tokenData", "optionalTokenData", "maybeTokenData")
                          if isinstance(node.get(k), dict)), None)
            yield node["account"], token
            return
        for value in node.values():
            yield from _accounts_in(value)
    elif isinstance(node, list):
        for item in node:
            yield from _accounts_in(item)


def recomputed_hash(account: dict) -> bytes:
    """The v1 account hash from the account's own fields; ValueError when a field is malformed."""
    data = account.get("data")
    has_data = isinstance(data, dict)
    return account_hash(
        owner=b58decode(account["owner"], length=32),
        leaf_index=account["leafIndex"],
        tree=b58decode(account["tree"], length=32),
        lamports=account["lamports"],
        address=b58decode(account["address"], length=32) if account.get("address") else None,
        discriminator=data["discriminator"] if has_data else None,
        data_hash=b58decode(data["dataHash"], length=32) if has_data else None,
    )


@answer_check("crypto.account-hash", clauses=("2.3-R2",),
              description="Each account's hash recomputes from its owner, leaf index, tree, lamports, address and data")
def account_hashes(ctx: CheckContext, answer: Answer) -> None:
    verified = ctx.cache.setdefault("verified_hashes", set())
    for account, _ in _accounts_in(answer.result):
        key = repr([account.get(k) for k in (*ACCOUNT_FIELDS, "address", "data")])
        if key in verified:
            continue
        try:
            expected = b58encode(recomputed_hash(account))
        except (KeyError, TypeError, ValueError, OverflowError):
            continue  # a malformed account is schema.result's finding
        if expected != account["hash"]:
            ctx.fail("Account hash does not recompute", expected=f"hash {expected}",
                     received=f"hash {account['hash']} for leaf {account.get('leafIndex')} of {account.get('tree')}",
                     answer=answer)
        verified.add(key)


def _frozen(state: Any) -> bool:
    return state in ("frozen", 1)


@answer_check("crypto.token-data-hash", clauses=("2.5-R1", "2.6-R1"),
              description="A token account's dataHash recomputes from its token data")
def token_hashes(ctx: CheckContext, answer: Answer) -> None:
    for account, token in _accounts_in(answer.result):
        data = account.get("data")
        if token is None or not isinstance(data, dict):
            continue
        try:
            expected = b58encode(token_data_hash(
                mint=b58decode(token["mint"], length=32), owner=b58decode(token["owner"], length=32),
                amount=token["amount"],
                delegate=b58decode(token["delegate"], length=32) if token.get("delegate") else None,
                frozen=_frozen(token.get("state"))))
        except (KeyError, TypeError, ValueError, OverflowError):
            continue
        if expected != data.get("dataHash"):
            ctx.fail("Token data hash does not recompute", expected=f"dataHash {expected}",
                     received=f"dataHash {data.get('dataHash')} for token account {account.get('hash')}",
                     answer=answer)


def _proof_of(item: dict) -> NonInclusionProof:
    def number(key: str) -> int:
        return int.from_bytes(b58decode(item[key], length=32), "big")

    return NonInclusionProof(
        value=number("address"), low_value=number("lowerRangeAddress"), low_next_index=item["nextIndex"],
        low_next_value=number("higherRangeAddress"), low_leaf_index=item["lowElementLeafIndex"],
        path=tuple(b58decode(node, length=32) for node in item["proof"]),
        root=b58decode(item["root"], length=32), root_seq=item["rootSeq"])


@check("crypto.new-address-proof", clauses=("4.2-M16", "2.9-R1"),
       description="New-address proofs fold to their root and bracket the address")
def new_address_proofs(ctx: CheckContext) -> None:
    addresses = [ctx.fresh_pubkey() for _ in range(2)]
    answer = ctx.call("getMultipleNewAddressProofs", addresses)
    items = answer.value
    if not isinstance(items, list) or len(items) != len(addresses):
        ctx.fail("No proof per address", expected=f"{len(addresses)} NewAddressProof items",
                 received=describe(answer), answer=answer)
    for address, item in zip(addresses, items, strict=True):
        try:
            proof = _proof_of(item)
        except (KeyError, TypeError, ValueError):
            continue  # malformed items are schema.result's finding
        if item.get("address") != address or not verify_non_inclusion(proof, height=len(proof.path) or 26):
            ctx.fail("Non-inclusion proof does not verify",
                     expected="low element's leaf folds to root and lowerRange < address < higherRange",
                     received=f"proof for {item.get('address')} (asked {address}) fails", answer=answer)


@check("crypto.address-taken", clauses=("4.2-M16",),
       description="An address that is already taken gets no new-address proof")
def address_taken(ctx: CheckContext) -> None:
    taken = ctx.keys["addresses"][:1]
    if not taken:
        raise Skip("no taken address discovered")
    answer = ctx.call("getMultipleNewAddressProofs", taken)
    if answer.has_result:
        ctx.fail("Proof for a taken address", expected="an error: the address exists",
                 received=describe(answer), answer=answer)


def _as_hash(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if type(value) is int and 0 <= value < 2**256:
        return b58encode(value.to_bytes(32, "big"))
    return None


@check("crypto.validity-proof", clauses=("4.2-M17", "2.10-R1"),
       description="A validity proof's leaves, leaf indices and trees are those of the accounts asked for")
def validity_proof(ctx: CheckContext) -> None:
    accounts = [a for a in ctx.keys.accounts.values()][:2]
    if not accounts:
        raise Skip("no live account discovered")
    answer = ctx.call("getValidityProof", {"hashes": [a["hash"] for a in accounts]})
    value = answer.value
    if not isinstance(value, dict):
        ctx.fail("No validity proof", expected="a ValidityProofWithContext", received=describe(answer),
                 answer=answer)
    leaves = [_as_hash(leaf) for leaf in value.get("leaves") or []]
    expected = [a["hash"] for a in accounts]
    if leaves[: len(expected)] != expected:
        ctx.fail("Proof leaves are not the accounts", expected=repr(expected), received=repr(leaves), answer=answer)
    if (value.get("leafIndices") or [])[: len(accounts)] != [a["leafIndex"] for a in accounts]:
        ctx.fail("Proof leaf indices wrong", expected=repr([a["leafIndex"] for a in accounts]),
                 received=repr(value.get("leafIndices")), answer=answer)
    trees = value.get("merkleTrees")
    if trees is not None and trees[: len(accounts)] != [a["tree"] for a in accounts]:
        ctx.fail("Proof trees wrong", expected=repr([a["tree"] for a in accounts]), received=repr(trees),
                 answer=answer)


@answer_check("crypto.proof-points", clauses=("2.10-R1", "2.10-R2"),
              description="A compressedProof {a, b, c} holds well-formed compressed BN254 curve points")
def proof_points(ctx: CheckContext, answer: Answer) -> None:
    if answer.method != "getValidityProof" or not isinstance(answer.value, dict):
        return
    proof = answer.value.get("compressedProof")
    if not isinstance(proof, dict) or not {"a", "b", "c"} <= set(proof):
        return  # null, or another reading of compressed-proof-shape
    problems = is_valid_compressed_proof(proof)
    if problems:
        ctx.fail("Malformed proof points", expected="a: G1 (32 bytes), b: G2 (64 bytes), c: G1 (32 bytes) on BN254",
                 received="; ".join(problems[:3]), answer=answer)


