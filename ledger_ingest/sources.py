"""Where real transactions come from: files and folders of `getTransaction` / `getBlock` results,
or a slice of slots fetched from a Solana JSON-RPC endpoint.

Everything is read and decoded before anything is applied, so a source that cannot be read is
an `IngestError` and never a half-built ledger. Blocks come back in slot order; blocks of the
same slot (single transactions from files) stay in the order given.

Fetching is bounded (at most `MAX_SLOTS` slots a slice, `MAX_RESPONSE_BYTES` an answer, a few
retries with back-off), resumable (each block is kept in a cache folder as it arrives, and a
second run fetches only what is missing) and shows its progress. The endpoint's key never appears
in any message: `redact_url` (`schema.redaction`, the kit's one) replaces it.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import httpx

from ledger_ingest.changes import LedgerTransaction, transaction_changes
from ledger_ingest.decode import IngestError, decode_transaction
from schema.errors import JsonError
from schema.files import write_atomic
from schema.jsonio import dumps, loads
from schema.redaction import redact_url
from schema.retry_after import parse_retry_after

__all__ = [
    "MAX_RESPONSE_BYTES",
    "MAX_SLOTS",
    "Block",
    "SlotRange",
    "block_from_result",
    "fetch_blocks",
    "parse_slots",
    "progress_printer",
    "read_paths",
    "redact_url",
]

MAX_SLOTS = 100_000
"""Most slots one slice may span (`getBlocks` itself answers at most 500,000)."""
MAX_RESPONSE_BYTES = 256 * 1024 * 1024
"""Largest JSON-RPC answer read; a full block is a few megabytes."""
RETRIES = 5
SKIPPED_CODES = frozenset({-32007, -32009})
"""getBlock errors meaning the slot has no block: skipped, or missing from long-term storage."""
RETRY_CODES = frozenset({-32004, -32014, -32016})
"""getBlock errors meaning the block is not available yet: asked again after a pause."""
_SKIP_SUFFIXES = frozenset({".md", ".txt", ".rst", ".yaml", ".yml"})


@dataclass(frozen=True, slots=True)
class Block:
    """The transactions of one slot (all of a block, or the ones a file gave), in order."""

    slot: int
    transactions: tuple[LedgerTransaction, ...]
    source: str


@dataclass(frozen=True, slots=True)
class SlotRange:
    first: int
    last: int

    def __str__(self) -> str:
        return f"{self.first}..{self.last}"

    def __len__(self) -> int:
        return self.last - self.first + 1


def parse_slots(text: str, *, limit: int = MAX_SLOTS) -> SlotRange:
    """`A..B` (both included) or a single slot `A`; ValueError for anything else or a slice over `limit`."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?", text)
    if not match:
        raise ValueError(f"slots must look like A..B (e.g. 270893650..270893660), got {text!r}")
    first = int(match.group(1))
    last = int(match.group(2)) if match.group(2) is not None else first
    if last < first:
        raise ValueError(f"slots {text!r}: the last slot {last} is before the first {first}")
    if last - first + 1 > limit:
        raise ValueError(f"slots {text!r} span {last - first + 1} slots; at most {limit} a run")
    return SlotRange(first, last)


# --------------------------------------------------------------------------- files


def read_paths(paths: Sequence[str | Path]) -> list[Block]:
    """Every `getTransaction` / `getBlock` result in these files and folders, decoded, in slot order
    (then in the order given; a folder's files in name order)."""
    blocks = [_read_file(path) for path in _files(paths)]
    return sorted(blocks, key=lambda block: block.slot)  # stable: same slot keeps the given order


def _files(paths: Sequence[str | Path]) -> Iterator[Path]:
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                relative = child.relative_to(path).parts
                if (child.is_file() and not any(part.startswith(".") for part in relative)
                        and child.suffix.lower() not in _SKIP_SUFFIXES):
                    yield child
        elif path.is_file():
            yield path
        else:
            raise IngestError("no such file or folder", source=str(path))


