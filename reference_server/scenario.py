"""Scenario files: a ledger written as the transactions that build it (reference_server/scenarios/README.md).

A scenario names its keys, lists transactions in order and labels the accounts they open;
everything derived (hashes, leaf indices, seq, roots, slotCreated, signatures) is computed on
load, so a file can never disagree with the hashing rules. A file is checked against the
format's JSON Schema (`scenario.schema.yaml`) first, then against the ledger's rules; every
problem is a `ConfigError` naming the file and the JSON pointer of the offending member.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.groundwork.errors import ConfigError, JsonError
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.ledger_crypto import FIELD_MODULUS, TOKEN_PROGRAM_ID, TokenDataFields, derive_address
from csi_conformance.reference_server.ledger import DEFAULT_ADDRESS_TREE, DEFAULT_STATE_TREE, Ledger
from csi_conformance.reference_server.records import NewAccount, PendingTransaction
from csi_conformance.reference_server.scenarios import SCENARIO_DIR, bundled_scenarios
from csi_conformance.schema import Validator

__all__ = [
    "DEFAULT_BLOCK_TIME_BASE",
    "SCHEMA_PATH",
    "Scenario",
    "derive_key",
    "derive_signature",
    "load_scenario",
    "open_scenario",
    "read_document",
    "scenario_from_document",
    "scenario_path",
    "validate_document",
]

SCHEMA_PATH = Path(__file__).with_name("scenario.schema.yaml")
DEFAULT_BLOCK_TIME_BASE = 1_700_000_000
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class Scenario:
    """A loaded scenario: its ledger, and the names it gave keys and accounts."""

    ledger: Ledger
    source: str
    keys: dict[str, bytes] = field(default_factory=dict)
    labels: dict[str, bytes] = field(default_factory=dict)
    """Account label -> account hash (accounts of failed transactions have none)."""


# --------------------------------------------------------------------------- derivation


def derive_key(scenario_seed: str, key_seed: str) -> bytes:
    """A named key's 32 bytes: SHA-256 of the scenario seed and the key's seed, separated."""
    return hashlib.sha256(b"csi-scenario-key\0" + scenario_seed.encode() + b"\0" + key_seed.encode()).digest()


def derive_signature(scenario_seed: str, index: int) -> bytes:
    """The 64-byte signature of transaction ``index`` (0-based, failed ones counted)."""
    return hashlib.sha512(
        b"csi-scenario-signature\0" + scenario_seed.encode() + b"\0" + index.to_bytes(8, "big")
    ).digest()


# --------------------------------------------------------------------------- files


def scenario_path(name_or_path: str) -> Path:
    """A bundled scenario by bare name (`default`, `empty`), else a file path."""
    bundled = SCENARIO_DIR / f"{name_or_path}.yaml"
    if "/" not in name_or_path and "\\" not in name_or_path and bundled.is_file():
        return bundled
    path = Path(name_or_path)
    if path.is_file():
        return path
    names = ", ".join(bundled_scenarios())
    raise ConfigError(f"{name_or_path}: no such scenario file, and no bundled scenario of that name ({names})")


def read_document(path: Path) -> Any:
    """The parsed file: JSON (exact integers) for `.json`, YAML otherwise."""
    try:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            return loads(text)
        return yaml.load(text, Loader=_YAML_LOADER)
    except (OSError, UnicodeDecodeError, yaml.YAMLError, JsonError) as exc:
        raise ConfigError(f"{path}: cannot read the scenario: {exc}") from exc


def open_scenario(name_or_path: str) -> Scenario:
    path = scenario_path(name_or_path)
    return scenario_from_document(read_document(path), source=str(path))


def load_scenario(name_or_path: str) -> Ledger:
    """The ledger of a bundled scenario (`default`, `empty`) or of a scenario file."""
    return open_scenario(name_or_path).ledger


@cache
def _validator() -> Validator:
    return Validator(yaml.load(SCHEMA_PATH.read_text(encoding="utf-8"), Loader=_YAML_LOADER))


def validate_document(document: Any, source: str) -> None:
    """Raise ConfigError naming the file and the first few violations of the format's schema."""
    problems = _validator().violations(document)
    if problems:
        listed = "; ".join(str(p) for p in problems[:3])
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise ConfigError(f"{source}: not a valid scenario: {listed}{more}")


