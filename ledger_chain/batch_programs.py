"""Today's programs with the kit setup's batch verifying keys in `account_compression.so`.

The forester's batch append and batch nullify need Groth16 proofs of Light's batch circuits; no
package carries proving keys for them under any setup today's programs verify (trusted-setups.md).
This set is a copy of a program set of today's (the published 0.28.3 one, or the one with the
June 2025 keys, `patched_programs.py`) in which only `batch_append_32_10` and `batch_update_32_10`
of `account_compression.so` are replaced by the kit setup's keys (`ledger_proofs.batch_setup`),
every other byte as it was (`vk_patch` checks that each old key is there exactly once). The kit
setup is made per machine, so there is no committed manifest of the patched file: the marker records
the base set, each key's SHA-256 and the patched file's size and SHA-256, and `check` reads them again.
Labelled "kit setup" wherever it shows.
"""

from __future__ import annotations

import json
import shutil
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from csi_conformance.groundwork.files import staged_folder
from csi_conformance.ledger_chain.programs_0_28 import TODAY_FILES, TodayPrograms
from csi_conformance.ledger_chain.runtime import Runtime
from csi_conformance.ledger_chain.vk_patch import replace_verifying_keys
from csi_conformance.ledger_proofs.batch_setup import BATCH_CIRCUITS, LABEL, KitSetup, make_kit_setup, prover_binary
from csi_conformance.ledger_proofs.npm_package import MARKER, ProverInstallError, cache_folder, file_sha256
from csi_conformance.ledger_proofs.verify import verifying_key
from solders.account import Account
from solders.pubkey import Pubkey

__all__ = ["KitBatchPrograms", "batch_programs_dir", "find_batch_programs", "make_batch_programs", "with_batch_keys"]

PATCHED = "account_compression.so"
FORESTER_FIELD, NETWORK_FEE = slice(80, 112), slice(136, 144)
"""In a batched tree account: `AccessMetadata.forester`, `RolloverMetadata.network_fee` (u64)."""
TODAY_SETUP = "2025-10"
"""The setup whose batch keys 0.28.3's account compression program carries."""


def batch_programs_dir() -> Path:
    """`$CSI_BATCH_PROGRAMS_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/csi-conformance/programs/0.28.3-kit-batch-keys`."""
    return cache_folder("CSI_BATCH_PROGRAMS_DIR", "programs", "0.28.3-kit-batch-keys")


@dataclass(frozen=True)
class KitBatchPrograms(TodayPrograms):
    """A program set whose account compression program verifies batch proofs under the kit setup."""

    @classmethod
    def find(cls, folder: Path) -> Self | None:
        """Never by its folder alone: a set is made from a kit setup and a base (`find_batch_programs`)."""
        raise TypeError("a kit batch program set is found with find_batch_programs(setup, base, folder)")

    @classmethod
    def install(cls, folder: Path, *, say: Callable[[str], None], download: str) -> Self:
        """Never fetched: a set is made from a kit setup and a base (`make_batch_programs`)."""
        raise TypeError("a kit batch program set is made with make_batch_programs(base, setup)")

    @property
    def marker(self) -> dict[str, Any]:
        return json.loads((self.folder / MARKER).read_text(encoding="utf-8"))

    @property
    def label(self) -> str:
        return str(self.marker["label"])

    def genesis(self, runtime: Runtime, forester: Pubkey, trees: Iterable[Pubkey]) -> None:
        """Make `forester` the batched trees' forester. The registry lets a tree's own forester sign only when the
        tree takes no network fee, so that fee becomes 0 (the dumps say 5,000)."""
        for tree in trees:
            account = runtime.svm.get_account(tree)
            assert account is not None, f"{tree} is not on the chain"
            data = bytearray(account.data)
            data[FORESTER_FIELD] = bytes(forester)
            data[NETWORK_FEE] = struct.pack("<Q", 0)
            runtime.svm.set_account(tree, Account(lamports=account.lamports, data=bytes(data), owner=account.owner,
                                                  executable=account.executable, rent_epoch=account.rent_epoch))

    @property  # type: ignore[override]
    def v1_proofs(self) -> bool:  # the base set's: only the account compression program differs
        return bool(self.marker.get("v1_proofs", False))

    def check(self) -> list[str]:
        """Problems found by reading every program again against the marker; empty when intact."""
        expected = self.marker["files"]
        found = []
        for name, spec in expected.items():
            path = self.programs_dir / name
            if not path.is_file():
                found.append(f"programs/{name}: missing")
            elif file_sha256(path) != spec["sha256"]:
                found.append(f"programs/{name}: SHA-256 differs from {MARKER}")
        return found


