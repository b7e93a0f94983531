"""Installing the prover: where, what is kept, what is checked, and the message where npm is missing."""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from csi_conformance.ledger_proofs import install as installer
from csi_conformance.ledger_proofs import npm_package
from csi_conformance.ledger_proofs.circuits import CIRCUITS
from csi_conformance.ledger_proofs.install import (
    ProverInstallError,
    binary_name,
    find_installation,
    manifest,
    prover_dir,
)

from tests.ledger_proofs.support import installed_prover

CSI = Path(sys.executable).parent / "csi"


def test_manifest_lists_every_circuits_keys_and_this_platforms_binary() -> None:
    data = manifest()
    assert (data["package"], data["version"]) == ("@lightprotocol/zk-compression-cli", "0.18.0")
    for circuit in CIRCUITS.values():
        assert {f"{circuit.name}.key", f"{circuit.name}.vkey"} <= set(data["keys"])
    assert binary_name() in data["binaries"]
    assert all(len(spec["sha256"]) == 64 and spec["size"] > 0 for spec in data["keys"].values())


def test_folder_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CSI_PROVER_DIR", str(tmp_path / "here"))
    assert prover_dir() == tmp_path / "here"
    monkeypatch.delenv("CSI_PROVER_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert prover_dir() == tmp_path / "cache" / "csi-conformance" / "prover" / "0.18.0"


def test_missing_npm_is_said_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(npm_package.shutil, "which", lambda name: None)
    with pytest.raises(ProverInstallError, match=r"npm is not installed.*csi prover install"):
        installer.install(tmp_path / "prover")
    assert not (tmp_path / "prover").exists()


def test_not_installed_or_altered_is_not_found(tmp_path: Path) -> None:
    assert find_installation(tmp_path) is None
    (tmp_path / "installed.json").write_text("{}")
    assert find_installation(tmp_path) is None  # the marker alone: files missing


def _package(files: dict[str, str]) -> npm_package.PackageFiles:
    """Files kept by relative path -> tarball member, of a package that exists only here."""
    return npm_package.PackageFiles("p", "1", "sha512-x", "p.json",
                                    {relative: (member, {}) for relative, member in files.items()}, "p")


def test_extract_keeps_only_the_listed_files(tmp_path: Path) -> None:
    kept = {"prover-x": b"binary", "proving-keys/a.key": b"key"}
    tarball = tmp_path / "p.tgz"
    with tarfile.open(tarball, "w:gz") as archive:
        for name, data in {**kept, "forester": b"not wanted", "../evil": b"x"}.items():
            info = tarfile.TarInfo(f"package/bin/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    _package({name: f"package/bin/{name}" for name in kept})._extract(tarball, tmp_path / "out")
    found = sorted(str(p.relative_to(tmp_path / "out")) for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert found == ["prover-x", "proving-keys/a.key"]
    with pytest.raises(ProverInstallError, match="lacks package/bin/missing"):
        _package({"missing": "package/bin/missing"})._extract(tarball, tmp_path / "out2")


def test_the_prover_keeps_each_file_from_its_member_in_the_package() -> None:
    kept = installer._package().files
    assert kept[installer.binary_name()][0] == f"package/bin/{installer.binary_name()}"
    assert all(member == f"package/{'bin' if relative.startswith('programs/') else 'accounts'}/{relative.split('/')[1]}"
               for relative, (member, _) in kept.items() if relative.split("/")[0] in ("programs", "accounts"))


@pytest.mark.prover
def test_installed_prover_is_the_published_one() -> None:
    installation = installed_prover()
    assert installation.check() == []
    assert installation.binary.stat().st_mode & 0o111
    done = subprocess.run([str(CSI), "prover", "check", "--dir", str(installation.folder)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(installation.binary)


@pytest.mark.prover
def test_install_again_keeps_the_install() -> None:
    installation = installed_prover()
    lines: list[str] = []
    assert installer.install(installation.folder, log=lines.append).folder == installation.folder
    assert lines == [f"already installed in {installation.folder}"]
