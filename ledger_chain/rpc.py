"""`csi chain serve`: a Solana JSON-RPC node over a generated chain, on loopback, for indexers' ingesters.

It answers what ingesters call: `getSlot`, `getBlockHeight`, `getBlock` (json, jsonParsed, base64 or
base58; transaction details full, signatures or none; `maxSupportedTransactionVersion`; rewards),
`getBlocks`, `getBlocksWithLimit`, `getSignaturesForAddress`, `getTransaction` (the same encodings),
`getAccountInfo` (any account, from the chain replayed into LiteSVM up to the tip),
`getLatestBlockhash`, `getVersion`, `getHealth`, `getFirstAvailableBlock` and `getGenesisHash`; the errors are a
node's (`NODE_ERRORS`): a slot before the first block is missing from storage (-32009), a slot
without a block skipped (-32007), a slot past the tip not available yet (-32004). With `live`, the
tip starts at the first block and moves on a slot every `slot_time` seconds, so an indexer
catching up meets the chain's growth; without it, every block is there.
"""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.groundwork.errors import JsonError
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.ledger_chain.encodings import ENCODINGS, encode_entry
from csi_conformance.ledger_chain.replay import Replayer, read_chain
from csi_conformance.ledger_proofs.install import Installation
from solders.pubkey import Pubkey

__all__ = ["NODE_ERRORS", "ChainRpc", "RpcFailure"]

NODE_ERRORS = {
    -32700: "Parse error", -32600: "Invalid request", -32601: "Method not found", -32602: "Invalid params",
    -32004: "Block not available for slot {slot}",
    -32007: "Slot {slot} was skipped, or missing due to ledger jump to recent snapshot",
    -32009: "Slot {slot} was skipped, or missing in long-term storage",
}
"""The messages a Solana node gives with each code."""
MAX_RANGE = 500_000
MAX_SIGNATURES = 1000
VERSION = {"solana-core": "0.15.2", "feature-set": 0, "csi-chain": "LiteSVM 0.15.2 (solders 0.29), mainnet features"}
"""What `getVersion` says: the runtime is LiteSVM's (its version where a node puts its own)."""


class RpcFailure(Exception):
    def __init__(self, code: int, message: str | None = None, **values: Any) -> None:
        self.code = code
        super().__init__(message or NODE_ERRORS[code].format(**values))


def _params(params: Any, count: int) -> list[Any]:
    if params is None:
        params = []
    if not isinstance(params, list):
        raise RpcFailure(-32602, "Invalid params: expected an array")
    return params + [None] * (count - len(params))


