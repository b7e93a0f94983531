"""The `POST /prove` body of a v2 proof (batched trees), built from plain integers.

The field names are those the 0.27.0 prover reads (light-protocol 5ca22ae2a,
`prover/server/prover/marshal_inclusion.go`, `marshal_non_inclusion.go`, `marshal_combined.go`, and
`circuit_builder.go` `ParseProofRequestMeta`): `circuitType` ("inclusion", "non-inclusion",
"combined"), `stateTreeHeight` / `addressTreeHeight` (the path lengths, 32 and 40), a
`publicInputHash`, whose presence makes the prover pick a v2 circuit, and the elements in
`inputCompressedAccounts` {root, pathIndex, pathElements, leaf} and `newAddresses` {root, value,
pathIndex, pathElements, leafLowerRangeValue, leafHigherRangeValue}. A v2 address tree's leaf is
Poseidon(low value, next value), with no next index (`circuit_utils.go` `LeafHashGadget`), so none
is sent. Values go as 32-byte `0x`-hex strings, indices as JSON integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from csi_conformance.ledger_crypto import FIELD_MODULUS
from csi_conformance.ledger_proofs.circuits_v2 import (
    ADDRESS_HEIGHT,
    STATE_HEIGHT,
    V2Circuit,
    public_input_hash,
    v2_circuit_for,
)

__all__ = ["V2Account", "V2Address", "v2_request"]

ADDRESS_BOUND = 1 << 248
"""The circuit compares address values over 248 bits (`AssertIsLess{N: 248}`): a v2 address is below this."""


def _check(name: str, value: Any, bound: int) -> None:
    if type(value) is not int or not 0 <= value < bound:
        raise ValueError(f"{name}: not an integer in [0, {bound.bit_length() - 1} bits)")


def _check_path(path: Sequence[int], index: int, height: int) -> None:
    if len(path) != height:
        raise ValueError(f"a path of {len(path)} siblings, the tree has height {height}")
    for i, element in enumerate(path):
        _check(f"path[{i}]", element, FIELD_MODULUS)
    _check("leaf index", index, 1 << height)


@dataclass(frozen=True)
class V2Account:
    """Inclusion of one leaf in a height-32 state tree: the root, the leaf, its index and its 32 siblings."""

    root: int
    leaf: int
    leaf_index: int
    path: tuple[int, ...]

    def __post_init__(self) -> None:
        _check("root", self.root, FIELD_MODULUS)
        _check("leaf", self.leaf, FIELD_MODULUS)
        _check_path(self.path, self.leaf_index, STATE_HEIGHT)


@dataclass(frozen=True)
class V2Address:
    """Non-inclusion of one address in a height-40 address tree: the root, the address, and the low element
    (its value, the next value, its leaf index and 40 siblings) whose range holds the address."""

    root: int
    address: int
    low_value: int
    next_value: int
    low_index: int
    path: tuple[int, ...]

    def __post_init__(self) -> None:
        _check("root", self.root, FIELD_MODULUS)
        for name in ("address", "low_value", "next_value"):
            _check(name, getattr(self, name), ADDRESS_BOUND)
        _check_path(self.path, self.low_index, ADDRESS_HEIGHT)


def _hex(n: int) -> str:
    return f"0x{n:064x}"


def _account_json(a: V2Account) -> dict[str, Any]:
    return {"root": _hex(a.root), "pathIndex": a.leaf_index, "pathElements": [_hex(e) for e in a.path],
            "leaf": _hex(a.leaf)}


def _address_json(a: V2Address) -> dict[str, Any]:
    return {"root": _hex(a.root), "value": _hex(a.address), "pathIndex": a.low_index,
            "pathElements": [_hex(e) for e in a.path], "leafLowerRangeValue": _hex(a.low_value),
            "leafHigherRangeValue": _hex(a.next_value)}


def v2_request(accounts: Sequence[V2Account], addresses: Sequence[V2Address]) -> tuple[V2Circuit, dict[str, Any]]:
    """The circuit that proves these elements and the prover's request body for it, `publicInputHash` computed
    as the system program does; ValueError when no v2 circuit of any setup takes that many elements."""
    circuit = v2_circuit_for(len(accounts), len(addresses))
    if circuit is None:
        raise ValueError(f"no v2 circuit proves {len(accounts)} accounts and {len(addresses)} new addresses")
    digest = public_input_hash([a.root for a in accounts], [a.leaf for a in accounts],
                               [a.root for a in addresses], [a.address for a in addresses])
    body: dict[str, Any] = {"circuitType": circuit.family, "publicInputHash": _hex(digest)}
    if accounts:
        body.update(stateTreeHeight=STATE_HEIGHT, inputCompressedAccounts=[_account_json(a) for a in accounts])
    if addresses:
        body.update(addressTreeHeight=ADDRESS_HEIGHT, newAddresses=[_address_json(a) for a in addresses])
    return circuit, body
