"""Every proof the reference serves over the generated chain, for all 15 circuits, is accepted by the real
verifier in a simulated transaction that spends those accounts and creates those addresses; a proof made
wrong is refused with the code that says how. Real HTTP on loopback, the real light prover."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_chain import Chain, groups, judge_proof, new_address, root_history
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.ledger_proofs.circuits import CIRCUITS
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.ledger_proofs.process import shared_prover
from csi_conformance.reference_server.ingest import ingest_source
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.serve import running_server
from csi_conformance.reference_server.wiring import app_for

pytestmark = pytest.mark.chain


@pytest.fixture(scope="module")
def reference(chain_dir: Path, installation: Installation) -> Iterator[str]:
    ledger = ingest_source(LedgerSource.chain(chain_dir)).ledger
    with running_server(app_for(ledger, ServerOptions(prover_url=shared_prover(installation).url))) as url:
        yield url


def served(url: str, chain: Chain, hashes: list[bytes], seeds: list[bytes]) -> dict[str, Any]:
    params = {"hashes": [b58encode(h) for h in hashes],
              "newAddressesWithTrees": [{"address": b58encode(new_address(chain, s)),
                                         "tree": str(chain.model.address_tree_key)} for s in seeds]}
    answer = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "getValidityProof", "params": params},
                        timeout=120).json()
    assert "error" not in answer, answer
    return answer["result"]["value"]


def plain_group(chain: Chain) -> list[bytes]:
    group = max((g for g in groups(chain) if chain.model.live[g[0]].token is None), key=len)
    assert len(group) >= 8, "the test chain leaves a user with 8 plain accounts or more"
    return group


def seeds_for(count: int, label: int) -> list[bytes]:
    return [bytes([0, label, i]) + bytes(29) for i in range(count)]


@pytest.mark.parametrize("circuit", sorted(CIRCUITS.values(), key=lambda c: c.name), ids=lambda c: c.name)
def test_every_circuit_is_accepted_on_chain(circuit: Any, reference: str, loaded: Chain) -> None:
    hashes = plain_group(loaded)[: circuit.accounts]
    seeds = seeds_for(circuit.addresses, circuit.accounts * 3 + circuit.addresses)
    value = served(reference, loaded, hashes, seeds)
    verdict = judge_proof(loaded, hashes=hashes, seeds=seeds, proof=value["compressedProof"],
                          root_indices=value["rootIndices"])
    assert verdict.accepted, (verdict.code, verdict.meaning, verdict.logs[-5:])


def test_token_accounts_are_judged_through_the_token_program(reference: str, loaded: Chain) -> None:
    group = next(g for g in groups(loaded) if loaded.model.live[g[0]].token is not None)
    value = served(reference, loaded, group[:1], [])
    assert judge_proof(loaded, hashes=group[:1], proof=value["compressedProof"],
                       root_indices=value["rootIndices"]).accepted


def test_wrong_proofs_are_refused_with_the_programs_code(reference: str, loaded: Chain) -> None:
    hashes = plain_group(loaded)[:2]
    value = served(reference, loaded, hashes, [])
    older = judge_proof(loaded, hashes=hashes, proof=value["compressedProof"],
                        root_indices=[i - 1 for i in value["rootIndices"]])
    assert (older.accepted, older.code) == (False, 13006)
    assert "does not verify against the on-chain roots" in older.meaning
    unwritten = judge_proof(loaded, hashes=hashes, proof=value["compressedProof"],
                            root_indices=[i + 1 for i in value["rootIndices"]])
    assert (unwritten.accepted, unwritten.code) == (False, None)
    assert "panicked" in unwritten.meaning and "naming no root yet" in unwritten.meaning
    other = {**value["compressedProof"], "c": value["compressedProof"]["a"]}
    assert judge_proof(loaded, hashes=hashes, proof=other, root_indices=value["rootIndices"]).code == 13006
    broken = {**value["compressedProof"], "b": [0xFF] * 64}
    verdict = judge_proof(loaded, hashes=hashes, proof=broken, root_indices=value["rootIndices"])
    assert (verdict.code, verdict.meaning) == (13003, "the proof point B does not decompress to a G2 point")


def test_root_history_and_what_cannot_be_judged(loaded: Chain) -> None:
    tree = next(iter(loaded.model.state_trees))
    history = root_history(loaded, tree)
    mirror = loaded.model.state_trees[tree].tree
    assert history.roots[history.current_index] == mirror.root and history.sequence_number == mirror.seq
    owners = [g[0] for g in groups(loaded)[:2]]
    with pytest.raises(ValueError, match="several owners or kinds"):
        judge_proof(loaded, hashes=owners, proof={"a": [0] * 32, "b": [0] * 64, "c": [0] * 32}, root_indices=[0, 0])
    with pytest.raises(ValueError, match="not a live account"):
        judge_proof(loaded, hashes=[bytes(32)], proof={"a": [0] * 32, "b": [0] * 64, "c": [0] * 32},
                    root_indices=[0])
