"""Light's v2 circuits (batched trees: state height 32, addresses height 40) as data, and their one public input.

A v2 validity proof, like a v1 one, is one Groth16 proof over one circuit chosen by the number of
accounts and new addresses; unlike v1, the circuit takes a single public input: a Poseidon hash
chain of the roots, leaves and addresses the proof speaks of, which the system program recomputes.

The rule, from Light's sources (Lightprotocol/light-protocol):

- prover, commit 5ca22ae2a (the 0.27.0 prover): `prover/server/prover/inclusion_circuit.go`,
  `non_inclusion_circuit.go` (`createTwoInputsHashChain(Roots, Leaves | Values)`),
  `combined_circuit.go` (`Poseidon2(inclusion chain, non-inclusion chain)`), the chain itself in
  `batch_circuit_helpers.go` (`TwoInputsHashChain`: h = P(r₀, l₀), then h = P(h, rᵢ, lᵢ));
- program, commit 1bbc3ee6d: `programs/system/src/processor/verify_proof.rs` (`verify_proof`) with
  `program-libs/hasher/src/hash_chain.rs` (`create_two_inputs_hash_chain`,
  `create_hash_chain_from_slice`): the same chain, and P(inclusion, non-inclusion) when both exist.

Which sizes exist depends on the setup: Light's June-2025 setup (the 0.27.0 prover and programs)
has inclusion and non-inclusion of 1, 2, 3, 4, 8 and combined 1–4 × 1–4; its October-2025 setup
(today's programs) inclusion 1–20, non-inclusion 1–32 and the same combined ones. The 0.27.0
package carries proving keys for `PROVABLE` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from csi_conformance.ledger_crypto import BATCHED_ADDRESS_HEIGHT, BATCHED_STATE_HEIGHT, poseidon

__all__ = [
    "ADDRESS_HEIGHT",
    "BATCH_CIRCUITS",
    "COMBINED_COUNTS",
    "JUNE_2025",
    "OCTOBER_2025",
    "PROVABLE",
    "STATE_HEIGHT",
    "V2Circuit",
    "public_input_hash",
    "two_inputs_hash_chain",
    "v2_circuit_for",
]

STATE_HEIGHT: int = BATCHED_STATE_HEIGHT
"""Height of the batched state trees a v2 inclusion proof is for (32)."""
ADDRESS_HEIGHT: int = BATCHED_ADDRESS_HEIGHT
"""Height of the batched address trees a v2 non-inclusion proof is for (40)."""
COMBINED_COUNTS = tuple((n, m) for n in (1, 2, 3, 4) for m in (1, 2, 3, 4))
"""(accounts, addresses) a v2 combined circuit exists for, in both setups."""


@dataclass(frozen=True)
class V2Circuit:
    """One v2 circuit: its kit name (the `.vkey` and `.key` stem), and how many accounts and addresses it proves."""

    name: str
    accounts: int
    addresses: int

    @property
    def family(self) -> str:
        """`inclusion`, `non-inclusion` or `combined`."""
        return self.name.split("_", 1)[0]

    @property
    def public_inputs(self) -> int:
        """One: the hash of everything the proof speaks of."""
        return 1


def _name(accounts: int, addresses: int) -> str:
    if accounts and addresses:
        return f"combined_{STATE_HEIGHT}_{ADDRESS_HEIGHT}_{accounts}_{addresses}"
    if accounts:
        return f"inclusion_{STATE_HEIGHT}_{accounts}"
    return f"non-inclusion_{ADDRESS_HEIGHT}_{addresses}"


def _circuits(accounts: Sequence[int], addresses: Sequence[int]) -> dict[tuple[int, int], V2Circuit]:
    counts = [(n, 0) for n in accounts] + [(0, m) for m in addresses] + list(COMBINED_COUNTS)
    return {c: V2Circuit(_name(*c), *c) for c in counts}


JUNE_2025 = _circuits((1, 2, 3, 4, 8), (1, 2, 3, 4, 8))
"""The 26 v2 circuits of Light's June-2025 setup (light-protocol c0a089edd), by (accounts, addresses)."""
OCTOBER_2025 = _circuits(range(1, 21), range(1, 33))
"""The 68 v2 circuits of Light's October-2025 setup (light-protocol 1bbc3ee6d, today's programs)."""
PROVABLE = {c: JUNE_2025[c] for c in ((1, 0), (2, 0), (3, 0), (4, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 1))}
"""The 9 v2 circuits whose proving keys npm zk-compression-cli 0.27.0 ships (June-2025 setup)."""
BATCH_CIRCUITS = ("batch_append_32_10", "batch_update_32_10", "batch_address_append_40_10")
"""The forester's batch circuits at the batch size of the trees the kit makes (10), one public input each."""


def v2_circuit_for(accounts: int, addresses: int) -> V2Circuit | None:
    """The v2 circuit of any setup that proves `accounts` accounts and `addresses` new addresses, or None."""
    return OCTOBER_2025.get((accounts, addresses)) or JUNE_2025.get((accounts, addresses))


def _field(value: int) -> bytes:
    return value.to_bytes(32, "big")  # OverflowError / ValueError for what is no 32-byte word


def two_inputs_hash_chain(first: Sequence[int], second: Sequence[int]) -> int:
    """Light's `create_two_inputs_hash_chain`: P(a₀, b₀), then P(h, aᵢ, bᵢ); ValueError on unequal or empty lists."""
    if len(first) != len(second) or not first:
        raise ValueError(f"a hash chain of {len(first)} and {len(second)} values")
    chain = poseidon(_field(first[0]), _field(second[0]))
    for a, b in zip(first[1:], second[1:], strict=True):
        chain = poseidon(chain, _field(a), _field(b))
    return int.from_bytes(chain, "big")


def public_input_hash(account_roots: Sequence[int], leaves: Sequence[int], address_roots: Sequence[int],
                      addresses: Sequence[int]) -> int:
    """The one public input of the v2 circuit for these elements, as the system program computes it."""
    if not leaves and not addresses:
        raise ValueError("a proof of nothing")
    if leaves and addresses:
        inclusion = two_inputs_hash_chain(account_roots, leaves)
        non_inclusion = two_inputs_hash_chain(address_roots, addresses)
        return int.from_bytes(poseidon(_field(inclusion), _field(non_inclusion)), "big")
    if leaves:
        return two_inputs_hash_chain(account_roots, leaves)
    return two_inputs_hash_chain(address_roots, addresses)
