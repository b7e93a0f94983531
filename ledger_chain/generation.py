"""`csi chain generate`: a chain of N operations drawn from a seed, executed by Light's programs,
written as a folder of `getBlock` results that `csi serve --transactions DIR` reads.

The folder holds one file per block, named by its slot (the `getBlock` result, as a node answers
it), and `chain.yaml`: the seed, the genesis (who was funded, the forester written into the
dumped trees), the trees, how many operations of each kind, every transaction's slot, kind and
signature, and each tree's final root. Everything is written to a staging folder beside the
target and renamed into place: a run that fails leaves nothing half written, and a folder that
exists is a whole chain. The same seed gives the same blocks byte for byte once the proofs are
in the proof cache (`proofs.py`).
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from csi_conformance.groundwork.errors import ConfigError, UsageError
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.ledger_chain.accounts import read_tree
from csi_conformance.ledger_chain.batch_forester import forest, start_forester
from csi_conformance.ledger_chain.batch_programs import with_batch_keys
from csi_conformance.ledger_chain.batched_model import TodayModel
from csi_conformance.ledger_chain.chain import FIRST_SLOT, Chain, genesis_funding, program_set
from csi_conformance.ledger_chain.draw import next_step
from csi_conformance.ledger_chain.draw_parts import Users
from csi_conformance.ledger_chain.kinds import KINDS
from csi_conformance.ledger_chain.kinds_0_28 import kinds_for
from csi_conformance.ledger_chain.patched_programs import install_patched, patched_manifest
from csi_conformance.ledger_chain.programs_0_28 import TodayPrograms, install_today, today_manifest
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_proofs.install import Installation, find_installation

__all__ = ["MANIFEST", "PROGRAM_VERSIONS", "Generated", "generate", "installed", "programs_for", "programs_named",
           "write_chain"]

MANIFEST = "chain.yaml"
FORMAT = 1
TODAY, V1 = "0.28.3", "0.18.0"
PROGRAM_VERSIONS = (TODAY, V1)
"""The program sets a chain can run: today's (the default: 0.28.3 with the June 2025 verifying keys, see
`patched_programs.py`) and 0.18.0's (v1 trees only)."""


@dataclass(frozen=True)
class Generated:
    folder: Path
    blocks: int
    transactions: int
    kinds: dict[str, int]
    proved: int
    cached: int
    seconds: float


def installed() -> Installation:
    """The install that holds Light's programs; ConfigError saying how to get it otherwise."""
    installation = find_installation()
    if installation is None:
        raise ConfigError("Light's programs are not installed (or the install is incomplete): run "
                          "`csi prover install`, which keeps them with the prover")
    return installation


def programs_for(version: str, *, say: Callable[[str], None] | None = None) -> Installation | TodayPrograms:
    """The installed programs of `version` (today's, with the June 2025 verifying keys, are installed from npm and
    patched on first use)."""
    if version == TODAY:
        return with_batch_keys(install_patched(log=say), say=say)
    if version == V1:
        return installed()
    raise UsageError(f"--programs must be one of {', '.join(PROGRAM_VERSIONS)}, got {version}")


def programs_named(label: str) -> Installation | TodayPrograms:
    """The programs a chain's manifest names (`programs:`): the patched set, the published 0.28.3 one (chains made
    before the patched set was the default), or 0.18.0's."""
    if label == patched_manifest()["label"]:
        return install_patched()
    if label.startswith(patched_manifest()["label"] + " + "):  # with the kit setup's batch keys
        return with_batch_keys(install_patched())
    if label == f"{today_manifest()['package']}@{today_manifest()['version']}":
        return install_today()
    return installed()


