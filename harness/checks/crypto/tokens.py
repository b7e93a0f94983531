"""Family `crypto`, token accounts: a token account's data hash and data bytes judged by the token program's rules.

A token account's `dataHash` recomputes by one of the rules the token program applies to its version and tree
(`harness.checks.crypto.token_hashes`: v1, v2 with the amount big-endian, SHA-256 of its bytes), and a classic token
account's data bytes read back as the `tokenData` served.
"""

from __future__ import annotations

from csi_conformance.harness.checks.crypto.checks import TOKEN_PROGRAM, accounts_in
from csi_conformance.harness.checks.crypto.token_hashes import TokenHashes, account_tree_batched, token_hashes
from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.failures import CheckFailure, Mismatch
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.registry import answer_check
from csi_conformance.harness.judging.pages import partly
from csi_conformance.harness.verify.values import decoded_token, token_bytes_problems
from csi_conformance.ledger_crypto import TOKEN_DISCRIMINATOR

__all__ = ["token_bytes", "token_hashes_check"]


def _sliced(answer: Answer) -> bool:
    return isinstance(answer.params, dict) and answer.params.get("dataSlice") is not None


def _classic_token(account: dict) -> bool:
    """Whether a token account has the classic layout (discriminator 2): borsh TokenData, Poseidon data hash.
    The newer token program's accounts (discriminators 3·2^56 and 4·2^56) may carry extensions in a layout of
    their own: the bytes check leaves them alone (their data hash is judged by every version's rule)."""
    data = account.get("data")
    return isinstance(data, dict) and data.get("discriminator") == TOKEN_DISCRIMINATOR


def _token_fields(account: dict, token: dict | None, answer: Answer) -> dict | None:
    """The token data a token account's data hash is built from: its `tokenData`, or else (an account
    listed without it) its own data bytes when they are whole and read as TokenData; None for other accounts."""
    if token is not None:
        return token
    if account.get("owner") != TOKEN_PROGRAM or _sliced(answer):
        return None
    return decoded_token(account["data"].get("data"))


def _expected_token_hashes(ctx: CheckContext, account: dict, token: dict | None, answer: Answer) -> TokenHashes | None:
    """The data hashes the token program gives this account, by each rule its discriminator and tree allow;
    None for an account that is no token account (or whose hash no rule can be worked out for)."""
    data = account["data"]
    if token is None and account.get("owner") != TOKEN_PROGRAM:
        return None
    whole = None if _sliced(answer) or not isinstance(data.get("data"), str) else data["data"]
    batched = account_tree_batched(account, ctx.facts.batched_trees, frozenset(ctx.keys.get("batched_trees")))
    found = token_hashes(data.get("discriminator"), _token_fields(account, token, answer), whole, batched)
    return found if found is not None and found.expected else None


@answer_check("crypto.token-data-hash", clauses=("ledger-H2",), basis=Basis.LEDGER, carries="TokenData",
              description="A token account's dataHash recomputes from its token data by a rule the token program "
                          "applies to its version and tree (v1, v2 amount big-endian, SHA-256 of its bytes)")
def token_hashes_check(ctx: CheckContext, answer: Answer) -> None:
    """FAILs only a dataHash that no rule of the account's token version and tree kind gives
    (`harness.checks.crypto.token_hashes`); an account whose rules cannot be worked out is left to the schema checks."""
    for account, token, where in accounts_in(answer):
        if not isinstance(account.get("data"), dict):
            continue
        found = _expected_token_hashes(ctx, account, token, answer)
        if found is None:
            continue  # no token account, or malformed: schema.result and crypto.value-ranges report it
        ctx.examined("token accounts")
        served = account["data"].get("dataHash")
        if found.matches(served):
            continue
        if found.unknown is not None:
            partly(ctx, f"token account {account.get('hash')}: its dataHash matches no rule worked out, and "
                        f"{found.unknown}")
            continue
        rules = list(found.expected)
        expected = found.expected[rules[0]] if len(rules) == 1 else list(found.expected.values())
        ctx.defer(Mismatch("Token data hash does not recompute", expected=expected, received=served, answer=answer,
                           method=answer.method, path=f"{where}.data.dataHash",
                           detail={"rules tried": rules}))


@answer_check("crypto.token-data-bytes", clauses=("ledger-H2",), basis=Basis.LEDGER, carries="TokenData",
              description="A token account's data bytes are borsh TokenData equal to its tokenData")
def token_bytes(ctx: CheckContext, answer: Answer) -> None:
    if _sliced(answer):
        return
    for account, token, where in accounts_in(answer):
        found = token_bytes_problems(account, token) if token is not None and _classic_token(account) else None
        if found is None:
            continue
        ctx.examined("token accounts")
        if found.unreadable:
            ctx.defer(CheckFailure("Token data bytes are not TokenData", expected="account.data.data decodes as "
                                   "borsh TokenData", received=found.unreadable, answer=answer,
                                   method=answer.method, path=f"{where}.data.data"))
        elif not found.agrees:
            ctx.defer(Mismatch("Token data bytes disagree with tokenData", expected=found.held, received=found.given,
                               answer=answer, method=answer.method, path=f"{where}.data.data"))
