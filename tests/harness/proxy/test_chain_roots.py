"""`--solana-rpc`: the roots an app is served, judged against the chain's on-chain root histories.

The chain tests/ledger_chain generates (proofs from the proof cache), served by `csi chain serve`'s node on
loopback; the reference over its blocks as the upstream (tests/harness/onchain/serving.py), clean or with one
fault of tests/harness/variants_onchain.py. An app's traffic (validity proofs of accounts and new addresses,
new-address proofs, account proofs) goes through the proxy: against the clean reference no finding; a root
index one off, a rootSeq one below, a root never on-chain are found under `onchain.root-history` with the
proxy given the node, and not without it (each answer is well formed); a tree the chain holds no tree
account for is found; and the recording judged out of the path with the node gives the live findings.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.proxy import ProxyOptions, judge_traffic, running_proxy
from csi_conformance.ledger_chain import ChainJudge, generate, load_chain
from csi_conformance.ledger_chain.node import node_server
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.rpc import ChainRpc
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.reference_server.app import create_app
from csi_conformance.reference_server.ingest import ingest_source
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.serve import running_server
from csi_conformance.schema import Contract

from tests.client.support import free_port
from tests.harness.broken import Variant, _on
from tests.harness.onchain.serving import LedgerDispatch
from tests.harness.proxy.support import replay
from tests.harness.variants_onchain import VARIANTS
from tests.ledger_chain.conftest import OPS, SEED
from tests.ledger_proofs.support import installed_prover

ROOTS = "onchain.root-history"
BY_NAME = {variant.name: variant for variant in VARIANTS}
CAUGHT = {"root-index-off-by-one": ("getValidityProof", "Root index names another on-chain root"),
          "address-root-seq-one-below": ("getMultipleNewAddressProofs", "Root index names another on-chain root"),
          "root-never-on-chain": ("getValidityProof", "Root never on-chain")}
"""Each variant, the method whose answers carry its fault, and the title of its finding."""
ELSEWHERE = b58encode(bytes(range(1, 33)))
"""A key the chain holds no account at."""
API = "photon-366a15b"
"""The contract served and judged: the spec's 19 methods lack the account proofs an app asks for too."""
NOT_A_TREE = Variant("account-proof-in-no-tree", "onchain", ROOTS, dispatch=_on(
    "getCompressedAccountProof",
    lambda params, result: {**result, "value": {**result["value"], "merkleTree": ELSEWHERE}}))


@pytest.fixture(scope="module")
def installation() -> Installation:
    return installed_prover()


