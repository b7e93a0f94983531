"""Proofs that cost nothing twice: the reference's kit prover reads a proof back from the machine's proof cache
when the same request was proven under the same keys, and starts no prover then; over a ledger the cache has
not seen it starts the prover in the background at once, over one it has, never before a request lacks a proof."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from csi_conformance.ledger_proofs.proof_cache import cached_proof, knows_ledger, mark_ledger
from csi_conformance.reference_server import prover as prover_module
from csi_conformance.reference_server.prover import KIT_V1, KitProver, ProverError, roots_digest, warm_v1
from csi_conformance.reference_server.scenario import load_scenario

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
