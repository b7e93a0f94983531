"""`csi run` and `csi checks`: certify a target, list the check catalogue.

With no `--target`, `csi run` certifies the bundled reference server, which it finds through
the `csi.reference` entry point (the harness never imports the reference server). With
`--scenario`, a reference server over that scenario is started the same way, and the target's
answers are compared with its answers (family `differential`); with `--scenario` and no
`--target`, the target is a reference server over that scenario too.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

from harness.core.baseline import load_baseline
from harness.core.errors import UsageError
from harness.core.keys import load_keys_file
from harness.core.model import GATES as GATES_ORDER
from harness.core.profile import PROFILES, profile_named
from harness.core.registry import REGISTRY
from harness.engine.runner import RunConfig, run
from harness.engine.shard import Shard, parse_shard
from harness.target import Target
from schema import Contract

__all__ = ["register"]

GATES = {status.value.lower(): status for status in GATES_ORDER}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="certify an endpoint against the spec")
    parser.add_argument("--target", help="base URL of the indexer (default: the bundled reference server)")
    parser.add_argument("--api-key", default=os.environ.get("CSI_API_KEY"),
                        help="API key sent as ?api-key= (default: $CSI_API_KEY); never printed")
    parser.add_argument("--profile", choices=list(PROFILES), default="spec")
    parser.add_argument("--seed", type=int, default=0, help="seed of generated requests (default 0)")
    parser.add_argument("--report-dir", type=Path, default=Path("csi-report"))
    parser.add_argument("--only", action="append", default=[], metavar="ID|FAMILY|METHOD")
    parser.add_argument("--skip", action="append", default=[], metavar="ID|FAMILY|METHOD")
    parser.add_argument("--keys", type=Path, help="YAML file of keys to cover (owners, hashes, …)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per request (default 10)")
    parser.add_argument("--rate", type=_rate, help="requests per second, e.g. 20 or 20/s")
    parser.add_argument("--max-requests", type=int, help="stop asking after this many requests")
    parser.add_argument("--fail-on", choices=list(GATES), default="fail",
                        help="lowest status that fails the gate (exit 1); default fail; "
                             "`skip` also refuses a run in which any check examined nothing")
    parser.add_argument("--scenario", metavar="NAME|FILE",
                        help="the scenario the target has loaded: compare its answers with a reference over it")
    parser.add_argument("--ledger-rpc", metavar="URL",
                        help="a Solana JSON-RPC endpoint: the reference indexes the --slots from it and the target, "
                             "which has indexed the same slots, must answer exactly as it does")
    parser.add_argument("--slots", metavar="A..B", help="the slice of the chain for --ledger-rpc (both included)")
    parser.add_argument("--baseline", type=Path, metavar="FILE",
                        help="YAML or JSON list of known findings ({check, method, title}); only new ones fail")
    parser.add_argument("--shard", type=_shard, metavar="I/N",
                        help="run shard I of N (a deterministic split of checks × methods); "
                             "join the shards' reports with `csi report merge`")
    parser.set_defaults(handler=_run)

    report = subparsers.add_parser("report", help="work with reports")
    actions = report.add_subparsers(dest="action", metavar="ACTION", required=True)
    merge = actions.add_parser("merge", help="join the reports of a split run (csi run --shard I/N)")
    merge.add_argument("reports", nargs="+", type=Path, help="report.json files or the folders holding them")
    merge.add_argument("-o", "--output", type=Path, required=True, help="folder for the merged reports")
    merge.add_argument("--fail-on", choices=list(GATES), default="fail")
    merge.set_defaults(handler=_merge)

    catalogue = subparsers.add_parser("checks", help="list the check catalogue")
    catalogue.add_argument("--json", action="store_true", help="print the catalogue as JSON")
    catalogue.add_argument("--coverage", action="store_true", help="print the clause-to-check map (Markdown)")
    catalogue.set_defaults(handler=_checks)


def _rate(text: str) -> float:
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(?:/s)?\s*", text)
    if not match or float(match.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"rate must look like 20 or 20/s, got {text!r}")
    return float(match.group(1))


@contextlib.contextmanager
def _bundled_reference(scenario: str | None = None, ledger: dict | None = None,
                       keys_out: Path | None = None) -> Iterator[str]:
    """A reference server on loopback (over `scenario`, or its default one, or the ledger source
    `ledger`, writing its keys to `keys_out`); yields its URL."""
    found = [e for e in entry_points(group="csi.reference") if e.name == "default"]
    if not found:
        raise UsageError("no bundled reference server installed: give --target, and no --scenario")
    factory = found[0].load()
    if ledger is not None:
        with factory(ledger=ledger, keys_out=keys_out) as url:
            yield url
        return
    with factory(scenario) if scenario is not None else factory() as url:
        yield url


def _run(args: argparse.Namespace) -> int:
    import harness.checks  # noqa: F401  (registers the catalogue)
    from harness.report import ensure_writable, write_reports
    from harness.report.console import ConsoleReporter

    contract = Contract.default()
    config = _config(args, contract)
    ensure_writable(args.report_dir)  # before the run: a long run must not end unable to write its reports
    gate = GATES[args.fail_on]
    reporter = ConsoleReporter(gate=gate)
    with contextlib.ExitStack() as stack:
        stack.enter_context(_terminate_as_interrupt())
        reference_url = stack.enter_context(_bundled_reference(args.scenario)) if args.scenario else None
        if args.ledger_rpc:
            reference_url = _ledger_reference(stack, args, config)
        url = args.target or reference_url or stack.enter_context(_bundled_reference())
        target = stack.enter_context(Target(url, api_key=args.api_key, timeout=args.timeout, rate=args.rate))
        reference = stack.enter_context(Target(reference_url, timeout=args.timeout)) if reference_url else None
        result = run(target, config, contract=contract, on_event=reporter.handle, reference=reference)
    for path in write_reports(result, args.report_dir, contract, gate=gate):
        print(f"wrote {path}", file=sys.stderr)
    return result.exit_code(gate)  # the console summary has said why


def _ledger_reference(stack: contextlib.ExitStack, args: argparse.Namespace, config: RunConfig) -> str:
    """The reference over the slice `--slots` of `--ledger-rpc`; its keys join the run's (`--keys`)."""
    import tempfile

    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="csi-ledger-")))
    url = stack.enter_context(_bundled_reference(ledger={"rpc": args.ledger_rpc, "slots": args.slots},
                                                 keys_out=folder / "keys.yaml"))
    found = load_keys_file(folder / "keys.yaml")
    if config.keys is None:
        config.keys = found
    else:
        for kind, values in found.lists.items():
            config.keys.add(kind, *values)
    return url



