"""`csi judge --traffic FILE`: judge recorded traffic out of the path, with the checks and findings of `csi proxy`.

    csi judge --traffic traffic.ndjson --report-dir csi-report     # what `csi proxy --record` wrote
    csi judge --traffic session.har                                # a browser's saved network log

One line per finding, then the reports `csi run` writes (and `traffic.json`: what the traffic reached).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from csi_conformance.harness.core.model import Finding
from csi_conformance.harness.faces.proxy import finding_line, proxy_options, shared_arguments

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("judge", help="judge recorded traffic (csi proxy --record, or a HAR file)",
                                   description="Judge a recording of an app's traffic with csi proxy's checks.")
    parser.add_argument("--traffic", type=Path, required=True, metavar="FILE",
                        help="NDJSON written by `csi proxy --record`, or a HAR file saved by a browser")
    shared_arguments(parser)
    parser.set_defaults(handler=_judge)


def _judge(args: argparse.Namespace) -> int:
    from csi_conformance.harness.proxy import judge_traffic

    options = proxy_options(args)

    def said(finding: Finding) -> None:
        print(finding_line(finding), flush=True)

    result = judge_traffic(args.traffic, options, said)
    print(f"judged {result.requests} exchanges: {len(result.findings)} findings", file=sys.stderr)
    if options.report_dir is not None:
        print(f"reports: {options.report_dir}/ (report.html, report.json, junit.xml, traffic.json)", file=sys.stderr)
    return result.exit_code(options.fail_on)
