"""Installing the 0.27.0 prover of the v2 circuits: what is kept, where, what is checked, and how it starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from csi_conformance.ledger_proofs import npm_package
from csi_conformance.ledger_proofs.circuits_v2 import PROVABLE
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.ledger_proofs.install_v2 import (
    V2Installation,
    find_v2_installation,
    install_v2,
    v2_manifest,
    v2_prover_dir,
)
from csi_conformance.ledger_proofs.process import ProverProcess
from csi_conformance.ledger_proofs.verify import verifying_key

from tests.ledger_proofs.support import installed_v2_prover

CSI = Path(sys.executable).parent / "csi"


def test_manifest_lists_six_binaries_and_the_18_keys() -> None:
    data = v2_manifest()
    assert (data["package"], data["version"]) == ("@lightprotocol/zk-compression-cli", "0.27.0")
    assert data["integrity"].startswith("sha512-") and data["tarball_size"] == 151_511_123
    assert len(data["binaries"]) == 6 and len(data["keys"]) == 18
    v2 = {name for name in data["keys"] if "_32" in name or "_40" in name}
    assert v2 == {f"{c.name}.key" for c in PROVABLE.values()}
    for name in v2:  # each provable circuit has its June-2025 verifying key shipped
        assert verifying_key(name.removesuffix(".key"), "2025-06").public_inputs == 1
    assert all(len(s["sha256"]) == 64 and s["size"] > 0 for s in [*data["keys"].values(), *data["binaries"].values()])


def test_folder_beside_the_v1_prover(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CSI_PROVER_V2_DIR", str(tmp_path / "here"))
    assert v2_prover_dir() == tmp_path / "here"
    monkeypatch.delenv("CSI_PROVER_V2_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert v2_prover_dir() == tmp_path / "cache" / "csi-conformance" / "prover" / "0.27.0"


def test_missing_npm_is_said_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(npm_package.shutil, "which", lambda name: None)
    with pytest.raises(npm_package.ProverInstallError, match=r"npm is not installed.*csi prover install --v2"):
        install_v2(tmp_path / "prover")
    assert not (tmp_path / "prover").exists()


def test_an_incomplete_folder_is_not_an_install(tmp_path: Path) -> None:
    assert find_v2_installation(tmp_path) is None
    (tmp_path / "installed.json").write_text("{}")
    (tmp_path / "proving-keys").mkdir()
    for name in v2_manifest()["keys"]:
        (tmp_path / "proving-keys" / name).write_bytes(b"short")
    assert find_v2_installation(tmp_path) is None
    result = subprocess.run([str(CSI), "prover", "check", "--v2", "--dir", str(tmp_path)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 1 and "csi prover install --v2" in result.stderr


def test_the_v2_prover_loads_every_shipped_key_and_the_v1_one_its_own(tmp_path: Path) -> None:
    v2 = ProverProcess(V2Installation(tmp_path)).command()
    assert v2[1:4] == ["start", "--run-mode", "local-rpc"] and v2[-1] == f"{tmp_path / 'proving-keys'}/"
    v1 = ProverProcess(Installation(tmp_path)).command()
    assert "--inclusion" in v1 and "--run-mode" not in v1


def test_an_install_here_is_intact() -> None:
    assert installed_v2_prover().check() == []  # installed when missing: a failure, never a skip