@pytest.fixture(scope="module")
def chain_dir(installation: Installation, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(OPS, SEED, tmp_path_factory.mktemp("proxy-chain") / "chain", prover=ChainProver(),
                    installation=installation).folder


@pytest.fixture(scope="module")
def ledger(chain_dir: Path) -> Ledger:
    return ingest_source(LedgerSource.chain(chain_dir)).ledger


@pytest.fixture(scope="module")
def node(chain_dir: Path, installation: Installation) -> Iterator[str]:
    """`csi chain serve`'s node over the chain, on loopback."""
    server = node_server(ChainRpc(chain_dir, installation=installation))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def traffic(chain_dir: Path, installation: Installation) -> list[bytes]:
    """What an app asks of the chain's indexer: proofs of live accounts, of new addresses, of both."""
    chain = ChainJudge(load_chain(chain_dir, installation=installation))
    hashes = [b58encode(hash_) for group in chain.groups() for hash_ in group.hashes][:4]
    fresh = [b58encode(chain.new_address(bytes([n]) * 32)) for n in (7, 8)]
    with_trees = [{"address": address, "tree": chain.address_tree} for address in fresh]
    calls: list[tuple[str, Any]] = [
        ("getValidityProof", {"hashes": hashes[:1]}), ("getValidityProof", {"hashes": hashes[1:3]}),
        ("getValidityProof", {"newAddressesWithTrees": with_trees[:1]}),
        ("getValidityProof", {"hashes": hashes[3:4], "newAddressesWithTrees": with_trees[1:]}),
        ("getMultipleNewAddressProofs", fresh), ("getMultipleNewAddressProofsV2", with_trees),
        ("getCompressedAccountProof", {"hash": hashes[0]}),
        ("getMultipleCompressedAccountProofs", hashes[:2])]
    return [dumps({"jsonrpc": "2.0", "id": f"app-{i}", "method": method, "params": params}).encode()
            for i, (method, params) in enumerate(calls)]


@contextmanager
def _serving(ledger: Ledger, variant: Variant | None) -> Iterator[str]:
    """The reference over the chain's ledger (as tests/harness/onchain/serving.py serves it), with `variant`'s
    fault, serving Photon's contract."""
    contract = Contract.for_api(API)
    real = LedgerDispatch(ledger, ServerOptions(), contract)
    dispatch = real if variant is None else lambda method, params: variant.dispatch(real, method, params)
    with running_server(create_app(dispatch, ServerOptions(), contract=contract)) as url:
        yield url


def _through(ledger: Ledger, variant: Variant | None, traffic: list[bytes], record: Path,
             solana_rpc: str | None) -> tuple[set[tuple], dict[str, Any]]:
    """The traffic through the proxy in front of the reference over the chain; the findings and the check."""
    options = ProxyOptions(upstream="", api=API, record=record, solana_rpc=solana_rpc)
    with _serving(ledger, variant) as upstream, \
            running_proxy(replace(options, upstream=upstream)) as (url, session):
        answers = replay(url, traffic)
        session.drain()
        result = session.judge.result()
    assert all(answer.status_code == 200 and "result" in answer.json() for answer in answers), \
        [answer.text[:300] for answer in answers if "result" not in answer.json()]
    check = next((c for c in result.checks if c.check_id == ROOTS), None)
    return _found(result), {"examined": check.examined_total if check else 0, "skipped": check.skipped if check else []}


def _found(result: Any) -> set[tuple]:
    return {(f.check_id, f.method, f.path, f.title) for f in result.findings}


def test_the_clean_reference_serves_the_chains_roots(ledger: Ledger, traffic: list[bytes], node: str,
                                                     tmp_path: Path) -> None:
    found, check = _through(ledger, None, traffic, tmp_path / "t.ndjson", node)
    assert found == set()
    assert check == {"examined": 13, "skipped": []}  # every root of the traffic looked up: 6 + 2 + 2 + 1 + 2


@pytest.mark.parametrize("name", sorted(CAUGHT))
def test_a_wrong_root_is_found_with_the_node_and_not_without(name: str, ledger: Ledger, traffic: list[bytes],
                                                             node: str, tmp_path: Path) -> None:
    method, title = CAUGHT[name]
    blind, _ = _through(ledger, BY_NAME[name], traffic, tmp_path / "blind.ndjson", None)
    seen, _ = _through(ledger, BY_NAME[name], traffic, tmp_path / "seen.ndjson", node)
    assert blind == set()  # well-formed answers: nothing but the chain tells
    assert seen and {(check, m, t) for check, m, _, t in seen} == {(ROOTS, method, title)}, seen
    judged = _found(judge_traffic(tmp_path / "seen.ndjson", ProxyOptions(api=API, solana_rpc=node)))
    assert judged == seen


def test_a_tree_the_chain_does_not_hold_is_found(ledger: Ledger, traffic: list[bytes], node: str,
                                                 tmp_path: Path) -> None:
    found, _ = _through(ledger, NOT_A_TREE, traffic, tmp_path / "t.ndjson", node)
    assert found == {(ROOTS, "getCompressedAccountProof", "$.result.value.merkleTree", "Tree not on-chain")}


def test_a_node_that_does_not_answer_leaves_the_roots_unjudged(ledger: Ledger, traffic: list[bytes],
                                                               tmp_path: Path) -> None:
    """The node is the user's, not the upstream's: no finding, the report says the roots were not judged."""
    silent = f"http://127.0.0.1:{free_port()}/?api-key=node-key-5e1"
    found, check = _through(ledger, BY_NAME["root-index-off-by-one"], traffic, tmp_path / "t.ndjson", silent)
    assert found == set() and check["examined"] == 0
    assert check["skipped"] and all("did not answer getAccountInfo" in reason for reason in check["skipped"])
    assert "node-key-5e1" not in " ".join(check["skipped"])