def generate(ops: int, seed: int, out: Path, *, prover: ChainProver | None = None,
             progress: Callable[[str], None] | None = None,
             installation: Installation | TodayPrograms | None = None) -> Generated:
    """Draw and execute `ops` operations, then write the chain to `out` (replacing a chain there).
    `installation` decides the programs: 0.18.0's install (the default when None) or today's."""
    if ops < 1:
        raise UsageError(f"--ops must be at least 1, got {ops}")
    _check_target(out)
    say = progress or (lambda line: None)
    began = time.monotonic()
    prover = prover or ChainProver(on_start=say)
    chain = Chain(seed, installation or installed(), prover)
    say(f"programs: {program_set(chain.installation)[0]}")
    users = Users(tuple(chain.keys.users))
    kinds: Counter[str] = Counter()
    drawn_from = kinds_for(chain.installation.v1_proofs) if isinstance(chain.installation, TodayPrograms) else KINDS
    batch_prover = start_forester(chain)
    for index in range(ops):
        operation, slots = next_step(chain.model, users, kinds.keys(), seed=seed, index=index, kinds=drawn_from)
        chain.advance(slots if index else 0)
        executed = chain.run(operation)
        kinds[operation.kind] += 1
        say(f"[{index + 1}/{ops}] slot {chain.slot}: {operation.describe()} "
            f"({executed.compute_units:,} CU{', refused as planned' if executed.err else ''})")
        for batch, done in forest(chain) if batch_prover else ():
            kinds[batch.kind] += 1
            say(f"[{index + 1}/{ops}] slot {chain.slot}: {batch.describe()} ({done.compute_units:,} CU)")
    if batch_prover:
        batch_prover.stop()
    chain.close_block()
    write_chain(out, chain, ops, kinds)
    return Generated(out, len(chain.blocks), len(chain.log), dict(kinds), prover.proved, prover.cached,
                     time.monotonic() - began)


def _check_target(out: Path) -> None:
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MANIFEST).is_file())):
        raise UsageError(f"{out} exists and is not a chain folder: give a new or empty folder, or a chain to replace")


def manifest_of(chain: Chain, ops: int, kinds: Counter[str]) -> dict[str, Any]:
    """What `chain.yaml` says: enough to replay the chain (`replay.py`) and to read it at a glance."""
    trees = {str(key): _tree_summary(chain, key) for key in chain.model.state_trees}
    if isinstance(chain.model, TodayModel):
        trees.update({str(key): {"output_queue": str(mirror.queue), "queued": mirror.next_index,
                                 "nullifiers_queued": mirror.nullifiers, "root": "0x" + mirror.tree.root.hex()}
                      for key, mirror in sorted(chain.model.batched.items(), key=lambda item: bytes(item[0]))})
    trees[str(chain.model.address_tree_key)] = _tree_summary(chain, chain.model.address_tree_key)
    return {
        "format": FORMAT,
        "seed": chain.seed,
        "operations": ops,
        "programs": program_set(chain.installation)[0],
        "first_slot": FIRST_SLOT,
        "last_slot": chain.blocks[-1][0] if chain.blocks else FIRST_SLOT,
        "blocks": len(chain.blocks),
        "genesis": {"blockhash": chain.genesis_hash, "forester": str(chain.keys.forester.pubkey()),
                    "funded": {str(key): lamports for key, lamports in genesis_funding(chain.keys).items()}},
        "state_trees": [str(key) for key in chain.model.state_trees],
        "address_tree": str(chain.model.address_tree_key),
        "mints": [str(key) for key in chain.model.mints],
        "kinds": dict(sorted(kinds.items())),
        "final_trees": trees,
        "transactions": [{"slot": slot, "kind": kind, "signature": signature} for slot, kind, signature in chain.log],
    }


def _tree_summary(chain: Chain, key: Any) -> dict[str, Any]:
    onchain = read_tree(chain.runtime.data(key))
    return {"seq": onchain.sequence_number, "next_index": onchain.next_index, "root": "0x" + onchain.root.hex()}


def write_chain(out: Path, chain: Chain, ops: int, kinds: Counter[str]) -> None:
    """Write the blocks and `chain.yaml` into a staging folder, then rename it to `out`."""
    out = out.expanduser().resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.parent / f".{out.name}.staging-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        for slot, block in chain.blocks:
            (staging / str(slot)).write_text(dumps(block) + "\n", encoding="utf-8")
        text = yaml.safe_dump(manifest_of(chain, ops, kinds), sort_keys=False, width=120)
        (staging / MANIFEST).write_text(text, encoding="utf-8")
        old = out.parent / f".{out.name}.old-{os.getpid()}"
        if out.exists():
            out.rename(old)
        staging.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def progress_lines(stream: Any = None) -> Callable[[str], None]:
    """Progress on a terminal: one line rewritten in place; elsewhere one line per step."""
    out = stream or sys.stderr
    live = hasattr(out, "isatty") and out.isatty()

    def show(text: str) -> None:
        out.write(f"\r\x1b[K{text}" if live else text + "\n")
        out.flush()

    return show
