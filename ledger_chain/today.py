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

import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from solders.pubkey import Pubkey

from ledger_chain.programs import ACCOUNT_COMPRESSION, COMPRESSED_TOKEN, LIGHT_SYSTEM, NOOP, REGISTRY
from ledger_proofs.install import ProverInstallError

__all__ = ["BATCHED_TREES", "TODAY_FILES", "TodayPrograms", "find_today", "install_today", "today_manifest"]

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

_MARKER = "installed.json"
_PARTS = {"programs": "package/bin", "accounts": "package/accounts"}


@cache
def today_manifest() -> dict[str, Any]:
    """`programs-0.28.3.json`: the package, its tarball integrity, each kept file's size and SHA-256."""
    return json.loads((resources.files("ledger_chain") / "programs-0.28.3.json").read_text(encoding="utf-8"))


def programs_dir() -> Path:
    if os.environ.get("CSI_PROGRAMS_DIR"):
        return Path(os.environ["CSI_PROGRAMS_DIR"]).expanduser()
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache_home / "csi-conformance" / "programs" / today_manifest()["version"]


@dataclass(frozen=True)
class TodayPrograms:
    """An install of today's programs: what `Runtime` loads."""

    folder: Path
    program_files = TODAY_FILES

    @property
    def programs_dir(self) -> Path:
        return self.folder / "programs"

    @property
    def accounts_dir(self) -> Path:
        return self.folder / "accounts"

    @property
    def label(self) -> str:
        return f"{today_manifest()['package']}@{today_manifest()['version']}"

    def check(self) -> list[str]:
        """Problems found by reading every file's SHA-256; empty when intact."""
        return _problems(self.folder, hashes=True)


def _kept() -> dict[str, dict[str, Any]]:
    return {f"{kind}/{name}": spec for kind in _PARTS for name, spec in today_manifest()[kind].items()}


def _problems(folder: Path, *, hashes: bool) -> list[str]:
    problems = []
    for relative, expected in _kept().items():
        path = folder / relative
        if not path.is_file():
            problems.append(f"{relative}: missing")
        elif path.stat().st_size != expected["size"]:
            problems.append(f"{relative}: {path.stat().st_size} bytes, expected {expected['size']}")
        elif hashes and hashlib.sha256(path.read_bytes()).hexdigest() != expected["sha256"]:
            problems.append(f"{relative}: SHA-256 differs from the published file")
    return problems


def find_today(folder: Path | None = None) -> TodayPrograms | None:
    """The install in `folder` (default `programs_dir()`), or None when a file is missing or of another size."""
    folder = folder or programs_dir()
    if not (folder / _MARKER).is_file() or _problems(folder, hashes=False):
        return None
    return TodayPrograms(folder)


def install_today(folder: Path | None = None, *, log: Any = None) -> TodayPrograms:
    """Install today's programs into `folder` unless an intact install is there; ProverInstallError saying
    what to do when npm is missing, the download fails or a file is not the published one."""
    say = log or (lambda line: None)
    folder = (folder or programs_dir()).expanduser().resolve()
    found = find_today(folder)
    if found is not None:
        return found
    spec = f"{today_manifest()['package']}@{today_manifest()['version']}"
    npm = shutil.which("npm")
    if npm is None:
        raise ProverInstallError(f"npm is not installed, and today's programs come from the npm package {spec}. "
                                 "Install Node.js with npm (https://nodejs.org), then run the command again.")
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".csi-programs-", dir=folder.parent) as scratch:
        scratch_path = Path(scratch)
        say(f"fetching {spec} with npm (about 7 MB)")
        tarball = _npm_pack(npm, spec, scratch_path)
        staging = scratch_path / "staging"
        _extract(tarball, staging)
        problems = _problems(staging, hashes=True)
        if problems:
            raise ProverInstallError(f"{spec}: files differ from programs-0.28.3.json: {'; '.join(problems[:5])}")
        (staging / _MARKER).write_text(json.dumps({"package": spec}) + "\n", encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        staging.rename(folder)
    say(f"{spec} installed in {folder}")
    return TodayPrograms(folder)


def _npm_pack(npm: str, spec: str, into: Path) -> Path:
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
    if packed.get("integrity") != today_manifest()["integrity"]:
        raise ProverInstallError(f"{spec}: npm's tarball has integrity {packed.get('integrity')}, expected "
                                 f"{today_manifest()['integrity']} (programs-0.28.3.json)")
    return into / packed["filename"]


def _extract(tarball: Path, into: Path) -> None:
    """Only the kept files, by exact member name."""
    wanted = {f"{_PARTS[relative.partition('/')[0]]}/{relative.partition('/')[2]}": relative for relative in _kept()}
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
