"""Generated scenarios: deterministic per seed, in the bundled format, with the promised mix."""

from __future__ import annotations

from pathlib import Path

import pytest
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.ledger_crypto import hashing_pool
from csi_conformance.reference_server.generate import _SEGMENT, generate_ledger, generate_scenario
from csi_conformance.reference_server.scenario import load_scenario, scenario_from_document, validate_document


def fingerprint(ledger) -> tuple:
    return (
        tuple(t.root for t in ledger.state_trees.values()),
        ledger.address_tree.root,
        tuple(sorted(ledger.accounts)),
        tuple(ledger.transactions),
    )


@pytest.fixture(scope="module")
def document():
    return generate_scenario(accounts=600, seed=3)


def test_same_seed_same_ledger_other_seed_other_ledger(document) -> None:
    assert generate_scenario(accounts=600, seed=3) == document
    ledger = generate_ledger(accounts=600, seed=3)
    assert fingerprint(ledger) == fingerprint(scenario_from_document(document).ledger)
    other = generate_ledger(accounts=600, seed=4)
    assert fingerprint(other)[0] != fingerprint(ledger)[0]
    assert not set(other.accounts) & set(ledger.accounts)


def test_hashing_with_workers_builds_the_same_ledger(document) -> None:
    with hashing_pool(1, min_batch=1):
        shared = generate_ledger(accounts=600, seed=3)
    assert fingerprint(shared) == fingerprint(scenario_from_document(document).ledger)


def test_documents_follow_the_scenario_format(document, tmp_path: Path) -> None:
    validate_document(document, "<generated>")
    path = tmp_path / "generated.json"
    path.write_text(dumps(document))
    assert fingerprint(load_scenario(str(path))) == fingerprint(generate_ledger(accounts=600, seed=3))


def test_the_mix(document) -> None:
    ledger = scenario_from_document(document).ledger
    accounts = list(ledger.accounts.values())
    assert len(accounts) == 600
    tokens = [a for a in accounts if a.token is not None]
    assert 0.1 < len(tokens) / 600 < 0.3
    assert len({a.token.mint for a in tokens}) > 1
    assert any(a.token.delegate for a in tokens)
    assert 0 < sum(a.closed for a in accounts) < 600 * 0.1
    assert any(a.address for a in accounts) and any(a.data for a in accounts if a.token is None)
    assert len({a.owner for a in accounts if a.token is None}) > 20
    assert any(tx.error for tx in ledger.transactions.values())
    assert ledger.tip_slot > ledger.indexed_slot


@pytest.mark.parametrize("accounts", [0, 1, 7])
def test_exact_account_counts(accounts: int) -> None:
    assert len(generate_ledger(accounts=accounts, seed=1).accounts) == accounts


def test_bad_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="accounts"):
        generate_scenario(accounts=-1, seed=0)


def test_a_build_of_several_hashing_segments_equals_the_loaded_document() -> None:
    """Past one segment of the build's pipeline, labels and leaf indices carry across segments."""
    accounts = _SEGMENT + 700
    document = generate_scenario(accounts=accounts, seed=5)
    with hashing_pool(1, min_batch=1):
        built = generate_ledger(accounts=accounts, seed=5)
    assert fingerprint(built) == fingerprint(scenario_from_document(document, validate=False).ledger)
