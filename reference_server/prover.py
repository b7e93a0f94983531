"""Where getValidityProof's `compressedProof` comes from: a prover service, or deterministic points.

A real proof needs the light prover and its proving keys, which are not available offline. With
no prover configured, `DeterministicProver` serves well-formed compressed curve points derived
from the inputs: same inputs, same points; they pass every shape and curve check and are NOT a
proof. With a prover URL, `HttpProver` asks the service (ledger-facts.md, "Validity proofs").
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

from ledger_crypto.groth16 import deterministic_proof, proof_from_gnark
from schema.errors import JsonError
from schema.jsonio import dumps, loads

__all__ = [
    "AccountInput",
    "AddressInput",
    "DeterministicProver",
    "HttpProver",
    "Prover",
    "ProverError",
    "prover_for",
    "prover_request_body",
]

_U256 = 2**256
_U32 = 2**32


class ProverError(Exception):
    """The prover service failed (unreachable, timed out, non-200, or an answer that is no proof)."""


def _check(name: str, value: Any, bound: int) -> None:
    if type(value) is not int:
        raise ValueError(f"{name}: expected an integer, got {type(value).__name__}")
    if not 0 <= value < bound:
        raise ValueError(
            f"{name}: an integer of {value.bit_length()} bits, negative or not below 2^{bound.bit_length() - 1}"
        )


@dataclass(frozen=True)
class AccountInput:
    """Inclusion of one account hash: its leaf, leaf index, 26 siblings and the root they fold to."""

    root: int
    path_index: int
    path_elements: tuple[int, ...]
    leaf: int

    def __post_init__(self) -> None:
        for name in ("root", "leaf"):
            _check(name, getattr(self, name), _U256)
        _check("path_index", self.path_index, _U32)
        for i, element in enumerate(self.path_elements):
            _check(f"path_elements[{i}]", element, _U256)


@dataclass(frozen=True)
class AddressInput:
    """Non-inclusion of one new address: the low element's range, index, next index, path and root."""

    root: int
    value: int
    path_index: int
    path_elements: tuple[int, ...]
    low_value: int
    high_value: int
    next_index: int

    def __post_init__(self) -> None:
        for name in ("root", "value", "low_value", "high_value"):
            _check(name, getattr(self, name), _U256)
        _check("path_index", self.path_index, _U32)
        _check("next_index", self.next_index, _U32)
        for i, element in enumerate(self.path_elements):
            _check(f"path_elements[{i}]", element, _U256)


class Prover(Protocol):
    """Makes the compressed {a, b, c} for the accounts and new addresses of one request.

    Synchronous: an async caller runs it in a thread (a real proof takes seconds).
    """

    def prove(self, accounts: Sequence[AccountInput], addresses: Sequence[AddressInput]) -> dict: ...


def _hex(n: int) -> str:
    return f"0x{n:064x}"


def _account_json(a: AccountInput) -> dict[str, Any]:
    return {
        "root": _hex(a.root),
        "pathIndex": a.path_index,
        "pathElements": [_hex(e) for e in a.path_elements],
        "leaf": _hex(a.leaf),
    }


def _address_json(a: AddressInput) -> dict[str, Any]:
    return {
        "root": _hex(a.root),
        "value": _hex(a.value),
        "pathIndex": a.path_index,
        "pathElements": [_hex(e) for e in a.path_elements],
        "leafLowerRangeValue": _hex(a.low_value),
        "leafHigherRangeValue": _hex(a.high_value),
        "nextIndex": a.next_index,
    }


def prover_request_body(accounts: Sequence[AccountInput], addresses: Sequence[AddressInput]) -> dict[str, Any]:
    """The `POST /prove` JSON body, readable by both generations of the light prover.

    Values are 32-byte `0x`-hex strings and the two indices JSON integers, as Photon sends them.
    The current prover reads `circuitType` ("inclusion", "non-inclusion" or "combined"), the
    tree heights (the path lengths) and `inputCompressedAccounts` / `newAddresses`; the prover
    of the v1 era reads `input-compressed-accounts` / `new-addresses`. Each ignores the other's
    keys, so the body carries both. A list with no element is left out, as Photon does.
    `publicInputHash` (a hash chain the batched v2 circuits take) is not sent: this API serves
    v1 trees, whose circuits take the roots and leaves themselves.
    """
    if not accounts and not addresses:
        raise ValueError("nothing to prove: no accounts and no new addresses")
    circuit = "combined" if accounts and addresses else "inclusion" if accounts else "non-inclusion"
    body: dict[str, Any] = {"circuitType": circuit}
    if accounts:
        inputs = [_account_json(a) for a in accounts]
        body.update(stateTreeHeight=len(accounts[0].path_elements), inputCompressedAccounts=inputs)
        body["input-compressed-accounts"] = inputs
    if addresses:
        inputs = [_address_json(a) for a in addresses]
        body.update(addressTreeHeight=len(addresses[0].path_elements), newAddresses=inputs)
        body["new-addresses"] = inputs
    return body


class DeterministicProver:
    """Well-formed compressed points derived from the inputs, for serving without a prover: NOT a proof.

    The seed is the SHA-256 of the request body a prover would get, so any change to a root,
    leaf, index or path changes all three points, and the same inputs always give the same ones.
    """

    def prove(self, accounts: Sequence[AccountInput], addresses: Sequence[AddressInput]) -> dict:
        body = dumps(prover_request_body(accounts, addresses)).encode()
        return deterministic_proof(hashlib.sha256(body).digest())


class HttpProver:
    """A light prover service: `POST {url}/prove`, gnark JSON back, converted to compressed points.

    Every failure becomes a `ProverError` whose message says what went wrong and where.
    """

    def __init__(self, url: str, *, timeout: float = 30.0) -> None:
        parsed = httpx.URL(url)
        if parsed.scheme not in ("http", "https") or not parsed.host:
            raise ValueError(f"prover URL must be http(s)://host[:port], got {url!r}")
        self.url = url
        self.timeout = timeout
        self._endpoint = url.rstrip("/") + "/prove"

    def prove(self, accounts: Sequence[AccountInput], addresses: Sequence[AddressInput]) -> dict:
        body = dumps(prover_request_body(accounts, addresses)).encode()
        try:
            response = httpx.post(
                self._endpoint, content=body, timeout=self.timeout, headers={"content-type": "application/json"}
            )
        except httpx.TimeoutException as exc:
            raise ProverError(f"prover at {self._endpoint} did not answer within {self.timeout} s") from exc
        except httpx.HTTPError as exc:
            raise ProverError(f"prover at {self._endpoint} unreachable: {exc}") from exc
        if response.status_code != 200:
            raise ProverError(f"prover at {self._endpoint} answered HTTP {response.status_code}: {response.text[:300]}")
        try:
            return proof_from_gnark(loads(response.content))
        except JsonError as exc:
            raise ProverError(f"prover at {self._endpoint} answered invalid JSON: {exc}") from exc
        except ValueError as exc:
            raise ProverError(f"prover at {self._endpoint} answered no gnark proof: {exc}") from exc


def prover_for(url: str | None) -> Prover:
    """An `HttpProver` for a configured URL, else the `DeterministicProver`."""
    return HttpProver(url) if url else DeterministicProver()
