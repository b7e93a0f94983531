"""A local stub of a Solana JSON-RPC endpoint that serves fixture blocks, for tests and benchmarks.

It answers `getBlocks`, `getBlock` (the blocks it was given, whatever encoding is asked: they are
already base64), `getSlot` and `getHealth` on 127.0.0.1, on a thread. Slots in `skipped` are
listed by `getBlocks` but answer error -32009, as a node does for a slot missing from long-term
storage; `fail_first` answers that many requests with HTTP 429 first; with `api_key`, a request
without `?api-key=` is refused with HTTP 401. `requests` counts the requests served.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from schema.jsonio import dumps, loads

__all__ = ["StubSolanaRpc", "blocks_from_transactions", "stub_solana_rpc"]


def blocks_from_transactions(results: Iterable[Mapping[str, Any]]) -> dict[int, dict[str, Any]]:
    """`getTransaction` results grouped into the `getBlock` results of their slots, in the order given."""
    blocks: dict[int, dict[str, Any]] = {}
    for result in results:
        slot = result["slot"]
        block = blocks.setdefault(slot, {
            "blockhash": f"stub-block-{slot}", "previousBlockhash": f"stub-block-{slot - 1}",
            "parentSlot": slot - 1, "blockTime": result.get("blockTime"), "blockHeight": slot, "transactions": [],
        })
        block["transactions"].append({key: result[key] for key in ("transaction", "meta", "version") if key in result})
    return blocks


class StubSolanaRpc:
    def __init__(self, blocks: Mapping[int, Mapping[str, Any]], *, skipped: Iterable[int] = (),
                 fail_first: int = 0, api_key: str | None = None) -> None:
        self.blocks = {slot: dumps(block) for slot, block in blocks.items()}
        self.skipped = set(skipped)
        self.fail_first = fail_first
        self.api_key = api_key
        self.requests = 0
        self.block_requests = 0
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
            last = params[1] if len(params) > 1 and isinstance(params[1], int) else max(self.blocks, default=0)
            listed = sorted(s for s in {*self.blocks, *self.skipped} if params[0] <= s <= last)
            return self._result(request_id, listed)
        if method == "getBlock":
            slot = params[0]
            with self._lock:
                self.block_requests += 1
            if slot in self.blocks and slot not in self.skipped:
                return 200, f'{{"jsonrpc":"2.0","id":{dumps(request_id)},"result":{self.blocks[slot]}}}'
            return 200, dumps({"jsonrpc": "2.0", "id": request_id, "error": {
                "code": -32009, "message": f"Slot {slot} was skipped, or missing in long-term storage"}})
        if method == "getSlot":
            return self._result(request_id, max(self.blocks, default=0))
        if method == "getHealth":
            return self._result(request_id, "ok")
        missing = {"code": -32601, "message": "Method not found"}
        return 200, dumps({"jsonrpc": "2.0", "id": request_id, "error": missing})

    @staticmethod
    def _result(request_id: Any, result: Any) -> tuple[int, str]:
        return 200, dumps({"jsonrpc": "2.0", "id": request_id, "result": result})


@contextlib.contextmanager
def stub_solana_rpc(blocks: Mapping[int, Mapping[str, Any]], **options: Any) -> Iterator[tuple[str, StubSolanaRpc]]:
    """Serve `blocks` on a free loopback port; yields (base URL, the stub)."""
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

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="stub-solana-rpc", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", stub
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
