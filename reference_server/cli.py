"""`csi serve`, `csi scenario generate` and `csi scenario export`: the reference server as a local
mock indexer, and its ledgers as files."""

from __future__ import annotations

import argparse
import errno
import os
import re
import socket
import sys
from pathlib import Path

import yaml
from csi_conformance.groundwork import interrupts
from csi_conformance.groundwork.errors import UsageError
from csi_conformance.ledger_ingest import LedgerSource
from csi_conformance.ledger_ingest.sources import DEFAULT_WAIT
from csi_conformance.reference_server.export import export_document, export_scenario, write_export
from csi_conformance.reference_server.generate import generate_scenario
from csi_conformance.reference_server.ingest import ingest_source
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.prover import PROVER_CHOICES, start_prover
from csi_conformance.reference_server.prover_v2 import v2_prover_for, warm_v2
from csi_conformance.reference_server.scenario import load_scenario
from csi_conformance.reference_server.serve import base_url, bind, serve
from csi_conformance.reference_server.wiring import SERVED_API, app_for
from csi_conformance.schema import Contract
from csi_conformance.schema.apis import api_directories
from csi_conformance.schema.naming import api_alternatives, api_summary

__all__ = ["register"]


def _rate(text: str) -> float:
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(?:/s)?\s*", text)
    if not match or float(match.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"rate must look like 50 or 50/s, got {text!r}")
    return float(match.group(1))


def register(subparsers: argparse._SubParsersAction) -> None:
    serve_parser = subparsers.add_parser("serve", help="run the reference indexer (a local mock indexer)")
    serve_parser.add_argument("--host", default="127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8784,
                              help="1-65535 (default 8784); 0 for a free port, named in the start-up line")
    serve_parser.add_argument("--scenario", default="default", help="bundled scenario name or a scenario file")
    _add_ledger_source(serve_parser)
    serve_parser.add_argument("--api-key", help="refuse requests without ?api-key=KEY (HTTP 401)")
    serve_parser.add_argument("--rate-limit", type=_rate, help="requests per second before HTTP 429, e.g. 50/s")
    serve_parser.add_argument("--max-stale-slots", type=int, default=20,
                              help="getIndexerHealth fails when the tip is further ahead (default 20)")
    serve_parser.add_argument("--prover", choices=PROVER_CHOICES,
                              help="light: run the light prover as a child process and serve real proofs (the default "
                                   "when `csi prover install` was run); none: serve a placeholder that is not a proof "
                                   "(default from $CSI_PROVER)")
    serve_parser.add_argument("--prover-url", help="a light prover someone runs elsewhere, for compressedProof")
    serve_parser.add_argument("--profile", choices=["wire", "spec-2.10"], default="wire",
                              help="getValidityProof answer form (default: wire, what clients parse)")
    serve_parser.add_argument("--api", choices=list(api_directories()), default=SERVED_API,
                              help=f"the contract whose methods are served (default {SERVED_API}: the spec's 19 and "
                                   "the 20 more today's clients call); 0.50.0 serves the spec's 19 alone")
    serve_parser.set_defaults(handler=_serve)

    scenario = subparsers.add_parser("scenario", help="reference ledgers")
    actions = scenario.add_subparsers(dest="action", metavar="ACTION", required=True)
    generate = actions.add_parser("generate", help="write a seeded synthetic scenario of any size")
    generate.add_argument("--accounts", type=int, required=True)
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("-o", "--output", type=Path, required=True, help="scenario file to write; - for stdout")
    generate.set_defaults(handler=_generate)
    export = actions.add_parser("export", help="write a scenario's ledger with every derived value as JSON "
                                               "(reference_server/export.schema.json)")
    export.add_argument("--scenario", default="default", help="bundled scenario name or a scenario file")
    _add_ledger_source(export)
    export.add_argument("-o", "--output", type=Path, required=True)
    export.set_defaults(handler=_export)


def _serve(args: argparse.Namespace) -> int:
    """Check the options, bind the port, load the ledger, start the prover, then announce the address
    really served: a busy port fails at once, before a slow ledger or prover start."""
    if args.prover_url and args.prover:
        raise UsageError("give --prover or --prover-url, not both")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port} is not a port: give 1-65535, or 0 for a free one")
    source = _ledger_source(args)
    sock = _bind(args.host, args.port)
    try:
        if source is not None:
            built = ingest_source(source, partial=True)  # a slice the node has not reached: what it read
            ledger, what = built.ledger, f"{built.source} ({len(built.ledger.transactions)} transactions)"
        else:
            ledger, what = load_scenario(args.scenario), f"scenario {args.scenario!r}"
        with interrupts.remembered():  # a Ctrl-C while the prover loads its keys ends the start, even one lost
            prover_url = args.prover_url or start_prover(args.prover, say=lambda line: print(f"csi serve: {line}",
                                                                                             file=sys.stderr))
        v2_prover = None if args.prover_url else v2_prover_for(prover_url)
        warm_v2(v2_prover, ledger, say=lambda line: print(f"csi serve: {line}", file=sys.stderr))
        options = ServerOptions(api_key=args.api_key, rate_limit=args.rate_limit,
                                max_stale_slots=args.max_stale_slots, prover_url=prover_url, v2_prover=v2_prover,
                                proof_form=args.profile)
        sock.listen()  # connections made on reading the announcement wait in the backlog until uvicorn takes them
        print(f"csi serve: serving {api_summary(args.api)}; {api_alternatives(args.api)}", file=sys.stderr)
        print(f"csi serve: {what} on {base_url(args.host, sock.getsockname()[1])}/", file=sys.stderr, flush=True)
    except BaseException:
        sock.close()
        raise
    serve(app_for(ledger, options, Contract.for_api(args.api)), host=args.host, sock=sock)
    return 0


