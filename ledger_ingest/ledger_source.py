"""Where a ledger comes from, as one value: files of real transactions, a slice of a Solana JSON-RPC
endpoint, or a chain the kit generated with Light's own programs.

Every face names a source the same way, and one string says it whole, so a source can sit in a
config file or cross the `csi.reference` entry point:

    file:PATH[,PATH…]          getTransaction / getBlock results in files and folders
    https://rpc.example/…#slots=A..B   the blocks of slots A..B of that endpoint (both included)
    chain:DIR                  a chain written by `csi chain generate`

A source never prints its endpoint's key: `str()` and `describe()` redact it.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from csi_conformance.ledger_ingest.sources import DEFAULT_WAIT, SlotRange, parse_slots, redact_url

__all__ = ["LedgerSource"]

Kind = Literal["files", "rpc", "chain"]
_SLOTS = "#slots="


@dataclass(frozen=True)
class LedgerSource:
    """One ledger source; build it with `files`, `rpc`, `chain` or `parse`, which check it."""

    kind: Kind
    paths: tuple[Path, ...] = ()
    """The files and folders of a `files` source, or the folder of a `chain`."""
    url: str | None = None
    """The endpoint of an `rpc` source (it may carry a key: never print it)."""
    slots: SlotRange | None = None
    cache: Path | None = None
    """The folder an `rpc` source's blocks are kept in, a folder per chain, so a second read fetches only what is
    missing (None: `block_cache.default_cache_root()`)."""
    cached: bool = True
    """Whether an `rpc` source's blocks are kept and read back at all (`--no-ledger-cache`: no)."""
    wait: float = DEFAULT_WAIT
    """Seconds an `rpc` read follows a node whose tip has not reached the last slot (`--ledger-wait`)."""

    @classmethod
    def files(cls, paths: Sequence[str | Path]) -> LedgerSource:
        if isinstance(paths, str | Path) or not paths:
            raise ValueError("a file source names one or more files or folders")
        return cls("files", paths=tuple(Path(p) for p in paths))

    @classmethod
    def rpc(cls, url: str, slots: str | SlotRange, cache: str | Path | None = None, *, cached: bool = True,
            wait: float = DEFAULT_WAIT) -> LedgerSource:
        if urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).netloc:
            raise ValueError(f"a Solana JSON-RPC source is an http(s) URL, not {redact_url(url)!r}")
        return cls("rpc", url=url, slots=parse_slots(slots) if isinstance(slots, str) else slots,
                   cache=Path(cache) if cache else None, cached=cached, wait=wait)

    def fetched_with(self, *, cache: Path | None = None, cached: bool = True,
                     wait: float | None = None) -> LedgerSource:
        """This source with how its blocks are fetched changed (a source that fetches nothing stays as it is)."""
        if self.kind != "rpc":
            return self
        return dataclasses.replace(self, cache=cache or self.cache, cached=cached and self.cached,
                                   wait=self.wait if wait is None else wait)

    @classmethod
    def chain(cls, folder: str | Path) -> LedgerSource:
        return cls("chain", paths=(Path(folder),))

    @classmethod
    def parse(cls, text: str) -> LedgerSource:
        """A source from its one-string form (module docstring); ValueError saying what is wrong."""
        text = text.strip()
        if text.startswith("file:"):
            return cls.files([part for part in text[len("file:"):].split(",") if part])
        if text.startswith("chain:") and text[len("chain:"):]:
            return cls.chain(text[len("chain:"):])
        if text.startswith(("http://", "https://")):
            url, marker, slots = text.partition(_SLOTS)
            if not marker:
                raise ValueError(f"{redact_url(text)}: name the slots to read, as URL#slots=A..B")
            return cls.rpc(url, slots)
        raise ValueError(f"{redact_url(text)!r} is no ledger source: give file:PATH, chain:DIR or URL#slots=A..B")

    def __str__(self) -> str:
        """The one-string form, the endpoint's key redacted."""
        if self.kind == "rpc":
            return f"{redact_url(self.url or '')}{_SLOTS}{self.slots}"
        prefix = "chain:" if self.kind == "chain" else "file:"
        return prefix + ",".join(str(path) for path in self.paths)

    def identity(self) -> str:
        """What ledger this is, whatever folder or endpoint it was read from, so that runs over the same ledger
        line up: `chain sha256:HEX` or `files sha256:HEX` over every file's path and bytes, `rpc slots A..B` (the
        node is left out: two vendors judged over the same devnet slots line up)."""
        if self.kind == "rpc":
            return f"rpc slots {self.slots}"
        digest = hashlib.sha256()
        for root in self.paths:
            files = sorted(path for path in root.rglob("*") if path.is_file()) if root.is_dir() else [root]
            for path in files:
                name = path.relative_to(root).as_posix() if root.is_dir() else path.name
                digest.update(f"{name}\0{path.stat().st_size}\0".encode())
                digest.update(path.read_bytes())
        return f"{self.kind} sha256:{digest.hexdigest()}"

    def describe(self) -> str:
        """The source in words, for a start-up line or a report."""
        if self.kind == "rpc":
            return f"ledger slots {self.slots} of {redact_url(self.url or '')}"
        if self.kind == "chain":
            return f"the chain in {self.paths[0]}"
        shown = ", ".join(str(p) for p in self.paths[:3]) + (f" and {len(self.paths) - 3} more"
                                                            if len(self.paths) > 3 else "")
        return f"transactions from {shown}"
