"""Rebuild `ledger_proofs/vkeys-2025-10/` from Light's Rust verifying keys (run by hand, then commit).

Light publishes each verifying key of its programs as a Rust constant (`Groth16Verifyingkey` in
light-protocol's `program-libs/verifier/src/verifying_keys/`). This converts those constants to the
kit's `.vkey` layout (`ledger_proofs.verify.parse_vkey`) and records each file's size and SHA-256 in
`ledger_proofs/vkeys-2025-10.json`. The Rust constants hold α (G1), β, γ, δ (G2) and K₀…Kₙ, not the
G1 images of β and δ that gnark's raw layout also carries: the Groth16 check does not use those, so
they are written as zero bytes (`UNPUBLISHED`).

    git -C light-protocol checkout 1bbc3ee6d55ceb47f13aded304e234c557991495
    .venv/bin/python -m tests.ledger_proofs.make_vkeys light-protocol/program-libs/verifier/src/verifying_keys
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

from csi_conformance.ledger_proofs.circuits import CIRCUITS, Circuit

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "ledger_proofs" / "vkeys-2025-10"
MANIFEST = ROOT / "ledger_proofs" / "vkeys-2025-10.json"
G1, G2 = 64, 128
UNPUBLISHED = ((G1, 2 * G1), (2 * G1 + 2 * G2, 3 * G1 + 2 * G2))
"""Byte ranges of β (G1) and δ (G1) in a `.vkey`: zero in a converted key."""
_FIELDS = {"vk_alpha_g1": G1, "vk_beta_g2": G2, "vk_gamma_g2": G2, "vk_delta_g2": G2}


def _bytes(block: str, where: str) -> bytes:
    values = [int(v) for v in re.findall(r"(\d+)u8", block)]
    if any(v > 255 for v in values):
        raise ValueError(f"{where}: a value above 255")
    return bytes(values)


def rust_to_vkey(text: str, name: str = "key") -> str:
    """One Rust `Groth16Verifyingkey` constant as `.vkey` text; ValueError when a field is missing or mis-sized."""
    text = text.replace("vk_gamme_g2", "vk_gamma_g2")  # the older files' spelling
    parts = {}
    for field, size in _FIELDS.items():
        match = re.search(field + r":\s*\[([^\]]*)\]", text)
        if match is None:
            raise ValueError(f"{name}: no {field}")
        parts[field] = _bytes(match.group(1), f"{name} {field}")
        if len(parts[field]) != size:
            raise ValueError(f"{name}: {field} has {len(parts[field])} bytes, not {size}")
    count = re.search(r"nr_pubinputs:\s*(\d+)usize", text)
    ic = re.search(r"vk_ic:\s*&\[(.*?)\]\s*,\s*\}\s*;", text, re.S)
    if count is None or ic is None:
        raise ValueError(f"{name}: no nr_pubinputs or vk_ic")
    points = [_bytes(block, f"{name} vk_ic") for block in re.findall(r"\[([^\[\]]*)\]", ic.group(1))]
    if len(points) != int(count.group(1)) + 1 or any(len(p) != G1 for p in points):
        raise ValueError(f"{name}: vk_ic holds {len(points)} points, nr_pubinputs says {count.group(1)}")
    data = (parts["vk_alpha_g1"] + bytes(G1) + parts["vk_beta_g2"] + parts["vk_gamma_g2"] + bytes(G1)
            + parts["vk_delta_g2"] + len(points).to_bytes(4, "big") + b"".join(points))
    return "[" + " ".join(str(b) for b in data) + "]"


def rust_name(circuit: Circuit) -> str:
    """The stem of a circuit's file in light-protocol's verifying_keys folder (2025 naming)."""
    if circuit.family == "combined":
        return f"v1_combined_26_26_{circuit.accounts}_{circuit.addresses}"
    if circuit.family == "inclusion":
        return f"v1_inclusion_26_{circuit.accounts}"
    return f"v1_non_inclusion_26_{circuit.addresses}"


def convert_folder(source: Path, folder: Path = FOLDER) -> dict[str, dict[str, object]]:
    """Write one `.vkey` per kit circuit into `folder`; the manifest's `files` section for them."""
    folder.mkdir(exist_ok=True)
    files: dict[str, dict[str, object]] = {}
    for circuit in sorted(CIRCUITS.values(), key=lambda c: c.name):
        text = rust_to_vkey((source / f"{rust_name(circuit)}.rs").read_text(encoding="utf-8"), circuit.name)
        data = text.encode("ascii")
        (folder / f"{circuit.name}.vkey").write_bytes(data)
        files[f"{circuit.name}.vkey"] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    return files


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python -m tests.ledger_proofs.make_vkeys LIGHT/program-libs/verifier/src/verifying_keys",
              file=sys.stderr)
        return 2
    try:
        files = convert_folder(Path(argv[0]))
    except (OSError, ValueError) as exc:
        print(f"make_vkeys: {exc}", file=sys.stderr)
        return 1
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    manifest["files"] = files
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    print(f"{len(files)} keys written to {FOLDER.relative_to(ROOT)}, listed in {MANIFEST.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
