"""The pieces the case generator is made of: a case's spec, the scenario's names, a builder.

`Names` reads keys, hashes, addresses and signatures from the reference's ledger of the
default scenario by the names the scenario file gives them (`counter`, `c1`, transaction 5),
so no base58 string is ever copied into a case by hand. `Builder` collects `Spec`s and asks
the reference for the values a later request depends on (the cursor of the next page).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from csi_conformance.cases.model import Case
from csi_conformance.cases.tools.fill import Reference
from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import loads
from csi_conformance.ledger_crypto import derive_address
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import open_scenario
from csi_conformance.reference_server.scenarios import bundled_scenarios
from csi_conformance.schema import Contract

__all__ = ["NO_PARAMS", "Builder", "Names", "Spec", "stale_scenarios"]

NO_PARAMS = object()
"""`params` of a request that sends none (getIndexerHealth, getIndexerSlot)."""


@dataclass(frozen=True)
class Spec:
    """A case to write: its request and header, the answer left to `csi cases fill`."""

    method: str
    stem: str
    params: Any
    clauses: tuple[str, ...]
    mode: str
    description: str
    scenario: str = "default"
    ambiguity: str | None = None
    envelope: dict[str, Any] = field(default_factory=dict)

    def request(self) -> dict[str, Any]:
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": f"{self.method}/{self.stem}", "method": self.method}
        if self.params is not NO_PARAMS:
            body["params"] = self.params
        return {**body, **self.envelope}

    def case(self, root: Path) -> Case:
        return Case(name=f"{self.method}/{self.stem}", method=self.method, path=root / self.method / f"{self.stem}.io",
                    description=self.description, clauses=self.clauses, mode=self.mode, scenario=self.scenario,
                    request=self.request(), ambiguity=self.ambiguity)


class Names:
    """The default scenario's names, as the base58 strings a request carries."""

    def __init__(self) -> None:
        scenario = open_scenario("default")
        self.ledger = scenario.ledger
        self.keys, self.labels = scenario.keys, scenario.labels
        self.signatures = list(self.ledger.transactions)

    def key(self, name: str) -> str:
        return b58encode(self.keys[name])

    def hash(self, label: str) -> str:
        return b58encode(self.labels[label])

    def address(self, label: str) -> str:
        return b58encode(self.ledger.account(self.labels[label]).address)

    def signature(self, index: int) -> str:
        """Transaction `index` of the scenario file (0-based, failed ones counted)."""
        return b58encode(self.signatures[index])

    def fresh_addresses(self, count: int) -> list[str]:
        """Addresses no account has: derived from seeds no scenario uses."""
        tree = self.ledger.address_tree_key
        return [b58encode(derive_address(program_id=self.keys["idle"], seeds=[b"csi-case-fresh", str(i).encode()],
                                         address_tree=tree)) for i in range(count)]

    def live_hashes(self) -> list[str]:
        """The hashes of `counter`'s live accounts, in the order the scenario opens them."""
        accounts = [self.ledger.account(hash_) for hash_ in self.labels.values()]
        return [b58encode(a.hash) for a in accounts if a.owner == self.keys["counter"] and not a.closed]


class Builder:
    """Collects specs; `add` fills in the method's clause, `error` the error mode."""

    def __init__(self, contract: Contract, names: Names, reference: Reference) -> None:
        self.contract, self.names, self.reference = contract, names, reference
        self.specs: list[Spec] = []

    def add(self, method: str, stem: str, params: Any, clauses: tuple[str, ...] | list[str], description: str,
            mode: str = "exact", **extra: Any) -> Spec:
        ids = tuple(dict.fromkeys([self.contract.method(method).clause, *clauses]))
        spec = Spec(method, stem, params, ids, mode, description, **extra)
        self.specs.append(spec)
        return spec

    def error(self, method: str, stem: str, params: Any, clauses: list[str], description: str, **extra: Any) -> Spec:
        return self.add(method, stem, params, clauses, description, mode="invariant:error", **extra)

    def value(self, spec: Spec) -> Any:
        """The reference's `result.value` for a spec's request (cursors of the next page)."""
        answer = loads(self.reference.answer_text(spec.scenario, spec.request()))
        return answer["result"]["value"]


def stale_scenarios() -> list[str]:
    """Bundled scenarios whose tip is further ahead than the default staleness allows (7-C3)."""
    allowed = ServerOptions().max_stale_slots
    stale = []
    for name in bundled_scenarios():
        ledger = open_scenario(name).ledger
        if ledger.tip_slot - ledger.indexed_slot > allowed:
            stale.append(name)
    return stale