def patched_account_compression(original: bytes, setup: KitSetup) -> bytes:
    """`original` with today's batch keys replaced by the kit setup's; ValueError when a key is not there once."""
    pairs = [(verifying_key(name, TODAY_SETUP), setup.verifying_key(name)) for name in BATCH_CIRCUITS]
    return replace_verifying_keys(original, pairs)


def find_batch_programs(setup: KitSetup, base: TodayPrograms, folder: Path | None = None) -> KitBatchPrograms | None:
    """The set in `folder` when it was made from this kit setup (same verifying keys) and from `base` as it is now
    (a base made again, with other keys, makes this set again), and every program is there."""
    folder = folder or batch_programs_dir()
    try:
        marker = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if marker.get("setup") != _setup_keys(setup) or marker.get("base_files") != _files(base.programs_dir) \
            or any(not (folder / "programs" / n).is_file() for n in TODAY_FILES.values()):
        return None
    return KitBatchPrograms(folder)


def _files(programs: Path) -> dict[str, dict[str, str]]:
    """Each program's SHA-256 in a `programs/` folder (missing ones left out)."""
    return {name: {"sha256": file_sha256(programs / name)} for name in TODAY_FILES.values()
            if (programs / name).is_file()}


def _setup_keys(setup: KitSetup) -> dict[str, str]:
    files = setup.manifest["files"]
    return {name: files[f"{c.stem}.vkey"]["sha256"] for name, c in BATCH_CIRCUITS.items()}


def make_batch_programs(base: TodayPrograms, setup: KitSetup, folder: Path | None = None) -> KitBatchPrograms:
    """The set in `folder`, made from `base` and `setup` unless it is there already. ProverInstallError when the
    base is not intact or its account compression program lacks one of today's batch keys."""
    folder = (folder or batch_programs_dir()).expanduser().resolve()
    found = find_batch_programs(setup, base, folder)
    if found is not None and not found.check():
        return found
    problems = base.check()
    if problems:
        raise ProverInstallError(f"the programs in {base.folder} are not intact: {'; '.join(problems[:5])}")
    with staged_folder(folder) as staging:
        shutil.copytree(base.folder, staging, dirs_exist_ok=True)
        target = staging / "programs" / PATCHED
        try:
            target.write_bytes(patched_account_compression(target.read_bytes(), setup))
        except ValueError as exc:
            raise ProverInstallError(f"{PATCHED}: cannot replace its batch verifying keys: {exc}") from None
        files = _files(staging / "programs")
        marker = {"label": f"{base.label} + batch keys of the {LABEL}", "base": base.label,
                  "base_files": _files(base.programs_dir),
                  "v1_proofs": bool(getattr(base, "v1_proofs", False)),
                  "setup": _setup_keys(setup), "patched": PATCHED, "files": files}
        (staging / MARKER).write_text(json.dumps(marker, indent=1) + "\n", encoding="utf-8")
    return KitBatchPrograms(folder)


def with_batch_keys(base: TodayPrograms, *, say: Callable[[str], None] | None = None) -> TodayPrograms:
    """`base` with the kit setup's batch keys (the setup made once per machine) when the 0.27.0 prover is installed;
    `base` itself, said, otherwise: its batched trees then stay unforested."""
    say = say or (lambda line: None)
    binary = prover_binary()
    if binary is None:
        say("no forester for the batched trees: the 0.27.0 prover is not installed (`csi prover install --v2`)")
        return base
    return make_batch_programs(base, make_kit_setup(binary, say=say))
