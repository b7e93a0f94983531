"""`csi run`, `csi report merge` and `csi checks`: certify a target, join shards, list the catalogue.

`csi run`'s flags are the run options of `harness.engine.options.OPTIONS`, read as text and checked
by `RunOptions.from_inputs` like every other face's; the run itself is `harness.engine.session.certify`.
With no `--target` it certifies the bundled reference server; with `--scenario` (or `--ledger-rpc`)
the target's answers are compared with a reference over the same ledger.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from csi_conformance.harness.core.errors import UsageError
from csi_conformance.harness.core.model import RunResult
from csi_conformance.harness.engine.options import GATE_CHOICES, OPTIONS, RunOptions
from rich.text import Text

__all__ = ["options_from_args", "register"]

GATES = GATE_CHOICES


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="certify an endpoint against the spec",
        description="Certify an endpoint against the spec. Reports go to --report-dir (default csi-report).")
    for option in OPTIONS:
        if option.flag:
            parser.add_argument(f"--{option.name}", help=option.help, action="store_const", const=True,
                                dest=option.field)
        else:
            parser.add_argument(f"--{option.name}", metavar=option.metavar, help=option.help,
                                action="append" if option.many else "store", dest=option.field)
    parser.set_defaults(handler=_run)

    report = subparsers.add_parser("report", help="work with reports")
    actions = report.add_subparsers(dest="action", metavar="ACTION", required=True)
    merge = actions.add_parser("merge", help="join the reports of a split run (csi run --shard I/N)")
    merge.add_argument("reports", nargs="+", type=Path, help="report.json files or the folders holding them")
    merge.add_argument("-o", "--output", type=Path, required=True, help="folder for the merged reports")
    merge.add_argument("--fail-on", choices=list(GATES), default="fail")
    merge.set_defaults(handler=_merge)
    diff = actions.add_parser("diff", help="what changed between two runs of one target (exit 1 on a regression)")
    diff.add_argument("before", type=Path, help="the earlier report.json (or its folder)")
    diff.add_argument("after", type=Path, help="the later report.json (or its folder)")
    diff.add_argument("--format", choices=("text", "markdown", "json"), default="text", dest="form")
    diff.set_defaults(handler=_diff)

    catalogue = subparsers.add_parser("checks", help="list the check catalogue")
    catalogue.add_argument("--json", action="store_true", help="print the catalogue as JSON")
    catalogue.add_argument("--coverage", action="store_true", help="print the clause-to-check map (Markdown)")
    catalogue.set_defaults(handler=_checks)


def given_by_args(args: argparse.Namespace) -> dict[str, Any]:
    """The run options a command line gave, by option name, as text (what `RunOptions.from_inputs` reads)."""
    return {option.name: getattr(args, option.field) for option in OPTIONS
            if getattr(args, option.field, None) is not None}


def options_from_args(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> RunOptions:
    """The checked options of a `csi run` command line."""
    return RunOptions.from_inputs(given_by_args(args), env=env)


def _run(args: argparse.Namespace) -> int:
    from csi_conformance.harness.engine.session import (  # the catalogue and the references load when a run starts
        certify,
        refused,
    )
    from csi_conformance.harness.report.console import ConsoleReporter

    given = given_by_args(args)
    reporter = ConsoleReporter()
    try:
        options = RunOptions.from_inputs(given)  # read once: the run is handed the checked options
    except UsageError as error:
        with reporter:
            return _ended(refused(error, given), None)
    reporter.gate = options.fail_on
    with reporter:
        result = certify(options, on_event=_first_saying(_contract_line(options.api), reporter))
    return _ended(result, options)


def _first_saying(line: str, reporter: Any) -> Callable[[Any], None]:
    """The reporter's handler, printing `line` before the run's first event: a run that does not start (a report
    folder it cannot write) prints its one line alone."""
    said = False

    def handle(event: Any) -> None:
        nonlocal said
        if not said:
            said = True
            reporter.console.print(Text(line))
        reporter.handle(event)

    return handle


def _contract_line(api: str) -> str:
    """The run's first line: the contract it judges by, and how to choose the other."""
    from csi_conformance.schema.naming import api_alternatives, api_summary

    return f"judging against API {api_summary(api)}; {api_alternatives(api)}"


def _ended(result: RunResult, options: RunOptions | None) -> int:
    """One line for a run that did not start (its reports say the same), else where the reports are; the
    exit code."""
    if result.error:
        print(f"csi: {result.error}", file=sys.stderr)
        return result.exit_code(options.fail_on if options is not None else GATES["fail"])
    if result.precondition and not result.checks:  # stopped before any check: no summary says why
        print(f"csi: {result.precondition}", file=sys.stderr)
    if options is not None and options.report_dir is not None:
        print(f"reports: {options.report_dir}/ (report.html, report.json, junit.xml)", file=sys.stderr)
    return result.exit_code(options.fail_on if options is not None else GATES["fail"])


def _merge(args: argparse.Namespace) -> int:
    from csi_conformance.harness.report import write_reports
    from csi_conformance.harness.report.console import ConsoleReporter
    from csi_conformance.harness.report.merge import load_report, merge_results
    from csi_conformance.schema import Contract

    gate = GATES[args.fail_on]
    result = merge_results([load_report(path) for path in args.reports])
    ConsoleReporter(gate=gate).print_summary(result)
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
    for path in write_reports(result, args.output, Contract.default(), gate=gate):
        print(f"wrote {path}", file=sys.stderr)
    return result.exit_code(gate)  # the console summary has said why


def _diff(args: argparse.Namespace) -> int:
    from csi_conformance.harness.core.errors import ConfigError
    from csi_conformance.harness.report.diff import REGRESSIONS, diff_runs, incomparable, render
    from csi_conformance.harness.report.merge import load_report

    before, after = load_report(args.before), load_report(args.after)
    why = incomparable(before, after)
    if why is not None:
        raise ConfigError(f"cannot compare {args.before} and {args.after}: {why}")
    changes = diff_runs(before, after)
    sys.stdout.write(render(before, after, changes, args.form))
    return 1 if any(change.kind in REGRESSIONS for change in changes) else 0


def _checks(args: argparse.Namespace) -> int:
    import csi_conformance.harness.checks  # noqa: F401
    from csi_conformance.harness.core.registry import REGISTRY
    from csi_conformance.harness.report.catalogue import print_catalogue
    from csi_conformance.harness.report.coverage import render_coverage_markdown
    from csi_conformance.schema import Contract

    if args.coverage:
        sys.stdout.write(render_coverage_markdown(REGISTRY, Contract.default()))
        return 0
    print_catalogue(REGISTRY, as_json=args.json)
    return 0
