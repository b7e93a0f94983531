"""Asking the reference's methods directly, with every answer checked on the way."""

from __future__ import annotations

from typing import Any

from reference_server.methods import call, result_readings
from reference_server.options import ServerOptions
from reference_server.scenario import Scenario
from schema import Contract
from schema.jsonio import dumps, loads

OPTIONS = ServerOptions()


def ask(s: Scenario, method: str, params: Any, options: ServerOptions = OPTIONS) -> Any:
    """The `value` of a state answer (the whole result otherwise), after checking that the answer
    validates against the contract and survives the wire unchanged (big integers stay exact)."""
    result = call(s.ledger, method, params, options)
    assert Contract.default().result_validator(method, result_readings(options)).violations(result) == []
    assert loads(dumps(result)) == result
    return result["value"] if Contract.default().method(method).state else result
