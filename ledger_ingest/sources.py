"""Where real transactions come from: files and folders of `getTransaction` / `getBlock` results,
or a slice of slots fetched from a Solana JSON-RPC endpoint.

Everything is read and decoded before anything is applied, so a source that cannot be read is
an `IngestError` and never a half-built ledger. Blocks come back in slot order; blocks of the
same slot (single transactions from files) stay in the order given.

Fetching is bounded (at most `MAX_SLOTS` slots a slice, `MAX_RESPONSE_BYTES` an answer, a few
retries with back-off), resumable (each block is kept as it arrives in the cache folder of the
node's chain, `block_cache`, and a second run fetches only what is missing or no longer the
block the node serves: its hashes and its transactions' signatures), follows a node whose tip
has not reached the slice's end (up to a deadline, and says how far it read) and shows its
progress. The endpoint's key never appears in any message: `redact_url` (`groundwork.redaction`,
the kit's one) replaces it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from csi_conformance.groundwork.errors import ConfigError, JsonError
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.groundwork.redaction import redact_url
from csi_conformance.groundwork.retry_after import parse_retry_after
from csi_conformance.ledger_ingest.block_cache import BlockCache, still_served
from csi_conformance.ledger_ingest.changes import LedgerTransaction, transaction_changes
from csi_conformance.ledger_ingest.decode import IngestError, decode_transaction
from csi_conformance.ledger_ingest.progress import progress_printer

__all__ = [
    "DEFAULT_WAIT",
    "MAX_RESPONSE_BYTES",
    "MAX_SLOTS",
    "Block",
    "FetchedSlice",
    "LedgerNotReached",
    "SlotRange",
    "block_from_result",
    "fetch_blocks",
    "fetch_slice",
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
DEFAULT_WAIT = 300.0
"""Seconds a read follows a node whose tip has not reached the slice's last slot (`--ledger-wait`)."""
POLL_SECONDS = 0.4
"""How often a followed node is asked its tip: a slot's time."""
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


class LedgerNotReached(ConfigError):
    """The node had not produced a slice's last slot by the deadline: the ledger read is not the one asked for."""


@dataclass(frozen=True, slots=True)
class FetchedSlice:
    """The blocks read of a slice, and how far the node let the read go."""

    blocks: list[Block]
    asked: SlotRange
    read: SlotRange | None
    """The slots read whole (from the first asked): all of `asked`, or less when the node's tip had not reached
    its last slot by the deadline; None when it had not reached the first."""
    tip: int | None = None
    """The node's newest slot when the read stopped."""

    @property
    def complete(self) -> bool:
        return self.read is not None and self.read.last >= self.asked.last

    def shortfall(self, wait: float) -> str:
        """What was read of a slice that is not complete, in one sentence."""
        held = f"read only slots {self.read}" if self.read is not None else "read no slot of it"
        return (f"slots {self.asked}: the node's tip was at slot {self.tip} after waiting {wait:g} s for slot "
                f"{self.asked.last}, so the kit {held}")


def fetch_blocks(url: str, slots: SlotRange, **options: Any) -> list[Block]:
    """The blocks of `slots` (see `fetch_slice`); IngestError when the node has not reached the last slot by the
    deadline."""
    fetched = fetch_slice(url, slots, **options)
    if not fetched.complete:
        raise IngestError(fetched.shortfall(options.get("wait", DEFAULT_WAIT)), source=redact_url(url))
    return fetched.blocks


def fetch_slice(url: str, slots: SlotRange, *, cache: Path | None = None, progress: Callable[..., None] | None = None,
                timeout: float = 30.0, commitment: str = "finalized", transport: httpx.BaseTransport | None = None,
                wait: float = DEFAULT_WAIT, poll: float = POLL_SECONDS) -> FetchedSlice:
    """The blocks of `slots` from a Solana JSON-RPC endpoint, decoded, in slot order.

    `getBlocks` lists the slots that have a block; each is fetched with `getBlock`
    (transactionDetails full, base64, maxSupportedTransactionVersion 0, no rewards). A slot that
    turns out skipped (errors -32007 / -32009) is left out. When the node's tip (`getSlot`) is
    before the last slot, the read follows it, a poll every `poll` seconds, for at most `wait`
    seconds; what it read by then is returned, and says so. With `cache` (a folder of chains'
    folders), each answer is kept in the folder of the node's chain (`block_cache`) as it
    arrives, and read back instead of fetched again while the node still serves that very block (its
    hashes and its transactions' signatures, from `getBlock` with transactionDetails signatures).
    """
    show = progress or (lambda *args, **kwargs: None)
    started = time.monotonic()
    with httpx.Client(timeout=timeout, transport=transport, follow_redirects=False) as client:
        rpc = _Rpc(url, client)
        store = _chain_cache(rpc, cache, show)
        results: dict[int, Any] = {}
        read_to, tip = slots.first - 1, _tip(rpc, slots, commitment)
        counts = {"listed": 0, "cached": 0, "transactions": 0, "followed": 0, "refetched": 0}
        while True:
            upto = min(tip, slots.last)
            if upto > read_to:
                listing = _listed(rpc, SlotRange(read_to + 1, upto), commitment)
                counts["listed"] += len(listing)
                for slot in listing:
                    found, result = store.get(slot)
                    if found and not still_served(result, _served(rpc, slot, commitment)):
                        found = False
                        counts["refetched"] += 1
                    if not found:
                        result = _fetched(rpc, slot, store, commitment)
                    results[slot] = result
                    counts["cached"] += found
                    counts["transactions"] += len(result.get("transactions") or []) if result else 0
                    _show_progress(show, slots, results, counts, started, slot,
                                   final=upto == slots.last and slot == listing[-1])
                read_to = upto
            if read_to >= slots.last:
                break
            show(f"csi: ledger slots {slots}: the node is at slot {tip}, before {slots.last}: following it "
                 f"(up to {wait:g} s, --ledger-wait), {len(results)} blocks so far",
                 max(read_to - slots.first + 1, 0) / len(slots), not counts["followed"])
            counts["followed"] += 1
            if time.monotonic() - started >= wait:
                break
            time.sleep(poll)
            tip = _tip(rpc, slots, commitment)
        if counts["refetched"]:
            show(f"csi: ledger slots {slots}: {counts['refetched']} kept blocks were not the blocks the node serves: "
                 f"fetched again", 1.0, True)
        if not results:
            show(f"csi: ledger slots {slots}: no block in the slots read", 1.0, True)
    blocks = [block_from_result(slot, result, source=f"slot {slot} from {rpc.shown}")
              for slot, result in sorted(results.items()) if result is not None]
    read = SlotRange(slots.first, read_to) if read_to >= slots.first else None
    return FetchedSlice(blocks, slots, read, tip)