def _config(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RpcFailure(-32602, "Invalid params: the configuration must be an object")
    return value


def _slot(value: Any, name: str = "slot") -> int:
    if type(value) is not int or value < 0:
        raise RpcFailure(-32602, f"Invalid params: {name} must be a non-negative integer")
    return value


class ChainRpc:
    """The answers of a node over one chain folder; `answer(body)` is the whole JSON-RPC exchange."""

    def __init__(self, folder: Path, *, live: bool = False, slot_time: float = 0.4,
                 installation: Installation | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.folder = Path(folder)
        source = read_chain(self.folder)
        self.manifest = source.manifest
        self.slots = source.slots
        if not self.slots:
            raise ValueError(f"{folder}: the chain has no block")
        self.texts = {slot: (self.folder / str(slot)).read_text(encoding="utf-8").strip() for slot in self.slots}
        self.blocks = {slot: loads(text) for slot, text in self.texts.items()}
        self.transactions: dict[str, tuple[int, int]] = {}
        self.by_address: dict[str, list[tuple[int, int]]] = {}
        for slot in self.slots:
            self._index(slot)
        self.live, self.slot_time, self.clock, self.started = live, slot_time, clock, clock()
        self._installation = installation
        self._state: Replayer | None = None
        self._lock = threading.Lock()
        self._cache: dict[tuple[Any, ...], str] = {}
        self.methods: dict[str, Callable[[list[Any]], Any]] = {
            name[4:]: getattr(self, name) for name in dir(self) if name.startswith("rpc_")}

    def _index(self, slot: int) -> None:
        for number, entry in enumerate(self.blocks[slot]["transactions"]):
            keys = encode_entry(entry, encoding="json", versioned=False)["transaction"]
            self.transactions[keys["signatures"][0]] = (slot, number)
            for key in dict.fromkeys(keys["message"]["accountKeys"]):
                self.by_address.setdefault(key, []).append((slot, number))

    # ------------------------------------------------------------------ the tip

    @property
    def first(self) -> int:
        return self.slots[0]

    def tip(self) -> int:
        """The newest slot released: the last block, or with `live` as far as time has come."""
        if not self.live:
            return self.slots[-1]
        released = self.first + int((self.clock() - self.started) / self.slot_time)
        return min(released, self.slots[-1])

    def _tip_block(self) -> dict[str, Any]:
        tip = self.tip()
        return self.blocks[max(s for s in self.slots if s <= tip)]

    # ------------------------------------------------------------------ JSON-RPC

    def answer(self, body: bytes) -> str:
        try:
            request = loads(body.decode("utf-8"))
        except (JsonError, ValueError, UnicodeDecodeError):
            return dumps({"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": None})
        if isinstance(request, list):
            return "[" + ",".join(self._one(item) for item in request) + "]" if request else self._one(request)
        return self._one(request)

    def _one(self, request: Any) -> str:
        if (not isinstance(request, dict) or request.get("jsonrpc") != "2.0"
                or not isinstance(request.get("method"), str)):
            return dumps({"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid request"}, "id": None})
        ident = dumps(request.get("id"))
        method = self.methods.get(request["method"])
        try:
            if method is None:
                raise RpcFailure(-32601)
            result = method(_params(request.get("params"), 3))
        except RpcFailure as failure:
            error = dumps({"code": failure.code, "message": str(failure)})
            return f'{{"jsonrpc":"2.0","error":{error},"id":{ident}}}'
        text = result.text if isinstance(result, _Raw) else dumps(result)
        return f'{{"jsonrpc":"2.0","result":{text},"id":{ident}}}'

    # ------------------------------------------------------------------ methods

    def rpc_getSlot(self, params: list[Any]) -> int:
        return self.tip()

    def rpc_getBlockHeight(self, params: list[Any]) -> int:
        return self._tip_block()["blockHeight"]

    def rpc_getFirstAvailableBlock(self, params: list[Any]) -> int:
        return self.first

    def rpc_getHealth(self, params: list[Any]) -> str:
        return "ok"

    def rpc_getVersion(self, params: list[Any]) -> dict[str, Any]:
        return VERSION

    def rpc_getGenesisHash(self, params: list[Any]) -> str:
        return self.manifest["genesis"]["blockhash"]

    def rpc_getLatestBlockhash(self, params: list[Any]) -> dict[str, Any]:
        block = self._tip_block()
        return {"context": {"slot": self.tip()},
                "value": {"blockhash": block["blockhash"], "lastValidBlockHeight": block["blockHeight"] + 150}}

    def rpc_getBlocks(self, params: list[Any]) -> list[int]:
        start = _slot(params[0], "start slot")
        end = params[1] if not isinstance(params[1], dict) else None
        end = self.tip() if end is None else _slot(end, "end slot")
        if end - start > MAX_RANGE:
            raise RpcFailure(-32602, f"Invalid params: slot range too large; max {MAX_RANGE}")
        last = min(end, self.tip())
        return [slot for slot in self.slots if start <= slot <= last]

    def rpc_getBlocksWithLimit(self, params: list[Any]) -> list[int]:
        start, limit = _slot(params[0], "start slot"), _slot(params[1], "limit")
        if limit > MAX_RANGE:
            raise RpcFailure(-32602, f"Invalid params: limit too large; max {MAX_RANGE}")
        return [slot for slot in self.slots if start <= slot <= self.tip()][:limit]

    def rpc_getBlock(self, params: list[Any]) -> Any:
        slot, config = _slot(params[0]), _config(params[1])
        encoding = config.get("encoding", "json")
        details = config.get("transactionDetails", "full")
        rewards = config.get("rewards", True)
        versioned = config.get("maxSupportedTransactionVersion") is not None
        if encoding not in ENCODINGS or details not in ("full", "signatures", "none"):
            raise RpcFailure(-32602, f"Invalid params: unsupported encoding {encoding!r} or transaction details "
                                     f"{details!r} (this node: {', '.join(ENCODINGS)}; full, signatures, none)")
        self._check_block_slot(slot)
        key = (slot, encoding, details, bool(rewards), versioned)
        if key not in self._cache:
            self._cache[key] = self._block_text(slot, encoding, details, bool(rewards), versioned)
        return _Raw(self._cache[key])

    def _check_block_slot(self, slot: int) -> None:
        if slot > self.tip():
            raise RpcFailure(-32004, slot=slot)
        if slot < self.first:
            raise RpcFailure(-32009, slot=slot)
        if slot not in self.blocks:
            raise RpcFailure(-32007, slot=slot)

    def _block_text(self, slot: int, encoding: str, details: str, rewards: bool, versioned: bool) -> str:
        if (encoding, details, rewards, versioned) == ("base64", "full", True, True):
            return self.texts[slot]  # the stored file is exactly this answer
        block = dict(self.blocks[slot])
        entries = block.pop("transactions")
        if not rewards:
            block.pop("rewards", None)
        if details == "full":
            block["transactions"] = [encode_entry(e, encoding=encoding, versioned=versioned) for e in entries]
        elif details == "signatures":
            block["signatures"] = [encode_entry(e, encoding="json", versioned=False)["transaction"]["signatures"][0]
                                   for e in entries]
        return dumps(block)

    def rpc_getTransaction(self, params: list[Any]) -> Any:
        signature, config = params[0], _config(params[1] if not isinstance(params[1], str) else {"encoding": params[1]})
        if not isinstance(signature, str):
            raise RpcFailure(-32602, "Invalid params: signature must be a base58 string")
        found = self.transactions.get(signature)
        if found is None or found[0] > self.tip():
            return None
        encoding = config.get("encoding", "json")
        if encoding not in ENCODINGS:
            raise RpcFailure(-32602, f"Invalid params: unsupported encoding {encoding!r}")
        slot, number = found
        entry = encode_entry(self.blocks[slot]["transactions"][number], encoding=encoding,
                             versioned=config.get("maxSupportedTransactionVersion") is not None)
        return {"slot": slot, "blockTime": self.blocks[slot]["blockTime"], **entry}

    def rpc_getSignaturesForAddress(self, params: list[Any]) -> list[dict[str, Any]]:
        address, config = params[0], _config(params[1])
        if not isinstance(address, str):
            raise RpcFailure(-32602, "Invalid params: address must be a base58 pubkey")
        limit = config.get("limit", MAX_SIGNATURES)
        if type(limit) is not int or not 1 <= limit <= MAX_SIGNATURES:
            raise RpcFailure(-32602, f"Invalid params: limit must be between 1 and {MAX_SIGNATURES}")
        found = [p for p in reversed(self.by_address.get(address, [])) if p[0] <= self.tip()]
        items = [(p, self._signature_of(p)) for p in found]
        for bound, keep_after in ((config.get("before"), True), (config.get("until"), False)):
            positions = [i for i, (_, sig) in enumerate(items) if sig == bound]
            if positions:
                items = items[positions[0] + 1:] if keep_after else items[:positions[0]]
        return [self._signature_info(place, signature) for place, signature in items[:limit]]

    def rpc_getConfirmedSignaturesForAddress2(self, params: list[Any]) -> list[dict[str, Any]]:
        """The name older clients (web3.js 1.x's `getConfirmedSignaturesForAddress2`) still call."""
        return self.rpc_getSignaturesForAddress(params)

    def _signature_of(self, place: tuple[int, int]) -> str:
        entry = self.blocks[place[0]]["transactions"][place[1]]
        return encode_entry(entry, encoding="json", versioned=False)["transaction"]["signatures"][0]

    def _signature_info(self, place: tuple[int, int], signature: str) -> dict[str, Any]:
        slot, number = place
        err = self.blocks[slot]["transactions"][number]["meta"]["err"]
        return {"signature": signature, "slot": slot, "err": err, "memo": None,
                "blockTime": self.blocks[slot]["blockTime"], "confirmationStatus": "finalized"}

    def rpc_getAccountInfo(self, params: list[Any]) -> dict[str, Any]:
        key, config = params[0], _config(params[1])
        try:
            pubkey = Pubkey.from_bytes(b58decode(key, length=32)) if isinstance(key, str) else None
        except ValueError:
            pubkey = None
        if pubkey is None:
            raise RpcFailure(-32602, "Invalid params: not a base58 pubkey")
        if config.get("encoding", "base64") not in ("base64", "base58"):
            raise RpcFailure(-32602, "Invalid params: this node encodes account data as base64 or base58")
        account = self._state_at_tip().runtime.svm.get_account(pubkey)
        context = {"slot": self.tip(), "apiVersion": VERSION["solana-core"]}
        if account is None:
            return {"context": context, "value": None}
        data = bytes(account.data)
        encoded = [base64.b64encode(data).decode(), "base64"] if config.get("encoding", "base64") == "base64" \
            else [b58encode(data), "base58"]
        return {"context": context, "value": {"data": encoded, "executable": account.executable,
                                              "lamports": account.lamports, "owner": str(account.owner),
                                              "rentEpoch": 18446744073709551615, "space": len(data)}}

    def _state_at_tip(self) -> Any:
        with self._lock:
            if self._state is None:
                self._state = Replayer(self.folder, installation=self._installation)
            return self._state.upto(self.tip())


class _Raw:
    """A result already written as JSON text (a stored block)."""

    def __init__(self, text: str) -> None:
        self.text = text
