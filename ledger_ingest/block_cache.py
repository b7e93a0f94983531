"""Where blocks fetched from a Solana node are kept: a folder per chain, named by the chain's genesis hash
(`getGenesisHash`), so that one folder can only ever hold one chain's blocks, whatever URL served them.

A folder holds `<slot>.json` (a `getBlock` result) and `<slot>.skipped` (a slot the node listed but has no
block for). A chain regenerated with the same genesis, or a node that moved to another fork, can still
disagree with what is kept: before a kept entry is used, `check_links` walks the slice down from its
last slot and holds each kept block against the node's blockhash chain (the `previousBlockhash` and
`parentSlot` of the block after it, or the node's own header of that slot when nothing after it says),
and an entry that does not link is dropped and fetched again.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

from csi_conformance.groundwork.errors import JsonError
from csi_conformance.groundwork.files import write_atomic
from csi_conformance.groundwork.jsonio import dumps, loads

__all__ = ["BlockCache", "check_links", "default_cache_root"]

Result = dict[str, Any] | None
"""A `getBlock` result, or None for a slot without a block."""
_LINK = ("blockhash", "previousBlockhash", "parentSlot")


def default_cache_root() -> Path:
    """The folder the chains' folders go in: `$CSI_LEDGER_CACHE`, else `~/.cache/csi/ledger`."""
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return Path(os.environ.get("CSI_LEDGER_CACHE") or cache_home / "csi" / "ledger")


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


def check_links(results: MutableMapping[int, Result], kept: set[int], *, header: Callable[[int], Result],
                fetch: Callable[[int], Result]) -> int:
    """Replace, in `results`, every kept entry that does not link with the node's blockhash chain by what
    `fetch` gets from the node; how many were replaced. `header(slot)` is the node's header of a slot (a
    `getBlock` result without transactions, or None for a slot without a block)."""
    later: Result = None  # the nearest block after the slot, known to be the node's
    replaced = 0
    for slot in sorted(results, reverse=True):
        if slot in kept and not _links(slot, results[slot], later, header):
            results[slot] = fetch(slot)
            replaced += 1
        if results[slot] is not None:
            later = results[slot]
    return replaced


def _links(slot: int, entry: Result, later: Result, header: Callable[[int], Result]) -> bool:
    """Whether a kept entry is the node's: the block after it names it as its parent (or skips its slot), or,
    when nothing after it says, the node's header of the slot agrees."""
    if later is not None:
        parent = later.get("parentSlot")
        if parent == slot:
            return entry is not None and entry.get("blockhash") == later.get("previousBlockhash")
        if entry is None and type(parent) is int and parent < slot:
            return True  # the node's chain goes over this slot
    node = header(slot)
    if entry is None or node is None:
        return entry is None and node is None
    return all(node.get(name) == entry.get(name) for name in _LINK)
