"""Install the light prover that proves Light's v2 circuits: `@lightprotocol/zk-compression-cli` 0.27.0 from npm.

0.27.0 is the last release that ships a prover with keys: its binary and 18 proving keys of Light's
June-2025 setup, 9 for v2 circuits (state trees of height 32, address trees of height 40:
`inclusion_32_{1,2,3,4}`, `non-inclusion_40_{1,2}`, `combined_32_40_{1_1,1_2,2_1}`) and 9 for v1,
the same bytes as 0.18.0's. All 18 are kept: the binary's one start mode that asks only for files it
ships (`--run-mode local-rpc`) loads all 18, and every other mode asks for files 0.27.0 lacks.
Installed the one way (`ledger_proofs.npm_package`): the tarball (151.5 MB) checked against
`prover-files-0.27.0.json`'s integrity, each kept file against its size and SHA-256. The folder is
`$CSI_PROVER_V2_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/csi-conformance/prover/0.27.0`, beside the
0.18.0 install (`ledger_proofs.install`), which stays as it is.
"""

from __future__ import annotations

import json
import platform
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from csi_conformance.ledger_proofs.npm_package import PackageFiles, ProverInstallError, cache_folder

__all__ = ["V2Installation", "find_v2_installation", "install_v2", "v2_manifest", "v2_prover_dir"]

MANIFEST = "prover-files-0.27.0.json"


@cache
def v2_manifest() -> dict[str, Any]:
    """The package, its tarball's integrity and size, and each binary's and key's size and SHA-256."""
    return json.loads((resources.files(__package__) / MANIFEST).read_text(encoding="utf-8"))


def v2_prover_dir() -> Path:
    """`$CSI_PROVER_V2_DIR`, else the user's cache folder, `prover/0.27.0` beside 0.18.0's `prover/0.18.0`."""
    return cache_folder("CSI_PROVER_V2_DIR", "prover", v2_manifest()["version"])


def _binary_name() -> str:
    system = {"linux": "linux", "darwin": "darwin", "win32": "windows"}.get(sys.platform)
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    name = f"prover-{system}-{machine}" + (".exe" if system == "windows" else "")
    if system is None or machine is None or name not in v2_manifest()["binaries"]:
        raise ProverInstallError(f"the light prover {v2_manifest()['version']} has no binary for "
                                 f"{sys.platform}/{platform.machine()}")
    return name


def _package() -> PackageFiles:
    manifest, binary = v2_manifest(), _binary_name()
    files: dict[str, tuple[str, Any]] = {binary: (f"package/bin/{binary}", manifest["binaries"][binary])}
    files.update({f"proving-keys/{name}": (f"package/bin/proving-keys/{name}", spec)
                  for name, spec in manifest["keys"].items()})
    return PackageFiles(manifest["package"], manifest["version"], manifest["integrity"], MANIFEST, files,
                        "the light prover of the v2 circuits", "`csi prover install --v2`")


@dataclass(frozen=True)
class V2Installation:
    """An install of the 0.27.0 prover: its folder, binary and keys folder (`ProverProcess` runs it)."""

    folder: Path

    @property
    def binary(self) -> Path:
        return self.folder / _binary_name()

    @property
    def keys_dir(self) -> Path:
        return self.folder / "proving-keys"

    @property
    def start_arguments(self) -> list[str]:
        """What `start` is given besides the addresses: every shipped key, and nothing it lacks."""
        return ["--run-mode", "local-rpc", "--keys-dir", str(self.keys_dir) + "/"]

    @property
    def version(self) -> str:
        return str(v2_manifest()["version"])

    @property
    def size(self) -> int:
        return sum(spec["size"] for _, spec in _package().files.values())

    def check(self) -> list[str]:
        """Problems found by reading every file's SHA-256; empty when intact."""
        return _package().problems(self.folder, hashes=True)


def find_v2_installation(folder: Path | None = None) -> V2Installation | None:
    """The install in `folder` (default `v2_prover_dir()`), or None when a kept file is missing or of another size."""
    folder = folder or v2_prover_dir()
    try:
        return V2Installation(folder) if _package().installed(folder) else None
    except ProverInstallError:
        return None


def install_v2(folder: Path | None = None, *, log: Callable[[str], None] | None = None) -> V2Installation:
    """Install the 0.27.0 prover into `folder` unless an intact install is there; ProverInstallError when npm is
    missing, the download fails or a file is not the published one."""
    say = log or (lambda line: None)
    folder = (folder or v2_prover_dir()).expanduser().resolve()
    found = find_v2_installation(folder)
    if found is not None:
        say(f"already installed in {folder}")
        return found
    manifest = v2_manifest()
    kept = (f"{manifest['tarball_size'] / 1e6:.1f} MB; {_binary_name()} and {len(manifest['keys'])} key files "
            f"kept, {V2Installation(folder).size / 1e6:.0f} MB")
    _package().install(folder, say=say, download=kept, marker={"binary": _binary_name()},
                       finish=lambda staging: (staging / _binary_name()).chmod(0o755))
    say(f"installed in {folder}")
    return V2Installation(folder)
