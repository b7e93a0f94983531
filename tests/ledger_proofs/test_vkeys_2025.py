"""Today's verifying keys (`ledger_proofs/vkeys-2025-10/`): converted right, shipped intact, the programs' own."""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path

import pytest
from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.ledger_chain.programs_0_28 import install_today
from csi_conformance.ledger_proofs import verify
from csi_conformance.ledger_proofs.circuits import CIRCUITS
from csi_conformance.ledger_proofs.verify import SETUPS, parse_vkey, verifying_key

from tests.ledger_proofs.make_vkeys import KEY_SETS, MANIFEST, UNPUBLISHED, main, rust_name, rust_to_vkey
from tests.ledger_proofs.support import circuit_named, fixture_proofs

PACKAGE = resources.files("csi_conformance.ledger_proofs")
JUNE_2025 = Path(__file__).parent / "fixtures" / "light-ef0dd0417-inclusion_26_1.rs"
"""Light's `program-libs/verifier/src/verifying_keys/inclusion_26_1.rs` at commit ef0dd0417 (the 0.18.0 setup)."""


def _bytes(text: str) -> bytes:
    return bytes(int(t) for t in text.strip("[]").split())


def test_conversion_reproduces_the_0_18_0_key() -> None:
    converted = _bytes(rust_to_vkey(JUNE_2025.read_text(encoding="utf-8"), "inclusion_26_1"))
    shipped = _bytes((PACKAGE / "vkeys" / "inclusion_26_1.vkey").read_text(encoding="ascii"))
    assert len(converted) == len(shipped)
    masked = bytearray(shipped)
    for start, end in UNPUBLISHED:
        assert converted[start:end] == bytes(end - start)
        assert any(shipped[start:end])  # the fields Light does not publish are really elsewhere in gnark's file
        masked[start:end] = bytes(end - start)
    assert converted == bytes(masked)
    assert parse_vkey("c", rust_to_vkey(JUNE_2025.read_text(encoding="utf-8"))) == \
        parse_vkey("c", (PACKAGE / "vkeys" / "inclusion_26_1.vkey").read_text(encoding="ascii"))


def test_conversion_refuses_what_is_not_a_key() -> None:
    text = JUNE_2025.read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="no vk_delta_g2"):
        rust_to_vkey(text.replace("vk_delta_g2", "vk_other"), "x")
    with pytest.raises(ValueError, match="nr_pubinputs says 3"):
        rust_to_vkey(text.replace("nr_pubinputs: 2usize", "nr_pubinputs: 3usize"), "x")
    with pytest.raises(ValueError, match="vk_alpha_g1 has 63 bytes"):
        rust_to_vkey(text.replace("46u8, 130u8,", "130u8,", 1), "x")


def test_the_tool_says_how_to_call_it(capsys) -> None:
    assert main([]) == 2 and "usage" in capsys.readouterr().err


def test_shipped_keys_are_the_converted_ones() -> None:
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    folder = PACKAGE / SETUPS["2025-10"].folder
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".vkey"))
    assert names == sorted(f"{kit}.vkey" for kit, _ in KEY_SETS["2025-10"].keys) == sorted(manifest["files"])
    assert {f"{c.name}.vkey" for c in CIRCUITS.values()} <= set(names)  # every v1 circuit, beside v2 and batch
    assert manifest["commit"] == "1bbc3ee6d55ceb47f13aded304e234c557991495"
    for name in names:
        data = (folder / name).read_bytes()
        assert {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()} == manifest["files"][name], name
    assert manifest["commit"] in (folder / "SOURCE.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("circuit", list(CIRCUITS.values()), ids=lambda c: c.name)
def test_each_key_is_a_new_key_of_the_circuit(circuit) -> None:
    today, old = verifying_key(circuit.name, "2025-10"), verifying_key(circuit.name, "0.18.0")
    assert today.public_inputs == circuit.public_inputs
    assert today.delta != old.delta  # another trusted setup, not a copy of the 0.18.0 key


def test_todays_system_program_carries_every_point_of_the_keys() -> None:
    """The keys are the ones today's programs verify with: each published point is in the program's bytes."""
    program = (install_today().programs_dir / "light_system_program_pinocchio.so").read_bytes()
    folder = PACKAGE / SETUPS["2025-10"].folder
    for circuit in CIRCUITS.values():
        data = _bytes((folder / f"{circuit.name}.vkey").read_text(encoding="ascii"))
        count = int.from_bytes(data[576:580], "big")
        points = [data[0:64], data[128:256], data[256:384], data[448:576]] + \
                 [data[580 + 64 * i:644 + 64 * i] for i in range(count)]
        missing = [i for i, point in enumerate(points) if point not in program]
        assert not missing, f"{circuit.name} ({rust_name(circuit)}): fields {missing} not in the program"


def test_a_proof_of_the_setup_tried_second_verifies_and_goes_first(monkeypatch) -> None:
    entry = fixture_proofs()[0]
    inputs = [int.from_bytes(b58decode(v, length=32), "big") for v in entry["publicInputs"]]
    monkeypatch.setattr(verify, "_order", ["2025-10", "0.18.0"])
    verdict = verify.verify_compressed(circuit_named(entry["circuit"]), entry["value"]["compressedProof"], inputs)
    assert verdict.verified and verdict.setup == SETUPS["0.18.0"]
    assert verify._order == ["0.18.0", "2025-10"]


LATER_RELEASE = Path(__file__).parent / "fixtures" / "proofs-cli-0.27.0.json"
"""Real proofs of the light prover shipped in zk-compression-cli 0.27.0 (its SOURCE is in the file)."""


@pytest.mark.parametrize("entry", json.loads(LATER_RELEASE.read_text(encoding="utf-8"))["proofs"],
                         ids=lambda e: e["circuit"])
def test_a_later_release_of_the_old_setup_verifies_under_it_only(entry, monkeypatch) -> None:
    """0.27.0's prover, a second release of the 0.18.0 setup: its proofs hold under 0.18.0's keys and
    under no key of today's setup, so today's keys do not accept just any real proof."""
    circuit = circuit_named(entry["circuit"])
    inputs = [int.from_bytes(b58decode(v, length=32), "big") for v in entry["publicInputs"]]
    proof = entry["value"]["compressedProof"]
    monkeypatch.setattr(verify, "_order", ["2025-10"])
    today = verify.verify_compressed(circuit, proof, inputs)
    assert not today.verified and SETUPS["2025-10"].description in today.reason
    monkeypatch.setattr(verify, "_order", ["2025-10", "0.18.0"])
    assert verify.verify_compressed(circuit, proof, inputs).setup == SETUPS["0.18.0"]
