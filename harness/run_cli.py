"""`csi run` and `csi checks`: certify a target, list the check catalogue.

With no `--target`, `csi run` certifies the bundled reference server, which it finds through
the `csi.reference` entry point (the harness never imports the reference server).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

from harness.core.errors import UsageError
from harness.core.model import Status
from harness.core.profile import PROFILES, profile_named
from harness.core.registry import REGISTRY
from harness.discover import load_keys_file
from harness.engine.runner import RunConfig, run
from harness.target import Target
from schema import Contract

__all__ = ["register"]

GATES = {"fail": Status.FAIL, "warn": Status.WARN, "ambiguous": Status.AMBIGUOUS}


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
                        help="lowest status that fails the gate (exit 1); default fail")
    parser.set_defaults(handler=_run)

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
def _bundled_reference() -> Iterator[str]:
    found = [e for e in entry_points(group="csi.reference") if e.name == "default"]
    if not found:
        raise UsageError("no --target given and no bundled reference server installed")
    with found[0].load()() as url:
        yield url


def _run(args: argparse.Namespace) -> int:
    import harness.checks  # noqa: F401  (registers the catalogue)
    from harness.report import write_reports
    from harness.report.console import ConsoleReporter

    contract = Contract.default()
    unknown = [t for t in args.only + args.skip if not _known_token(t, contract)]
    if unknown:
        raise UsageError(f"--only/--skip: {', '.join(unknown)} is no check id, family or method")
    keys = load_keys_file(args.keys) if args.keys else None
    config = RunConfig(profile=profile_named(args.profile), seed=args.seed, only=args.only, skip=args.skip,
                       keys=keys, max_requests=args.max_requests)
    gate = GATES[args.fail_on]
    reporter = ConsoleReporter(gate=gate)
    with contextlib.ExitStack() as stack:
        url = args.target or stack.enter_context(_bundled_reference())
        target = stack.enter_context(Target(url, api_key=args.api_key, timeout=args.timeout, rate=args.rate))
        result = run(target, config, contract=contract, on_event=reporter.handle)
    for path in write_reports(result, args.report_dir, contract, gate=gate):
        print(f"wrote {path}", file=sys.stderr)
    if result.interrupted:
        return 130
    if result.stopped:
        print(f"csi: the run is inconclusive, {result.stopped}", file=sys.stderr)
        return 3
    return 0 if result.gate(gate) else 1


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
