"""The kit's own trusted setup of Light's batch circuits (batch append, batch update), made once per machine.

No package carries proving keys for the batch circuits under the setup today's programs verify
(trusted-setups.md). The prover of npm `@lightprotocol/zk-compression-cli` 0.27.0 has a
`setup` command that runs gnark's Groth16 setup on Light's circuits (June 2025, statement unchanged
since): the kit runs it for the height and zkp batch size of today's batched trees (32, 10) and keeps
the keys in a cache folder. Everything made here is labelled "kit setup": a proof under it shows that
someone holding the kit's keys had a witness of Light's relation, not that Light's keys would accept it.

The folder is written in a staging folder and put into place whole (`groundwork.files.staged_folder`);
a lock file keeps two setups from running at once; `setup.json` beside the keys records the binary's
SHA-256, each command, and each key's and verifying key's size and SHA-256, and is checked whenever
the keys are used.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.groundwork.files import staged_folder
from csi_conformance.ledger_proofs.install_v2 import find_v2_installation
from csi_conformance.ledger_proofs.npm_package import cache_folder, file_problems, file_sha256
from csi_conformance.ledger_proofs.process import ProverProcess
from csi_conformance.ledger_proofs.verify import VerifyingKey, parse_vkey

__all__ = ["BATCH_CIRCUITS", "LABEL", "BatchCircuit", "BatchProverProcess", "KitSetup", "find_kit_setup",
           "kit_setup_dir", "make_kit_setup", "prover_binary"]

LABEL = "kit setup"
MANIFEST = "setup.json"
PROVER_VERSION = "0.27.0"


@dataclass(frozen=True)
class BatchCircuit:
    """One batch circuit: the prover's name for it, its key file stem (as `start --circuit NAME-test` looks
    for it), Light's name for its verifying key in today's programs, and the `setup` flags."""

    circuit: str
    stem: str
    light_name: str
    flags: tuple[str, ...]


BATCH_CIRCUITS = {c.light_name: c for c in (
    BatchCircuit("append-with-proofs", "append-with-proofs_32_10", "batch_append_32_10",
                 ("--append-tree-height", "32", "--append-batch-size", "10")),
    BatchCircuit("update", "update_32_10", "batch_update_32_10",
                 ("--update-tree-height", "32", "--update-batch-size", "10")),
)}
"""The circuits of today's batched state trees (height 32, zkp batch 10, measured in the 0.28.3 dumps).
The address-append circuit is left out: no program reachable here creates addresses in the batched
address tree (plain `invoke` answers DeriveAddressError)."""


def prover_binary() -> Path | None:
    """The 0.27.0 prover whose `setup` makes the keys: the kit's install of it (`install_v2`), when there."""
    found = find_v2_installation()
    return found.binary if found is not None else None


def kit_setup_dir() -> Path:
    """`$CSI_BATCH_SETUP_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/csi-conformance/batch-setup/0.27.0`."""
    return cache_folder("CSI_BATCH_SETUP_DIR", "batch-setup", PROVER_VERSION)


def _described(path: Path) -> dict[str, Any]:
    return {"size": path.stat().st_size, "sha256": file_sha256(path)}


@dataclass(frozen=True)
class KitSetup:
    """A made setup: the folder of keys and its manifest."""

    folder: Path
    manifest: dict[str, Any]
    label: str = LABEL

    @property
    def keys_dir(self) -> Path:
        return self.folder

    def verifying_key(self, light_name: str) -> VerifyingKey:
        """The kit setup's verifying key of a circuit, by Light's name (`batch_append_32_10`)."""
        stem = BATCH_CIRCUITS[light_name].stem
        text = (self.folder / f"{stem}.vkey").read_text(encoding="ascii")
        return parse_vkey(f"{light_name} ({LABEL})", text)

    def problems(self, *, hashes: bool) -> list[str]:
        """What differs from the manifest (sizes always, SHA-256 when `hashes`)."""
        return file_problems(self.folder, self.manifest.get("files", {}), hashes=hashes)


