"""`--solana-rpc URL`: the roots and root indices the app is served, looked up in the chain's on-chain root histories.

As `onchain.root-history` judges the roots `csi run --chain` asks for (its clauses, titles and reading of a
root history: `checks.onchain.roots`), here each root the traffic carries is judged: a validity proof's
`roots[i]` at `rootIndices[i]`, a new-address proof's `root` at `rootSeq`, an account proof's `root` at
`rootSeq` (modulo the history's length). The tree is the one the answer names; its account is read through the
Solana node's `getAccountInfo` and its bytes through the chain's judging face (`read_root_history`). A
history is kept per tree and read again when a served root is not where the kept one says (the chain moves
on). A tree the node holds no tree account for is a finding; a node that does not answer is not the
upstream's fault: the exchange is skipped, saying why (never the node's URL, which may carry a key).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import httpx
from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.harness.checks.onchain.roots import CLAUSES, Served, address_roots, root_problems, validity_roots
from csi_conformance.harness.context import Answer, CheckContext
from csi_conformance.harness.core.failures import CheckFailure, Mismatch, Skip
from csi_conformance.harness.core.paths import result_value
from csi_conformance.harness.verify.validity import Problem

if TYPE_CHECKING:
    from csi_conformance.ledger_chain.judging import RootHistory

__all__ = ["ROOTS", "NodeHistories", "judge_roots"]

ROOTS = "onchain.root-history"
VALIDITY = ("getValidityProof",)
ADDRESSES = ("getMultipleNewAddressProofs", "getMultipleNewAddressProofsV2")
ACCOUNT = ("getCompressedAccountProof",)
ACCOUNTS = ("getMultipleCompressedAccountProofs",)


class NotATree(Exception):
    """The node holds no tree account at the key an answer names."""


class NodeHistories:
    """The root histories of the trees answers name, read through a Solana node; `get` as `Histories.get`."""

    def __init__(self, url: str, *, timeout: float = 30.0) -> None:
        self._client = httpx.Client(timeout=httpx.Timeout(timeout), trust_env=False, follow_redirects=False)
        self._url = url
        self._held: dict[str, RootHistory] = {}

    def get(self, tree: str) -> RootHistory:
        if tree not in self._held:
            self._held[tree] = self._read(tree)
        return self._held[tree]

    def forget(self, tree: str) -> None:
        self._held.pop(tree, None)

    def close(self) -> None:
        self._client.close()

    def _read(self, tree: str) -> RootHistory:
        from csi_conformance.ledger_chain.judging import read_root_history  # LiteSVM's import only when asked

        data = self._account_data(tree)
        try:
            return read_root_history(tree, data)
        except ValueError as exc:
            raise NotATree(f"the account is no tree account: {exc}") from None

    def _account_data(self, tree: str) -> bytes:
        body = dumps({"jsonrpc": "2.0", "id": 1, "method": "getAccountInfo",
                      "params": [tree, {"encoding": "base64", "commitment": "confirmed"}]})
        try:
            answer = self._client.post(self._url, content=body, headers={"content-type": "application/json"})
            value = loads(answer.content)
        except (httpx.HTTPError, ValueError) as exc:
            raise Skip(f"the Solana node did not answer getAccountInfo ({type(exc).__name__}): roots not "
                       "judged") from None
        result = value.get("result") if isinstance(value, dict) else None
        if not isinstance(result, dict):
            raise Skip(f"the Solana node answered getAccountInfo with no result (HTTP {answer.status_code}): roots "
                       "not judged")
        account = result.get("value")
        if account is None:
            raise NotATree("the chain holds no account at this key")
        try:
            return base64.b64decode(account["data"][0], validate=True)
        except (KeyError, IndexError, TypeError, binascii.Error):
            raise Skip("the Solana node's getAccountInfo answer holds no base64 data: roots not judged") from None


def judge_roots(ctx: CheckContext, answer: Answer, histories: NodeHistories) -> None:
    """Each root one answer serves, against its tree's on-chain history (the answers `onchain.root-history`
    judges when a run asks for them)."""
    if not answer.has_result:
        return
    served = _served(answer)
    if isinstance(served, Problem):
        ctx.examined("answers", method=answer.method)
        ctx.defer(_failure(served, answer))
        return
    for root in served:
        try:
            problems = _problems(histories, root)
        except NotATree as exc:
            ctx.defer(CheckFailure("Tree not on-chain", expected="the key of a state or address tree account",
                                   received={"tree": root.tree, "on-chain": str(exc)}, answer=answer,
                                   method=answer.method, clauses=CLAUSES, path=root.tree_path))
            continue
        history = histories.get(root.tree)
        facts = {"tree": root.tree, "root index served": root.index, "on-chain sequence number":
                 history.sequence_number, "root history length": len(history.roots)}
        for problem in problems:
            ctx.defer(_failure(problem, answer, facts))
        ctx.examined("roots", method=answer.method)


def _problems(histories: NodeHistories, root: Served) -> list[Problem]:
    """What is wrong with one root; judged again on a fresh read of the tree before anything is said."""
    if not root_problems(histories, root):  # type: ignore[arg-type]  (a Histories in all it is asked)
        return []
    histories.forget(root.tree)
    return root_problems(histories, root)  # type: ignore[arg-type]


def _served(answer: Answer) -> list[Served] | Problem:
    """The roots an answer serves, with the trees it names (an element without a named tree is not judged)."""
    value, method = answer.value, answer.method
    if method in VALIDITY and isinstance(value, dict):
        trees = _named_trees(value)
        if trees is None:
            return []
        served = validity_roots(value, tuple(tree or "" for tree in trees))
        by_index = value.get("proveByIndices") if isinstance(value.get("proveByIndices"), list) else []
        return served if isinstance(served, Problem) else [
            root for i, root in enumerate(served) if root.tree and not (i < len(by_index) and by_index[i] is True)]
    if method in ADDRESSES:
        served = address_roots(value, len(value) if isinstance(value, list) else 1, "")
        return served if isinstance(served, Problem) else [
            replace(root, tree=root.named_tree, named_tree=None) for root in served if _key(root.named_tree)]
    if method in ACCOUNT:
        return _account_roots([value], single=True)
    if method in ACCOUNTS and isinstance(value, list):
        return _account_roots(value, single=False)
    return []


def _named_trees(value: dict[str, Any]) -> list[str | None] | None:
    named = value.get("merkleTrees")
    if not isinstance(named, list):
        infos = value.get("treeInfos")
        named = [info.get("tree") if isinstance(info, dict) else None for info in infos] \
            if isinstance(infos, list) else None
    return None if named is None else [tree if _key(tree) else None for tree in named]


def _account_roots(items: list[Any], *, single: bool) -> list[Served]:
    served = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not _key(item.get("merkleTree")):
            continue
        at = () if single else (i,)
        served.append(Served(item["merkleTree"], None, item.get("root"), item.get("rootSeq"), True,
                             result_value(*at, "root"), result_value(*at, "rootSeq"), result_value(*at, "merkleTree")))
    return served


def _key(tree: Any) -> bool:
    """A public key in base58 (anything else is the schema checks' to say)."""
    try:
        return isinstance(tree, str) and len(b58decode(tree)) == 32
    except ValueError:
        return False


def _failure(problem: Problem, answer: Answer, detail: dict[str, Any] | None = None) -> CheckFailure:
    kind = Mismatch if problem.exact else CheckFailure
    return kind(problem.title, expected=problem.expected, received=problem.received, answer=answer,
                method=answer.method, clauses=problem.clauses, path=problem.path, detail=detail)
