"""Kinds of method, and what each kind is given: its deadline and how many of it the kit has in flight at once.

A method that makes a zero-knowledge proof (`getValidityProof` and its V2: a Groth16 proof) costs a target
seconds of CPU where a look-up costs milliseconds; a Merkle proof of an account or an address is a look-up.
The spec shows no timeout (§8, 8-S3), so a deadline is the kit's own choice: proof methods get `PROOF_FACTOR`
times `--timeout` (60 s by default) unless `--proof-timeout` says otherwise, and at most `IN_FLIGHT["proof"]`
of them are out together (halved, down to one, each time one times out with others in flight): the kit never
asks a target to prove more at once than it can prove in time. The contract names no method kind, so the
names are data here, in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["IN_FLIGHT", "PROOF_FACTOR", "PROOF_METHODS", "Deadlines", "MethodKind", "kind_of"]

MethodKind = Literal["proof", "lookup"]

PROOF_METHODS = ("getValidityProof",)
"""Method names (and their `V2` forms: a name that starts with one of these) that make a Groth16 proof."""

PROOF_FACTOR = 6
"""A proof method's deadline, in multiples of `--timeout`, when `--proof-timeout` is not given."""

IN_FLIGHT: dict[MethodKind, int] = {"proof": 2}
"""Requests of a kind out together at most, at the start of a run (and never more than `--concurrency`);
a kind not named is bounded by `--concurrency` alone."""


def kind_of(method: str | None) -> MethodKind:
    """`proof` for a method that makes a proof, else `lookup` (a request without a method name too)."""
    return "proof" if method is not None and method.startswith(PROOF_METHODS) else "lookup"


@dataclass(frozen=True)
class Deadlines:
    """Seconds one request of each kind may take, body included."""

    base: float = 10.0
    """A look-up's deadline (`--timeout`)."""
    proof: float | None = None
    """A proof method's deadline (`--proof-timeout`); None: `PROOF_FACTOR` times `base`."""

    def of(self, method: str | None) -> float:
        if kind_of(method) == "proof":
            return self.proof if self.proof is not None else self.base * PROOF_FACTOR
        return self.base

    def flag(self, method: str | None) -> str:
        """The option that sets this method's deadline."""
        return "--proof-timeout" if kind_of(method) == "proof" else "--timeout"

    def rule(self, method: str | None) -> str:
        """Where this method's deadline comes from, in the words a finding uses."""
        if kind_of(method) == "lookup":
            return "--timeout"
        return "--proof-timeout, a proof method's" if self.proof is not None else \
            f"a proof method's: {PROOF_FACTOR} x --timeout, --proof-timeout not given"