def _bind(host: str, port: int) -> socket.socket:
    """The server's socket, bound; a port in use or a host that cannot be bound is a usage error."""
    try:
        return bind(host, port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} on {host} is already in use: stop what listens there, or give another "
                             "--port (0 for a free one)") from None
        reason = exc.strerror or str(exc)
        raise UsageError(f"cannot listen on {host} port {port}: {reason}") from None


def _generate(args: argparse.Namespace) -> int:
    if args.accounts < 0:
        raise UsageError("--accounts must be zero or more")
    document = generate_scenario(accounts=args.accounts, seed=args.seed)
    if str(args.output) == "-":  # `-o -`: the scenario on standard output, for a pipe
        try:
            yaml.safe_dump(document, sys.stdout, sort_keys=False)
            sys.stdout.flush()
        except BrokenPipeError:  # the reader stopped early (`| head`): not an error of the writer
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open("w", encoding="utf-8") as handle:
        yaml.safe_dump(document, handle, sort_keys=False)
    print(f"wrote {args.output} ({args.accounts} accounts, seed {args.seed})", file=sys.stderr)
    return 0


def _export(args: argparse.Namespace) -> int:
    source = _ledger_source(args)
    document = export_document(ingest_source(source)) if source is not None else export_scenario(args.scenario)
    write_export(document, args.output)
    what = document["source"] if source is not None else f"scenario {args.scenario!r}"
    print(f"wrote {args.output} ({len(document['accounts'])} accounts, {len(document['transactions'])} transactions "
          f"of {what})", file=sys.stderr)
    return 0


def _add_ledger_source(parser: argparse.ArgumentParser) -> None:
    """The options that build the reference from real transactions instead of a scenario."""
    group = parser.add_argument_group("real ledger (instead of --scenario)")
    group.add_argument("--transactions", nargs="+", type=Path, metavar="PATH",
                       help="files or folders of Solana getTransaction / getBlock results (base64), applied in slot "
                            "order, then in the order given")
    group.add_argument("--ledger-rpc", metavar="URL", help="Solana JSON-RPC endpoint to fetch the --slots from")
    group.add_argument("--slots", metavar="A..B", help="the slots to fetch from --ledger-rpc (both included)")
    group.add_argument("--ledger", metavar="SOURCE", help="a ledger source in one string: file:PATH[,PATH…], "
                                                         "URL#slots=A..B or chain:DIR")
    group.add_argument("--ledger-cache", type=Path, metavar="DIR",
                       help="where fetched blocks are kept, a folder per chain (its genesis hash), each block checked "
                            "against the node's blockhash chain before use, so an interrupted fetch resumes "
                            "(default: $CSI_LEDGER_CACHE, else ~/.cache/csi-conformance/ledger)")
    group.add_argument("--no-ledger-cache", action="store_true",
                       help="fetch every block from the node: keep none, read none kept")
    group.add_argument("--ledger-wait", type=float, metavar="S", default=DEFAULT_WAIT,
                       help="seconds the read follows a node whose tip has not reached the last of --slots "
                            f"(default {DEFAULT_WAIT:g}); then the slots read are served, and the start-up line "
                            "names them")


def _ledger_source(args: argparse.Namespace) -> LedgerSource | None:
    """The ledger source the options name (`--ledger`, `--transactions`, `--ledger-rpc` with `--slots`), or None
    for a scenario; `UsageError` for options that name two sources or half of one."""
    named = [flag for flag, given in (("--ledger", args.ledger), ("--transactions", args.transactions),
                                      ("--ledger-rpc", args.ledger_rpc)) if given]
    if len(named) > 1:
        raise UsageError(f"give one ledger source: {' and '.join(named)} name two")
    if bool(args.ledger_rpc) != bool(args.slots):
        raise UsageError("--ledger-rpc and --slots go together")
    try:
        if args.ledger:
            source = LedgerSource.parse(args.ledger)
        elif args.transactions:
            source = LedgerSource.files(args.transactions)
        elif args.ledger_rpc:
            source = LedgerSource.rpc(args.ledger_rpc, args.slots)
        else:
            return None
    except ValueError as exc:
        raise UsageError(f"{named[0]}: {exc}") from None
    if args.ledger_cache and args.no_ledger_cache:
        raise UsageError("--ledger-cache names where blocks are kept, --no-ledger-cache keeps none: give one")
    if not args.ledger_wait > 0:
        raise UsageError(f"--ledger-wait must be more than 0 seconds, got {args.ledger_wait:g}")
    return source.fetched_with(cache=args.ledger_cache, cached=not args.no_ledger_cache, wait=args.ledger_wait)
