"""`csi serve`, `csi scenario generate` and `csi scenario export`: the reference server as a local
mock indexer, and its ledgers as files."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import yaml

from reference_server.export import export_scenario, write_export
from reference_server.generate import generate_scenario
from reference_server.options import ServerOptions
from reference_server.scenario import load_scenario
from reference_server.serve import serve
from reference_server.wiring import app_for
from schema.errors import UsageError

__all__ = ["register"]


def _rate(text: str) -> float:
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(?:/s)?\s*", text)
    if not match or float(match.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"rate must look like 50 or 50/s, got {text!r}")
    return float(match.group(1))


def register(subparsers: argparse._SubParsersAction) -> None:
    serve_parser = subparsers.add_parser("serve", help="run the reference indexer (a local mock indexer)")
    serve_parser.add_argument("--host", default="127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8784)
    serve_parser.add_argument("--scenario", default="default", help="bundled scenario name or a scenario file")
    serve_parser.add_argument("--api-key", help="refuse requests without ?api-key=KEY (HTTP 401)")
    serve_parser.add_argument("--rate-limit", type=_rate, help="requests per second before HTTP 429, e.g. 50/s")
    serve_parser.add_argument("--max-stale-slots", type=int, default=20,
                              help="getIndexerHealth fails when the tip is further ahead (default 20)")
    serve_parser.add_argument("--prover-url", help="prover service for compressedProof")
    serve_parser.add_argument("--profile", choices=["wire", "spec-2.10"], default="wire",
                              help="getValidityProof answer form (default: wire, what clients parse)")
    serve_parser.set_defaults(handler=_serve)

    scenario = subparsers.add_parser("scenario", help="reference ledgers")
    actions = scenario.add_subparsers(dest="action", metavar="ACTION", required=True)
    generate = actions.add_parser("generate", help="write a seeded synthetic scenario of any size")
    generate.add_argument("--accounts", type=int, required=True)
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("-o", "--output", type=Path, required=True)
    generate.set_defaults(handler=_generate)
    export = actions.add_parser("export", help="write a scenario's ledger with every derived value as JSON "
                                               "(reference_server/export.schema.json)")
    export.add_argument("--scenario", default="default", help="bundled scenario name or a scenario file")
    export.add_argument("-o", "--output", type=Path, required=True)
    export.set_defaults(handler=_export)


def _serve(args: argparse.Namespace) -> int:
    options = ServerOptions(api_key=args.api_key, rate_limit=args.rate_limit, max_stale_slots=args.max_stale_slots,
                            prover_url=args.prover_url, proof_form=args.profile)
    ledger = load_scenario(args.scenario)
    print(f"csi serve: scenario {args.scenario!r} on http://{args.host}:{args.port}/", file=sys.stderr)
    serve(app_for(ledger, options), host=args.host, port=args.port)
    return 0


def _generate(args: argparse.Namespace) -> int:
    if args.accounts < 0:
        raise UsageError("--accounts must be zero or more")
    document = generate_scenario(accounts=args.accounts, seed=args.seed)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open("w", encoding="utf-8") as handle:
        yaml.safe_dump(document, handle, sort_keys=False)
    print(f"wrote {args.output} ({args.accounts} accounts, seed {args.seed})", file=sys.stderr)
    return 0


def _export(args: argparse.Namespace) -> int:
    document = export_scenario(args.scenario)
    write_export(document, args.output)
    print(f"wrote {args.output} ({len(document['accounts'])} accounts, {len(document['transactions'])} transactions "
          f"of scenario {args.scenario!r})", file=sys.stderr)
    return 0
