"""Build the mirror: a scenario document standing for what discovery saw of a target."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.harness.checks.differential.mirror.records import U64, Record, Unmirrorable, parse_record
from csi_conformance.harness.core.keys import Keys
from csi_conformance.ledger_crypto import account_hash

__all__ = ["MIRROR_SEED", "MirrorBuild", "build_mirror", "synthetic_signature"]

MIRROR_SEED = "csi-mirror"


@dataclass
class MirrorBuild:
    """A scenario document standing for what discovery saw, and what it can be compared on."""

    document: dict[str, Any]
    to_target: dict[str, str] = field(default_factory=dict)
    """Mirror account hash -> the target account hash it stands for."""
    to_mirror: dict[str, str] = field(default_factory=dict)
    """The inverse: target account hash -> its mirror account's hash."""
    live: set[str] = field(default_factory=set)
    """Target hashes of accounts an owner or token owner list showed live."""
    closed: set[str] = field(default_factory=set)
    """Target hashes of accounts a discovered transaction closed."""
    replayed: set[str] = field(default_factory=set)
    """Signatures of the target's transactions replayed whole, with their slot and blockTime."""
    owners: list[str] = field(default_factory=list)
    """Owners whose live accounts the mirror holds exactly (discovery saw their whole list)."""
    token_owners: list[str] = field(default_factory=list)
    """Token owners whose live token accounts the mirror holds exactly."""
    blocked: set[str] = field(default_factory=set)
    """Owners, token owners, delegates and addresses of accounts the mirror could not hold as shown."""
    contradictions: list[str] = field(default_factory=list)
    """What the target showed that no ledger can hold (a finding)."""
    dropped: list[str] = field(default_factory=list)
    """What the mirror left out, and why (not a finding)."""

    def map(self, mirror_hash: str, target_hash: str) -> None:
        self.to_target[mirror_hash] = target_hash
        self.to_mirror[target_hash] = mirror_hash


def synthetic_signature(index: int) -> str:
    """The signature of the mirror's `index`-th invented transaction (never one a target shows)."""
    return b58encode(hashlib.sha512(b"csi-mirror-invented\0" + index.to_bytes(8, "big")).digest())


