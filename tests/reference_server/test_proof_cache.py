"""Proofs that cost nothing twice: the reference's kit prover reads a proof back from the machine's proof cache
when the same request was proven under the same keys, and starts no prover then; over a ledger the cache has
not seen it starts the prover in the background at once, over one it has, never before a request lacks a proof."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from csi_conformance.ledger_proofs.proof_cache import cached_proof, knows_ledger, mark_ledger
from csi_conformance.reference_server import prover as prover_module
from csi_conformance.reference_server.prover import KIT_V1, KitProver, ProverError, kit_v1_keys, roots_digest, warm_v1
from csi_conformance.reference_server.scenario import load_scenario
from csi_conformance.reference_server.ship_proofs import write_shipped
from csi_conformance.reference_server.shipped_proofs import read_shipped, shipped_proofs

from tests.ledger_proofs.support import installed_prover

CSI = Path(sys.executable).parent / "csi"

GNARK = {  # the light client's own test vector (tests/ledger_crypto/test_bn254.py)
    "ar": ["0x22bdaa3187d8fe294925a66fa0165a11bc9e07678fa2fc72402ebfd33d521c69",
           "0x2d18ff780b69898b4cdd8d7b6ac72d077799399f0f45e52665426456f3903584"],
    "bs": [["0x138cc0962e49f76a701d2871d2799892c9782940095eb0429e979f336d2e162d",
            "0x2fe1bfbb15cbfb83d7e00ace23e45f890604003783eaf34affa35e0d6f4822bc"],
           ["0x1a89264f82cc6e8ef1c696bea0b5803c28c0ba6ab61366bcb71e73a4135cae8d",
            "0xf778d857b3df01a4100265c9d014ce02d47425f0114685356165fa5ee3f3a26"]],
    "krs": ["0x176b6ae9001f66832951e2d43a98a972667447bb1781f534b70cb010270dcdd3",
            "0xb748d5fac1686db28d94c02250af7eb4f28dfdabc8983305c45bcbc6e163eeb"],
}


def test_a_proof_is_kept_by_its_request_and_its_keys(tmp_path: Path) -> None:
    asked: list[bytes] = []

    def ask(body: bytes):
        return lambda: asked.append(body) or GNARK

    first, cached = cached_proof(tmp_path, b"request", ask(b"request"), keys="keys A")
    again, cached_again = cached_proof(tmp_path, b"request", ask(b"request"), keys="keys A")
    assert (cached, cached_again, first == again, asked) == (False, True, True, [b"request"])
    cached_proof(tmp_path, b"request", ask(b"other keys"), keys="keys B")  # other keys: never the first's proof
    cached_proof(tmp_path, b"request 2", ask(b"request 2"), keys="keys A")
    assert asked == [b"request", b"other keys", b"request 2"]
    for entry in tmp_path.glob("*.json"):
        entry.write_text("{not json")  # a damaged entry is proven again
    assert cached_proof(tmp_path, b"request", ask(b"again"), keys="keys A") == (first, False)


def test_a_cached_proof_starts_no_prover_and_a_missing_one_does(tmp_path: Path) -> None:
    started: list[str] = []

    def no_prover() -> str:
        started.append("start")
        raise prover_module.ProverStartError("no prover here")

    kit = KitProver(no_prover, "keys A", cache_dir=tmp_path)
    cached_proof(tmp_path, b"known request", lambda: GNARK, keys="keys A")
    assert kit.prove_body(b"known request")["a"] and started == []
    with pytest.raises(ProverError, match="no prover here"):
        kit.prove_body(b"a request the cache lacks")
    assert started == ["start"]


def test_the_prover_starts_in_the_background_only_over_a_ledger_the_cache_has_not_seen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    starts: list[Any] = []
    monkeypatch.setattr(prover_module, "start_shared_prover", lambda: starts.append("background"))
    monkeypatch.setenv("CSI_PROOF_CACHE", str(tmp_path))
    monkeypatch.setenv("CSI_SHIPPED_PROOFS", "0")  # the default ledger's proofs ship with the kit: not read here
    ledger, said = load_scenario("default"), []
    assert warm_v1(KIT_V1, ledger, say=said.append) is True and starts == ["background"]
    assert knows_ledger(tmp_path, roots_digest(ledger))
    assert warm_v1(KIT_V1, ledger, say=said.append) is False and starts == ["background"]
    assert "in the proof cache" in said[-1]
    assert warm_v1(None, load_scenario("empty")) is False  # placeholders: no prover at all
    other = load_scenario("empty")
    assert roots_digest(other) != roots_digest(ledger) and not knows_ledger(tmp_path, roots_digest(other))
    mark_ledger(tmp_path, roots_digest(other))
    assert warm_v1(KIT_V1, other) is False and starts == ["background"]


# -- the default run's proofs, shipped with the kit -------------------------------------------------------------

def test_a_shipped_proof_is_read_when_the_cache_lacks_it_and_starts_no_prover(tmp_path: Path) -> None:
    started: list[str] = []

    def no_prover() -> str:
        started.append("start")
        raise prover_module.ProverStartError("no prover here")

    shelf_dir = tmp_path / "made"
    cached_proof(shelf_dir, b"shipped request", lambda: GNARK, keys="keys A")
    count = write_shipped(shelf_dir, keys="keys A", ledger="ledger L", path=tmp_path / "shipped.json")
    shipped = read_shipped(tmp_path / "shipped.json")
    assert count == 1 and shipped is not None and shipped.ledgers == {"ledger L"}
    kit = KitProver(no_prover, "keys A", cache_dir=tmp_path / "cache", shelf=shipped.proofs)
    assert kit.prove_body(b"shipped request")["a"] and started == []
    assert not (tmp_path / "cache").exists()  # read, never copied: the machine's cache holds what was made here
    with pytest.raises(ProverError, match="no prover here"):
        kit.prove_body(b"a request none shipped")
    assert started == ["start"]


def test_shipped_proofs_are_read_only_under_their_keys_and_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = kit_v1_keys()
    shipped = shipped_proofs(keys)
    assert shipped is not None and shipped.proofs and roots_digest(load_scenario("default")) in shipped.ledgers
    assert shipped_proofs(keys + " other") is None
    monkeypatch.setenv("CSI_SHIPPED_PROOFS", "0")
    assert shipped_proofs(keys) is None


def test_over_the_default_ledger_no_prover_starts_in_the_background(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    starts: list[Any] = []
    monkeypatch.setattr(prover_module, "start_shared_prover", lambda: starts.append("background"))
    monkeypatch.setenv("CSI_PROOF_CACHE", str(tmp_path))
    said: list[str] = []
    assert warm_v1(KIT_V1, load_scenario("default"), say=said.append) is False and starts == []
    assert "ship with the kit" in said[-1]


@pytest.mark.prover
def test_the_default_run_makes_no_proof_on_a_fresh_machine(tmp_path: Path) -> None:
    """`csi run` with an empty proof cache: every proof the reference serves is a shipped one (none is made, so the
    cache stays empty) and the harness verifies them. Fails when the default run's requests or scenario changed:
    `python -m csi_conformance.reference_server.ship_proofs` makes them again."""
    installed_prover()
    cache = tmp_path / "proofs"
    env = {**os.environ, "CSI_PROVER": "light", "CSI_PROOF_CACHE": str(cache)}
    done = subprocess.run([str(CSI), "run", "--report-dir", str(tmp_path / "out")], env=env, capture_output=True,
                          text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "ship with the kit" in done.stderr
    made = sorted(cache.glob("*.json")) if cache.exists() else []
    assert made == [], f"{len(made)} proofs made: run python -m csi_conformance.reference_server.ship_proofs"
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    (proofs,) = [check for check in report["checks"] if check["id"] == "crypto.groth16-proof"]
    assert proofs["status"] == "PASS" and proofs["examined"]["proofs"] >= 10, proofs
