"""Where getValidityProof's `compressedProof` comes from: the light prover, another prover service, or a placeholder.

With a prover URL, `HttpProver` asks the service (ledger-facts.md, "Validity proofs"): the light prover that
`csi serve --prover light` runs as a child process (`ledger_proofs.process`), or one someone runs elsewhere
(`--prover-url`). The reference `csi run` starts serves the kit's own prover (`KIT_V1`, `KitProver`): each
proof is read from the machine's proof cache (`ledger_proofs.proof_cache`) when the same request under the
same keys was proven before, and the prover is started only for a request the cache lacks (in the background
at once over a ledger the cache has not seen: `warm_v1`). A prover's refusal of the reference's inputs is a
bug of the reference: it is printed to stderr and answered as a server error. Without a prover (`--prover
none`), `DeterministicProver` serves a placeholder: well-formed compressed curve points derived from the
inputs (the official client needs the three byte arrays and rejects `null`). They pass every shape and curve
check and are NOT a proof: the harness's Groth16 check fails them. `choose_prover` and `start_prover` pick and
start the prover for `csi serve` and the `csi run` reference.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import httpx
from csi_conformance.groundwork.errors import JsonError, UsageError
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.ledger_crypto.groth16 import deterministic_proof, proof_from_gnark
from csi_conformance.ledger_proofs.install import find_installation, manifest
from csi_conformance.ledger_proofs.process import (
    ProverStartError,
    shared_prover,
    shared_running,
    start_shared_prover,
)
from csi_conformance.ledger_proofs.proof_cache import (
    cached_proof,
    keys_of,
    knows_ledger,
    mark_ledger,
    proof_cache_dir,
)
from csi_conformance.reference_server.shipped_proofs import shipped_proofs

__all__ = [
    "KIT_V1",
    "AccountInput",
    "AddressInput",
    "DeterministicProver",
    "HttpProver",
    "KitProver",
    "Prover",
    "ProverError",
    "choose_prover",
    "kit_v1_keys",
    "prover_for",
    "prover_request_body",
    "roots_digest",
    "start_prover",
    "warm_v1",
]

KIT_V1 = "kit:0.18.0"
"""`ServerOptions.prover_url` naming the kit's own 0.18.0 prover: proofs from the proof cache, else from the prover,
started on first need."""
KIT_TIMEOUT = 120.0
"""Seconds a proof of the kit's prover may take, its start included when it is the first."""

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


_CACHE: OrderedDict[bytes, dict] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 512


class HttpProver:
    """A light prover service: `POST {url}/prove`, gnark JSON back, converted to compressed points.

    Every failure becomes a `ProverError` whose message says what went wrong and where. Proofs are
    kept by request body (the last 512): the same roots, leaves and paths get the same proof back
    at once instead of being proven again; any change of state changes a root, so the body.
    """

    def __init__(self, url: str, *, timeout: float = 30.0) -> None:
        parsed = httpx.URL(url)
        if parsed.scheme not in ("http", "https") or not parsed.host:
            raise ValueError(f"prover URL must be http(s)://host[:port], got {url!r}")
        self.url = url
        self.timeout = timeout
        self._endpoint = url.rstrip("/") + "/prove"

    def prove(self, accounts: Sequence[AccountInput], addresses: Sequence[AddressInput]) -> dict:
        return self.prove_body(dumps(prover_request_body(accounts, addresses)).encode())

    def prove_body(self, body: bytes) -> dict:
        """The compressed proof of one request body as the prover reads it (a v1 or a v2 request)."""
        key = hashlib.sha256(self._endpoint.encode() + b"\0" + body).digest()
        with _CACHE_LOCK:
            if key in _CACHE:
                _CACHE.move_to_end(key)
                return copy.deepcopy(_CACHE[key])
        proof = self._ask(body)
        with _CACHE_LOCK:
            _CACHE[key] = copy.deepcopy(proof)
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
        return proof

    def _ask(self, body: bytes) -> dict:
        try:
            return proof_from_gnark(self.ask_gnark(body))
        except ValueError as exc:
            raise ProverError(f"prover at {self._endpoint} answered no gnark proof: {exc}") from exc

    def ask_gnark(self, body: bytes) -> Any:
        """The prover's answer to one request, as gnark's JSON; ProverError saying what went wrong and where."""
        try:
            response = httpx.post(
                self._endpoint, content=body, timeout=self.timeout, headers={"content-type": "application/json"}
            )
        except httpx.TimeoutException as exc:
            raise ProverError(f"prover at {self._endpoint} did not answer within {self.timeout} s") from exc
        except httpx.HTTPError as exc:
            raise ProverError(f"prover at {self._endpoint} unreachable: {exc}") from exc
        if response.status_code != 200:
            problem = f"prover at {self._endpoint} answered HTTP {response.status_code}: {response.text[:300]}"
            print(f"csi serve: BUG of the reference: the prover refused its inputs: {problem}", file=sys.stderr)
            raise ProverError(problem)
        try:
            return loads(response.content)
        except JsonError as exc:
            raise ProverError(f"prover at {self._endpoint} answered invalid JSON: {exc}") from exc


