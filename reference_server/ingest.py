"""The reference over real transactions: `ledger_ingest` reads them, `NativeLedger` applies them.

The source is a `ledger_ingest.LedgerSource`: files or folders of `getTransaction` / `getBlock`
results, or the blocks of a slice of a Solana JSON-RPC endpoint, kept in the source's cache folder
(default: `$CSI_LEDGER_CACHE`, else `~/.cache/csi-conformance/ledger`; a folder per chain in it) so an
interrupted fetch resumes, or a chain generated with Light's programs (its blocks are files too).
A slice the node has not reached by the deadline is `LedgerNotReached`, unless the caller takes
what was read (`csi serve`, which then says the slots it holds).

Every source is read and decoded before anything is applied; the blocks are applied in slot
order in one batch, and any error (`IngestError`, or a transaction the ledger refuses) is raised
before a ledger exists, never a half-built one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.ledger_ingest import Block, IngestError, LedgerSource, read_paths
from csi_conformance.ledger_ingest.block_cache import default_cache_root
from csi_conformance.ledger_ingest.sources import FetchedSlice, LedgerNotReached, fetch_slice, progress_printer
from csi_conformance.reference_server.ledger_native import NativeLedger
from csi_conformance.reference_server.scenario import Scenario

__all__ = ["ingest_source", "ledger_from_blocks", "slice_keys"]


def ledger_from_blocks(blocks: Iterable[Block], ledger: NativeLedger | None = None) -> NativeLedger:
    """A ledger over these blocks (applied to `ledger`, else to a new one), in the order given
    (read_paths and fetch_blocks sort by slot)."""
    ledger = NativeLedger() if ledger is None else ledger
    last = None
    with ledger.native_batch():
        for block in blocks:
            for tx in block.transactions:
                ledger.apply_native(tx)
            ledger.advance_to(block.slot)
            last = block.slot
    if last is not None:
        ledger.set_tip(last)
    return ledger


def ingest_source(source: LedgerSource, *, progress: Callable[..., None] | None = None,
                  partial: bool = False) -> Scenario:
    """The scenario (ledger, no named keys) a ledger source builds; ConfigError when it cannot. A slice the node
    had not reached by the deadline is `LedgerNotReached`, or with `partial` the slots read, said in its label."""
    label = source.describe()
    try:
        if source.kind == "rpc":
            fetched = fetch_slice(source.url or "", source.slots, wait=source.wait,
                                  cache=(source.cache or default_cache_root()) if source.cached else None,
                                  progress=progress or progress_printer())
            label = _short_label(fetched, source, partial)
            blocks = fetched.blocks
        else:
            blocks = _read_each(source.paths)
        ledger = ledger_from_blocks(blocks)
    except (IngestError, ValueError) as exc:
        if isinstance(exc, ConfigError):
            raise
        raise ConfigError(str(exc) if isinstance(exc, IngestError) else f"{label}: {exc}") from None
    return Scenario(ledger, label)


def _short_label(fetched: FetchedSlice, source: LedgerSource, partial: bool) -> str:
    """The label of what was read: the source's, or, for a slice the node had not reached, the slots really held
    (with `partial`), else `LedgerNotReached`."""
    if fetched.complete:
        return source.describe()
    if not partial:
        raise LedgerNotReached(f"{fetched.shortfall(source.wait)} (of {source.describe()}): give --slots the node "
                               "has produced, or a longer --ledger-wait")
    held = f"slots {fetched.read}" if fetched.read is not None else "no slot"
    return (f"{source.describe().replace(f'slots {source.slots}', held)} (asked {source.slots}; the node's tip "
            f"was at {fetched.tip} after {source.wait:g} s)")


def _read_each(paths: Sequence[Any]) -> list[Block]:
    """The blocks of every path, in slot order then the order given (as `read_paths`); a folder that holds
    no file to read is an error naming it, not an empty ledger served without a word."""
    blocks: list[Block] = []
    for given in paths:
        found = read_paths([Path(given)])
        if not found and Path(given).is_dir():
            raise ConfigError(f"{given}: no transaction or block file in this folder (it is empty, or holds only "
                              "hidden files and notes such as .md, .txt or .yaml, which are not read)")
        blocks.extend(found)
    return sorted(blocks, key=lambda block: block.slot)


def slice_keys(ledger: NativeLedger) -> dict[str, list[str]]:
    """The keys of an ingested ledger, in the `--keys` file form (harness.core.keys.KEY_KINDS)."""
    keys: dict[str, list[str]] = {kind: [] for kind in ("signatures", "failed_signatures", "hashes", "closed_hashes",
                                                        "addresses", "closed_addresses", "owners", "token_owners",
                                                        "mints", "delegates", "trees")}

    def add(kind: str, value: bytes) -> None:
        text = b58encode(value)
        if text not in seen[kind]:
            seen[kind].add(text)
            keys[kind].append(text)

    seen: dict[str, set[str]] = {kind: set() for kind in keys}
    for _, signature in ledger.signatures.keys("succeeded"):
        add("signatures", signature)
    for tx in ledger.transactions.values():
        if tx.error is not None:
            add("failed_signatures", tx.signature)
    for account in ledger.accounts.values():
        live = not account.closed
        add("hashes" if live else "closed_hashes", account.hash)
        if account.address is not None:
            add("addresses" if live else "closed_addresses", account.address)
        add("owners", account.owner)
        add("trees", account.tree)
        if account.token is not None:
            add("token_owners", account.token.owner)
            add("mints", account.token.mint)
            if account.token.delegate is not None:
                add("delegates", account.token.delegate)
    return keys
