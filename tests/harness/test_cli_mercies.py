"""The first minute of a new user: each command names the contract it uses, a mistyped word gets the nearest
valid one, every command's help states its exit codes, and `csi chain generate` runs without `--ops`."""

from __future__ import annotations

import argparse
import re

import pytest
from csi_conformance.harness.faces.cli import build_parser, main
from csi_conformance.harness.faces.exit_codes import EXIT_CODES, exit_codes_line
from csi_conformance.schema import Contract
from csi_conformance.schema.apis import DEFAULT_API

from tests.harness.csi_process import csi_run
from tests.reference_server.support import csi_serve, run_csi

TODAY = "photon-366a15b"
SPEC_METHODS = len(Contract.for_api(DEFAULT_API).methods)
MORE = len(Contract.for_api(TODAY).own_methods())


# -- each command names its contract ----------------------------------------------------------------------------
@pytest.mark.parametrize(("args", "line"), [
    ((), f"csi serve: serving {TODAY} (the spec's {SPEC_METHODS} methods and {MORE} more); --api {DEFAULT_API} "
         "for the spec's alone"),
    (("--api", DEFAULT_API), f"csi serve: serving {DEFAULT_API} (the spec's {SPEC_METHODS} methods); --api {TODAY} "
                             "for the API clients call today"),
])
def test_serve_names_the_contract_it_serves_beside_its_address(tmp_path, args, line) -> None:
    with csi_serve("--port", "0", *args, cwd=tmp_path) as served:
        lines = served.stderr.splitlines()
    announced = next(i for i, said in enumerate(lines) if said.endswith(served.url))
    assert lines[announced - 1] == line, served.stderr


@pytest.mark.parametrize(("args", "line"), [
    ((), f"judging against API {DEFAULT_API} (the spec's {SPEC_METHODS} methods); --api {TODAY} for the API clients "
         "call today"),
    (("--api", TODAY), f"judging against API {TODAY} (the spec's {SPEC_METHODS} methods and {MORE} more); "
                       f"--api {DEFAULT_API} for the spec's alone"),
])
def test_run_names_the_contract_it_judges_by_first(tmp_path, args, line) -> None:
    with csi_serve("--port", "0", cwd=tmp_path) as served:
        done = csi_run("--target", served.url, "--only", "getIndexerHealth", *args, cwd=tmp_path)
    assert done.code == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == line, done.stdout


# -- a mistyped word gets the nearest valid one -------------------------------------------------------------------
@pytest.mark.parametrize(("argv", "usage", "hint"), [
    (["rnu"], "usage: csi [", "invalid choice: 'rnu': did you mean run?"),
    (["run", "--taget", "http://127.0.0.1:9/"], "usage: csi run [",
     "unrecognized arguments: --taget http://127.0.0.1:9/: did you mean --target?"),
    (["run", "--taget=http://127.0.0.1:9/"], "usage: csi run [", "did you mean --target?"),
    (["chain", "genrate"], "usage: csi chain [", "invalid choice: 'genrate': did you mean generate?"),
    (["serve", "--api", "photon"], "usage: csi serve [", f"invalid choice: 'photon': did you mean {TODAY}?"),
    (["schema", "diff", "api.yaml", "--aip", "x"], "usage: csi schema diff [", "did you mean --api?"),
])
def test_a_mistyped_word_is_answered_with_the_nearest(capsys, argv, usage, hint) -> None:
    with pytest.raises(SystemExit) as ended:
        main(argv)
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage), err
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert len(errors) == 1 and hint in errors[0], err


@pytest.mark.parametrize("argv", [["xyzzy"], ["run", "--qqqqqq"]])
def test_a_word_like_nothing_gets_no_guess(capsys, argv) -> None:
    with pytest.raises(SystemExit) as ended:
        main(argv)
    assert ended.value.code == 2
    assert "did you mean" not in capsys.readouterr().err


def test_the_installed_command_suggests_too(tmp_path) -> None:
    done = run_csi("rnu", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].endswith("did you mean run? (choose from " + ", ".join(
        repr(name) for name in _subparsers(build_parser(["--help"])).choices) + ")"), done.stderr


# -- every command's help states its exit codes --------------------------------------------------------------------
def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    return next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)  # no public way


def _commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> dict[str, argparse.ArgumentParser]:
    """Every command `csi --help` leads to, down to the leaves (`schema diff`), by its words."""
    action = _subparsers(parser)
    if action is None:
        return {" ".join(words): parser}
    return {name: leaf for word, child in action.choices.items() for name, leaf in _commands(child, (*words, word))
            .items()}


COMMANDS = _commands(build_parser())


def test_the_exit_code_table_names_exactly_the_commands() -> None:
    assert set(EXIT_CODES) == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_help_states_its_exit_codes(command) -> None:
    shown = " ".join(COMMANDS[command].format_help().split())
    assert exit_codes_line(command) in shown
    for code in (0, 2, 4, 130, *EXIT_CODES[command]):
        assert re.search(rf"\b{code} [a-z]", shown.split("Exit codes:", 1)[1]), (command, code)


def test_schema_diff_help_says_exit_1_means_it_differs(capsys) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["schema", "diff", "--help"])
    assert ended.value.code == 0
    assert "1 it differs" in " ".join(capsys.readouterr().out.split())


# -- csi chain generate has a default --ops ---------------------------------------------------------------------
def test_chain_generate_needs_no_ops() -> None:
    args = build_parser(["chain", "generate"]).parse_args(["chain", "generate", "-o", "chain"])
    assert args.ops == 200
    assert "default 200" in " ".join(COMMANDS["chain generate"].format_help().split())
