"""`csi prover install` and `csi prover check`: the light prover, and Light's programs, in the cache folder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from csi_conformance.ledger_proofs.install import ProverInstallError, find_installation, install, manifest, prover_dir

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    prover = subparsers.add_parser("prover", help="the light prover that makes real validity proofs")
    actions = prover.add_subparsers(dest="action", metavar="ACTION", required=True)
    spec = f"{manifest()['package']}@{manifest()['version']}"
    setup = actions.add_parser("install", help=f"get {spec} with npm into the cache folder, keep the prover "
                                               "binary and keys, Light's programs and account dumps, check them, "
                                               "and print where they are")
    setup.add_argument("--dir", type=Path, help="install folder (default: $CSI_PROVER_DIR or the user cache)")
    setup.set_defaults(handler=_install)
    check = actions.add_parser("check", help="check an install's files (prover, keys, programs, account dumps) "
                                                "against their published SHA-256")
    check.add_argument("--dir", type=Path, help="install folder (default: $CSI_PROVER_DIR or the user cache)")
    check.set_defaults(handler=_check)


def _install(args: argparse.Namespace) -> int:
    installation = install(args.dir, log=lambda line: print(f"csi prover: {line}", file=sys.stderr))
    problems = installation.check()
    if problems:
        raise ProverInstallError(f"installed files are not the published ones: {'; '.join(problems[:5])}; "
                                 f"remove {installation.folder} and install again")
    print(f"csi prover: checked {installation.size / 2**20:.0f} MiB against prover-files.json", file=sys.stderr)
    print(installation.binary)
    return 0


def _check(args: argparse.Namespace) -> int:
    folder = args.dir or prover_dir()
    installation = find_installation(folder)
    if installation is None:
        print(f"csi prover: not installed, or incomplete, in {folder}: run `csi prover install`", file=sys.stderr)
        return 1
    problems = installation.check()
    for problem in problems:
        print(f"csi prover: {problem}", file=sys.stderr)
    if not problems:
        print(installation.binary)
    return 1 if problems else 0
