"""The keys a run covers: those discovered on the target and those a vendor adds (`--keys FILE`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.harness.core.errors import ConfigError

__all__ = ["KEY_KINDS", "QUEUE_KINDS", "Keys", "load_keys_file"]

SIGNATURE_KINDS = frozenset({"signatures", "failed_signatures"})
"""Kinds whose keys are 64-byte transaction signatures; every other kind holds 32-byte keys and hashes."""
KEY_KINDS = ("signatures", "hashes", "addresses", "owners", "token_owners", "mints", "delegates", "trees",
             "closed_hashes", "closed_addresses", "failed_signatures")
QUEUE_KINDS = ("batched_trees", "address_trees")
"""Kinds a run of a contract with the queue methods discovers from the target's getQueueInfo (and its address
proofs): the batched state trees and the address trees. Not given in a keys file; absent from other runs."""

@dataclass
class Keys:
    """Keys known to exist on the target (ordered, no duplicates), and the accounts seen live."""

    lists: dict[str, list[str]] = field(default_factory=lambda: {kind: [] for kind in KEY_KINDS})
    accounts: dict[str, dict] = field(default_factory=dict)  # hash -> CompressedAccount, live
    token_accounts: dict[str, dict] = field(default_factory=dict)  # hash -> TokenAccount, live
    transactions: dict[str, dict] = field(default_factory=dict)  # signature -> {opened, closed}
    touched: dict[str, dict] = field(default_factory=dict)  # hash -> {account, tokenData} as a transaction showed it
    signature_items: dict[str, dict] = field(default_factory=dict)  # signature -> its latest-signatures item
    complete_owners: set[str] = field(default_factory=set)  # owners whose whole account list was seen
    complete_token_owners: set[str] = field(default_factory=set)  # token owners whose whole list was seen

    def add(self, kind: str, *values: Any) -> None:
        bucket = self.lists.setdefault(kind, []) if kind in QUEUE_KINDS else self.lists[kind]
        for value in values:
            if isinstance(value, str) and value and value not in bucket:
                bucket.append(value)

    def __getitem__(self, kind: str) -> list[str]:
        return self.lists[kind] if kind not in QUEUE_KINDS else self.lists.get(kind, [])

    def get(self, kind: str) -> list[str]:
        """The keys of `kind`, none for a kind this run does not know."""
        return self.lists.get(kind, [])

    def summary(self) -> dict[str, list[str]]:
        return {kind: list(values) for kind, values in self.lists.items()}


def load_keys_file(path: Path) -> Keys:
    """Keys a vendor wants covered: a YAML mapping of kind -> list of base58 strings.

    Read with YAML's base loader, so every scalar stays a string: a key made only of digits
    (the all-ones system program, say) must not turn into an integer.
    """
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.BaseLoader) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path}: cannot read keys file: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a keys file is a mapping of kind to a list of keys")
    keys = Keys()
    for kind, values in data.items():
        if kind not in KEY_KINDS or not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise ConfigError(f"{path}: {kind!r} must be one of {', '.join(KEY_KINDS)} with a list of strings")
        size = 64 if kind in SIGNATURE_KINDS else 32
        for value in values:
            try:
                b58decode(value, length=size)
            except ValueError:
                raise ConfigError(f'{path}: {kind}: "{value}" is not a base58 key of {size} bytes') from None
        keys.add(kind, *values)
    return keys
