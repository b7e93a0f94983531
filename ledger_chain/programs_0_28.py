"""Today's programs: `@lightprotocol/zk-compression-cli` 0.28.3 from npm, kept in a cache folder.

The package ships Light's programs of today (the light system program is the pinocchio build,
`light_system_program_pinocchio.so`, under the same id) and the dumps of the batched state trees
`bmt1…bmt5`, their output queues `oq1…oq5`, the batched address tree `amt2…` and the v1 trees.
It ships no prover (0.28.3 downloads one from elsewhere), so proofs come from the 0.18.0 install
(`ledger_proofs.install`). Installed as that package is: `npm pack` (npm checks the tarball against
the registry), the tarball's integrity must be the one recorded in `programs-0.28.3.json`, only the
programs and dumps are extracted, and each must have its recorded size and SHA-256. The folder is
`$CSI_PROGRAMS_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/csi-conformance/programs/0.28.3`; written
to a staging folder and renamed into place, so a folder that exists is complete.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from csi_conformance.ledger_chain.programs import ACCOUNT_COMPRESSION, COMPRESSED_TOKEN, LIGHT_SYSTEM, NOOP, REGISTRY
from csi_conformance.ledger_proofs.npm_package import InstalledPackage, PackageFiles, cache_folder
from solders.pubkey import Pubkey

__all__ = ["BATCHED_TREES", "TODAY_FILES", "TodayPrograms", "find_today", "install_today", "today_manifest",
           "today_package"]

TODAY_FILES = {
    NOOP: "spl_noop.so",
    LIGHT_SYSTEM: "light_system_program_pinocchio.so",
    COMPRESSED_TOKEN: "light_compressed_token.so",
    ACCOUNT_COMPRESSION: "account_compression.so",
    REGISTRY: "light_registry.so",
}
"""Program id -> its file in the install's `programs/` folder (0.28.3)."""

BATCHED_TREES = {
    Pubkey.from_string("bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU"):
        Pubkey.from_string("oq1na8gojfdUhsfCpyjNt6h4JaDWtHf1yQj4koBWfto"),
    Pubkey.from_string("bmt2UxoBxB9xWev4BkLvkGdapsz6sZGkzViPNph7VFi"):
        Pubkey.from_string("oq2UkeMsJLfXt2QHzim242SUi3nvjJs8Pn7Eac9H9vg"),
}
"""The batched state trees the chain writes, with their output queues (two of the package's five)."""

_PARTS = {"programs": "package/bin", "accounts": "package/accounts"}
"""Install folder -> where the package holds those files."""


@cache
def today_manifest() -> dict[str, Any]:
    """`programs-0.28.3.json`: the package, its tarball integrity, each kept file's size and SHA-256."""
    return json.loads((resources.files(__package__) / "programs-0.28.3.json").read_text(encoding="utf-8"))


def programs_dir() -> Path:
    """Where today's programs live: `$CSI_PROGRAMS_DIR`, else the user's cache folder, per version."""
    return cache_folder("CSI_PROGRAMS_DIR", "programs", today_manifest()["version"])


@dataclass(frozen=True)
class TodayPrograms(InstalledPackage):
    """An install of today's programs: what `Runtime` loads (its `programs_dir` and `accounts_dir`)."""

    program_files = TODAY_FILES
    v1_proofs: ClassVar[bool] = False
    """Whether its light system program verifies the v1 proofs of the installed prover: not with the
    October 2025 keys 0.28.3 ships (Custom 6043); yes with the June 2025 ones (`patched_programs.py`)."""

    @classmethod
    def package(cls) -> PackageFiles:
        return today_package()


def today_package() -> PackageFiles:
    """What the 0.28.3 install keeps of the package, with each file's published size and SHA-256."""
    manifest = today_manifest()
    files = {f"{kind}/{name}": (f"{where}/{name}", spec) for kind, where in _PARTS.items()
             for name, spec in manifest[kind].items()}
    return PackageFiles(manifest["package"], manifest["version"], manifest["integrity"], "programs-0.28.3.json",
                        files, "today's programs")


def find_today(folder: Path | None = None) -> TodayPrograms | None:
    """The install in `folder` (default `programs_dir()`), or None when a file is missing or of another size."""
    return TodayPrograms.find(folder or programs_dir())


def install_today(folder: Path | None = None, *, log: Any = None) -> TodayPrograms:
    """Install today's programs into `folder` unless an intact install is there; ProverInstallError saying
    what to do when npm is missing, the download fails or a file is not the published one."""
    folder = (folder or programs_dir()).expanduser().resolve()
    return TodayPrograms.install(folder, say=log or (lambda line: None), download="about 7 MB")
