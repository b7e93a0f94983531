"""Files of an npm package, fetched with `npm pack` and kept only when they are the published ones.

The light prover (with v1 programs), the prover of the v2 circuits and today's programs come from
the same npm package at three versions; each is described by a manifest (the package, its tarball's
integrity, each kept file's size and SHA-256) and installed the same way: `npm pack` into a scratch
folder beside the install, the tarball's integrity checked, only the kept files extracted by exact
member name into a staged folder (`groundwork.files.staged_folder`), every file's SHA-256 checked,
then the folder put into place with a marker file. An install is found again by its marker and the
files' sizes, and read through one layout (`InstalledPackage`): where the binary, the keys, the
programs and the account dumps lie, how large it is, whether it is intact.
"""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from csi_conformance.groundwork.cache import user_cache
from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.groundwork.files import staged_folder

__all__ = ["MARKER", "InstalledPackage", "PackageFiles", "ProverInstallError", "cache_folder", "file_problems",
           "file_sha256", "platform_binary"]

MARKER = "installed.json"


class ProverInstallError(ConfigError):
    """The package cannot be installed or its files are not the published ones; the message says what to do."""


def cache_folder(variable: str, kind: str, version: str) -> Path:
    """Where a package's files live: `$variable` when set, else the user's cache folder, per kind and version."""
    return user_cache(kind, version, variable=variable)


def platform_binary(binaries: Mapping[str, Any], version: str) -> str:
    """Which of a package's prover `binaries` runs on this machine (`prover-linux-x64`, …); ProverInstallError
    naming the `version` on a machine it has none for."""
    system = {"linux": "linux", "darwin": "darwin", "win32": "windows"}.get(sys.platform)
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    name = f"prover-{system}-{machine}" + (".exe" if system == "windows" else "")
    if system is None or machine is None or name not in binaries:
        raise ProverInstallError(f"the light prover {version} has no binary for {sys.platform}/{platform.machine()}")
    return name


def file_sha256(path: Path) -> str:
    """A file's SHA-256 (hex), read a MiB at a time."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_problems(folder: Path, expected: Mapping[str, Mapping[str, Any]], *, hashes: bool,
                  source: str = "the manifest") -> list[str]:
    """What is missing or altered in `folder` against {relative path: {size, sha256}} (sizes always, SHA-256 when
    `hashes`), one line each."""
    problems = []
    for relative, spec in expected.items():
        path = folder / relative
        if not path.is_file():
            problems.append(f"{relative}: missing")
        elif path.stat().st_size != spec["size"]:
            problems.append(f"{relative}: {path.stat().st_size} bytes, expected {spec['size']}")
        elif hashes and file_sha256(path) != spec["sha256"]:
            problems.append(f"{relative}: SHA-256 differs from {source}")
    return problems


@dataclass(frozen=True)
class PackageFiles:
    """What to keep of one package: `files` maps a path in the install folder to (its tarball member,
    {size, sha256}); `manifest_name` names the manifest in messages; `what` says what the package brings."""

    package: str
    version: str
    integrity: str
    manifest_name: str
    files: Mapping[str, tuple[str, Mapping[str, Any]]]
    what: str
    again: str = "the command"
    """What to run again once npm is there."""
    binary: str | None = None
    """The kept file that runs (made executable, named in the marker), when the package brings one."""

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"

    def problems(self, folder: Path, *, hashes: bool) -> list[str]:
        """What is missing or altered in an install folder (sizes always, SHA-256 when `hashes`)."""
        return file_problems(folder, {relative: expected for relative, (_, expected) in self.files.items()},
                             hashes=hashes, source="the published file")

    def installed(self, folder: Path) -> bool:
        """Whether `folder` holds an install: its marker, and every kept file at its size."""
        return (folder / MARKER).is_file() and not self.problems(folder, hashes=False)

    def install(self, folder: Path, *, say: Callable[[str], None], download: str) -> None:
        """Fetch, check and put the kept files into `folder` (replacing whatever is there); `download` says how
        much comes and what is kept. ProverInstallError when npm is missing, the download fails or a file is not
        the published one."""
        npm = shutil.which("npm")
        if npm is None:
            raise ProverInstallError(f"npm is not installed, and {self.what} come from the npm package {self.spec}. "
                                     f"Install Node.js with npm (https://nodejs.org), then run {self.again} again.")
        folder.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=".csi-npm-", dir=folder.parent) as scratch, \
                staged_folder(folder) as staging:
            say(f"fetching {self.spec} with npm ({download})")
            tarball = self._pack(npm, Path(scratch))
            self._extract(tarball, staging)
            tarball.unlink()
            problems = self.problems(staging, hashes=True)
            if problems:
                raise ProverInstallError(f"{self.spec}: files differ from {self.manifest_name}: "
                                         f"{'; '.join(problems[:5])}")
            marker = {"package": self.spec}
            if self.binary is not None:
                (staging / self.binary).chmod(0o755)
                marker["binary"] = self.binary
            (staging / MARKER).write_text(json.dumps(marker) + "\n", encoding="utf-8")

    def _pack(self, npm: str, into: Path) -> Path:
        """The package tarball, fetched with `npm pack` and checked against the manifest's integrity."""
        command = [npm, "pack", self.spec, "--json", "--pack-destination", str(into)]
        try:
            done = subprocess.run(command, cwd=into, capture_output=True, text=True, timeout=900, check=False)
        except subprocess.TimeoutExpired as exc:
            raise ProverInstallError(f"`npm pack {self.spec}` did not finish within 15 minutes") from exc
        if done.returncode != 0:
            tail = "\n".join(done.stderr.strip().splitlines()[-8:])
            raise ProverInstallError(f"`npm pack {self.spec}` failed (exit {done.returncode}):\n{tail}")
        try:
            packed = json.loads(done.stdout)[0]
        except (ValueError, IndexError, KeyError) as exc:
            raise ProverInstallError(f"`npm pack {self.spec}` printed no JSON description: "
                                     f"{done.stdout[:300]!r}") from exc
        if packed.get("integrity") != self.integrity:
            raise ProverInstallError(f"{self.spec}: npm's tarball has integrity {packed.get('integrity')}, "
                                     f"expected {self.integrity} ({self.manifest_name})")
        return into / packed["filename"]

    def _extract(self, tarball: Path, into: Path) -> None:
        """Only the kept files, by exact member name: nothing else of the archive is written."""
        wanted = {member: relative for relative, (member, _) in self.files.items()}
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


