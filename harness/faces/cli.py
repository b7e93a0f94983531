"""The `csi` command: a thin shell that collects subcommands and maps errors to exit codes.

Subcommands register themselves through the `csi.commands` entry point group: each entry is
a callable `register(subparsers)` that adds its parser and sets `handler` (args -> exit code).
Adding a command never means editing this file, and the reference server and the harness
stay out of each other's imports.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import traceback
from collections.abc import Sequence
from importlib.metadata import entry_points
from pathlib import Path

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
    """Run one command; whatever happens, one line says so on stderr and the exit code tells CI: never a
    traceback (set `$CSI_DEBUG=1` to see one for an error of the kit)."""
    _take_interrupts()
    _keep_hypothesis_out_of_cwd()
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except CsiError as exc:
        print(f"csi: {exc}", file=sys.stderr)
        return exit_code_for(exc)
    except KeyboardInterrupt:
        print("csi: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # a file or folder the command was given cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"csi: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug of the kit: one line, exit 4, the traceback only when asked for
        if os.environ.get("CSI_DEBUG"):
            traceback.print_exc()
        print(f"csi: an error of the kit itself ({type(exc).__name__}: {exc}); CSI_DEBUG=1 shows where",
              file=sys.stderr)
        return 4


def _keep_hypothesis_out_of_cwd() -> None:
    """Requests are drawn with hypothesis, which keeps caches in `.hypothesis/` under the current folder: the
    `csi` command keeps them in the user's cache folder instead, unless `$HYPOTHESIS_STORAGE_DIRECTORY` says
    where. (The pytest plugin and the Python API leave the caller's hypothesis settings alone.)"""
    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        return
    from hypothesis.configuration import set_hypothesis_home_dir

    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    set_hypothesis_home_dir(cache_home / "csi-conformance" / "hypothesis")


def _take_interrupts() -> None:
    """A shell starts a background job (`csi run &` in a script) with SIGINT ignored; the kit ends on SIGINT
    like on Ctrl-C, with its partial reports, wherever it was started. SIGTERM (a CI timeout, `docker stop`,
    a test's terminate) ends every command the same way, so what it started is stopped and cleaned up (the
    prover and its log), where the default action would end the process on the spot."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, signal.default_int_handler)  # raises KeyboardInterrupt


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
