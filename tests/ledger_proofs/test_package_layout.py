"""One install layout (`InstalledPackage`) for every folder of files kept from an npm package, and the one way
it is installed: `npm pack` (here a stand-in `npm` on PATH serving a package built in the test), the kept files
extracted into a staged folder and checked, then put into place whole, or not at all."""

from __future__ import annotations

import base64
import hashlib
import io
import stat
import sys
import tarfile
from pathlib import Path

import pytest
from csi_conformance.ledger_chain.batch_programs import KitBatchPrograms
from csi_conformance.ledger_chain.patched_programs import PatchedPrograms
from csi_conformance.ledger_chain.programs_0_28 import TodayPrograms
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.ledger_proofs.install_v2 import V2Installation
from csi_conformance.ledger_proofs.npm_package import (
    MARKER,
    InstalledPackage,
    PackageFiles,
    ProverInstallError,
    platform_binary,
)

PUBLISHED = {"prover-x": b"#!/bin/sh\n", "proving-keys/a.key": b"key", "programs/p.so": b"\x7fELF",
             "accounts/t.json": b"{}"}
"""What the package built here publishes, by path in the install folder (its tarball holds them under package/)."""

FAKE_NPM = """#!{python}
import json, pathlib, shutil, sys
here = pathlib.Path(sys.argv[0]).parent
with (here / "calls").open("a") as calls:
    calls.write(" ".join(sys.argv[1:]) + "\\n")
into = pathlib.Path(sys.argv[sys.argv.index("--pack-destination") + 1])
shutil.copyfile(here / "demo-1.0.0.tgz", into / "demo-1.0.0.tgz")
print(json.dumps([{{"filename": "demo-1.0.0.tgz", "integrity": (here / "integrity").read_text()}}]))
"""


def _tarball(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in {**files, "README.md": b"not kept"}.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


class Demo(InstalledPackage):
    """An install of the package built here."""

    @classmethod
    def package(cls) -> PackageFiles:
        tarball = _tarball(PUBLISHED)
        files = {name: (f"package/{name}", {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()})
                 for name, data in PUBLISHED.items()}
        return PackageFiles("demo", "1.0.0", _integrity(tarball), "demo.json", files, "the demo", "`demo`",
                            "prover-x")


@pytest.fixture
def npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in `npm` first on PATH, serving the package as published; returns its folder (`calls` lists what
    it was asked)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "npm").write_text(FAKE_NPM.format(python=sys.executable))
    (bin_dir / "npm").chmod(0o755)
    serve(bin_dir, PUBLISHED)
    monkeypatch.setenv("PATH", f"{bin_dir}:{sys.exec_prefix}/bin:/usr/bin:/bin")
    return bin_dir


def serve(bin_dir: Path, files: dict[str, bytes]) -> None:
    """What the stand-in npm hands out: a tarball of `files`, with its true integrity."""
    tarball = _tarball(files)
    (bin_dir / "demo-1.0.0.tgz").write_bytes(tarball)
    (bin_dir / "integrity").write_text(_integrity(tarball))


def test_an_install_keeps_the_published_files_and_is_read_through_the_layout(npm: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cache" / "demo"
    lines: list[str] = []
    assert Demo.find(folder) is None
    made = Demo.install(folder, say=lines.append, download="a few bytes")
    assert made == Demo(folder) == Demo.find(folder) and made.check() == []
    assert lines == ["fetching demo@1.0.0 with npm (a few bytes)", f"demo@1.0.0 installed in {folder}"]
    kept = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert kept == {**PUBLISHED, MARKER: b'{"package": "demo@1.0.0", "binary": "prover-x"}\n'}
    assert made.binary.stat().st_mode & stat.S_IXUSR and made.binary == folder / "prover-x"
    assert (made.keys_dir, made.programs_dir, made.accounts_dir) == (folder / "proving-keys", folder / "programs",
                                                                     folder / "accounts")
    assert (made.label, made.version, made.size) == ("demo@1.0.0", "1.0.0", sum(map(len, PUBLISHED.values())))
    assert sorted(p.name for p in folder.parent.iterdir()) == ["demo"]  # no scratch or staging folder left
    assert Demo.install(folder, say=lines.append, download="") == made
    assert lines[-1] == f"already installed in {folder}" and len((npm / "calls").read_text().splitlines()) == 1


def test_a_package_whose_file_is_not_the_published_one_changes_nothing(npm: Path, tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    Demo.install(folder, say=lambda line: None, download="")
    (folder / "programs" / "p.so").write_bytes(b"\x7fELG")  # altered: the same size, found by `check` only
    assert Demo.find(folder) == Demo(folder) and Demo(folder).check() == [
        "programs/p.so: SHA-256 differs from the published file"]
    (folder / MARKER).unlink()  # now not an install: installed again, from a package that is not the published one
    serve(npm, {**PUBLISHED, "proving-keys/a.key": b"kez"})
    with pytest.raises(ProverInstallError, match="integrity"):
        Demo.install(folder, say=lambda line: None, download="")
    (npm / "integrity").write_text(Demo.package().integrity)  # a tarball that passes as the published one
    with pytest.raises(ProverInstallError, match=r"demo@1.0.0: files differ from demo.json: proving-keys/a.key"):
        Demo.install(folder, say=lambda line: None, download="")
    assert (folder / "programs" / "p.so").read_bytes() == b"\x7fELG" and not (folder / MARKER).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin", "demo"]


def test_every_install_is_the_one_layout_and_the_v1_set_is_not_today_s(tmp_path: Path) -> None:
    for layout in (Installation, V2Installation, TodayPrograms, PatchedPrograms, KitBatchPrograms):
        assert issubclass(layout, InstalledPackage)
    assert not isinstance(Installation(tmp_path), TodayPrograms)  # a chain tells 0.18.0's programs by this
    assert Installation(tmp_path).label == "@lightprotocol/zk-compression-cli@0.18.0"
    assert TodayPrograms(tmp_path).label == "@lightprotocol/zk-compression-cli@0.28.3"
    assert V2Installation(tmp_path).version == "0.27.0"
    assert Installation(tmp_path).binary.parent == V2Installation(tmp_path).binary.parent == tmp_path
    with pytest.raises(ProverInstallError, match="brings no prover binary"):
        _ = TodayPrograms(tmp_path).binary
    assert not any(layout.find(tmp_path) for layout in (Installation, V2Installation, TodayPrograms, PatchedPrograms))


def test_a_machine_without_a_binary_is_said(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    binaries = {"prover-linux-x64": {}, "prover-linux-arm64": {}, "prover-darwin-arm64": {}}
    monkeypatch.setattr(sys, "platform", "linux")
    assert platform_binary(binaries, "9.9.9") in binaries
    monkeypatch.setattr(sys, "platform", "sunos5")
    with pytest.raises(ProverInstallError, match=r"the light prover 9\.9\.9 has no binary for sunos5/"):
        platform_binary(binaries, "9.9.9")
    assert Installation.find(tmp_path) is None  # the package has nothing for this machine: not installed
    with pytest.raises(ProverInstallError, match="has no binary for sunos5/"):
        _ = Installation(tmp_path).binary


def test_a_kit_batch_set_is_never_found_or_fetched_as_a_package(tmp_path: Path) -> None:
    """It shares today's layout but is made from a kit setup and a base: its folder alone says nothing."""
    with pytest.raises(TypeError, match="find_batch_programs"):
        KitBatchPrograms.find(tmp_path)
    with pytest.raises(TypeError, match="make_batch_programs"):
        KitBatchPrograms.install(tmp_path, say=print, download="-")
