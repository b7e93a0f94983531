"""`csi prover install` and `csi prover check`: the light prover, and Light's programs, in the cache folder;
with `--v2`, the 0.27.0 prover of the v2 circuits instead."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from csi_conformance.ledger_proofs.install import ProverInstallError, find_installation, install, manifest, prover_dir
from csi_conformance.ledger_proofs.install_v2 import (
    MANIFEST,
    find_v2_installation,
    install_v2,
    v2_manifest,
    v2_prover_dir,
)

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    prover = subparsers.add_parser("prover", help="the light prover that makes real validity proofs")
    actions = prover.add_subparsers(dest="action", metavar="ACTION", required=True)
    spec = f"{manifest()['package']}@{manifest()['version']}"
    setup = actions.add_parser("install", help=f"get {spec} with npm into the cache folder, keep the prover "
                                               "binary and keys, Light's programs and account dumps, check them, "
                                               "and print where they are")
    setup.add_argument("--dir", type=Path, help="install folder (default: $CSI_PROVER_DIR or the user cache)")
    setup.add_argument("--v2", action="store_true", help=_V2_HELP)
    setup.set_defaults(handler=_install)
    check = actions.add_parser("check", help="check an install's files (prover, keys, programs, account dumps) "
                                                "against their published SHA-256")
    check.add_argument("--dir", type=Path, help="install folder (default: $CSI_PROVER_DIR or the user cache)")
    check.add_argument("--v2", action="store_true", help="check the 0.27.0 install (v2 circuits) instead")
    check.set_defaults(handler=_check)


_V2_HELP = (f"instead, get {v2_manifest()['package']}@{v2_manifest()['version']} "
            f"({v2_manifest()['tarball_size'] / 1e6:.0f} MB download), the last release with a prover and keys: keep "
            "its prover binary and 18 proving keys of Light's June-2025 setup (9 for the v2 circuits of batched "
            "trees, about 220 MB) in $CSI_PROVER_V2_DIR or the user cache; --dir chooses another folder")


def _install_v2(args: argparse.Namespace) -> int:
    installation = install_v2(args.dir, log=lambda line: print(f"csi prover: {line}", file=sys.stderr))
    problems = installation.check()
    if problems:
        raise ProverInstallError(f"installed files are not the published ones: {'; '.join(problems[:5])}; "
                                 f"remove {installation.folder} and install again")
    print(f"csi prover: checked {installation.size / 2**20:.0f} MiB against {MANIFEST}", file=sys.stderr)
    print(installation.binary)
    return 0


def _install(args: argparse.Namespace) -> int:
    if args.v2:
        return _install_v2(args)
    installation = install(args.dir, log=lambda line: print(f"csi prover: {line}", file=sys.stderr))
    problems = installation.check()
    if problems:
        raise ProverInstallError(f"installed files are not the published ones: {'; '.join(problems[:5])}; "
                                 f"remove {installation.folder} and install again")
    print(f"csi prover: checked {installation.size / 2**20:.0f} MiB against prover-files.json", file=sys.stderr)
    print(installation.binary)
    return 0


def _check(args: argparse.Namespace) -> int:
    folder = args.dir or (v2_prover_dir() if args.v2 else prover_dir())
    installation = find_v2_installation(folder) if args.v2 else find_installation(folder)
    if installation is None:
        again = "csi prover install --v2" if args.v2 else "csi prover install"
        print(f"csi prover: not installed, or incomplete, in {folder}: run `{again}`", file=sys.stderr)
        return 1
    problems = installation.check()
    for problem in problems:
        print(f"csi prover: {problem}", file=sys.stderr)
    if not problems:
        print(installation.binary)
    return 1 if problems else 0
