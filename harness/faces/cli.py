"""The `csi` command: a thin shell that collects subcommands and maps errors to exit codes.

Subcommands register themselves through the `csi.commands` entry point group: each entry is
a callable `register(subparsers)` that adds its parser and sets `handler` (args -> exit code).
Adding a command never means editing this file, and the reference server and the harness
stay out of each other's imports.

Only the command asked for is registered: `csi --help`, `csi --version` and a command that does
not exist load no command at all (the catalogue, the reference server and the ledger rooms take a
second of CPU to import), and list the commands from `COMMANDS`. A command a plugin adds that
`COMMANDS` does not name is registered with the others when it is asked for.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import traceback
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, entry_points, version

from csi_conformance.groundwork.cache import user_cache
from csi_conformance.harness.core.errors import CsiError, exit_code_for
from csi_conformance.harness.faces.exit_codes import state_exit_codes
from csi_conformance.harness.faces.parsing import SuggestingParser

__all__ = ["build_parser", "main"]


COMMANDS = {
    "ambiguities": "the spec's open points and the readings targets followed",
    "cases": "golden request/response cases over the bundled scenarios",
    "chain": "a real chain: Light's programs in LiteSVM, and a Solana node over it",
    "prover": "the light prover that makes real validity proofs",
    "run": "certify an endpoint against the spec",
    "report": "work with reports",
    "checks": "list the check catalogue",
    "schema": "the contract derived from the spec",
    "serve": "run the reference indexer (a local mock indexer)",
    "scenario": "reference ledgers",
    "site": "a static site of several targets' reports, side by side",
    "proxy": "judge an app's own traffic: a JSON-RPC proxy in front of an indexer",
    "judge": "judge recorded traffic (csi proxy --record, or a HAR file)",
}
"""The kit's commands and their one-line help, listed by `csi --help` without loading any of them."""


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of `csi`, with the command `argv` names registered (every command when `argv` is None)."""
    parser = SuggestingParser(
        prog="csi", description="Conformance kit for the Compressed-State Indexer JSON-RPC API 0.50.0"
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    wanted = _command_in(argv) if argv is not None else None
    entries = sorted(entry_points(group="csi.commands"), key=lambda e: e.name)
    if argv is None:
        chosen = entries
    elif wanted is None or (wanted not in COMMANDS and wanted not in {e.name for e in entries}):
        chosen = []  # help, the version or a usage error: no command is loaded
    else:  # the entry named after the command first; the others only if it registers no such command
        chosen = sorted(entries, key=lambda e: e.name != wanted)
    for entry in chosen:
        if wanted is not None and wanted in subparsers.choices:
            break
        entry.load()(subparsers)
    for name, summary in COMMANDS.items():
        if name not in subparsers.choices:
            subparsers.add_parser(name, help=summary)
    state_exit_codes(parser)
    return parser


def _command_in(argv: Sequence[str]) -> str | None:
    """The command a command line names: its first word that is no option."""
    return next((word for word in argv if not word.startswith("-")), None)


def _version() -> str:
    try:
        return version("csi-conformance")
    except PackageNotFoundError:
        return "(not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; whatever happens, one line says so on stderr and the exit code tells CI: never a
    traceback (set `$CSI_DEBUG=1` to see one for an error of the kit)."""
    _take_interrupts()
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(argv).parse_args(argv)
    _keep_hypothesis_out_of_cwd()
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

    set_hypothesis_home_dir(user_cache("hypothesis"))


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
