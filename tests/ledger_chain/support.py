"""What the chain tests share: a chain's blocks executed again beside the reference that indexes them."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

from csi_conformance.ledger_chain import Chain
from csi_conformance.ledger_chain.replay import read_chain
from csi_conformance.ledger_ingest import decode_transaction, transaction_changes
from csi_conformance.reference_server.ledger_native import NativeLedger
from solders.transaction import Transaction


def beside_the_reference(folder: Path, chain: Chain) -> Iterator[tuple[str, NativeLedger]]:
    """Every transaction of the chain in `folder`, executed again in `chain` (with the outcome the block
    records) and applied to a reference ledger: yields where it is and that ledger, while `chain` holds the
    state the transaction left."""
    ledger = NativeLedger()
    for slot, block in read_chain(folder).blocks():
        chain.advance(slot - chain.slot)
        for number, entry in enumerate(block["transactions"]):
            executed = chain.runtime.execute(Transaction.from_bytes(base64.b64decode(entry["transaction"][0])))
            assert executed.err == entry["meta"]["err"]
            ledger.apply_native(transaction_changes(decode_transaction(entry, slot=slot,
                                                                       block_time=block["blockTime"])))
            yield f"slot {slot}, transaction {number}", ledger
            chain.keep(entry)
        chain.close_block()
