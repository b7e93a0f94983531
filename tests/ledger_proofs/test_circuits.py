from __future__ import annotations

import pytest
from csi_conformance.ledger_proofs.circuits import ACCOUNT_COUNTS, ADDRESS_COUNTS, CIRCUITS, circuit_for
from csi_conformance.ledger_proofs.verify import verifying_key


def test_every_circuit_of_the_api_is_listed_once(contract) -> None:
    method = contract.method("getValidityProof")
    assert tuple(method.limit_for("hashes").counts) == ACCOUNT_COUNTS
    assert tuple(method.limit_for("newAddressesWithTrees").counts) == ADDRESS_COUNTS
    combined = method.observed["combined_max"]
    expected = {(n, 0) for n in ACCOUNT_COUNTS} | {(0, m) for m in ADDRESS_COUNTS}
    expected |= {(n, m) for n in ACCOUNT_COUNTS for m in ADDRESS_COUNTS
                 if n <= combined["hashes"] and m <= combined["newAddressesWithTrees"]}
    assert set(CIRCUITS) == expected
    assert len({c.name for c in CIRCUITS.values()}) == 15


@pytest.mark.parametrize(("counts", "name", "family"), [
    ((1, 0), "inclusion_26_1", "inclusion"), ((8, 0), "inclusion_26_8", "inclusion"),
    ((0, 2), "non-inclusion_26_2", "non-inclusion"), ((3, 1), "combined_26_3_1", "combined"),
])
def test_circuit_names_and_families(counts, name, family) -> None:
    circuit = circuit_for(*counts)
    assert (circuit.name, circuit.family) == (name, family)


def test_no_circuit_for_counts_the_api_refuses() -> None:
    assert circuit_for(5, 0) is None
    assert circuit_for(8, 1) is None
    assert circuit_for(0, 3) is None
    assert circuit_for(0, 0) is None


def test_public_input_order_is_roots_leaves_address_roots_addresses() -> None:
    circuit = circuit_for(2, 1)
    assert circuit.order([1, 2], [3, 4], [5], [6]) == [1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match="address roots"):
        circuit.order([1, 2], [3, 4], [], [6])


@pytest.mark.parametrize("circuit", list(CIRCUITS.values()), ids=lambda c: c.name)
def test_each_verifying_key_takes_the_circuits_public_inputs(circuit) -> None:
    assert verifying_key(circuit.name).public_inputs == circuit.public_inputs
