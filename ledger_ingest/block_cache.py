"""Where blocks fetched from a Solana node are kept: a folder per chain, named by the chain's genesis hash
(`getGenesisHash`), so that one folder can only ever hold one chain's blocks, whatever URL served them.

A folder holds `<slot>.json` (a `getBlock` result) and `<slot>.skipped` (a slot the node listed but has no
block for). The genesis hash alone does not make a kept block the node's: a chain regenerated with the same
genesis, a validator restarted from a snapshot, a node moved to another fork, or a node whose blockhashes do
not commit to what its blocks hold can each serve another block at a kept slot. So a kept entry is used only
while the node still serves that very block (`still_served`): the same blockhash, parent and previous
blockhash, and the same transactions' signatures in the same order, as the node's `getBlock` with
`transactionDetails: signatures` says (a few hundred bytes a block, where the block itself is megabytes);
otherwise it is dropped and fetched again.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from pathlib import Path
from typing import Any

from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.groundwork.cache import user_cache
from csi_conformance.groundwork.errors import JsonError
from csi_conformance.groundwork.files import write_atomic
from csi_conformance.groundwork.jsonio import dumps, loads
from solders.transaction import VersionedTransaction

__all__ = ["BlockCache", "block_signatures", "default_cache_root", "first_signature", "still_served"]

Result = dict[str, Any] | None
"""A `getBlock` result, or None for a slot without a block."""
_LINK = ("blockhash", "previousBlockhash", "parentSlot")


def default_cache_root() -> Path:
    """The folder the chains' folders go in: `$CSI_LEDGER_CACHE`, else `~/.cache/csi-conformance/ledger`."""
    return user_cache("ledger", variable="CSI_LEDGER_CACHE")


class BlockCache:
    """The kept entries of one chain; `BlockCache(None)` keeps nothing (`--no-ledger-cache`, or a node that does
    not say its genesis hash)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)

    @classmethod
    def of_chain(cls, root: Path, genesis: str) -> BlockCache:
        """The folder of the chain whose genesis hash is `genesis`, under `root`."""
        name = genesis if re.fullmatch(r"[1-9A-HJ-NP-Za-km-z]{32,88}", genesis) else \
            hashlib.sha256(genesis.encode()).hexdigest()  # a name that is no base58 hash is no file name
        return cls(root / name)

    def get(self, slot: int) -> tuple[bool, Result]:
        """(whether the slot is kept, its entry)."""
        if self.folder is None:
            return False, None
        if (self.folder / f"{slot}.skipped").exists():
            return True, None
        kept = self.folder / f"{slot}.json"
        if kept.exists():
            try:
                result = loads(kept.read_text(encoding="utf-8"))
            except (OSError, JsonError, ValueError):
                result = None
            if isinstance(result, dict):
                return True, result
            kept.unlink(missing_ok=True)  # a damaged entry is fetched again
        return False, None

    def put(self, slot: int, result: Result) -> None:
        if self.folder is not None:
            self.drop(slot)
            write_atomic(self.folder / (f"{slot}.json" if result is not None else f"{slot}.skipped"),
                         dumps(result) if result is not None else "")

    def drop(self, slot: int) -> None:
        if self.folder is not None:
            for name in (f"{slot}.json", f"{slot}.skipped"):
                (self.folder / name).unlink(missing_ok=True)


def first_signature(entry: Any) -> str | None:
    """The first signature of a block's transaction entry, in any encoding a node gives it (None when it does not
    read as one)."""
    transaction = entry.get("transaction") if isinstance(entry, dict) else None
    if isinstance(transaction, dict):
        signatures = transaction.get("signatures")
        return signatures[0] if isinstance(signatures, list) and signatures and isinstance(signatures[0], str) \
            else None
    if not (isinstance(transaction, list) and len(transaction) == 2 and isinstance(transaction[0], str)):
        return None
    try:
        raw = base64.b64decode(transaction[0], validate=True) if transaction[1] == "base64" else \
            b58decode(transaction[0]) if transaction[1] == "base58" else b""
        return str(VersionedTransaction.from_bytes(raw).signatures[0])
    except (ValueError, IndexError, binascii.Error):
        return None


def block_signatures(result: dict[str, Any]) -> list[str | None] | None:
    """The signatures a `getBlock` result names: its `signatures` (transactionDetails signatures), else the first
    signature of each of its transactions; None when it names neither."""
    if isinstance(result.get("signatures"), list):
        return [s if isinstance(s, str) else None for s in result["signatures"]]
    if isinstance(result.get("transactions"), list):
        return [first_signature(entry) for entry in result["transactions"]]
    return None


def still_served(kept: Result, node: Result) -> bool:
    """Whether a kept entry is the block the node serves at its slot (`node`: its `getBlock` with transaction
    details `signatures`, or None when it has no block there): the same hashes and parent, the same
    transactions' signatures in the same order."""
    if kept is None or node is None:
        return kept is None and node is None
    if not all(node.get(name) == kept.get(name) for name in _LINK):
        return False
    signatures = block_signatures(kept)
    return signatures is not None and None not in signatures and signatures == block_signatures(node)