class _Builder:
    """Turns `Keys` into a `MirrorBuild`; every step is one rule of what the mirror may assume."""

    def __init__(self, keys: Keys) -> None:
        self.keys = keys
        self.build = MirrorBuild(document={})
        self.records: dict[str, Record] = {}
        self.blocked: set[str] = set()  # owners, token owners, addresses the mirror does not hold whole
        self.opener: dict[str, str] = {}
        self.closer: dict[str, str] = {}
        self.times: dict[str, tuple[int, int]] = {}

    def run(self) -> MirrorBuild:
        self._collect()
        self._transactions()
        self._liveness()
        self._emit(self._plan())
        return self.build

    # -- what the target showed ---------------------------------------------------------
    def _collect(self) -> None:
        """Every view of every account; a view with token data wins over one without."""
        views = [(h, i.get("account"), i.get("tokenData")) for h, i in self.keys.token_accounts.items()]
        views += [(h, seen["account"], seen.get("tokenData")) for h, seen in self.keys.touched.items()]
        views += [(h, a, None) for h, a in self.keys.accounts.items()]
        unheld: set[str] = set()
        for target_hash, account, token in views:
            if target_hash in self.records or target_hash in unheld or not isinstance(account, dict):
                continue
            try:
                token = token if isinstance(token, dict) else None
                self.records[target_hash] = parse_record(target_hash, account, token)
            except Unmirrorable as reason:
                unheld.add(target_hash)
                self._drop(f"account {target_hash}: {reason}", account, token)

    def _unhold(self, target_hash: str, why: str) -> None:
        """Leave out an account already parsed: no transaction opens or closes it in the mirror."""
        record = self.records.pop(target_hash)
        self.build.live.discard(target_hash)
        self.build.closed.discard(target_hash)
        self._drop(f"account {target_hash}: {why}", record.account, record.spec.get("token"))

    def _drop(self, why: str, account: dict, token: Any) -> None:
        self.build.dropped.append(why)
        self.blocked.update(v for v in (account.get("owner"), account.get("address")) if isinstance(v, str))
        if isinstance(token, dict):
            self.blocked.update(v for v in (token.get("owner"), token.get("delegate")) if isinstance(v, str))

    def _transactions(self) -> None:
        """Who opened and closed what; slot and blockTime come from the latest-signatures items."""
        for signature, record in self.keys.transactions.items():
            item = self.keys.signature_items.get(signature, {})
            slot, block_time = item.get("slot"), item.get("blockTime")
            if type(slot) is not int or type(block_time) is not int or not 0 <= min(slot, block_time) < U64:
                self.build.dropped.append(f"transaction {signature}: no slot and blockTime seen")
                continue
            try:
                b58decode(signature, length=64)
            except ValueError:
                self.build.dropped.append(f"transaction {signature}: not a 64-byte base58 signature")
                continue
            self.times[signature] = (slot, block_time)
            for side, table in (("opened", self.opener), ("closed", self.closer)):
                for target_hash in record[side]:
                    if table.setdefault(target_hash, signature) != signature:
                        self.build.contradictions.append(f"account {target_hash} is {side} by two transactions, "
                                                         f"{table[target_hash]} and {signature}")

    def _liveness(self) -> None:
        """Listed accounts are live; a discovered closer or a whole list without them means closed."""
        build = self.build
        build.live = {h for h in (*self.keys.accounts, *self.keys.token_accounts) if h in self.records}
        for target_hash in sorted(build.live & set(self.closer)):
            build.contradictions.append(f"account {target_hash} is listed live, yet transaction "
                                        f"{self.closer[target_hash]} closed it")
            self.blocked |= self.records[target_hash].keys
        build.closed = {h for h in self.closer if h in self.records}

    def _known_gone(self, record: Record) -> bool:
        return (record.owner in self.keys.complete_owners
                or (record.token_owner is not None and record.token_owner in self.keys.complete_token_owners))

    # -- the transactions to replay -----------------------------------------------------
    def _plan(self) -> list[_Tx]:
        """The transactions to replay, in an order a ledger accepts: by slot, invented openers
        first, and within a slot every transaction after the ones opening what it closes."""
        txs = []
        for order, (signature, record) in enumerate(reversed(self.keys.transactions.items())):
            if signature in self.times:
                opened = [h for h in record["opened"] if h in self.records and self.opener.get(h) == signature]
                closed = [h for h in record["closed"] if h in self.records and self.closer.get(h) == signature]
                txs.append(_Tx(self.times[signature][0], 1, order, signature, opened, closed))
        openers: dict[int, list[str]] = {}
        for target_hash, record in list(self.records.items()):
            if self.opener.get(target_hash) in self.times:
                continue
            slot = record.account.get("slotCreated")
            if type(slot) is not int or not 0 <= slot < U64:
                self._unhold(target_hash, "no slotCreated")
                continue
            closing = self.times.get(self.closer.get(target_hash, ""))
            if closing is not None and closing[0] < slot:
                self.build.contradictions.append(
                    f"account {target_hash} was created at slot {slot}, after the transaction that closed it")
                slot = closing[0]
            openers.setdefault(slot, []).append(target_hash)
        txs += [_Tx(slot, 0, 0, None, hashes, []) for slot, hashes in openers.items()]
        gone = [h for h, r in self.records.items()
                if h not in self.build.live and h not in self.build.closed and self._known_gone(r)]
        if gone:
            txs.append(_Tx(max((tx.slot for tx in txs), default=0), 2, 0, None, [], gone))
        txs.sort(key=lambda tx: (tx.slot, tx.phase, tx.order))
        return _dependency_order(txs)

    def _emit(self, txs: list[_Tx]) -> None:
        """Write the scenario, resolve addresses, and compute each mirror hash as the ledger will."""
        state = _EmitState()
        transactions = []
        for tx in txs:
            entry = self._entry(tx, state)
            if entry is not None:
                transactions.append(entry)
        self.build.document = {
            "version": 1, "seed": MIRROR_SEED,
            "description": "mirror of what discovery saw of a target",
            **({"state_trees": list(state.trees)} if state.trees else {}),
            "transactions": transactions,
        }
        complete = [o for o in self.keys["owners"] if o in self.keys.complete_owners]
        token_complete = [o for o in self.keys["token_owners"] if o in self.keys.complete_token_owners]
        self.build.owners = [o for o in complete if o not in self.blocked]
        self.build.token_owners = [o for o in token_complete if o not in self.blocked]
        self.build.blocked = set(self.blocked)

    def _entry(self, tx: _Tx, state: _EmitState) -> dict[str, Any] | None:
        closes = []
        for target_hash in tx.closed:
            if target_hash not in self.records:
                continue  # left out when it could not be opened
            if target_hash in state.opened and target_hash not in state.closed:
                closes.append(target_hash)
                state.closed.add(target_hash)
            else:
                self.build.contradictions.append(f"account {target_hash} is closed by {tx.signature} before "
                                                 f"it was opened")
                self.blocked |= self.records[target_hash].keys
        carried = {self.records[h].account.get("address"): h for h in closes if self.records[h].account.get("address")}
        opens = [spec for spec in (self._open(h, carried, state) for h in tx.opened if h in self.records)
                 if spec is not None]
        whole = len(opens) == len(tx.opened) and len(closes) == len(tx.closed)
        if tx.signature is None:
            if not opens and not closes:
                return None
            state.invented += 1
            return {"slot": tx.slot, "signature": synthetic_signature(state.invented),
                    "open": opens, "close": [f"h{h}" for h in closes]}
        record = self.keys.transactions[tx.signature]
        if whole and len(tx.opened) == len(record["opened"]) and len(tx.closed) == len(record["closed"]):
            self.build.replayed.add(tx.signature)
        return {"slot": tx.slot, "blockTime": self.times[tx.signature][1], "signature": tx.signature,
                "open": opens, "close": [f"h{h}" for h in closes]}

    def _open(self, target_hash: str, carried: dict[str, str], state: _EmitState) -> dict[str, Any] | None:
        record = self.records[target_hash]
        spec = dict(record.spec)
        address = spec.get("address")
        if address is not None:
            if address in carried:
                spec["address"] = {"of": f"h{carried.pop(address)}"}
            elif address in state.addresses:
                holder = state.addresses[address]
                if {holder, target_hash} <= self.build.live:
                    self.build.contradictions.append(f"accounts {holder} and {target_hash} are both live with "
                                                     f"address {address}")
                self._unhold(target_hash, f"address {address} is taken already")
                return None
            state.addresses[address] = target_hash
        tree = record.spec["tree"]
        state.trees.setdefault(tree, None)
        leaf_index = state.next_leaf.get(tree, 0)
        state.next_leaf[tree] = leaf_index + 1
        state.opened.add(target_hash)
        self.build.map(b58encode(account_hash(leaf_index=leaf_index, **record.hash_inputs)), target_hash)
        return spec


