"""A transaction with the compressed accounts it opened and closed (§4.2 #10)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.registry import rpc_method
from csi_conformance.reference_server.methods.shapes import account_json, token_json
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.records import Account, Transaction
from csi_conformance.schema import Method

__all__ = ["get_transaction_with_compression_info", "transaction_object"]


@rpc_method("getTransactionWithCompressionInfo")
def get_transaction_with_compression_info(
    ledger: Ledger, params: Mapping[str, Any], options: ServerOptions, method: Method
) -> Any:
    """`{compressionInfo: {closedAccounts, openedAccounts}, transaction}`, or null.

    The shape is observed practice: the member is `compressionInfo` (the spec's table writes
    `compression_info`), items carry `optionalTokenData` (the client guide says
    `maybeTokenData`), and there is no `{context, value}` wrapper. Null answers an unknown
    transaction, a failed one, which involves no compressed account, and a real one that never
    touched compression (listed by getLatestNonVotingSignatures only): none has compression info
    (7-N2, 4.2-N7). A forester's transaction used compression: its lists are empty.
    """
    tx = ledger.transaction(b58decode(params["signature"], length=64))
    if tx is None or tx.error is not None or not tx.uses_compression:
        return None
    return {
        "compressionInfo": {
            "closedAccounts": [_item(ledger.accounts[h]) for h in tx.closed],
            "openedAccounts": [_item(ledger.accounts[h]) for h in tx.opened],
        },
        "transaction": transaction_object(tx),
    }


def _item(account: Account) -> dict[str, Any]:
    token = None if account.token is None else token_json(account.token)
    return {"account": account_json(account), "optionalTokenData": token}


def transaction_object(tx: Transaction) -> Any:
    """The transaction as Solana's `getTransaction` answers it, where the ledger holds it (read from the chain),
    as observed practice serves it (Photon fetches it from its node: `get_transaction_with_compression_info.rs`);
    else, for a scenario's transaction, a minimal standard-looking one: the spec shows none of its fields."""
    if tx.solana is not None:
        return loads(tx.solana)
    return {
        "slot": tx.slot,
        "blockTime": tx.block_time,
        "meta": {"err": tx.error},
        "transaction": {"signatures": [b58encode(tx.signature)]},
    }