@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (what a CI job's timeout sends) ends a run like Ctrl-C: partial summary, reports, exit 130."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _shard(text: str) -> Shard:
    try:
        return parse_shard(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _merge(args: argparse.Namespace) -> int:
    from harness.report import write_reports
    from harness.report.console import ConsoleReporter
    from harness.report.merge import load_report, merge_results

    gate = GATES[args.fail_on]
    result = merge_results([load_report(path) for path in args.reports])
    ConsoleReporter(gate=gate).print_summary(result)
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
    for path in write_reports(result, args.output, Contract.default(), gate=gate):
        print(f"wrote {path}", file=sys.stderr)
    return result.exit_code(gate)  # the console summary has said why


def _config(args: argparse.Namespace, contract: Contract) -> RunConfig:
    """The run's configuration from its flags; every file it names is read here, before any server starts."""
    from harness.differential.cases import scenario_cases

    if (args.ledger_rpc or args.slots) and (not (args.ledger_rpc and args.slots) or args.scenario):
        raise UsageError("--ledger-rpc and --slots go together, and not with --scenario")
    unknown = [t for t in args.only + args.skip if not _known_token(t, contract)]
    if unknown:
        raise UsageError("--only/--skip: " + "; ".join(_did_you_mean(token, contract) for token in unknown))
    baseline = load_baseline(args.baseline, checks={spec.id for spec in REGISTRY.all()},
                             methods=set(contract.methods)) if args.baseline else None
    return RunConfig(profile=profile_named(args.profile), seed=args.seed, only=args.only, skip=args.skip,
                     keys=load_keys_file(args.keys) if args.keys else None, max_requests=args.max_requests,
                     scenario=args.scenario or (f"ledger slots {args.slots}" if args.ledger_rpc else None),
                     cases=scenario_cases(args.scenario) if args.scenario else [] if args.ledger_rpc else None,
                     baseline=baseline, shard=args.shard,
                     target_label=None if args.target else f"bundled reference ({args.scenario or 'default'} scenario)")


def _did_you_mean(token: str, contract: Contract) -> str:
    """`healt is no check id, family or method; did you mean health?` (see `csi checks`)."""
    import difflib

    names = {*contract.methods, *(spec.id for spec in REGISTRY.all()), *(spec.family for spec in REGISTRY.all())}
    close = difflib.get_close_matches(token, sorted(names), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(close)}?" if close else "; `csi checks` lists the check ids and families"
    return f"{token} is no check id, family or method{hint}"


def _known_token(token: str, contract: Contract) -> bool:
    return token in contract.methods or any(token in (spec.id, spec.family) for spec in REGISTRY.all())


def _checks(args: argparse.Namespace) -> int:
    import harness.checks  # noqa: F401
    from harness.report.catalogue import print_catalogue
    from harness.report.coverage import render_coverage_markdown

    if args.coverage:
        sys.stdout.write(render_coverage_markdown(REGISTRY, Contract.default()))
        return 0
    print_catalogue(REGISTRY, as_json=args.json)
    return 0
