"""Light's programs and account dumps are kept by the prover's install, each checked by size and SHA-256;
an install made before they were kept is found incomplete and installed again."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from csi_conformance.ledger_chain.programs import PROGRAM_FILES
from csi_conformance.ledger_proofs import install as installer
from csi_conformance.ledger_proofs import npm_package
from csi_conformance.ledger_proofs.install import Installation, find_installation, manifest

CSI = Path(sys.executable).with_name("csi")


def test_the_manifest_lists_five_programs_and_twelve_dumps() -> None:
    data = manifest()
    assert sorted(data["programs"]) == sorted(PROGRAM_FILES.values())
    assert len(data["accounts"]) == 12 and all(name.endswith(".json") for name in data["accounts"])
    kept = installer._package().files
    assert {f"programs/{n}" for n in data["programs"]} | {f"accounts/{n}" for n in data["accounts"]} <= set(kept)
    assert kept["programs/spl_noop.so"][0] == "package/bin/spl_noop.so"
    assert kept[f"accounts/{next(iter(data['accounts']))}"][0].startswith("package/accounts/")
    assert all(member == f"package/bin/{relative}" for relative, (member, _) in kept.items()
               if relative.startswith("proving-keys/"))


@pytest.mark.chain
def test_the_installed_programs_are_the_published_ones(installation: Installation) -> None:
    for name, spec in manifest()["programs"].items():
        data = (installation.programs_dir / name).read_bytes()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (spec["size"], spec["sha256"])
    assert len(list(installation.accounts_dir.glob("*.json"))) == 12


@pytest.mark.chain
def test_an_install_without_programs_is_incomplete(installation: Installation, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    old = tmp_path / "old"
    shutil.copytree(installation.folder, old, ignore=shutil.ignore_patterns("programs", "accounts", "*.key"),
                    symlinks=True)
    for key in installation.keys_dir.glob("*.key"):
        (old / "proving-keys" / key.name).symlink_to(key)
    assert find_installation(old) is None
    done = subprocess.run([str(CSI), "prover", "check", "--dir", str(old)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1 and "not installed, or incomplete" in done.stderr
    lines: list[str] = []
    monkeypatch.setattr(npm_package.shutil, "which", lambda name: None)
    with pytest.raises(installer.ProverInstallError, match="npm is not installed"):
        installer.install(old, log=lines.append)
    assert lines == [f"the install in {old.resolve()} is incomplete (17 files differ or are missing: accounts, "
                     "programs): installing again"]


@pytest.mark.chain
def test_check_finds_an_altered_program(installation: Installation, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(installation.folder, copy, ignore=shutil.ignore_patterns("*.key"))
    for key in installation.keys_dir.glob("*.key"):
        (copy / "proving-keys" / key.name).symlink_to(key)
    program = copy / "programs" / "light_system_program.so"
    data = bytearray(program.read_bytes())
    data[1000] ^= 1
    program.write_bytes(bytes(data))
    problems = Installation(copy).check()
    assert problems == ["programs/light_system_program.so: SHA-256 differs from the published file"]
