"""Install the light prover and Light's programs: `@lightprotocol/zk-compression-cli` 0.18.0 from npm,
kept in a cache folder.

The one download path: `npm pack` fetches the package tarball (npm checks it against the
registry's integrity), the tarball's integrity must also be the one recorded in
`prover-files.json`, and only these are extracted: the prover binary for this platform and the
proving keys, Light's five on-chain programs (`programs/*.so`, which `ledger_chain` runs in
LiteSVM) and the twelve account dumps of the initial trees (`accounts/*.json`); every kept file
must have its recorded size and SHA-256. The folder is `$CSI_PROVER_DIR`, else
`${XDG_CACHE_HOME:-~/.cache}/csi-conformance/prover/0.18.0`. An install is written to a staging
folder and renamed into place, so a folder that exists is complete; one made before the programs
were kept lacks them, is found incomplete, and is installed again.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ledger_proofs.circuits import CIRCUITS
from schema.errors import ConfigError

__all__ = ["Installation", "ProverInstallError", "binary_name", "find_installation", "install", "manifest",
           "prover_dir"]

_MARKER = "installed.json"


class ProverInstallError(ConfigError):
    """The prover cannot be installed or its files are not the published ones; the message says what to do."""


@cache
def manifest() -> dict[str, Any]:
    """`prover-files.json`: the package, its tarball integrity, and each kept file's size and SHA-256."""
    return json.loads((resources.files("ledger_proofs") / "prover-files.json").read_text(encoding="utf-8"))


def prover_dir() -> Path:
    """Where the prover lives: `$CSI_PROVER_DIR`, else the user's cache folder, per version."""
    if os.environ.get("CSI_PROVER_DIR"):
        return Path(os.environ["CSI_PROVER_DIR"]).expanduser()
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache_home / "csi-conformance" / "prover" / manifest()["version"]


def binary_name() -> str:
    """The package's prover binary for this machine (`prover-linux-x64`, …); ProverInstallError for others."""
    system = {"linux": "linux", "darwin": "darwin", "win32": "windows"}.get(sys.platform)
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    name = f"prover-{system}-{machine}" + (".exe" if system == "windows" else "")
    if system is None or machine is None or name not in manifest()["binaries"]:
        raise ProverInstallError(f"the light prover {manifest()['version']} has no binary for "
                                 f"{sys.platform}/{platform.machine()}")
    return name


def _kept_files() -> dict[str, dict[str, Any]]:
    """Relative path in the install folder -> {size, sha256}: the binary, each circuit's .key and .vkey,
    the programs and the account dumps."""
    binary = binary_name()
    files = {binary: manifest()["binaries"][binary]}
    for circuit in CIRCUITS.values():
        for suffix in (".key", ".vkey"):
            name = circuit.name + suffix
            files[f"proving-keys/{name}"] = manifest()["keys"][name]
    for kind in _CHAIN_PARTS:
        files.update({f"{kind}/{name}": spec for name, spec in manifest()[kind].items()})
    return files


_CHAIN_PARTS = {"programs": "package/bin", "accounts": "package/accounts"}
"""Install folder -> where the package holds those files: the programs sit beside the prover."""


def _member(relative: str) -> str:
    """The tarball member a kept file comes from."""
    kind, _, name = relative.partition("/")
    if kind in _CHAIN_PARTS and name:
        return f"{_CHAIN_PARTS[kind]}/{name}"
    return f"package/bin/{relative}"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _problems(folder: Path, *, hashes: bool) -> list[str]:
    """What is missing or altered in an install folder (sizes always, SHA-256 when `hashes`)."""
    problems = []
    for relative, expected in _kept_files().items():
        path = folder / relative
        if not path.is_file():
            problems.append(f"{relative}: missing")
        elif path.stat().st_size != expected["size"]:
            problems.append(f"{relative}: {path.stat().st_size} bytes, expected {expected['size']}")
        elif hashes and _sha256(path) != expected["sha256"]:
            problems.append(f"{relative}: SHA-256 differs from the published file")
    return problems


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
        return sum(spec["size"] for spec in _kept_files().values())

    def check(self) -> list[str]:
        """Problems found by reading every file's SHA-256 (about a second); empty when intact."""
        return _problems(self.folder, hashes=True)


