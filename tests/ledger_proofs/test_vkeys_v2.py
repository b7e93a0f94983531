"""The v2 and batch verifying keys: shipped intact, loadable by setup, and Light's own bytes.

The manifests and loading tests run anywhere. The round trip reads Light's Rust files from a
light-protocol clone (`$LIGHT_REPO`, else `../.mirror/Lightprotocol+light-protocol/repo` beside the
repository): a user's clone has none, and those tests skip saying so.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from importlib import resources
from pathlib import Path

import pytest
from csi_conformance.ledger_proofs.circuits_v2 import BATCH_CIRCUITS, JUNE_2025, OCTOBER_2025
from csi_conformance.ledger_proofs.verify import SETUPS, has_key, verifying_key

from tests.ledger_proofs.make_vkeys import KEY_SETS, ROOT, convert, git_reader, main

PACKAGE = resources.files("csi_conformance.ledger_proofs")


def _light_repo() -> Path | None:
    repo = Path(os.environ.get("LIGHT_REPO") or ROOT.parent / ".mirror" / "Lightprotocol+light-protocol" / "repo")
    return repo if repo.is_dir() and shutil.which("git") else None


needs_light = pytest.mark.skipif(_light_repo() is None, reason="no light-protocol clone ($LIGHT_REPO) to read "
                                                               "Light's Rust verifying keys from")


@pytest.mark.parametrize("key_set", KEY_SETS.values(), ids=lambda k: k.name)
def test_shipped_keys_are_the_listed_ones(key_set) -> None:
    manifest = json.loads(key_set.manifest.read_text(encoding="utf-8"))
    folder = PACKAGE / key_set.folder.name
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".vkey"))
    assert names == sorted(f"{kit}.vkey" for kit, _ in key_set.keys) == sorted(manifest["files"])
    for name in names:
        data = (folder / name).read_bytes()
        assert {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()} == manifest["files"][name], name
    assert manifest["commit"] == key_set.commit and key_set.commit in (folder / "SOURCE.md").read_text("utf-8")


def test_each_setup_loads_its_v2_keys() -> None:
    for circuit in OCTOBER_2025.values():
        assert verifying_key(circuit.name, "2025-10").public_inputs == 1
    for name in BATCH_CIRCUITS:
        assert verifying_key(name, "2025-10").public_inputs == 1
    for circuit in JUNE_2025.values():
        june = verifying_key(circuit.name, "2025-06")
        assert june == verifying_key(circuit.name, "0.18.0") and june.public_inputs == 1
        assert june.delta != verifying_key(circuit.name, "2025-10").delta  # another setup, not a copy
    assert verifying_key("inclusion_26_1", "2025-06") == verifying_key("inclusion_26_1")  # June v1 = 0.18.0's
    assert SETUPS["0.18.0"].folders == ("vkeys", "vkeys-2025-06-v2")


def test_a_size_only_october_has_no_june_key() -> None:
    assert has_key("inclusion_32_5", "2025-10") and not has_key("inclusion_32_5", "0.18.0")
    with pytest.raises(FileNotFoundError):
        verifying_key("inclusion_32_5", "2025-06")


@needs_light
@pytest.mark.parametrize("key_set", KEY_SETS.values(), ids=lambda k: k.name)
def test_converted_again_from_light_the_bytes_are_the_same(key_set, tmp_path: Path) -> None:
    copy = type(key_set)(key_set.name, tmp_path, tmp_path / "m.json", key_set.commit, key_set.keys)
    files = convert(git_reader(_light_repo(), key_set.commit), copy)
    assert files == json.loads(key_set.manifest.read_text(encoding="utf-8"))["files"]


@needs_light
def test_another_commit_gives_other_bytes(tmp_path: Path) -> None:
    """The round trip can fail: today's keys read at the June commit are not the shipped ones."""
    june, today = KEY_SETS["2025-06-v2"], KEY_SETS["2025-10"]
    wrong = type(today)("x", tmp_path, tmp_path / "m.json", june.commit,
                        tuple((kit, light.removeprefix("v2_")) for kit, light in today.keys if kit == "inclusion_32_1"))
    shipped = json.loads(today.manifest.read_text(encoding="utf-8"))["files"]["inclusion_32_1.vkey"]
    assert convert(git_reader(_light_repo(), june.commit), wrong)["inclusion_32_1.vkey"] != shipped


def test_the_tool_refuses_an_unknown_set(tmp_path: Path, capsys) -> None:
    assert main(["--set", "2024", str(tmp_path)]) == 2 and "usage" in capsys.readouterr().err
