"""Rebuild the converted verifying keys from Light's Rust constants (run by hand, then commit).

Light publishes each verifying key of its programs as a Rust constant (`Groth16Verifyingkey` in
light-protocol's `program-libs/verifier/src/verifying_keys/`). This converts those constants to the
kit's `.vkey` layout (`ledger_proofs.verify.parse_vkey`) and records each file's size and SHA-256 in
the folder's manifest. The Rust constants hold α (G1), β, γ, δ (G2) and K₀…Kₙ, not the G1 images of
β and δ that gnark's raw layout also carries: the Groth16 check does not use those, so they are
written as zero bytes (`UNPUBLISHED`). Two key sets (`KEY_SETS`):

- `2025-10`: today's v1, v2 and batch keys (commit 1bbc3ee6d) into `ledger_proofs/vkeys-2025-10/`;
- `2025-06-v2`: the June-2025 v2 keys (commit c0a089edd) into `ledger_proofs/vkeys-2025-06-v2/`
  (the June-2025 v1 keys are 0.18.0's, in `ledger_proofs/vkeys/`).

    .venv/bin/python -m tests.ledger_proofs.make_vkeys --git LIGHT_REPO     # both sets, read from the commits
    .venv/bin/python -m tests.ledger_proofs.make_vkeys [--set 2025-06-v2] LIGHT/program-libs/verifier/src/verifying_keys
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from csi_conformance.ledger_proofs.circuits import CIRCUITS, Circuit
from csi_conformance.ledger_proofs.circuits_v2 import BATCH_CIRCUITS, JUNE_2025, OCTOBER_2025, V2Circuit

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "ledger_proofs" / "vkeys-2025-10"
MANIFEST = ROOT / "ledger_proofs" / "vkeys-2025-10.json"
RUST_FOLDER = "program-libs/verifier/src/verifying_keys"
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


def rust_name_v2(circuit: V2Circuit, june_2025: bool = False) -> str:
    """The stem of a v2 circuit's file in light-protocol's verifying_keys folder: `v2_…` since October 2025,
    unprefixed in June 2025."""
    stem = circuit.name.replace("non-inclusion", "non_inclusion")
    return stem if june_2025 else f"v2_{stem}"


@dataclass(frozen=True)
class KeySet:
    """One folder of converted keys: where it goes, from which commit, and (kit stem, Light's stem) per key."""

    name: str
    folder: Path
    manifest: Path
    commit: str
    keys: tuple[tuple[str, str], ...]


KEY_SETS = {
    "2025-10": KeySet("2025-10", FOLDER, MANIFEST, "1bbc3ee6d55ceb47f13aded304e234c557991495", (
        *((c.name, rust_name(c)) for c in CIRCUITS.values()),
        *((c.name, rust_name_v2(c)) for c in OCTOBER_2025.values()),
        *((name, name) for name in BATCH_CIRCUITS))),
    "2025-06-v2": KeySet("2025-06-v2", ROOT / "ledger_proofs" / "vkeys-2025-06-v2",
                         ROOT / "ledger_proofs" / "vkeys-2025-06-v2.json", "c0a089edd79d608fd8e43ad8ed64f851bb321ce1",
                         tuple((c.name, rust_name_v2(c, june_2025=True)) for c in JUNE_2025.values())),
}
"""Every key set the kit ships converted from Light's Rust constants."""


def convert(read: Callable[[str], str], key_set: KeySet) -> dict[str, dict[str, object]]:
    """Write one `.vkey` per key of `key_set` (its Rust text from `read(stem)`); the manifest's `files` section."""
    key_set.folder.mkdir(exist_ok=True)
    files: dict[str, dict[str, object]] = {}
    for kit, light in sorted(key_set.keys):
        data = rust_to_vkey(read(light), kit).encode("ascii")
        (key_set.folder / f"{kit}.vkey").write_bytes(data)
        files[f"{kit}.vkey"] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    return files


def git_reader(repo: Path, commit: str) -> Callable[[str], str]:
    """Rust files as they are at `commit` in a light-protocol clone (bare or not)."""
    def read(stem: str) -> str:
        return subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{RUST_FOLDER}/{stem}.rs"],
                              check=True, capture_output=True, text=True).stdout
    return read


def _write(key_set: KeySet, files: dict[str, dict[str, object]]) -> None:
    manifest = json.loads(key_set.manifest.read_text(encoding="utf-8")) if key_set.manifest.exists() else {}
    manifest["files"] = files
    key_set.manifest.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    print(f"{len(files)} keys written to {key_set.folder.relative_to(ROOT)}, "
          f"listed in {key_set.manifest.relative_to(ROOT)}")


USAGE = ("usage: python -m tests.ledger_proofs.make_vkeys --git LIGHT_REPO\n"
         "       python -m tests.ledger_proofs.make_vkeys [--set 2025-10|2025-06-v2] LIGHT/" + RUST_FOLDER)


def main(argv: list[str]) -> int:
    jobs: list[tuple[KeySet, Callable[[str], str]]] = []
    if len(argv) == 2 and argv[0] == "--git" and Path(argv[1]).is_dir():
        jobs = [(k, git_reader(Path(argv[1]), k.commit)) for k in KEY_SETS.values()]
    elif argv[-1:] and Path(argv[-1]).is_dir() and (len(argv) == 1 or (argv[0] == "--set" and argv[1] in KEY_SETS)):
        folder = Path(argv[-1])
        jobs = [(KEY_SETS[argv[1] if len(argv) == 3 else "2025-10"],
                 lambda stem: (folder / f"{stem}.rs").read_text(encoding="utf-8"))]
    if not jobs:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        for key_set, read in jobs:
            _write(key_set, convert(read, key_set))
    except (OSError, ValueError, subprocess.CalledProcessError) as exc:
        print(f"make_vkeys: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
