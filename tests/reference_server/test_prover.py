"""Prover clients: deterministic points without a prover, and a real HTTP prover on loopback."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from csi_conformance.ledger_crypto.bn254 import BASE_MODULUS, decompress_g1, decompress_g2
from csi_conformance.ledger_crypto.groth16 import is_valid_compressed_proof
from csi_conformance.reference_server.prover import (
    AccountInput,
    AddressInput,
    DeterministicProver,
    HttpProver,
    ProverError,
    prover_for,
    prover_request_body,
)
from py_ecc import optimized_bn128 as ecc

from .support import HANG_GUARD

PATH = tuple(range(100, 126))  # 26 siblings
ACCOUNT = AccountInput(root=2**250 + 1, path_index=5, path_elements=PATH, leaf=0xABC)
ADDRESS = AddressInput(
    root=7, value=2**240, path_index=0, path_elements=PATH, low_value=0, high_value=2**248 - 1, next_index=1
)


def h(n: int) -> str:
    return "0x" + n.to_bytes(32, "big").hex()


def known_points():
    """A = 3·G1, B = 4·G2, C = 5·G1 from py_ecc, and their gnark JSON as the light prover writes it."""
    ax, ay = (int(v) for v in ecc.normalize(ecc.multiply(ecc.G1, 3)))
    bx, by = (v.coeffs for v in ecc.normalize(ecc.multiply(ecc.G2, 4)))
    cx, cy = (int(v) for v in ecc.normalize(ecc.multiply(ecc.G1, 5)))
    gnark = {
        "ar": [hex(ax), hex(ay)],
        "bs": [[hex(bx[1]), hex(bx[0])], [hex(by[1]), hex(by[0])]],
        "krs": [hex(cx), hex(cy)],
    }
    return (ax, ay), (tuple(bx), tuple(by)), (cx, cy), gnark


# --------------------------------------------------------------------------- a tiny prover on loopback


@dataclass
class FakeProver:
    """What the loopback prover answers, and every request it got."""

    url: str = ""
    status: int = 200
    body: bytes = b""
    requests: list[dict] = field(default_factory=list)
    gate: threading.Event | None = None
    """When set, the prover answers only once the test opens the gate (or after the hang guard)."""


@pytest.fixture
def fake_prover() -> Iterator[FakeProver]:
    state = FakeProver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers["content-length"]))
            state.requests.append(
                {"path": self.path, "content_type": self.headers["content-type"], "json": json.loads(raw)}
            )
            if state.gate is not None:
                state.gate.wait(HANG_GUARD)
            self.send_response(state.status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(state.body)))
            self.end_headers()
            self.wfile.write(state.body)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield state
    server.shutdown()
    server.server_close()


def test_http_prover_sends_the_prover_json_and_converts_gnark(fake_prover):
    a, b, c, gnark = known_points()
    fake_prover.body = json.dumps(gnark).encode()
    proof = HttpProver(fake_prover.url + "/").prove([ACCOUNT], [])

    assert decompress_g1(bytes(proof["a"])) == (a[0], BASE_MODULUS - a[1])  # A negated
    assert decompress_g2(bytes(proof["b"])) == b
    assert decompress_g1(bytes(proof["c"])) == c
    assert is_valid_compressed_proof(proof) == []

    [request] = fake_prover.requests
    assert request["path"] == "/prove"
    assert request["content_type"] == "application/json"
    account = {"root": h(2**250 + 1), "pathIndex": 5, "pathElements": [h(e) for e in PATH], "leaf": h(0xABC)}
    assert request["json"] == {
        "circuitType": "inclusion",
        "stateTreeHeight": 26,
        "inputCompressedAccounts": [account],
        "input-compressed-accounts": [account],
    }


def test_request_body_for_addresses_and_combined():
    address = {
        "root": h(7),
        "value": h(2**240),
        "pathIndex": 0,
        "pathElements": [h(e) for e in PATH],
        "leafLowerRangeValue": h(0),
        "leafHigherRangeValue": h(2**248 - 1),
        "nextIndex": 1,
    }
    assert prover_request_body([], [ADDRESS]) == {
        "circuitType": "non-inclusion",
        "addressTreeHeight": 26,
        "newAddresses": [address],
        "new-addresses": [address],
    }
    combined = prover_request_body([ACCOUNT, ACCOUNT], [ADDRESS])
    assert combined["circuitType"] == "combined"
    assert (combined["stateTreeHeight"], combined["addressTreeHeight"]) == (26, 26)
    assert len(combined["inputCompressedAccounts"]) == 2 and combined["newAddresses"] == [address]
    with pytest.raises(ValueError, match="nothing to prove"):
        prover_request_body([], [])


@pytest.mark.parametrize(
    ("status", "body", "message"),
    [
        (500, b'{"code":"proving_error","message":"constraint not satisfied"}', "answered HTTP 500: .*constraint"),
        (200, b"<html>not json</html>", "answered invalid JSON"),
        (200, b'{"ar": ["0x1", "0x2"]}', "answered no gnark proof: gnark proof: missing bs"),
        (
            200,
            b'{"ar": ["0x1", "0x3"], "bs": [["0x1","0x1"],["0x1","0x1"]], "krs": ["0x1","0x2"]}',
            "answered no gnark proof: not a G1 point",
        ),
    ],
)
def test_http_prover_bad_answers(fake_prover, status, body, message):
    fake_prover.status, fake_prover.body = status, body
    with pytest.raises(ProverError, match=message):
        HttpProver(fake_prover.url).prove([ACCOUNT], [ADDRESS])


def test_http_prover_timeout(fake_prover):
    """The client gives up on its own timeout while the prover still holds the request (its gate
    opens only after the client returned): no timing is measured."""
    _, _, _, gnark = known_points()
    fake_prover.body, fake_prover.gate = json.dumps(gnark).encode(), threading.Event()
    try:
        with pytest.raises(ProverError, match=r"did not answer within 0\.2 s"):
            HttpProver(fake_prover.url, timeout=0.2).prove([ACCOUNT], [])
        assert not fake_prover.gate.is_set() and len(fake_prover.requests) == 1
    finally:
        fake_prover.gate.set()


def test_http_prover_refused_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(ProverError, match=f"prover at http://127.0.0.1:{port}/prove unreachable"):
        HttpProver(f"http://127.0.0.1:{port}", timeout=2.0).prove([ACCOUNT], [])


def test_http_prover_rejects_a_url_that_is_not_http():
    for url in ("localhost:3001", "ftp://host/", "http://"):
        with pytest.raises(ValueError, match="prover URL"):
            HttpProver(url)


def test_deterministic_prover_is_deterministic_and_input_sensitive():
    prover = DeterministicProver()
    proof = prover.prove([ACCOUNT], [ADDRESS])
    assert proof == DeterministicProver().prove([ACCOUNT], [ADDRESS])
    assert is_valid_compressed_proof(proof) == []
    changed = AccountInput(root=ACCOUNT.root, path_index=5, path_elements=(*PATH[:-1], 1), leaf=0xABC)
    variants = [
        prover.prove([changed], [ADDRESS]),
        prover.prove([ACCOUNT], []),
        prover.prove([], [ADDRESS]),
        prover.prove([ACCOUNT, ACCOUNT], [ADDRESS]),
    ]
    for other in variants:
        assert all(other[k] != proof[k] for k in "abc")
    with pytest.raises(ValueError, match="nothing to prove"):
        prover.prove([], [])


def test_prover_for():
    assert isinstance(prover_for(None), DeterministicProver)
    assert isinstance(prover_for(""), DeterministicProver)
    prover = prover_for("http://127.0.0.1:3001")
    assert isinstance(prover, HttpProver) and prover.timeout == 30.0


def test_inputs_are_checked():
    with pytest.raises(ValueError, match="path_index"):
        AccountInput(root=1, path_index=2**32, path_elements=PATH, leaf=1)
    with pytest.raises(ValueError, match=r"path_elements\[1\]"):
        AccountInput(root=1, path_index=0, path_elements=(1, -1), leaf=1)
    with pytest.raises(ValueError, match="root: an integer of 257 bits"):
        AddressInput(root=2**256, value=1, path_index=0, path_elements=PATH, low_value=0, high_value=2, next_index=1)
    with pytest.raises(ValueError, match="leaf: expected an integer, got str"):
        AccountInput(root=1, path_index=0, path_elements=PATH, leaf="0x1")