def scenario_from_document(document: Any, *, source: str = "<scenario>", validate: bool = True) -> Scenario:
    """Build the ledger a scenario document describes, all transactions in one bulk block."""
    if validate:
        validate_document(document, source)
    return _Builder(document, source).build()


# --------------------------------------------------------------------------- building


class _Builder:
    """Turns a validated document into transactions, resolving names, labels and derivations."""

    def __init__(self, document: dict[str, Any], source: str) -> None:
        self.doc = document
        self.source = source
        self.seed: str = document["seed"]
        self.keys: dict[str, bytes] = {}
        for name, entry in (document.get("keys") or {}).items():
            where = f"/keys/{name}"
            self.keys[name] = (derive_key(self.seed, entry["seed"]) if isinstance(entry, dict)
                               else self._b58(entry, where))
        self.labels: dict[str, bytes] = {}
        self.failed_labels: set[str] = set()
        trees = [self.key(ref, f"/state_trees/{i}") for i, ref in enumerate(document.get("state_trees") or [])]
        self.trees = trees or [DEFAULT_STATE_TREE]
        self.address_tree = (self.key(document["address_tree"], "/address_tree")
                             if "address_tree" in document else DEFAULT_ADDRESS_TREE)
        self.block_time_base = document.get("block_time_base", DEFAULT_BLOCK_TIME_BASE)

    def fail(self, where: str, message: str) -> ConfigError:
        return ConfigError(f"{self.source}: {where or '/'}: {message}")

    def _b58(self, text: str, where: str) -> bytes:
        try:
            return b58decode(text, length=32)
        except ValueError as exc:
            raise self.fail(where, str(exc)) from None

    def key(self, ref: str, where: str) -> bytes:
        """A declared key by name, else a base58 pubkey literal."""
        if ref in self.keys:
            return self.keys[ref]
        try:
            return b58decode(ref, length=32)
        except ValueError:
            raise self.fail(where, f"{ref!r} is neither a declared key nor a base58 pubkey") from None

    def build(self) -> Scenario:
        ledger = Ledger(state_trees=self.trees, address_tree=self.address_tree)
        with ledger.bulk():
            for index, entry in enumerate(self.doc.get("transactions") or []):
                self._apply(ledger, index, entry)
        self._finish_slots(ledger)
        return Scenario(ledger, self.source, dict(self.keys), dict(self.labels))

    def _finish_slots(self, ledger: Ledger) -> None:
        indexed = self.doc.get("indexed_slot", ledger.indexed_slot)
        if indexed < ledger.indexed_slot:
            raise self.fail("/indexed_slot", f"{indexed} is before the last transaction's slot {ledger.indexed_slot}")
        ledger.advance_to(indexed)
        tip = self.doc.get("tip_slot", indexed)
        if tip < indexed:
            raise self.fail("/tip_slot", f"{tip} is below the indexed slot {indexed}")
        ledger.set_tip(tip)

    def _apply(self, ledger: Ledger, index: int, entry: dict[str, Any]) -> None:
        where = f"/transactions/{index}"
        failed = "error" in entry
        close_labels = entry.get("close", [])
        closes = [self._close_target(label, f"{where}/close/{i}", failed) for i, label in enumerate(close_labels)]
        opens = []
        for i, spec in enumerate(entry.get("open", [])):
            at = f"{where}/open/{i}"
            if spec["label"] in self.labels or spec["label"] in self.failed_labels:
                raise self.fail(f"{at}/label", f"label {spec['label']!r} is used twice")
            opens.append(self._new_account(spec, at, set(close_labels), ledger))
        slot = entry["slot"]
        tx = PendingTransaction(
            signature=self._signature(entry, index, where),
            slot=slot,
            block_time=entry.get("blockTime", self.block_time_base + slot * 2 // 5),
            error=entry.get("error"),
            open=tuple(opens),
            close=tuple(closes),
        )
        try:
            done = ledger.apply(tx)
        except ValueError as exc:
            raise self.fail(where, str(exc)) from None
        for spec, hash_ in zip(entry.get("open", []), done.opened, strict=False):
            self.labels[spec["label"]] = hash_
        if failed:
            self.failed_labels.update(spec["label"] for spec in entry.get("open", []))

    def _signature(self, entry: dict[str, Any], index: int, where: str) -> bytes:
        """The transaction's own signature when the file gives one (a ledger mirrored from a live
        indexer keeps its signatures), else the one derived from the seed and the index."""
        if "signature" not in entry:
            return derive_signature(self.seed, index)
        try:
            return b58decode(entry["signature"], length=64)
        except ValueError as exc:
            raise self.fail(f"{where}/signature", str(exc)) from None

    def _close_target(self, label: str, where: str, failed: bool) -> bytes:
        if label in self.labels:
            return self.labels[label]
        if failed:
            return bytes(32)  # a failed transaction is not applied: its closes are never looked up
        if label in self.failed_labels:
            raise self.fail(where, f"account {label!r} was opened by a failed transaction, so it never existed")
        raise self.fail(where, f"no account labelled {label!r} was opened before")

    def _new_account(self, spec: dict[str, Any], where: str, close_labels: set[str], ledger: Ledger) -> NewAccount:
        tree = self.key(spec["tree"], f"{where}/tree") if "tree" in spec else self.trees[0]
        lamports = spec.get("lamports", 0)
        program = TOKEN_PROGRAM_ID if "token" in spec else self.key(spec["owner"], f"{where}/owner")
        address = self._address(spec.get("address"), program, f"{where}/address", close_labels, ledger)
        try:
            if "token" in spec:
                token = self._token(spec["token"], f"{where}/token")
                return NewAccount.token_account(token=token, tree=tree, lamports=lamports, address=address)
            data = spec.get("data")
            if data is not None and "dataHash" in data:
                return NewAccount(program, lamports, tree, address, data["discriminator"],
                                  base64.b64decode(data["base64"]), self._data_hash(data["dataHash"], where))
            return NewAccount.plain(
                owner=program, lamports=lamports, tree=tree, address=address,
                discriminator=None if data is None else data["discriminator"],
                data=None if data is None else base64.b64decode(data["base64"]),
            )
        except ValueError as exc:
            raise self.fail(where, str(exc)) from None

    def _data_hash(self, text: str, where: str) -> bytes:
        """An explicit data hash: the owning program's, which the ledger does not derive."""
        value = self._b58(text, f"{where}/data/dataHash")
        if int.from_bytes(value, "big") >= FIELD_MODULUS:
            raise self.fail(f"{where}/data/dataHash", "a data hash must be below the BN254 field modulus")
        return value

    def _token(self, spec: dict[str, Any], where: str) -> TokenDataFields:
        return TokenDataFields(
            mint=self.key(spec["mint"], f"{where}/mint"),
            owner=self.key(spec["owner"], f"{where}/owner"),
            amount=spec["amount"],
            delegate=self.key(spec["delegate"], f"{where}/delegate") if "delegate" in spec else None,
            state=spec.get("state", "initialized"),
            tlv=base64.b64decode(spec["tlv"]) if "tlv" in spec else None,
        )

    def _address(self, spec: Any, program: bytes, where: str, close_labels: set[str], ledger: Ledger) -> bytes | None:
        if spec is None:
            return None
        if isinstance(spec, str):
            return self._b58(spec, where)
        if "seed" in spec:
            seeds = [part.encode() for part in spec["seed"]]
            return derive_address(program_id=program, seeds=seeds, address_tree=self.address_tree)
        label = spec["of"]
        account = ledger.account(self.labels[label]) if label in self.labels else None
        if label not in close_labels or account is None:
            raise self.fail(where, f"{{of: {label}}} needs account {label!r} closed by the same transaction")
        if account.address is None:
            raise self.fail(where, f"account {label!r} has no address to carry")
        return account.address
