"""What each `csi` command's exit code means, in one table, and the `--help` epilog that states it.

The codes every command shares come from `csi`'s own `main` (a usage or configuration error 2, an error of the
kit 4, an interrupt 130); a command names only what its own codes mean. `state_exit_codes` writes them under
every command's `--help`, so a command's help and this table cannot drift apart; a command a plugin adds that
the table does not name gets the shared codes and 0.
"""

from __future__ import annotations

import argparse

__all__ = ["EXIT_CODES", "SHARED", "exit_codes_line", "state_exit_codes"]

SHARED = {2: "a usage or configuration error", 4: "an error of the kit", 130: "interrupted (Ctrl-C or SIGTERM)"}
"""What `csi`'s `main` ends any command with (harness/core/errors.py)."""

DONE = {0: "done"}

EXIT_CODES: dict[str, dict[int, str]] = {
    "run": {0: "conformant", 1: "findings at or above --fail-on", 3: "inconclusive (the target could not be "
            "certified, or not all of it: unreachable, budget spent, stopped asking)",
            4: "an error of the kit (a check failed on its own bug)"},
    "report merge": {0: "the merged run is conformant", 1: "findings at or above --fail-on",
                     3: "inconclusive (a shard is missing, or one was inconclusive)"},
    "report diff": {0: "no regression", 1: "a regression: a new failure, or a check that stopped running",
                    2: "a usage error, or reports that cannot be compared (another format, contract or ledger)"},
    "site build": {0: "the site is written", 2: "a usage error, or a report of another format (one line)"},
    "site baseline": {0: "written"},
    "proxy": {0: "stopped; the traffic judged conformant", 1: "stopped; findings at or above --fail-on",
              3: "inconclusive (the kit could not judge an exchange)"},
    "judge": {0: "the traffic is conformant", 1: "findings at or above --fail-on",
              3: "inconclusive (the kit could not judge an exchange)"},
    "checks": DONE,
    "ambiguities": DONE,
    "schema export": {0: "written"},
    "schema diff": {0: "the document is identical to the contract", 1: "it differs (each difference printed)"},
    "serve": {0: "stopped"},
    "scenario generate": {0: "written"},
    "scenario export": {0: "written"},
    "cases fill": {0: "filled"},
    "cases check": {0: "every case holds", 1: "a case is off (or no case was found)"},
    "prover install": {0: "installed and checked (its path printed)",
                       2: "a usage error, or the install failed or its files are not the published ones"},
    "prover check": {0: "the install is whole (its path printed)", 1: "not installed, or a file differs"},
    "chain generate": {0: "the chain is written", 4: "a transaction failed in Light's programs or the kit "
                                                    "(its log printed; nothing written)"},
    "chain serve": {0: "stopped"},
}
"""Command (its words after `csi`) -> its own codes; `SHARED` fills in the rest."""


def exit_codes_line(command: str) -> str:
    """`Exit codes: 0 conformant, 1 …, 2 …, 130 interrupted.` for one command."""
    codes = {**SHARED, **EXIT_CODES.get(command, DONE)}
    return "Exit codes: " + ", ".join(f"{code} {codes[code]}" for code in sorted(codes)) + "."


def state_exit_codes(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> None:
    """Put each command's exit codes at the end of its `--help`, through every level of subcommands."""
    actions = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    if words and not actions:
        line = exit_codes_line(" ".join(words))
        parser.epilog = f"{parser.epilog}\n\n{line}" if parser.epilog else line
    for action in actions:
        for name, child in action.choices.items():
            state_exit_codes(child, (*words, name))
