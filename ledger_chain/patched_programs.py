"""Today's programs (0.28.3) with Light's June 2025 verifying keys: the program set `csi chain generate` runs.

Today's light system program verifies proofs with Light's October 2025 keys, whose proving keys no
package carries; Light's June 2025 setup has both (the 0.18.0 prover the kit installs holds its v1
proving keys). This set is a copy of the 0.28.3 install (`programs_0_28.py`) in which only the verifying-key
constants of `light_system_program_pinocchio.so` are replaced by the June 2025 ones, every other byte
as published (trusted-setups.md). Nothing of Light's is shipped: the copy is made at install
time from the checked 0.28.3 files, and `programs-0.28.3-june-2025-keys.json` records what must come
out (the patched file's size and SHA-256, the keys replaced, the sources and commits). Every file is
checked byte for byte in a staged folder (`groundwork.files.staged_folder`), as for the other installs. The
folder is `$CSI_PATCHED_PROGRAMS_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/csi-conformance/programs/
0.28.3-june-2025-keys`.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Self

from csi_conformance.groundwork.files import staged_folder
from csi_conformance.ledger_chain.programs_0_28 import TodayPrograms, install_today, today_package
from csi_conformance.ledger_chain.vk_patch import replace_verifying_keys
from csi_conformance.ledger_proofs.npm_package import MARKER, PackageFiles, ProverInstallError, cache_folder
from csi_conformance.ledger_proofs.verify import verifying_key

__all__ = ["MANIFEST_NAME", "PatchedPrograms", "find_patched", "install_patched", "patched_bytes",
           "patched_manifest"]

MANIFEST_NAME = "programs-0.28.3-june-2025-keys.json"


@cache
def patched_manifest() -> dict[str, Any]:
    """The patched set's manifest: its label, the base package, the file patched, the keys replaced."""
    return json.loads((resources.files(__package__) / MANIFEST_NAME).read_text(encoding="utf-8"))


def patched_dir() -> Path:
    """Where the patched set lives: `$CSI_PATCHED_PROGRAMS_DIR`, else the user's cache folder."""
    return cache_folder("CSI_PATCHED_PROGRAMS_DIR", "programs", patched_manifest()["folder"])


def patched_bytes(original: bytes) -> bytes:
    """The published program with the manifest's keys replaced (`vk_patch`); ValueError when it is not the
    program the manifest was made from."""
    pairs = [(verifying_key(item["circuit"], item["from"]), verifying_key(item["circuit"], item["to"]))
             for item in patched_manifest()["replaced"]]
    return replace_verifying_keys(original, pairs)


def _files() -> PackageFiles:
    """The base install's files, with the patched program's size and SHA-256 in place of the published ones."""
    base, manifest = today_package(), patched_manifest()
    name = f"programs/{manifest['file']}"
    files = dict(base.files)
    files[name] = (files[name][0], manifest["patched"])
    return PackageFiles(base.package, base.version, base.integrity, MANIFEST_NAME, files, manifest["label"])


@dataclass(frozen=True)
class PatchedPrograms(TodayPrograms):
    """An install of the patched set: loaded by `Runtime` as today's programs are, labelled as what it is."""

    v1_proofs: ClassVar[bool] = True

    @classmethod
    def package(cls) -> PackageFiles:
        return _files()

    @property
    def label(self) -> str:
        return str(patched_manifest()["label"])

    @classmethod
    def find(cls, folder: Path) -> Self | None:
        """The set in `folder` when every file has its size and it was made for this manifest."""
        found = super().find(folder)
        if found is None:
            return None
        try:  # made from another manifest (other keys replaced): the same sizes, other bytes
            made = json.loads((folder / MARKER).read_text(encoding="utf-8")).get("sha256")
        except (OSError, ValueError, AttributeError):
            return None
        return found if made == patched_manifest()["patched"]["sha256"] else None


def find_patched(folder: Path | None = None) -> PatchedPrograms | None:
    """The install in `folder` (default `patched_dir()`), or None when a file is missing or of another size, or it
    was made for another manifest."""
    return PatchedPrograms.find(folder or patched_dir())


def install_patched(folder: Path | None = None, *, base: TodayPrograms | None = None,
                    log: Any = None) -> PatchedPrograms:
    """Make the patched set in `folder` unless an intact one is there, from the 0.28.3 install (`base`, installed
    from npm when None); ProverInstallError when a file does not come out as the manifest says."""
    say = log or (lambda line: None)
    folder = (folder or patched_dir()).expanduser().resolve()
    found = find_patched(folder)
    if found is not None:
        return found
    base = base or install_today(log=log)
    problems = base.check()
    if problems:
        raise ProverInstallError(f"the 0.28.3 programs in {base.folder} are not the published ones: "
                                 f"{'; '.join(problems[:5])}; delete the folder and run the command again")
    with staged_folder(folder) as staging:  # replaces an incomplete or altered install
        _copy_patched(base, staging)
        problems = _files().problems(staging, hashes=True)
        if problems:
            raise ProverInstallError(f"the patched programs differ from {MANIFEST_NAME}: {'; '.join(problems[:5])}")
        marker = {"label": patched_manifest()["label"], "sha256": patched_manifest()["patched"]["sha256"],
                  "base": str(base.folder)}
        (staging / MARKER).write_text(json.dumps(marker) + "\n", encoding="utf-8")
    say(f"{patched_manifest()['label']}: made in {folder}")
    return PatchedPrograms(folder)


def _copy_patched(base: TodayPrograms, staging: Path) -> None:
    """Every file of the base install, the one program with its keys replaced."""
    name = f"programs/{patched_manifest()['file']}"
    for relative in today_package().files:
        target = staging / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if relative == name:
            try:
                target.write_bytes(patched_bytes((base.folder / relative).read_bytes()))
            except ValueError as exc:
                raise ProverInstallError(f"{relative}: cannot replace its verifying keys: {exc}") from None
        else:
            shutil.copyfile(base.folder / relative, target)
