"""The reference over real transactions: `ledger_ingest` reads them, `NativeLedger` applies them.

The source is a `ledger_ingest.LedgerSource`: files or folders of `getTransaction` / `getBlock`
results, or the blocks of a slice of a Solana JSON-RPC endpoint, kept in the source's cache folder
(default: `$CSI_LEDGER_CACHE`, else a folder per endpoint under `~/.cache/csi/ledger`) so an
interrupted fetch resumes, or a chain generated with Light's programs (its blocks are files too).

Every source is read and decoded before anything is applied; the blocks are applied in slot
order in one batch, and any error (`IngestError`, or a transaction the ledger refuses) is raised
before a ledger exists, never a half-built one.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ledger_crypto import b58encode
from ledger_ingest import Block, IngestError, LedgerSource, fetch_blocks, read_paths, redact_url
from ledger_ingest.sources import progress_printer
from reference_server.ledger_native import NativeLedger
from reference_server.scenario import Scenario
from schema.errors import ConfigError

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


def default_cache(url: str) -> Path:
    """Where the blocks fetched from `url` are kept: one folder per endpoint, its key left out."""
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    base = os.environ.get("CSI_LEDGER_CACHE") or cache_home / "csi" / "ledger"
    return Path(base) / hashlib.sha256(redact_url(url).encode()).hexdigest()[:16]


def ingest_source(source: LedgerSource, *, progress: Callable[..., None] | None = None) -> Scenario:
    """The scenario (ledger, no named keys) a ledger source builds; ConfigError when it cannot."""
    label = source.describe()
    try:
        if source.kind == "rpc":
            url = source.url or ""
            blocks = fetch_blocks(url, source.slots, cache_dir=source.cache or default_cache(url),
                                  progress=progress or progress_printer())
        else:
            blocks = _read_each(source.paths)
        ledger = ledger_from_blocks(blocks)
    except (IngestError, ValueError) as exc:
        if isinstance(exc, ConfigError):
            raise
        raise ConfigError(str(exc) if isinstance(exc, IngestError) else f"{label}: {exc}") from None
    return Scenario(ledger, label)


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
