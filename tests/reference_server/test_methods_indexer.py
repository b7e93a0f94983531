"""getIndexerHealth and getIndexerSlot answer bare values (not {context, value})."""

from __future__ import annotations

import pytest
from csi_conformance.reference_server.errors import SERVER_ERROR, RpcError
from csi_conformance.reference_server.methods import call, readings
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import load_scenario
from csi_conformance.schema import Contract


def ask(ledger, method: str, options: ServerOptions) -> object:
    result = call(ledger, method, None, options)
    assert Contract.default().result_validator(method, readings(Contract.default(), options)).violations(result) == []
    return result


@pytest.fixture(scope="module")
def ledger():
    return load_scenario("default")


def test_slot_is_the_indexed_slot(ledger) -> None:
    assert ask(ledger, "getIndexerSlot", ServerOptions()) == 1010
    assert ask(load_scenario("empty"), "getIndexerSlot", ServerOptions()) == 0


@pytest.mark.parametrize("max_stale", [20, 4])
def test_healthy_while_the_tip_is_at_most_max_stale_slots_ahead(ledger, max_stale: int) -> None:
    assert ledger.tip_slot - ledger.indexed_slot == 4
    assert ask(ledger, "getIndexerHealth", ServerOptions(max_stale_slots=max_stale)) == "ok"


def test_stale_beyond_max_stale_slots(ledger) -> None:
    with pytest.raises(RpcError) as caught:
        call(ledger, "getIndexerHealth", {}, ServerOptions(max_stale_slots=3))
    assert (caught.value.code, caught.value.message) == (SERVER_ERROR, "Node is behind 4 slots")
