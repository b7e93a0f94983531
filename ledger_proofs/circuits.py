"""The light prover's v1 circuits as data: which circuit proves which counts, and the order of its public inputs.

A validity proof is one Groth16 proof over one circuit, chosen by the number of accounts proven
to exist and of new addresses proven free (real-proofs.md). The public inputs are the roots and
leaves of those elements, in the order below, confirmed with the light prover 0.18.0 for
inclusion, non-inclusion and combined circuits (ledger-facts.md, "Validity proofs").
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ACCOUNT_COUNTS",
    "ADDRESS_COUNTS",
    "CIRCUITS",
    "COMBINED_COUNTS",
    "HEIGHT",
    "PUBLIC_INPUT_ORDER",
    "Circuit",
    "circuit_for",
]

HEIGHT = 26
"""Height of the state and address trees the v1 circuits take (API 0.50.0 serves v1 trees)."""
ACCOUNT_COUNTS = (1, 2, 3, 4, 8)
"""Accounts an inclusion circuit exists for."""
ADDRESS_COUNTS = (1, 2)
"""New addresses a non-inclusion circuit exists for."""
COMBINED_COUNTS = tuple((n, m) for n in (1, 2, 3, 4) for m in ADDRESS_COUNTS)
"""(accounts, addresses) a combined circuit exists for."""
PUBLIC_INPUT_ORDER = ("account roots", "account leaves", "address roots", "addresses")
"""The public inputs of every v1 circuit, group by group; a group with no element is absent."""


@dataclass(frozen=True)
class Circuit:
    """One circuit: its name (the key files' stem), and how many accounts and addresses it proves."""

    name: str
    accounts: int
    addresses: int

    @property
    def family(self) -> str:
        """`inclusion`, `non-inclusion` or `combined`."""
        return self.name.rsplit(f"_{HEIGHT}_", 1)[0]

    @property
    def public_inputs(self) -> int:
        """How many public inputs the circuit takes: a root and a leaf per element."""
        return 2 * (self.accounts + self.addresses)

    def order(self, account_roots: list[int], leaves: list[int], address_roots: list[int],
              addresses: list[int]) -> list[int]:
        """The public inputs in the circuit's order; ValueError when a group has the wrong length."""
        groups = (account_roots, leaves, address_roots, addresses)
        sizes = (self.accounts, self.accounts, self.addresses, self.addresses)
        for label, group, size in zip(PUBLIC_INPUT_ORDER, groups, sizes, strict=True):
            if len(group) != size:
                raise ValueError(f"{self.name}: {len(group)} {label} given, the circuit takes {size}")
        return [*account_roots, *leaves, *address_roots, *addresses]


def _name(accounts: int, addresses: int) -> str:
    if accounts and addresses:
        return f"combined_{HEIGHT}_{accounts}_{addresses}"
    if accounts:
        return f"inclusion_{HEIGHT}_{accounts}"
    return f"non-inclusion_{HEIGHT}_{addresses}"


CIRCUITS: dict[tuple[int, int], Circuit] = {
    counts: Circuit(_name(*counts), *counts)
    for counts in [(n, 0) for n in ACCOUNT_COUNTS] + [(0, m) for m in ADDRESS_COUNTS] + list(COMBINED_COUNTS)
}
"""Every v1 circuit by (accounts, addresses): 5 inclusion, 2 non-inclusion, 8 combined."""


def circuit_for(accounts: int, addresses: int) -> Circuit | None:
    """The circuit that proves `accounts` accounts and `addresses` new addresses, or None when none does."""
    return CIRCUITS.get((accounts, addresses))