class KitProver:
    """One of the kit's own provers (0.18.0, or 0.27.0 for the v2 circuits): each proof from the proof cache under
    its keys' package, else from the process-wide prover, started by `start` on the first request the cache lacks.
    """

    def __init__(self, start: Callable[[], str], keys: str, *, cache_dir: Path | None = None,
                 shelf: Mapping[str, dict] | None = None) -> None:
        self.start, self.keys, self.shelf = start, keys, shelf
        """`shelf`: proofs shipped with the kit under these keys (`shipped_proofs`), read when the cache lacks one."""
        self.cache_dir = cache_dir or proof_cache_dir()

    def prove(self, accounts: Sequence[AccountInput], addresses: Sequence[AddressInput]) -> dict:
        return self.prove_body(dumps(prover_request_body(accounts, addresses)).encode())

    def prove_body(self, body: bytes) -> dict:
        try:
            proof, _ = cached_proof(self.cache_dir, body, lambda: self._ask(body), keys=self.keys,
                                    shelf=self.shelf)
        except ValueError as exc:
            raise ProverError(f"the kit's prover answered no gnark proof: {exc}") from exc
        return proof

    def _ask(self, body: bytes) -> Any:
        try:
            url = self.start()
        except ProverStartError as exc:
            raise ProverError(str(exc)) from exc
        return HttpProver(url, timeout=KIT_TIMEOUT).ask_gnark(body)


def _kit_v1_url() -> str:
    return shared_prover().url


@functools.cache
def kit_v1_keys() -> str:
    """How the proof cache names the kit's v1 proving keys (read once, not on every proof request)."""
    return keys_of(manifest())


def prover_for(url: str | None) -> Prover:
    """The kit's own prover for `KIT_V1`, an `HttpProver` for another URL, else the `DeterministicProver`."""
    if url == KIT_V1:
        shipped = shipped_proofs(kit_v1_keys())
        return KitProver(_kit_v1_url, kit_v1_keys(), shelf=shipped.proofs if shipped else None)
    return HttpProver(url) if url else DeterministicProver()


def roots_digest(ledger: Any) -> str:
    """What names a ledger's state to the proof cache: every tree's pubkey and root (a proof's inputs follow)."""
    trees = [*sorted(ledger.state_trees.items()), (ledger.address_tree_key, ledger.address_tree)]
    trees += sorted((key, queue.tree) for key, queue in ledger.batched_address_trees.items())
    return hashlib.sha256(b"".join(key + tree.root for key, tree in trees)).hexdigest()


def warm_v1(prover_url: str | None, ledger: Any, *, say: Callable[[str], None] | None = None) -> bool:
    """Over a ledger the proof cache has not seen, start the kit's prover in the background now, so the first
    proof does not wait for its keys (then remember the ledger); over one it has, start nothing: a request the
    cache lacks starts it. Whether it was started."""
    if prover_url != KIT_V1:
        return False
    cache, ledger_name = proof_cache_dir(), roots_digest(ledger)
    shipped = shipped_proofs(kit_v1_keys())
    if shipped is not None and ledger_name in shipped.ledgers:
        if say is not None:
            say(f"light prover {manifest()['version']}: this ledger's proofs ship with the kit (verified as made "
                "ones); the prover starts only for a request they lack")
        return False
    if knows_ledger(cache, ledger_name):
        if say is not None:
            say(f"light prover {manifest()['version']}: this ledger's proofs are in the proof cache ({cache}); the "
                "prover starts only for a request the cache lacks")
        return False
    _start_quietly()
    mark_ledger(cache, ledger_name)
    if say is not None:
        say(f"starting the light prover {manifest()['version']} in the background (all 15 circuits: about 15 s on "
            "an idle machine); proofs are kept in the proof cache, so the next run over this ledger makes none")
    return True


def _start_quietly() -> None:
    with contextlib.suppress(ProverStartError):  # said again, with the prover's log, by the request needing it
        start_shared_prover()


PROVER_CHOICES = ("light", "none")


def choose_prover(choice: str | None = None) -> str:
    """`light` or `none`: the choice given, else `$CSI_PROVER`, else light when the prover is installed."""
    choice = choice or os.environ.get("CSI_PROVER") or None
    if choice is None:
        return "light" if find_installation() is not None else "none"
    if choice not in PROVER_CHOICES:
        raise UsageError(f"prover must be one of {', '.join(PROVER_CHOICES)}, got {choice!r} (from --prover or "
                         "$CSI_PROVER)")
    return choice


def start_prover(choice: str | None = None, *, say: Callable[[str], None] | None = None) -> str | None:
    """The URL of the light prover, started (once per process) when the choice is light; None for none.

    `say` is told what was chosen, and how long the prover took to start.
    """
    say = say or (lambda line: print(line, file=sys.stderr))
    if choose_prover(choice) == "none":
        say("no prover: compressedProof is a placeholder of valid curve points, NOT a proof (the harness's "
            "crypto.groth16-proof fails it); `csi prover install` to serve real proofs")
        return None
    installation = find_installation()
    if installation is None:
        raise UsageError("the light prover is not installed: run `csi prover install` (or give --prover none)")
    if (running := shared_running()) is not None:
        say(f"light prover {manifest()['version']} on {running.url} (already running in this process)")
        return running.url
    say(f"starting the light prover {manifest()['version']} ({installation.binary.name}): it loads the keys of all "
        "15 circuits: about 15 s on an idle machine, a minute or more on a busy one")
    prover = shared_prover(installation)
    say(f"light prover {manifest()['version']} on {prover.url} ({installation.binary.name}, all 15 circuits), "
        f"started in {prover.started_in:.1f} s")
    return prover.url
