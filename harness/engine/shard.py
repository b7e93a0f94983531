"""Split a run across machines: each unit of work, a (check, method) pair, belongs to one shard.

The owner of a unit is a hash of its name, so the split depends only on the unit and the shard
count: the same on every machine, for every seed, whatever order the workers start in. Discovery
runs in every shard (each needs the keys), and the answer checks judge whatever answers a shard
gets. A check with work in other shards is marked so (`CheckResult.other_shards`): N/A in a shard that owns
none of it, and never "examined nothing" for a shard's `--fail-on skip`, which only the merged report can
judge. `csi report merge` joins the shards' reports and removes the duplicates.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from csi_conformance.harness.core.errors import UsageError

__all__ = ["Shard", "parse_shard"]


@dataclass(frozen=True)
class Shard:
    """Shard `index` (1-based) of `count`."""

    index: int
    count: int

    def owns(self, check_id: str, method: str | None) -> bool:
        digest = hashlib.sha256(f"{check_id}|{method or ''}".encode()).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(text: str) -> Shard:
    """`I/N` with 1 ≤ I ≤ N, as `--shard` takes it."""
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise UsageError(f"--shard takes I/N with 1 <= I <= N, got {text!r}")
    return Shard(int(match.group(1)), int(match.group(2)))
