"""`csi chain generate` and `csi chain serve`: a real chain made by Light's programs, and a node over it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from csi_conformance.groundwork.errors import UsageError
from csi_conformance.ledger_chain.generation import PROGRAM_VERSIONS, generate, programs_for, progress_lines
from csi_conformance.ledger_chain.node import LOOPBACK, node_server
from csi_conformance.ledger_chain.proofs import ChainProver, default_cache_dir
from csi_conformance.ledger_chain.rpc import ChainRpc
from csi_conformance.ledger_chain.runtime import ChainError

__all__ = ["register"]

LOG_LINES = 12
"""How much of a failed transaction's log is shown."""
DEFAULT_OPS = 200
"""The chain of the README's recipes: 200 operations of today's programs (seed 1) make 152 blocks in 45 s on a
shared 2-core machine, the prover's start included, and 6 s with the proofs cached."""


def register(subparsers: argparse._SubParsersAction) -> None:
    chain = subparsers.add_parser("chain", help="a real chain: Light's programs in LiteSVM, and a Solana node over it")
    actions = chain.add_subparsers(dest="action", metavar="ACTION", required=True)
    make = actions.add_parser("generate", help="draw N operations from a seed, run them through Light's programs, "
                                               "and write the blocks (getBlock results) to a folder")
    make.add_argument("--ops", type=int, default=DEFAULT_OPS,
                      help=f"how many operations (transactions; default {DEFAULT_OPS}, the README's chain: under a "
                           "minute with the prover's start)")
    make.add_argument("--seed", type=int, default=0, help="the same seed gives the same chain (default 0)")
    make.add_argument("-o", "--out", type=Path, required=True, help="the chain folder (replaced if it holds a chain)")
    make.add_argument("--proof-cache", type=Path, help="where proofs are kept (default: $CSI_CHAIN_PROOFS or "
                                                       f"{default_cache_dir()})")
    make.add_argument("--programs", choices=PROGRAM_VERSIONS, default=PROGRAM_VERSIONS[0],
                      help="Light's programs of @lightprotocol/zk-compression-cli at this version: 0.28.3, today's "
                           "(v1 and batched trees; the default; run with Light's June 2025 verifying keys patched "
                           "in, so the installed prover's proofs verify), or 0.18.0 (v1 trees only)")
    make.set_defaults(handler=_generate)
    serve = actions.add_parser("serve", help="a Solana JSON-RPC node over a chain folder, on loopback")
    serve.add_argument("folder", type=Path, help="a folder written by `csi chain generate`")
    serve.add_argument("--host", default="127.0.0.1", choices=LOOPBACK, help="loopback address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8899, help="port (default 8899, a validator's; 0: a free one)")
    serve.add_argument("--live", action="store_true", help="release the blocks over time, from the first one")
    serve.add_argument("--slot-time", type=float, default=0.4, help="seconds a slot lasts with --live (default 0.4)")
    serve.set_defaults(handler=_serve)


def _generate(args: argparse.Namespace) -> int:
    say = progress_lines()
    prover = ChainProver(cache_dir=args.proof_cache or default_cache_dir(),
                         on_start=lambda line: print(f"csi chain: {line}", file=sys.stderr))
    try:
        programs = programs_for(args.programs, say=say)
        done = generate(args.ops, args.seed, args.out, prover=prover, progress=say, installation=programs)
    except ChainError as exc:
        print(f"\ncsi chain: {exc}", file=sys.stderr)
        for line in exc.logs[-LOG_LINES:]:
            print(f"  | {line}", file=sys.stderr)
        print("csi chain: nothing was written", file=sys.stderr)
        return 4
    print(f"\ncsi chain: {done.transactions} transactions in {done.blocks} blocks written to {done.folder} in "
          f"{done.seconds:.1f} s ({done.proved} proofs made, {done.cached} from the cache)", file=sys.stderr)
    return 0


def _serve(args: argparse.Namespace) -> int:
    if args.slot_time <= 0:
        raise UsageError(f"--slot-time must be positive, got {args.slot_time}")
    try:
        rpc = ChainRpc(args.folder, live=args.live, slot_time=args.slot_time)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        server = node_server(rpc, host=args.host, port=args.port)
    except OSError as exc:
        raise UsageError(f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}") from None
    port = server.server_address[1]
    mode = f"released from slot {rpc.first}, a slot every {args.slot_time} s" if args.live else "all released"
    print(f"csi chain: {len(rpc.slots)} blocks (slots {rpc.first}..{rpc.slots[-1]}, {mode}) on "
          f"http://{f'[{args.host}]' if ':' in args.host else args.host}:{port}/", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0
