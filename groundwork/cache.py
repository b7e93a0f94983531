"""Where the kit keeps what it fetches or makes once per machine: one rule for every cache folder.

A folder is `$VARIABLE` when the user sets it, else `${XDG_CACHE_HOME:-~/.cache}/csi-conformance/<parts>`: the
provers and Light's programs (`prover/`, `programs/`), the kit setup's keys (`batch-setup/`), the chain's proofs
(`chain-proofs/`), blocks read from a Solana node (`ledger/`) and hypothesis's database (`hypothesis/`).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CACHE_NAME", "user_cache"]

CACHE_NAME = "csi-conformance"
"""The kit's folder in the user's cache folder."""


def user_cache(*parts: str, variable: str | None = None) -> Path:
    """`$variable` when set and not empty, else the kit's folder `parts` in the user's cache folder."""
    if variable and os.environ.get(variable):
        return Path(os.environ[variable]).expanduser()
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache_home.joinpath(CACHE_NAME, *parts)
