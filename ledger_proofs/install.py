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
import platform
import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from csi_conformance.ledger_proofs.circuits import CIRCUITS
from csi_conformance.ledger_proofs.npm_package import MARKER, PackageFiles, ProverInstallError, cache_folder

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
    system = {"linux": "linux", "darwin": "darwin", "win32": "windows"}.get(sys.platform)
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    name = f"prover-{system}-{machine}" + (".exe" if system == "windows" else "")
    if system is None or machine is None or name not in manifest()["binaries"]:
        raise ProverInstallError(f"the light prover {manifest()['version']} has no binary for "
                                 f"{sys.platform}/{platform.machine()}")
    return name


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
                        files, "the light prover", "`csi prover install`")


@dataclass(frozen=True)
class Installation:
    """An install: its folder, the prover binary, the keys folder, and Light's programs and account dumps."""

    folder: Path

    @property
    def binary(self) -> Path:
        return self.folder / binary_name()

    @property
    def keys_dir(self) -> Path:
        return self.folder / "proving-keys"

    @property
    def programs_dir(self) -> Path:
        """Light's on-chain programs (`light_system_program.so`, …), as published."""
        return self.folder / "programs"

    @property
    def accounts_dir(self) -> Path:
        """The account dumps of the initial trees (Solana `getAccountInfo` JSON), as published."""
        return self.folder / "accounts"

    @property
    def size(self) -> int:
        return sum(spec["size"] for _, spec in _package().files.values())

    def check(self) -> list[str]:
        """Problems found by reading every file's SHA-256 (about a second); empty when intact."""
        return _package().problems(self.folder, hashes=True)


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
    folder = folder or prover_dir()
    try:
        if not _package().installed(folder):
            return None
    except ProverInstallError:
        return None
    return Installation(folder)


def install(folder: Path | None = None, *, log: Any = None) -> Installation:
    """Install the prover into `folder` (default `prover_dir()`) unless an intact install is there.

    `log(line)` is told each step. ProverInstallError when npm is missing, the download fails or
    a file is not the published one.
    """
    say = log or (lambda line: None)
    folder = (folder or prover_dir()).expanduser().resolve()
    found = find_installation(folder)
    if found is not None:
        say(f"already installed in {folder}")
        return found
    if (folder / MARKER).is_file():
        say(f"the install in {folder} is incomplete ({_missing_summary(folder)}): installing again")
    kept = (f"about 150 MB; {binary_name()}, {2 * len(CIRCUITS)} key files, {len(manifest()['programs'])} programs "
            f"and {len(manifest()['accounts'])} account dumps kept")
    _package().install(folder, say=say, download=kept, marker={"binary": binary_name()},
                       finish=lambda staging: (staging / binary_name()).chmod(0o755))
    say(f"installed in {folder}")
    return Installation(folder)
