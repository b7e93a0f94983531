"""Write tests/ledger_proofs/fixtures/proofs.json: one real proof per circuit over the default scenario.

Run `python -m tests.ledger_proofs.make_fixtures` with the prover installed. Each entry holds the
request, the reference's wire answer (its compressedProof made by the light prover 0.18.0) and the
public inputs in circuit order, so the verification tests need no prover.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.ledger_proofs.circuits import CIRCUITS
from csi_conformance.ledger_proofs.process import running_prover
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import load_scenario
from csi_conformance.schema import Contract

FIXTURE = Path(__file__).parent / "fixtures" / "proofs.json"


def fixture_address(index: int) -> str:
    """A deterministic new address (byte 0 zero, so it is below 2^248)."""
    return b58encode(b"\x00" + hashlib.sha256(f"csi fixture address {index}".encode()).digest()[:31])


def fixture_requests(ledger: Any, contract: Contract) -> list[tuple[str, dict, list[str]]]:
    """(circuit name, params, addresses) for every circuit, over the ledger's first live accounts."""
    live = [b58encode(a.hash) for a in ledger.accounts.values() if not a.closed]
    tree = contract.method("getValidityProof").observed["default_address_tree"]
    out, counter = [], 0
    for (n, m), circuit in CIRCUITS.items():
        addresses = []
        for _ in range(m):
            addresses.append(fixture_address(counter))
            counter += 1
        params: dict[str, Any] = {}
        if n:
            params["hashes"] = live[:n]
        if m:
            params["newAddressesWithTrees"] = [{"address": a, "tree": tree} for a in addresses]
        out.append((circuit.name, params, addresses))
    return out


def main() -> int:
    ledger, contract = load_scenario("default"), Contract.default()
    entries = []
    with running_prover() as prover:
        options = ServerOptions(prover_url=prover.url)
        for name, params, addresses in fixture_requests(ledger, contract):
            result = call(ledger, "getValidityProof", params, options, contract)
            value = result["value"]
            n = len(params.get("hashes", []))
            inputs = [*value["roots"][:n], *value["leaves"][:n], *value["roots"][n:], *addresses]
            entries.append({"circuit": name, "params": params, "value": value, "publicInputs": inputs})
            print(f"{name}: proved", file=sys.stderr)
    document = {"source": "the reference over the default scenario, proofs by the light prover 0.18.0 "
                          "(@lightprotocol/zk-compression-cli); publicInputs are base58, in circuit order",
                "proofs": entries}
    FIXTURE.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