def _read_file(path: Path) -> Block:
    try:
        document = loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, JsonError, ValueError) as exc:
        raise IngestError(f"cannot read a getTransaction or getBlock result: {exc}", source=str(path)) from None
    if isinstance(document, Mapping) and "jsonrpc" in document and "result" in document:
        document = document["result"]  # a whole JSON-RPC answer
    if not isinstance(document, Mapping):
        raise IngestError("holds no getTransaction or getBlock result (expected a JSON object)", source=str(path))
    if "transactions" in document:
        slot = document.get("slot")
        if slot is None and path.name.isdigit():
            slot = int(path.name)  # a getBlock result does not hold its own slot: the file is named by it
        if type(slot) is not int:
            raise IngestError("a getBlock result does not say its slot: name the file by the slot "
                              "(e.g. 270893658) or add a `slot` member", source=str(path))
        return block_from_result(slot, document, source=str(path))
    name = path.name if re.fullmatch(r"[1-9A-HJ-NP-Za-km-z]{64,88}", path.name) else None
    tx = decode_transaction(document, source=str(path), signature_hint=name)
    return Block(tx.slot, (transaction_changes(tx, source=str(path)),), str(path))


def block_from_result(slot: int, result: Mapping[str, Any], *, source: str) -> Block:
    """A `getBlock` result (transactionDetails full, base64) as the ledger changes of its transactions."""
    entries = result.get("transactions")
    if not isinstance(entries, list):
        raise IngestError("a getBlock result needs `transactions` (fetch with transactionDetails full)",
                          source=source)
    block_time = result.get("blockTime")
    changes = []
    for index, entry in enumerate(entries):
        where = f"{source}, transaction {index}"
        tx = decode_transaction(entry, slot=slot, block_time=block_time if block_time is not None else 0,
                                source=where)
        changes.append(transaction_changes(tx, source=where))
    return Block(slot, tuple(changes), source)


# --------------------------------------------------------------------------- Solana JSON-RPC


def progress_printer(stream: TextIO | None = None) -> Callable[[str], None]:
    """Show a progress line: rewritten in place on a terminal, a line per 10% elsewhere."""
    out = stream or sys.stderr
    live = hasattr(out, "isatty") and out.isatty()
    last_step = [-1]

    def show(text: str, fraction: float = 0.0, final: bool = False) -> None:
        if live:
            out.write(f"\r\x1b[K{text}" + ("\n" if final else ""))
            out.flush()
            return
        step = int(fraction * 10)
        if final or step > last_step[0]:
            last_step[0] = step
            out.write(text + "\n")
            out.flush()

    return show


class _Rpc:
    """Bounded JSON-RPC calls with retries; every message names the endpoint redacted."""

    def __init__(self, url: str, client: httpx.Client) -> None:
        self.url = url
        self.shown = redact_url(url)
        self.client = client
        self.next_id = 0

    def call(self, method: str, params: list[Any], *, where: str) -> tuple[Any, dict | None]:
        """(result, None) or (None, error object); IngestError when the endpoint cannot be asked."""
        problem = ""
        for attempt in range(RETRIES):
            if attempt:
                time.sleep(min(8.0, 0.25 * 2**attempt))
            self.next_id += 1
            body = dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
            try:
                status, text, retry_after = self._post(body)
            except httpx.HTTPError as exc:
                problem = f"{type(exc).__name__}: {redact_url(str(exc)) if '://' in str(exc) else exc}"
                continue
            if status == 429 or status >= 500:
                problem = f"HTTP {status}"
                if retry_after:
                    time.sleep(min(10.0, retry_after))
                continue
            if status != 200:
                raise IngestError(f"{method} answered HTTP {status}", source=f"{where} from {self.shown}")
            try:
                answer = loads(text)
            except (JsonError, ValueError) as exc:
                raise IngestError(f"{method} answered no JSON: {exc}", source=f"{where} from {self.shown}") from None
            if not isinstance(answer, dict) or ("result" not in answer and "error" not in answer):
                raise IngestError(f"{method} answered no JSON-RPC result", source=f"{where} from {self.shown}")
            error = answer.get("error")
            if error is not None:
                if isinstance(error, dict) and error.get("code") in RETRY_CODES:
                    problem = f"error {error.get('code')}: {error.get('message')}"
                    continue
                return None, error if isinstance(error, dict) else {"code": None, "message": str(error)}
            return answer["result"], None
        raise IngestError(f"{method} failed {RETRIES} times, last: {problem}", source=f"{where} from {self.shown}")

    def _post(self, body: str) -> tuple[int, str, float | None]:
        with self.client.stream("POST", self.url, content=body.encode("utf-8"),
                                headers={"content-type": "application/json"}) as response:
            chunks, size = [], 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > MAX_RESPONSE_BYTES:
                    raise IngestError(f"an answer is larger than {MAX_RESPONSE_BYTES} bytes", source=self.shown)
                chunks.append(chunk)
            retry_after = parse_retry_after(response.headers.get("retry-after"))
            return response.status_code, b"".join(chunks).decode("utf-8", "replace"), retry_after


