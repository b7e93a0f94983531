"""The `csi` command: a thin shell that collects subcommands and maps errors to exit codes.

Subcommands register themselves through the `csi.commands` entry point group: each entry is
a callable `register(subparsers)` that adds its parser and sets `handler` (args -> exit code).
Adding a command never means editing this file, and the reference server and the harness
stay out of each other's imports.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import entry_points

from harness.core.errors import CsiError, exit_code_for

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="csi", description="Conformance kit for the Compressed-State Indexer JSON-RPC API 0.50.0"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for entry in sorted(entry_points(group="csi.commands"), key=lambda e: e.name):
        entry.load()(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except CsiError as exc:
        print(f"csi: {exc}", file=sys.stderr)
        return exit_code_for(exc)
    except KeyboardInterrupt:
        print("csi: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
