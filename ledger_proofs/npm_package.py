"""Files of an npm package, fetched with `npm pack` and kept only when they are the published ones.

The light prover (with v1 programs) and today's programs come from the same npm package at two versions;
each is described by a manifest (the package, its tarball's integrity, each kept file's size and SHA-256)
and installed the same way: `npm pack` into a scratch folder beside the install, the tarball's integrity
checked, only the kept files extracted by exact member name, every file's SHA-256 checked, then the staging
folder renamed into place with a marker file. An install is found again by its marker and the files' sizes.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from csi_conformance.groundwork.cache import user_cache
from csi_conformance.groundwork.errors import ConfigError

__all__ = ["MARKER", "PackageFiles", "ProverInstallError", "cache_folder", "file_problems", "file_sha256"]

MARKER = "installed.json"


class ProverInstallError(ConfigError):
    """The package cannot be installed or its files are not the published ones; the message says what to do."""


def cache_folder(variable: str, kind: str, version: str) -> Path:
    """Where a package's files live: `$variable` when set, else the user's cache folder, per kind and version."""
    return user_cache(kind, version, variable=variable)


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

    def install(self, folder: Path, *, say: Callable[[str], None], download: str, marker: Mapping[str, Any],
                finish: Callable[[Path], None] = lambda staging: None) -> None:
        """Fetch, check and put the kept files into `folder` (replacing whatever is there); `finish(staging)` runs
        on the checked files before they move into place. ProverInstallError when npm is missing, the download
        fails or a file is not the published one."""
        npm = shutil.which("npm")
        if npm is None:
            raise ProverInstallError(f"npm is not installed, and {self.what} come from the npm package {self.spec}. "
                                     f"Install Node.js with npm (https://nodejs.org), then run {self.again} again.")
        folder.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=".csi-npm-", dir=folder.parent) as scratch:
            scratch_path = Path(scratch)
            say(f"fetching {self.spec} with npm ({download})")
            tarball = self._pack(npm, scratch_path)
            staging = scratch_path / "staging"
            self._extract(tarball, staging)
            tarball.unlink()
            problems = self.problems(staging, hashes=True)
            if problems:
                raise ProverInstallError(f"{self.spec}: files differ from {self.manifest_name}: "
                                         f"{'; '.join(problems[:5])}")
            finish(staging)
            (staging / MARKER).write_text(json.dumps({"package": self.spec, **marker}) + "\n", encoding="utf-8")
            if folder.exists():
                shutil.rmtree(folder)  # an incomplete or altered install
            staging.rename(folder)

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
