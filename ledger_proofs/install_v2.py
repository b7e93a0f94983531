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
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from csi_conformance.ledger_proofs.npm_package import InstalledPackage, PackageFiles, cache_folder, platform_binary

__all__ = ["V2Installation", "find_v2_installation", "install_v2", "v2_manifest", "v2_prover_dir"]

MANIFEST = "prover-files-0.27.0.json"


@cache
def v2_manifest() -> dict[str, Any]:
    """The package, its tarball's integrity and size, and each binary's and key's size and SHA-256."""
    return json.loads((resources.files(__package__) / MANIFEST).read_text(encoding="utf-8"))


def v2_prover_dir() -> Path:
    """`$CSI_PROVER_V2_DIR`, else the user's cache folder, `prover/0.27.0` beside 0.18.0's `prover/0.18.0`."""
    return cache_folder("CSI_PROVER_V2_DIR", "prover", v2_manifest()["version"])


def _package() -> PackageFiles:
    manifest = v2_manifest()
    binary = platform_binary(manifest["binaries"], manifest["version"])
    files: dict[str, tuple[str, Any]] = {binary: (f"package/bin/{binary}", manifest["binaries"][binary])}
    files.update({f"proving-keys/{name}": (f"package/bin/proving-keys/{name}", spec)
                  for name, spec in manifest["keys"].items()})
    return PackageFiles(manifest["package"], manifest["version"], manifest["integrity"], MANIFEST, files,
                        "the light prover of the v2 circuits", "`csi prover install --v2`", binary)


@dataclass(frozen=True)
class V2Installation(InstalledPackage):
    """An install of the 0.27.0 prover: its folder, binary and keys folder (`ProverProcess` runs it)."""

    @classmethod
    def package(cls) -> PackageFiles:
        return _package()

    @property
    def start_arguments(self) -> list[str]:
        """What `start` is given besides the addresses: every shipped key, and nothing it lacks."""
        return ["--run-mode", "local-rpc", "--keys-dir", str(self.keys_dir) + "/"]


def find_v2_installation(folder: Path | None = None) -> V2Installation | None:
    """The install in `folder` (default `v2_prover_dir()`), or None when a kept file is missing or of another size."""
    return V2Installation.find(folder or v2_prover_dir())


def install_v2(folder: Path | None = None, *, log: Callable[[str], None] | None = None) -> V2Installation:
    """Install the 0.27.0 prover into `folder` unless an intact install is there; ProverInstallError when npm is
    missing, the download fails or a file is not the published one."""
    folder = (folder or v2_prover_dir()).expanduser().resolve()
    manifest, kept = v2_manifest(), V2Installation(folder)
    download = (f"{manifest['tarball_size'] / 1e6:.1f} MB; {kept.binary.name} and {len(manifest['keys'])} key files "
                f"kept, {kept.size / 1e6:.0f} MB")
    return V2Installation.install(folder, say=log or (lambda line: None), download=download)