def _missing_summary(folder: Path) -> str:
    """What an incomplete install lacks, in a few words (an install made before programs were kept lacks them)."""
    try:
        problems = _problems(folder, hashes=False)
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
        if not (folder / _MARKER).is_file() or _problems(folder, hashes=False):
            return None
    except ProverInstallError:
        return None
    return Installation(folder)


def _npm_pack(npm: str, spec: str, into: Path) -> Path:
    """Fetch the package tarball with `npm pack`; the path of the .tgz."""
    command = [npm, "pack", spec, "--json", "--pack-destination", str(into)]
    try:
        done = subprocess.run(command, cwd=into, capture_output=True, text=True, timeout=900, check=False)
    except subprocess.TimeoutExpired as exc:
        raise ProverInstallError(f"`npm pack {spec}` did not finish within 15 minutes") from exc
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-8:])
        raise ProverInstallError(f"`npm pack {spec}` failed (exit {done.returncode}):\n{tail}")
    try:
        packed = json.loads(done.stdout)[0]
    except (ValueError, IndexError, KeyError) as exc:
        raise ProverInstallError(f"`npm pack {spec}` printed no JSON description: {done.stdout[:300]!r}") from exc
    if packed.get("integrity") != manifest()["integrity"]:
        raise ProverInstallError(f"{spec}: npm's tarball has integrity {packed.get('integrity')}, "
                                 f"expected {manifest()['integrity']} (prover-files.json)")
    return into / packed["filename"]


def _extract(tarball: Path, into: Path) -> None:
    """Only the kept files, by exact member name: nothing else of the archive is written."""
    wanted = {_member(relative): relative for relative in _kept_files()}
    with tarfile.open(tarball, "r:gz") as archive:
        for member in archive:
            relative = wanted.pop(member.name, None)
            if relative is None or not member.isfile():
                continue
            target = into / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            source = archive.extractfile(member)
            assert source is not None
            with source, target.open("wb") as out:
                shutil.copyfileobj(source, out, 1 << 20)
    if wanted:
        raise ProverInstallError(f"{tarball.name} lacks {', '.join(sorted(wanted))}")


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
    if (folder / _MARKER).is_file():
        say(f"the install in {folder} is incomplete ({_missing_summary(folder)}): installing again")
    spec = f"{manifest()['package']}@{manifest()['version']}"
    npm = shutil.which("npm")
    if npm is None:
        raise ProverInstallError(f"npm is not installed, and the light prover comes from the npm package {spec}. "
                                 "Install Node.js with npm (https://nodejs.org), then run `csi prover install` again.")
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".csi-prover-", dir=folder.parent) as scratch:
        scratch_path = Path(scratch)
        say(f"fetching {spec} with npm (about 150 MB)")
        tarball = _npm_pack(npm, spec, scratch_path)
        staging = scratch_path / "staging"
        say(f"extracting {binary_name()}, {2 * len(CIRCUITS)} key files, {len(manifest()['programs'])} programs "
            f"and {len(manifest()['accounts'])} account dumps")
        _extract(tarball, staging)
        tarball.unlink()
        problems = _problems(staging, hashes=True)
        if problems:
            raise ProverInstallError(f"{spec}: files differ from prover-files.json: {'; '.join(problems[:5])}")
        (staging / binary_name()).chmod(0o755)
        (staging / _MARKER).write_text(json.dumps({"package": spec, "binary": binary_name()}) + "\n",
                                       encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)  # an incomplete or altered install
        staging.rename(folder)
    say(f"installed in {folder}")
    return Installation(folder)
