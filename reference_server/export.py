"""`csi scenario export`: a scenario's ledger with every derived value, as one JSON document.

A scenario file names accounts and transactions and leaves the rest to the ledger rules. A
vendor who wants the same ledger in their own indexer's storage needs what those rules derive:
trees with roots, seq and next index, the address tree's elements, each account's hash, leaf
index, seq, slotCreated and data hash, each transaction's signature and accounts, and for each
live account the inputs a prover takes. The format is documented by `export.schema.json`;
integers are exact (written with `groundwork.jsonio`), hashes and keys are base58 as the API
answers them, and prover inputs are 32-byte `0x`-hex as the prover takes them (ledger-facts.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.files import write_atomic
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.ledger_crypto import AddressTree, StateTree, element_leaf
from csi_conformance.reference_server.ledger import Ledger
from csi_conformance.reference_server.methods.shapes import account_json, token_json
from csi_conformance.reference_server.records import Account, TokenBalanceChange, Transaction
from csi_conformance.reference_server.scenario import Scenario, open_scenario

__all__ = ["EXPORT_FORMAT", "EXPORT_SCHEMA_PATH", "export_document", "export_scenario", "write_export"]

EXPORT_FORMAT = "csi-scenario-export"
EXPORT_SCHEMA_PATH = Path(__file__).with_name("export.schema.json")


def _hex(value: bytes | int) -> str:
    """A 32-byte value as the prover takes it: `0x` and 64 hex digits."""
    number = value if isinstance(value, int) else int.from_bytes(value, "big")
    return f"0x{number:064x}"


def export_scenario(name_or_path: str = "default") -> dict[str, Any]:
    """The export of a bundled scenario (`default`, `empty`) or of a scenario file."""
    return export_document(open_scenario(name_or_path))


def export_document(scenario: Scenario) -> dict[str, Any]:
    """Every derived value of a loaded scenario, in the documented export form."""
    ledger = scenario.ledger
    labels = {hash_: label for label, hash_ in scenario.labels.items()}
    return {
        "format": EXPORT_FORMAT,
        "version": 1,
        "source": scenario.source,
        "indexedSlot": ledger.indexed_slot,
        "tipSlot": ledger.tip_slot,
        "keys": {name: b58encode(key) for name, key in scenario.keys.items()},
        "stateTrees": [_tree(key, tree) for key, tree in ledger.state_trees.items()],
        "addressTree": _address_tree(ledger.address_tree_key, ledger.address_tree),
        "accounts": [_account(ledger, account, labels.get(account.hash)) for account in ledger.accounts.values()],
        "transactions": [_transaction(tx) for tx in ledger.transactions.values()],
    }


def write_export(document: dict[str, Any], path: Path) -> None:
    """Write the export atomically (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, dumps(document) + "\n")


def _tree(key: bytes, tree: StateTree) -> dict[str, Any]:
    return {
        "pubkey": b58encode(key),
        "height": tree.height,
        "root": b58encode(tree.root),
        "seq": tree.seq,
        "rootIndex": tree.root_index,
        "nextIndex": tree.next_index,
    }


def _address_tree(key: bytes, tree: AddressTree) -> dict[str, Any]:
    elements = []
    for index in range(tree.next_index):
        element = tree.element(index)
        elements.append({
            "index": index,
            "value": _hex(element.value),
            "nextIndex": element.next_index,
            "nextValue": _hex(element.next_value),
            "leaf": _hex(element_leaf(*element)),
        })
    return {**_tree(key, tree), "elements": elements}


def _account(ledger: Ledger, account: Account, label: str | None) -> dict[str, Any]:
    """The account as the API answers it, plus what only the ledger knows about it."""
    return {
        **account_json(account),
        "label": label,
        "tokenData": None if account.token is None else token_json(account.token),
        "live": not account.closed,
        "openedBy": b58encode(account.opened_by),
        "closedBy": None if account.closed_by is None else b58encode(account.closed_by),
        "proverInputs": None if account.closed else _prover_inputs(ledger.state_trees[account.tree], account),
    }


def _prover_inputs(tree: StateTree, account: Account) -> dict[str, Any]:
    """What a prover takes to prove the account's inclusion at the tree's current root."""
    path = tree.proof(account.leaf_index)
    return {
        "root": _hex(tree.root),
        "pathIndex": account.leaf_index,
        "pathElements": [_hex(node) for node in path],
        "leaf": _hex(account.hash),
    }


def _balance(change: TokenBalanceChange) -> dict[str, Any]:
    return {"owner": b58encode(change.owner), "mint": b58encode(change.mint), "amount": change.amount}


def _transaction(tx: Transaction) -> dict[str, Any]:
    return {
        "signature": b58encode(tx.signature),
        "slot": tx.slot,
        "blockTime": tx.block_time,
        "error": tx.error,
        "opened": [b58encode(h) for h in tx.opened],
        "closed": [b58encode(h) for h in tx.closed],
        "preTokenBalances": [_balance(change) for change in tx.pre_token_balances],
        "postTokenBalances": [_balance(change) for change in tx.post_token_balances],
    }
