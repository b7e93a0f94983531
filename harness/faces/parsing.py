"""The parser every `csi` command is built with: a mistyped command, action, choice or option is answered
with the nearest one the parser knows (`csi rnu`: did you mean run?), by the parser it was given to, so the
usage printed above the line is that command's. Exit 2, as argparse ends every usage error.

`build_parser` makes the top-level parser of this class; argparse gives every subparser the class of its
parent, so a command a plugin registers suggests the same way without knowing of it.
"""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["SuggestingParser", "nearest"]

CUTOFF = 0.6
"""How alike a word and a known one must be (difflib's ratio) to be suggested: `rnu` is like `run`, `xyz` is like
nothing."""


def nearest(word: str, known: Iterable[str]) -> str | None:
    """The known word most like `word`, or None when none is close."""
    matches = difflib.get_close_matches(word, list(known), n=1, cutoff=CUTOFF)
    return matches[0] if matches else None


class SuggestingParser(argparse.ArgumentParser):
    """An `ArgumentParser` whose usage errors name the nearest valid word."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is None or value in action.choices:
            return
        choices = [str(choice) for choice in action.choices]
        guess = nearest(str(value), choices)
        hint = f": did you mean {guess}?" if guess else ""
        raise argparse.ArgumentError(
            action, f"invalid choice: {value!r}{hint} (choose from {', '.join(map(repr, choices))})")

    def parse_known_args(self, args: Sequence[str] | None = None,
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        """As argparse's; a command's own words it does not know are an error of that command, told with
        its usage (argparse would hand them up to `csi`, whose usage says nothing of the command's options)."""
        namespace, extras = super().parse_known_args(args, namespace)
        if extras and self._subparsers is None:
            self.error(self._unrecognized(extras))
        return namespace, extras

    def _unrecognized(self, extras: list[str]) -> str:
        message = f"unrecognized arguments: {' '.join(extras)}"
        options = [option for action in self._actions for option in action.option_strings]
        for word in extras:
            if word.startswith("-") and (guess := nearest(word.split("=", 1)[0], options)):
                return f"{message}: did you mean {guess}?"
        return message