@dataclass
class _Tx:
    slot: int
    phase: int  # 0 invented opener, 1 the target's, 2 invented closer
    order: int
    signature: str | None
    opened: list[str]
    closed: list[str]


@dataclass
class _EmitState:
    trees: dict[str, None] = field(default_factory=dict)
    next_leaf: dict[str, int] = field(default_factory=dict)
    addresses: dict[str, str] = field(default_factory=dict)
    opened: set[str] = field(default_factory=set)
    closed: set[str] = field(default_factory=set)
    invented: int = 0


def _dependency_order(txs: list[_Tx]) -> list[_Tx]:
    """Within each slot, a transaction goes after those opening the accounts it closes."""
    ordered: list[_Tx] = []
    opened: set[str] = set()
    for _, group in groupby(txs, key=lambda tx: tx.slot):
        pending = list(group)
        opened_here = {h for tx in pending for h in tx.opened}
        while pending:
            ready = next((tx for tx in pending if all(h in opened or h not in opened_here for h in tx.closed)),
                         pending[0])
            pending.remove(ready)
            ordered.append(ready)
            opened.update(ready.opened)
    return ordered


def build_mirror(keys: Keys) -> MirrorBuild:
    """The scenario document standing for what discovery put in `keys`, with its hash mapping."""
    return _Builder(keys).run()
