"""The kit setup of the batch circuits: found only when every file is the one its manifest records."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.ledger_proofs.batch_setup import BATCH_CIRCUITS, MANIFEST, find_kit_setup, make_kit_setup

from tests.ledger_proofs.support import installed_v2_prover, made_kit_setup


def _fake_setup(folder: Path) -> None:
    """A folder shaped as a made setup: small files, a manifest with their sizes and SHA-256."""
    folder.mkdir()
    files = {}
    for circuit in BATCH_CIRCUITS.values():
        for ext in ("key", "vkey"):
            data = f"{circuit.stem}.{ext}".encode()
            (folder / f"{circuit.stem}.{ext}").write_bytes(data)
            files[f"{circuit.stem}.{ext}"] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    (folder / MANIFEST).write_text(json.dumps({"label": "kit setup", "files": files}), encoding="utf-8")


def test_a_setup_is_found_only_whole(tmp_path: Path) -> None:
    _fake_setup(tmp_path / "setup")
    assert find_kit_setup(tmp_path / "setup") is not None
    (tmp_path / "setup" / "update_32_10.key").write_bytes(b"short")
    assert find_kit_setup(tmp_path / "setup") is None


def test_an_altered_key_of_the_same_size_is_a_problem(tmp_path: Path) -> None:
    _fake_setup(tmp_path / "setup")
    found = find_kit_setup(tmp_path / "setup")
    assert found is not None and found.problems(hashes=True) == []
    path = tmp_path / "setup" / "append-with-proofs_32_10.vkey"
    path.write_bytes(bytes([path.read_bytes()[0] ^ 1]) + path.read_bytes()[1:])
    assert found.problems(hashes=True) == ["append-with-proofs_32_10.vkey: SHA-256 differs from the manifest"]


def test_a_missing_binary_is_said(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"0\.27\.0 light prover is not at"):
        make_kit_setup(tmp_path / "absent", tmp_path / "setup")


def test_the_made_setup_matches_its_manifest_and_binary() -> None:
    setup = made_kit_setup()
    assert setup.problems(hashes=True) == []
    binary = installed_v2_prover().binary
    assert setup.manifest["binary"]["sha256"] == hashlib.sha256(binary.read_bytes()).hexdigest()
    for name in BATCH_CIRCUITS:
        assert setup.verifying_key(name).public_inputs == 1
