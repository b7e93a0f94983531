"""Which contracts the kit ships, by name: the spec's (the default) and each one that extends it.

A contract other than the spec's lives in a folder of schema/ named after it, with a manifest
(`api.yaml`); the folder's name is the contract's name, so finding them reads no file.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DEFAULT_API", "MANIFEST", "SCHEMA_DIR", "api_directories"]

SCHEMA_DIR = Path(__file__).resolve().parent
DEFAULT_API = "0.50.0"
"""The spec's contract: schema/ itself."""
MANIFEST = "api.yaml"


def api_directories(root: Path = SCHEMA_DIR) -> dict[str, Path]:
    """Every contract below `root` by name, the default first."""
    return {DEFAULT_API: root, **{path.parent.name: path.parent for path in sorted(root.glob(f"*/{MANIFEST}"))}}
