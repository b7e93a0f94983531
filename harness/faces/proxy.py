"""`csi proxy`: put the kit between an app and its indexer, and judge the app's own traffic with `csi run`'s checks.

    csi proxy --upstream https://indexer.example/?api-key=KEY --port 8785 --report-dir csi-report
    csi proxy --upstream URL --block fail --header --shadow URL2 --record traffic.ndjson --proofs verify
    csi proxy --upstream URL --solana-rpc https://api.devnet.solana.com    # roots against the chain's histories

Every request is forwarded unchanged and the upstream's answer given back unchanged (unless `--header` or
`--block fail` is asked); one line per finding is printed as it is found, and the reports `csi run` writes are
written into `--report-dir` on Ctrl-C or SIGTERM, and every `--report-every` seconds. `--api`, `--profile` and
`--fail-on` are `csi run`'s options (`harness.engine.options`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from csi_conformance.harness.core.errors import UsageError
from csi_conformance.harness.core.model import Finding
from csi_conformance.harness.engine.options import BY_NAME, RunOptions

__all__ = ["finding_line", "proxy_options", "register", "shared_arguments"]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "proxy", help="judge an app's own traffic: a JSON-RPC proxy in front of an indexer",
        description="Forward every request to --upstream unchanged and judge each exchange with csi run's checks.")
    parser.add_argument("--upstream", required=True, metavar="URL", help="the indexer the app talks to (an api-key "
                        "in its query is used and never printed)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8785, help="port to listen on (default 8785; 0 picks one)")
    shared_arguments(parser)
    parser.add_argument("--report-every", type=float, metavar="N", help="also write the reports every N seconds")
    parser.add_argument("--header", action="store_true", help="add `x-csi-findings: N` to each answer")
    parser.add_argument("--block", choices=["fail"], help="answer a JSON-RPC error, naming the findings, in place "
                        "of an answer that gave a FAIL")
    parser.add_argument("--shadow", metavar="URL2", help="also send every request to a second indexer and compare "
                        "the answers as the differential does")
    parser.add_argument("--record", type=Path, metavar="FILE", help="append the traffic to FILE as NDJSON (keys "
                        "redacted), for `csi judge --traffic`")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds the upstream has to answer (default 30)")
    parser.set_defaults(handler=_proxy)


def shared_arguments(parser: argparse.ArgumentParser) -> None:
    """The options `csi proxy` and `csi judge` share with `csi run`."""
    for name in ("api", "profile", "report-dir", "fail-on"):
        option = BY_NAME[name]
        parser.add_argument(f"--{name}", metavar=option.metavar, help=option.help, dest=option.field)
    parser.add_argument("--proofs", choices=["verify"], help="verify each served Groth16 proof (crypto.groth16-proof)")
    parser.add_argument("--solana-rpc", metavar="URL", help="a Solana node of the chain the indexer indexes: judge "
                        "the roots and root indices served against its trees' root histories (onchain.root-history)")


def proxy_options(args: argparse.Namespace, **more: Any) -> Any:
    """The checked options of a `csi proxy` or `csi judge` command line (`csi run`'s rules for the shared ones)."""
    from csi_conformance.harness.proxy import ProxyOptions

    given = {name: getattr(args, BY_NAME[name].field) for name in ("api", "profile", "report-dir", "fail-on")
             if getattr(args, BY_NAME[name].field, None) is not None}
    run = RunOptions.from_inputs(given)
    return ProxyOptions(api=run.api, profile=run.profile, report_dir=run.report_dir, fail_on=run.fail_on,
                        proofs=args.proofs == "verify", solana_rpc=_solana_rpc(args.solana_rpc), **more)


def _solana_rpc(url: str | None) -> str | None:
    """The node's URL, when it is one (http or https with a host); never echoed (it may carry a key)."""
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"--solana-rpc needs an http:// or https:// URL with a host, not {parts.scheme or 'none'}://…")
    return url


def finding_line(finding: Finding) -> str:
    """One console line for one finding (its values already redacted)."""
    from csi_conformance.harness.report.values import one_line

    where = f" at {finding.path}" if finding.path else ""
    text = (f"{finding.status.value:<5} {finding.check_id} {finding.method or '-'}  {one_line(finding.title)}{where}"
            f": expected {one_line(finding.expected)}, received {one_line(finding.received)}")
    return text if len(text) <= 240 else text[:239] + "…"


def _proxy(args: argparse.Namespace) -> int:
    from csi_conformance.harness.proxy import serve_proxy

    options = proxy_options(args, upstream=args.upstream, host=args.host, port=args.port,
                            report_every=args.report_every, header=args.header, block=args.block == "fail",
                            shadow=args.shadow, record=args.record, timeout=args.timeout)

    def said(finding: Finding) -> None:
        print(finding_line(finding), flush=True)

    def listening(url: str) -> None:
        print(f"csi proxy: listening on {url}", file=sys.stderr, flush=True)

    result = serve_proxy(options, said, listening)
    if options.report_dir is not None:
        print(f"reports: {options.report_dir}/ (report.html, report.json, junit.xml, traffic.json)", file=sys.stderr)
    return result.exit_code(options.fail_on)