def _show_progress(show: Callable[..., None], slots: SlotRange, results: dict[int, Any], counts: dict[str, int],
                   started: float, slot: int, *, final: bool) -> None:
    """A line of the read so far; its fraction is of the slots (a line per 10% of them in a log)."""
    skipped = sum(1 for result in results.values() if result is None)
    rate = len(results) / max(time.monotonic() - started, 1e-9)
    show(f"csi: ledger slots {slots}: {len(results)}/{counts['listed']} blocks ({counts['cached']} cached, "
         f"{skipped} skipped), {counts['transactions']} transactions, {rate:.1f} blocks/s",
         (slot - slots.first + 1) / len(slots), final)


def _chain_cache(rpc: _Rpc, root: Path | None, show: Callable[..., None]) -> BlockCache:
    """The cache folder of the node's chain under `root` (none without a root, or when the node does not say its
    genesis hash: blocks of two chains must never share a folder)."""
    if root is None:
        return BlockCache(None)
    genesis, error = rpc.call("getGenesisHash", [], where="the chain's genesis hash")
    if error is not None or not isinstance(genesis, str) or not genesis:
        show(f"csi: {rpc.shown} does not say its genesis hash (getGenesisHash): its blocks are not kept", 0.0, True)
        return BlockCache(None)
    return BlockCache.of_chain(root, genesis)


def _tip(rpc: _Rpc, slots: SlotRange, commitment: str) -> int:
    tip, error = rpc.call("getSlot", [{"commitment": commitment}], where=f"slots {slots}")
    if error is not None or type(tip) is not int:
        what = f"{error.get('message')} (code {error.get('code')})" if error is not None else "no slot"
        raise IngestError(f"getSlot failed: {what}", source=f"slots {slots} from {rpc.shown}")
    return tip


def _listed(rpc: _Rpc, slots: SlotRange, commitment: str) -> list[int]:
    listed, error = rpc.call("getBlocks", [slots.first, slots.last, {"commitment": commitment}], where=f"slots {slots}")
    if error is not None:
        raise IngestError(f"getBlocks failed: {error.get('message')} (code {error.get('code')})",
                          source=f"slots {slots} from {rpc.shown}")
    if not isinstance(listed, list) or not all(type(s) is int and slots.first <= s <= slots.last for s in listed):
        raise IngestError("getBlocks answered something other than slots of the range",
                          source=f"slots {slots} from {rpc.shown}")
    return sorted(set(listed))


_BLOCK = {"encoding": "base64", "transactionDetails": "full", "maxSupportedTransactionVersion": 0, "rewards": False}


def _fetched(rpc: _Rpc, slot: int, store: BlockCache, commitment: str) -> Any:
    """The node's getBlock result of a slot (None for a skipped one), kept in `store`."""
    result = _get_block(rpc, slot, {**_BLOCK, "commitment": commitment})
    store.put(slot, result)
    return result


def _served(rpc: _Rpc, slot: int, commitment: str) -> Any:
    """The node's block of a slot with its transactions' signatures only (None for a skipped one): what a kept
    block is held to."""
    return _get_block(rpc, slot, {"transactionDetails": "signatures", "rewards": False,
                                  "maxSupportedTransactionVersion": 0, "commitment": commitment})


def _get_block(rpc: _Rpc, slot: int, config: dict[str, Any]) -> Any:
    result, error = rpc.call("getBlock", [slot, config], where=f"slot {slot}")
    if error is not None and error.get("code") not in SKIPPED_CODES:
        raise IngestError(f"getBlock failed: {error.get('message')} (code {error.get('code')})",
                          source=f"slot {slot} from {rpc.shown}")
    if error is None and not isinstance(result, dict):
        raise IngestError("getBlock answered no block", source=f"slot {slot} from {rpc.shown}")
    return None if error is not None else result
