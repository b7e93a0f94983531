"""Discovery through the API, and keys a vendor adds with --keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.errors import ConfigError
from csi_conformance.harness.core.keys import KEY_KINDS, load_keys_file
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.schema import Contract

from .broken import serving


def test_keys_file_is_read_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "keys.yaml"
    owner_a, owner_b, mint = "11111111111111111111111111111111", "So11111111111111111111111111111111111111112", \
        "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
    path.write_text(f"owners: [{owner_a}, {owner_b}]\nmints: [{mint}]\n")
    keys = load_keys_file(path)
    assert keys["owners"] == [owner_a, owner_b] and keys["mints"] == [mint]
    path.write_text("owners: [ownerA]\n")
    with pytest.raises(ConfigError, match='owners: "ownerA" is not a base58 key of 32 bytes'):
        load_keys_file(path)
    path.write_text("wallets: [x]\n")
    with pytest.raises(ConfigError, match="wallets"):
        load_keys_file(path)
    path.write_text("owners: x\n")
    with pytest.raises(ConfigError, match=r"keys\.yaml"):
        load_keys_file(path)


def test_discovery_finds_every_kind_on_the_default_scenario(tmp_path: Path) -> None:
    keys_file = tmp_path / "keys.yaml"
    keys_file.write_text("owners: [11111111111111111111111111111111]\n")
    with serving(None) as url, Target(url) as target:
        result = run(target, RunFacts(profile=PROFILES["spec"]),
                     RunConfig(only=["health"], keys=load_keys_file(keys_file)))
    found = result.discovered
    assert set(found) == set(KEY_KINDS)
    assert found["owners"][0] == "11111111111111111111111111111111", "vendor keys come first"
    for kind in ("signatures", "hashes", "addresses", "owners", "token_owners", "mints", "delegates", "trees",
                 "closed_hashes"):
        assert found[kind], kind


def test_every_kind_of_key_the_contract_names_is_one_discovery_finds() -> None:
    """`params.keys` in the contract names kinds of key; discovery and --keys must know each of them."""
    named = {kind for method in Contract.default().methods.values() for kind in method.keys.values()}
    assert named and named <= set(KEY_KINDS)
