"""A local stub of a Solana JSON-RPC endpoint that serves fixture blocks, for tests and benchmarks.

It answers `getBlocks`, `getBlock` (the blocks it was given, whatever encoding is asked: they are
already base64; with `transactionDetails: none`, the header alone; with `signatures`, the header and
the transactions' first signatures), `getSlot`, `getGenesisHash`,
`getVersion` and `getHealth` on 127.0.0.1, on a thread; any other method is -32601 "Method not
found", as a node answers. Slots in `skipped` are listed by `getBlocks` but answer error -32009, as
a node does for a slot missing from long-term storage; `fail_first` answers that many requests with
HTTP 429 first; with `api_key`, a request without `?api-key=` is refused with HTTP 401.

The node's tip is `tip` (default: far past the last block, so every slice of the blocks is in the
past); with `advance`, each `getSlot` answer moves it on by that many slots, so a test drives a
node producing slots by its own answers, with no clock. Nothing past the tip is listed or served
(-32004). `genesis` is what `getGenesisHash` answers (default: a hash of the blocks, so two ledgers
are two chains). `requests` counts the requests served, `block_requests` the whole blocks fetched,
`header_requests` the headers (with or without signatures).
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Iterable, Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.ledger_ingest.block_cache import block_signatures

__all__ = ["StubSolanaRpc", "blocks_from_transactions", "stub_solana_rpc"]


def blocks_from_transactions(results: Iterable[Mapping[str, Any]]) -> dict[int, dict[str, Any]]:
    """`getTransaction` results grouped into the `getBlock` results of their slots, in the order given, linked
    as a node's are: each block's `parentSlot` and `previousBlockhash` name the block before it, and its
    `blockhash` is a hash of that one's and of its own transactions (another ledger, other hashes)."""
    blocks: dict[int, dict[str, Any]] = {}
    for result in results:
        slot = result["slot"]
        block = blocks.setdefault(slot, {"blockTime": result.get("blockTime"), "blockHeight": slot,
                                         "transactions": []})
        block["transactions"].append({key: result[key] for key in ("transaction", "meta", "version") if key in result})
    return link_blocks(blocks)


def link_blocks(blocks: Mapping[int, Mapping[str, Any]]) -> dict[int, dict[str, Any]]:
    """The blocks, in slot order, with `parentSlot`, `previousBlockhash` and `blockhash` chaining them."""
    linked: dict[int, dict[str, Any]] = {}
    parent, previous = None, b58encode(hashlib.sha256(b"stub genesis").digest())
    for slot in sorted(blocks):
        body = {key: value for key, value in blocks[slot].items()
                if key not in ("blockhash", "previousBlockhash", "parentSlot")}
        digest = hashlib.sha256(previous.encode() + dumps(body.get("transactions", [])).encode()).digest()
        linked[slot] = {"blockhash": b58encode(digest), "previousBlockhash": previous,
                        "parentSlot": slot - 1 if parent is None else parent, **body}
        parent, previous = slot, linked[slot]["blockhash"]
    return linked


class StubSolanaRpc:
    def __init__(self, blocks: Mapping[int, Mapping[str, Any]], *, skipped: Iterable[int] = (),
                 fail_first: int = 0, api_key: str | None = None, tip: int | None = None, advance: int = 0,
                 genesis: str | None = None) -> None:
        self.blocks = {slot: dumps(block) for slot, block in blocks.items()}
        self.headers = {slot: dumps({k: v for k, v in block.items() if k != "transactions"})
                        for slot, block in blocks.items()}
        self.signed = {slot: dumps({**{k: v for k, v in block.items() if k != "transactions"},
                                    "signatures": block_signatures(dict(block)) or []})
                       for slot, block in blocks.items()}
        self.skipped = set(skipped)
        self.fail_first = fail_first
        self.api_key = api_key
        self.tip = max({*self.blocks, *self.skipped}, default=0) + 1000 if tip is None else tip
        self.advance = advance
        self.genesis = genesis or b58encode(hashlib.sha256("".join(self.blocks.values()).encode()).digest())
        self.requests = 0
        self.block_requests = 0
        self.header_requests = 0
        self._lock = threading.Lock()

    def answer(self, query: str, body: bytes) -> tuple[int, str]:
        with self._lock:
            self.requests += 1
            if self.fail_first > 0:
                self.fail_first -= 1
                return 429, '{"error": "slow down"}'
        if self.api_key is not None and parse_qs(query).get("api-key") != [self.api_key]:
            return 401, '{"error": "unauthorized"}'
        try:
            request = loads(body.decode("utf-8"))
            method, params, request_id = request["method"], request.get("params") or [], request.get("id")
        except Exception:
            return 200, dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
        if method == "getBlocks":
            last = min(params[1] if len(params) > 1 and isinstance(params[1], int) else self.tip, self.tip)
            listed = sorted(s for s in {*self.blocks, *self.skipped} if params[0] <= s <= last)
            return self._result(request_id, listed)
        if method == "getBlock":
            return self._block(request_id, params)
        if method == "getSlot":
            with self._lock:
                tip, self.tip = self.tip, self.tip + self.advance
            return self._result(request_id, tip)
        if method == "getGenesisHash":
            return self._result(request_id, self.genesis)
        if method == "getVersion":
            return self._result(request_id, {"solana-core": "2.1.0", "feature-set": 0})
        if method == "getHealth":
            return self._result(request_id, "ok")
        missing = {"code": -32601, "message": "Method not found"}
        return 200, dumps({"jsonrpc": "2.0", "id": request_id, "error": missing})

    def _block(self, request_id: Any, params: list[Any]) -> tuple[int, str]:
        slot = params[0]
        details = params[1].get("transactionDetails") if len(params) > 1 and isinstance(params[1], dict) else None
        header = details in ("none", "signatures")
        with self._lock:
            if header:
                self.header_requests += 1
            else:
                self.block_requests += 1
        if type(slot) is int and slot > self.tip:
            return 200, dumps({"jsonrpc": "2.0", "id": request_id, "error": {
                "code": -32004, "message": f"Block not available for slot {slot}"}})
        if slot in self.blocks and slot not in self.skipped:
            text = {"none": self.headers, "signatures": self.signed}.get(details, self.blocks)[slot]
            return 200, f'{{"jsonrpc":"2.0","id":{dumps(request_id)},"result":{text}}}'
        return 200, dumps({"jsonrpc": "2.0", "id": request_id, "error": {
            "code": -32009, "message": f"Slot {slot} was skipped, or missing in long-term storage"}})

    @staticmethod
    def _result(request_id: Any, result: Any) -> tuple[int, str]:
        return 200, dumps({"jsonrpc": "2.0", "id": request_id, "result": result})


@contextlib.contextmanager
def stub_solana_rpc(blocks: Mapping[int, Mapping[str, Any]], *, port: int = 0,
                    **options: Any) -> Iterator[tuple[str, StubSolanaRpc]]:
    """Serve `blocks` on a loopback port (`port`, default a free one); yields (base URL, the stub)."""
    stub = StubSolanaRpc(blocks, **options)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            status, text = stub.answer(urlsplit(self.path).query, self.rfile.read(length))
            payload = text.encode("utf-8")
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="stub-solana-rpc", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", stub
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