@dataclass(frozen=True)
class InstalledPackage:
    """A folder holding files kept from an npm package: where its parts lie, how large it is, whether it is
    intact. Each install names what it keeps (`package`); the parts it does not keep are simply absent."""

    folder: Path

    @classmethod
    def package(cls) -> PackageFiles:
        """What this install keeps of its package, with each file's size and SHA-256."""
        raise NotImplementedError

    @property
    def binary(self) -> Path:
        """The package's prover binary for this machine (ProverInstallError when the package brings none)."""
        name = self.package().binary
        if name is None:
            raise ProverInstallError(f"{self.label} brings no prover binary")
        return self.folder / name

    @property
    def keys_dir(self) -> Path:
        """The proving keys (`*.key`, `*.vkey`), as published."""
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
    def label(self) -> str:
        """What is installed, as a chain's genesis names it: the package and its version."""
        return self.package().spec

    @property
    def version(self) -> str:
        return self.package().version

    @property
    def size(self) -> int:
        """The kept files' bytes, as the manifest records them."""
        return sum(spec["size"] for _, spec in self.package().files.values())

    def check(self) -> list[str]:
        """Problems found by reading every kept file's SHA-256 (about a second); empty when intact."""
        return self.package().problems(self.folder, hashes=True)

    @classmethod
    def find(cls, folder: Path) -> Self | None:
        """The install in `folder`, or None when its marker or a kept file is missing or of another size (or the
        package has nothing for this machine); checks presence and sizes only."""
        try:
            return cls(folder) if cls.package().installed(folder) else None
        except ProverInstallError:
            return None

    @classmethod
    def install(cls, folder: Path, *, say: Callable[[str], None], download: str) -> Self:
        """The install in `folder` when one is there, else one fetched from npm (`PackageFiles.install`)."""
        found = cls.find(folder)
        if found is not None:
            say(f"already installed in {folder}")
            return found
        package = cls.package()
        package.install(folder, say=say, download=download)
        say(f"{package.spec} installed in {folder}")
        return cls(folder)
