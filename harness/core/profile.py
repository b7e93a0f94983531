"""Profiles: how strictly a run judges what the spec does not state.

| basis of a broken rule | spec      | strict | lenient |
|------------------------|-----------|--------|---------|
| spec                   | FAIL      | FAIL   | FAIL    |
| json-rpc (a SHOULD)    | WARN      | FAIL   | INFO    |
| observed practice      | INFO      | FAIL   | INFO    |
| ambiguity reading      | AMBIGUOUS | FAIL*  | INFO    |
| ledger (ledger-facts)  | FAIL      | FAIL   | WARN    |

(*) strict pins every ambiguity to the observed reading, so only a different reading fails.
`spec` is the default: only what the spec states, and what the ledger's own hashing and proof rules
make wrong for every client (a bad root, a proof that does not verify), can FAIL.
The kit's own errors are ERROR under every profile.
"""

from __future__ import annotations

from dataclasses import dataclass

from csi_conformance.harness.core.errors import UsageError
from csi_conformance.harness.core.model import Basis, Status
from csi_conformance.schema import Contract, Readings

__all__ = ["PROFILES", "Profile", "profile_named"]


@dataclass(frozen=True)
class Profile:
    name: str
    statuses: dict[Basis, Status]
    pin_observed: bool

    def status_for(self, basis: Basis) -> Status:
        return self.statuses[basis]

    def readings(self, contract: Contract) -> Readings:
        """The readings a schema check accepts: all of them, or only the observed one under strict."""
        if not self.pin_observed:
            return {}
        return {amb.id: [amb.observed] for amb in contract.ambiguities.values()}


PROFILES = {
    "spec": Profile("spec", {Basis.SPEC: Status.FAIL, Basis.JSON_RPC: Status.WARN, Basis.OBSERVED: Status.INFO,
                             Basis.AMBIGUITY: Status.AMBIGUOUS, Basis.LEDGER: Status.FAIL, Basis.KIT: Status.ERROR,
                             Basis.CONTRACT: Status.FAIL},
                    pin_observed=False),
    "strict": Profile("strict", {Basis.SPEC: Status.FAIL, Basis.JSON_RPC: Status.FAIL, Basis.OBSERVED: Status.FAIL,
                                 Basis.AMBIGUITY: Status.FAIL, Basis.LEDGER: Status.FAIL, Basis.KIT: Status.ERROR,
                                 Basis.CONTRACT: Status.FAIL},
                      pin_observed=True),
    "lenient": Profile("lenient", {Basis.SPEC: Status.FAIL, Basis.JSON_RPC: Status.INFO, Basis.OBSERVED: Status.INFO,
                                   Basis.AMBIGUITY: Status.INFO, Basis.LEDGER: Status.WARN, Basis.KIT: Status.ERROR,
                                   Basis.CONTRACT: Status.FAIL},
                       pin_observed=False),
}


def profile_named(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise UsageError(f"unknown profile {name!r}: choose one of {', '.join(PROFILES)}") from None
