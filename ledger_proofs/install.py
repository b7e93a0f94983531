"""Install the light prover and Light's programs: `@lightprotocol/zk-compression-cli` 0.18.0 from npm,
kept in a cache folder.

The one download path (`ledger_proofs.npm_package`): `npm pack` fetches the package tarball, whose
integrity must be the one recorded in `prover-files.json`, and only these are extracted: the prover
binary for this platform and the proving keys, Light's five on-chain programs (`programs/*.so`, which
`ledger_chain` runs in LiteSVM) and the twelve account dumps of the initial trees (`accounts/*.json`);
every kept file must have its recorded size and SHA-256. The folder is `$CSI_PROVER_DIR`, else
`${XDG_CACHE_HOME:-~/.cache}/csi-conformance/prover/0.18.0`. An install is written to a staging
folder and renamed into place, so a folder that exists is complete; one made before the programs
were kept lacks them, is found incomplete, and is installed again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from csi_conformance.ledger_proofs.circuits import CIRCUITS
from csi_conformance.ledger_proofs.npm_package import (
    MARKER,
    InstalledPackage,
    PackageFiles,
    ProverInstallError,
    cache_folder,
    platform_binary,
)

__all__ = ["Installation", "ProverInstallError", "binary_name", "find_installation", "install", "manifest",
           "prover_dir"]


@cache
def manifest() -> dict[str, Any]:
    """`prover-files.json`: the package, its tarball integrity, and each kept file's size and SHA-256."""
    return json.loads((resources.files(__package__) / "prover-files.json").read_text(encoding="utf-8"))


def prover_dir() -> Path:
    """Where the prover lives: `$CSI_PROVER_DIR`, else the user's cache folder, per version."""
    return cache_folder("CSI_PROVER_DIR", "prover", manifest()["version"])


def binary_name() -> str:
    """The package's prover binary for this machine (`prover-linux-x64`, …); ProverInstallError for others."""
    return platform_binary(manifest()["binaries"], manifest()["version"])


_CHAIN_PARTS = {"programs": "package/bin", "accounts": "package/accounts"}
"""Install folder -> where the package holds those files: the programs sit beside the prover."""


def _package() -> PackageFiles:
    """What is kept: the binary, each circuit's .key and .vkey, the programs and the account dumps."""
    binary = binary_name()
    files: dict[str, tuple[str, Any]] = {binary: (f"package/bin/{binary}", manifest()["binaries"][binary])}
    for circuit in CIRCUITS.values():
        for suffix in (".key", ".vkey"):
            name = circuit.name + suffix
            files[f"proving-keys/{name}"] = (f"package/bin/proving-keys/{name}", manifest()["keys"][name])
    for kind, where in _CHAIN_PARTS.items():
        files.update({f"{kind}/{name}": (f"{where}/{name}", spec) for name, spec in manifest()[kind].items()})
    return PackageFiles(manifest()["package"], manifest()["version"], manifest()["integrity"], "prover-files.json",
                        files, "the light prover", "`csi prover install`", binary)


@dataclass(frozen=True)
class Installation(InstalledPackage):
    """An install: its folder, the prover binary, the keys folder, and Light's programs and account dumps."""

    @classmethod
    def package(cls) -> PackageFiles:
        return _package()


def _missing_summary(folder: Path) -> str:
    """What an incomplete install lacks, in a few words (an install made before programs were kept lacks them)."""
    try:
        problems = _package().problems(folder, hashes=False)
    except ProverInstallError as exc:
        return str(exc)
    kinds = sorted({relative.partition("/")[0] if "/" in relative else "the prover binary"
                    for relative, _ in (problem.split(": ", 1) for problem in problems)})
    return f"{len(problems)} files differ or are missing: {', '.join(kinds)}"


def find_installation(folder: Path | None = None) -> Installation | None:
    """The install in `folder` (default `prover_dir()`), or None when any kept file is missing (an install
    made before the programs were kept, say); checks presence and sizes only."""
    return Installation.find(folder or prover_dir())


def install(folder: Path | None = None, *, log: Any = None) -> Installation:
    """Install the prover into `folder` (default `prover_dir()`) unless an intact install is there.

    `log(line)` is told each step. ProverInstallError when npm is missing, the download fails or
    a file is not the published one.
    """
    say = log or (lambda line: None)
    folder = (folder or prover_dir()).expanduser().resolve()
    if (folder / MARKER).is_file() and find_installation(folder) is None:
        say(f"the install in {folder} is incomplete ({_missing_summary(folder)}): installing again")
    kept = (f"about 150 MB; {binary_name()}, {2 * len(CIRCUITS)} key files, {len(manifest()['programs'])} programs "
            f"and {len(manifest()['accounts'])} account dumps kept")
    return Installation.install(folder, say=say, download=kept)