def find_kit_setup(folder: Path | None = None) -> KitSetup | None:
    """The setup in `folder` (default `kit_setup_dir()`) when its manifest names every circuit and every file
    has its size; None otherwise."""
    folder = folder or kit_setup_dir()
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    setup = KitSetup(folder, manifest)
    wanted = {f"{c.stem}.{ext}" for c in BATCH_CIRCUITS.values() for ext in ("key", "vkey")}
    if set(manifest.get("files", {})) != wanted or setup.problems(hashes=False):
        return None
    return setup


@contextlib.contextmanager
def _only_setup(folder: Path) -> Iterator[None]:
    """Hold the machine-wide lock beside `folder`: one setup at a time (each takes about a minute of CPU)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _run_setup(binary: Path, circuit: BatchCircuit, into: Path, say: Callable[[str], None]) -> list[str]:
    """Run one `setup`, saying every 15 s that it still runs; the command as recorded (paths relative)."""
    recorded = ["setup", "--circuit", circuit.circuit, *circuit.flags,
                "--output", f"{circuit.stem}.key", "--output-vkey", f"{circuit.stem}.vkey"]
    log = into / f"{circuit.stem}.log"
    began = time.monotonic()
    with log.open("wb") as out:
        process = subprocess.Popen([str(binary), *recorded], cwd=into, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
        try:
            while process.poll() is None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(15)
                if process.returncode is None:
                    say(f"{LABEL}: {circuit.light_name} still running ({time.monotonic() - began:.0f} s)")
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    if process.returncode != 0:
        tail = "\n".join(log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-8:])
        raise ConfigError(f"`{binary.name} setup` of {circuit.light_name} failed (exit {process.returncode}):\n{tail}")
    log.unlink()
    say(f"{LABEL}: {circuit.light_name} made in {time.monotonic() - began:.0f} s")
    return recorded


def make_kit_setup(binary: Path, folder: Path | None = None, *,
                   say: Callable[[str], None] = lambda line: None) -> KitSetup:
    """The kit setup in `folder`, made with the 0.27.0 prover `binary` unless a complete one is there already
    (made by the same binary). ConfigError when the binary is missing or a setup fails."""
    folder = (folder or kit_setup_dir()).expanduser().resolve()
    if not binary.is_file():
        raise ConfigError(f"the 0.27.0 light prover is not at {binary}: the kit setup needs its `setup` command")
    binary_sha = file_sha256(binary)
    with _only_setup(folder):
        found = find_kit_setup(folder)
        if found is not None and found.manifest.get("binary", {}).get("sha256") == binary_sha:
            return found
        with staged_folder(folder) as staging:
            commands = {c.light_name: _run_setup(binary, c, staging, say) for c in BATCH_CIRCUITS.values()}
            files = {path.name: _described(path) for path in sorted(staging.iterdir())}
            manifest = {"label": LABEL, "prover": f"@lightprotocol/zk-compression-cli@{PROVER_VERSION}",
                        "binary": {"name": binary.name, "sha256": binary_sha}, "commands": commands, "files": files}
            (staging / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return KitSetup(folder, manifest)


class BatchProverProcess(ProverProcess):
    """The 0.27.0 prover serving the kit setup's batch circuits (`append-with-proofs`, `update`) on loopback."""

    def __init__(self, binary: Path, setup: KitSetup, *, timeout: float = 300.0) -> None:
        super().__init__(None, timeout=timeout)  # no install: `command` names the binary and the setup's keys
        self.binary, self.setup = binary, setup

    def command(self) -> list[str]:
        circuits = [flag for c in BATCH_CIRCUITS.values() for flag in ("--circuit", f"{c.circuit}-test")]
        return [str(self.binary), "start", *circuits, "--keys-dir", str(self.setup.keys_dir) + "/"]