def fetch_blocks(url: str, slots: SlotRange, *, cache_dir: Path | None = None,
                 progress: Callable[..., None] | None = None, timeout: float = 30.0,
                 commitment: str = "finalized", transport: httpx.BaseTransport | None = None) -> list[Block]:
    """The blocks of `slots` from a Solana JSON-RPC endpoint, decoded, in slot order.

    `getBlocks` lists the slots that have a block; each is fetched with `getBlock`
    (transactionDetails full, base64, maxSupportedTransactionVersion 0, no rewards). A slot that
    turns out skipped (errors -32007 / -32009) is left out. With `cache_dir`, each answer is kept
    there as it arrives (`<slot>.json`, `<slot>.skipped`) and read back instead of fetched again.
    """
    show = progress or (lambda *args, **kwargs: None)
    if cache_dir is not None:
        cache_dir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with httpx.Client(timeout=timeout, transport=transport, follow_redirects=False) as client:
        rpc = _Rpc(url, client)
        listed, error = rpc.call("getBlocks", [slots.first, slots.last, {"commitment": commitment}],
                                 where=f"slots {slots}")
        if error is not None:
            raise IngestError(f"getBlocks failed: {error.get('message')} (code {error.get('code')})",
                              source=f"slots {slots} from {rpc.shown}")
        if not isinstance(listed, list) or not all(type(s) is int and slots.first <= s <= slots.last for s in listed):
            raise IngestError("getBlocks answered something other than slots of the range",
                              source=f"slots {slots} from {rpc.shown}")
        wanted = sorted(set(listed))
        blocks: list[Block] = []
        cached = skipped = transactions = 0
        for number, slot in enumerate(wanted, 1):
            result, from_cache = _block_result(rpc, slot, cache_dir, commitment)
            cached += from_cache
            if result is None:
                skipped += 1
            else:
                block = block_from_result(slot, result, source=f"slot {slot} from {rpc.shown}")
                transactions += len(block.transactions)
                blocks.append(block)
            rate = number / max(time.monotonic() - started, 1e-9)
            show(f"csi: ledger slots {slots}: {number}/{len(wanted)} blocks ({cached} cached, {skipped} skipped, "
                 f"{len(slots) - len(wanted)} slots without a block), {transactions} transactions, "
                 f"{rate:.1f} blocks/s", number / max(len(wanted), 1), number == len(wanted))
        if not wanted:
            show(f"csi: ledger slots {slots}: no block in the range", 1.0, True)
    return blocks


def _block_result(rpc: _Rpc, slot: int, cache_dir: Path | None, commitment: str) -> tuple[Any, bool]:
    """(getBlock result or None for a skipped slot, whether it came from the cache)."""
    if cache_dir is not None:
        kept = cache_dir / f"{slot}.json"
        if (cache_dir / f"{slot}.skipped").exists():
            return None, True
        if kept.exists():
            try:
                return loads(kept.read_text(encoding="utf-8")), True
            except (OSError, JsonError, ValueError):
                kept.unlink(missing_ok=True)  # a damaged cache entry is fetched again
    config = {"encoding": "base64", "transactionDetails": "full", "maxSupportedTransactionVersion": 0,
              "rewards": False, "commitment": commitment}
    result, error = rpc.call("getBlock", [slot, config], where=f"slot {slot}")
    if error is not None and error.get("code") not in SKIPPED_CODES:
        raise IngestError(f"getBlock failed: {error.get('message')} (code {error.get('code')})",
                          source=f"slot {slot} from {rpc.shown}")
    if error is None and not isinstance(result, dict):
        raise IngestError("getBlock answered no block", source=f"slot {slot} from {rpc.shown}")
    if cache_dir is not None:
        write_atomic(cache_dir / (f"{slot}.skipped" if error is not None else f"{slot}.json"),
                     "" if error is not None else dumps(result))
    return (None if error is not None else result), False
