"""`csi --help` lists the commands from a table, without loading them: the table must name exactly the commands
the installed entry points register, or the help would list one that does not exist or miss one that does."""

from __future__ import annotations

from csi_conformance.harness.faces.cli import COMMANDS, build_parser


def _registered() -> set[str]:
    parser = build_parser()  # every command's entry point loaded
    (subparsers,) = [action for action in parser._actions if action.dest == "command"]  # argparse has no public way
    return set(subparsers.choices)


def test_the_help_table_names_exactly_the_registered_commands() -> None:
    assert _registered() == set(COMMANDS)


def test_a_command_line_loads_only_its_command() -> None:
    parser = build_parser(["serve", "--help"])
    (subparsers,) = [action for action in parser._actions if action.dest == "command"]
    assert set(subparsers.choices) == set(COMMANDS)  # the others are listed, not loaded
    assert "--port" in subparsers.choices["serve"].format_help()
    assert "--target" not in subparsers.choices["run"].format_help()
