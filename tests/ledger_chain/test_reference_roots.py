"""The reference held to the programs: the reference's ledger (reference_server.ledger_native) over the
generated blocks has, after every transaction, the state and address roots the on-chain tree accounts
hold, and its root index points at that root in the on-chain root history."""

from __future__ import annotations

from pathlib import Path

import pytest
from csi_conformance.ledger_chain import Chain
from csi_conformance.ledger_chain.accounts import read_tree
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.replay import read_chain
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.reference_server.ledger_native import NativeLedger
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from solders.pubkey import Pubkey

from tests.ledger_chain.support import beside_the_reference

pytestmark = pytest.mark.chain


def _same_roots(ledger: NativeLedger, chain: Chain, where: str) -> None:
    trees = [(key, tree) for key, tree in ledger.state_trees.items()]
    for key, tree in (*trees, (ledger.address_tree_key, ledger.address_tree)):
        onchain = read_tree(chain.runtime.data(Pubkey.from_bytes(key)))
        assert (tree.seq, tree.root) == (onchain.sequence_number, onchain.root), f"{where}: tree {Pubkey(key)}"
        assert onchain.roots[tree.root_index] == tree.root


def test_roots_after_every_transaction(chain_dir: Path, installation: Installation) -> None:
    source = read_chain(chain_dir)
    chain = Chain(int(source.manifest["seed"]), installation, ChainProver())
    checked = 0
    for where, ledger in beside_the_reference(chain_dir, chain):
        _same_roots(ledger, chain, where)
        checked += 1
    assert checked == len(source.manifest["transactions"])
    assert len(ledger.state_trees) == 2, "both state trees were indexed"
    assert ledger.address_tree.seq > 3, "the forester inserted addresses"


def test_the_served_proof_context_is_the_on_chain_one(chain_dir: Path, loaded: Chain) -> None:
    """getValidityProof's roots and root indices name roots the on-chain accounts hold."""
    from csi_conformance.groundwork.base58 import b58decode, b58encode
    from csi_conformance.reference_server.ingest import ingest_source

    ledger = ingest_source(LedgerSource.chain(chain_dir)).ledger
    hashes = [b58encode(h) for h in list(loaded.model.live)[:4]]
    value = call(ledger, "getValidityProof", {"hashes": hashes}, ServerOptions())["value"]
    for root, index, tree in zip(value["roots"], value["rootIndices"], value["merkleTrees"], strict=True):
        assert read_tree(loaded.runtime.data(Pubkey.from_string(tree))).roots[index] == b58decode(root, length=32)


def test_an_address_waiting_in_the_queue_is_taken(chain_dir: Path) -> None:
    """An account created with an address holds it at once; the forester inserts it into the address tree
    later. Until then the tree alone would prove it free: the reference refuses it as taken (4.2-M16)."""
    from csi_conformance.groundwork.base58 import b58encode
    from csi_conformance.reference_server.errors import RpcError
    from csi_conformance.reference_server.ingest import ingest_source

    ledger = ingest_source(LedgerSource.chain(chain_dir)).ledger
    held = {account.address for account in ledger.accounts.values() if account.address is not None}
    queued = [address for address in held if int.from_bytes(address, "big") not in ledger.address_tree]
    assert queued, "the generated chain leaves some addresses in the queue"
    for address in held:
        with pytest.raises(RpcError, match="already exists"):
            call(ledger, "getMultipleNewAddressProofs", [b58encode(address)], ServerOptions())
