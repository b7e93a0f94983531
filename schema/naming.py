"""How a command names the contract it uses, on its first screen: `csi run` judges against the spec's by
default while `csi serve` serves today's, and a user should not have to find that out from a finding."""

from __future__ import annotations

from csi_conformance.schema.apis import DEFAULT_API, api_directories
from csi_conformance.schema.contract import Contract

__all__ = ["api_alternatives", "api_summary"]

SPEC_ALONE = "the spec's alone"
"""What choosing the spec's contract means, beside one that extends it."""
TODAYS = "the API clients call today"
"""What choosing a contract that extends the spec's means: the methods observed in use (schema/<name>/api.yaml)."""


def api_summary(name: str) -> str:
    """`photon-366a15b (the spec's 19 methods and 20 more)`, counted from the contract itself."""
    contract = Contract.for_api(name)
    spec = len(Contract.for_api(DEFAULT_API).methods)
    if contract.extends is None:
        return f"{name} (the spec's {spec} methods)"
    return f"{name} (the spec's {spec} methods and {len(contract.own_methods())} more)"


def api_alternatives(name: str) -> str:
    """`--api 0.50.0 for the spec's alone`: the other contracts the kit ships, each with what it means."""
    return "; ".join(f"--api {other} for {SPEC_ALONE if other == DEFAULT_API else TODAYS}"
                     for other in api_directories() if other != name)
