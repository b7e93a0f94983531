"""Making the shipped proofs again (`shipped_proofs`): the default certification with an empty proof cache and the
shipped proofs unread, its proofs then written with the keys and the ledger they were made for.

    python -m csi_conformance.reference_server.ship_proofs
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from csi_conformance.groundwork.files import write_atomic
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.reference_server.prover import kit_v1_keys, roots_digest
from csi_conformance.reference_server.shipped_proofs import OFF, SHIPPED, read_shipped
from csi_conformance.reference_server.wiring import reference_ledger

__all__ = ["write_shipped"]


def write_shipped(cache_dir: Path, *, keys: str, ledger: str, path: Path = SHIPPED) -> int:
    """Write every proof of `cache_dir` (a proof cache a default run filled) as the shipped proofs of `ledger`;
    the number written."""
    proofs: dict[str, Any] = {entry.stem: loads(entry.read_text(encoding="utf-8"))
                              for entry in sorted(cache_dir.glob("*.json"))}
    lines = ",\n".join(f"  {dumps(name)}: {dumps(proof)}" for name, proof in proofs.items())  # a proof a line
    write_atomic(path, f'{{"keys": {dumps(keys)}, "ledgers": {dumps([ledger])}, "proofs": {{\n{lines}\n}}}}\n')
    read_shipped.cache_clear()
    return len(proofs)


def main() -> int:
    """Run the default certification with an empty proof cache and the shipped proofs unread, and ship its proofs."""
    with tempfile.TemporaryDirectory(prefix="csi-shipped-") as scratch:
        env = {**os.environ, "CSI_PROOF_CACHE": scratch, OFF: "0"}
        done = subprocess.run([sys.executable, "-m", "csi_conformance.harness", "run", "--report-dir",
                               str(Path(scratch) / "reports")], env=env)
        if done.returncode != 0:
            print(f"the default certification exited {done.returncode}: nothing written", file=sys.stderr)
            return 1
        count = write_shipped(Path(scratch), keys=kit_v1_keys(), ledger=roots_digest(reference_ledger("default")))
    print(f"{count} proofs written to {SHIPPED}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
