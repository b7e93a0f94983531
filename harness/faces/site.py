"""`csi site`: every target's reports side by side, as a static site that opens from `file://`.

    csi site build helius/report.json triton/report.json reference/report.json -o site/ --triage triage.yaml
    csi site baseline triage.yaml helius/report.json -o baseline.yaml   # then: csi run --baseline baseline.yaml

`build` reads the reports (nothing is run or fetched) and writes index.html, a page per target,
ambiguities.html and the badges; `baseline` turns a triage file's entries for one report's target into
a `csi run --baseline` file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("site", help="a static site of several targets' reports, side by side")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser("build", help="build the site from report.json files (nothing is run)")
    build.add_argument("reports", nargs="+", type=Path, metavar="REPORT",
                       help="report.json files of `csi run` (or the folders holding them)")
    build.add_argument("-o", "--output", type=Path, required=True, help="folder for the site (replaced whole)")
    build.add_argument("--triage", type=Path, metavar="FILE",
                       help="triage.yaml: target, check or clause -> issue link, shown in the cells")
    build.add_argument("--reference-name", metavar="NAME",
                       help="the target that is the reference (default: a run of the bundled reference)")
    build.set_defaults(handler=_build)
    baseline = actions.add_parser("baseline", help="a `csi run --baseline` file from triage.yaml for one target")
    baseline.add_argument("triage", type=Path, help="the triage.yaml")
    baseline.add_argument("report", type=Path, help="a report.json of the target (its name and its checks)")
    baseline.add_argument("-o", "--output", type=Path, help="the file to write (default: standard output)")
    baseline.set_defaults(handler=_baseline)


def _build(args: argparse.Namespace) -> int:
    from csi_conformance.harness.site import build_site, load_triage

    triage = load_triage(args.triage) if args.triage else []
    written = build_site(args.reports, args.output, triage, args.reference_name)
    print(f"site: {args.output / 'index.html'} ({len(written)} files)", file=sys.stderr)
    return 0


def _baseline(args: argparse.Namespace) -> int:
    from csi_conformance.harness.report.merge import load_report
    from csi_conformance.harness.site import baseline_entries, load_triage

    entries = baseline_entries(load_triage(args.triage), load_report(args.report))
    text = yaml.safe_dump(entries, sort_keys=True, default_flow_style=False) if entries else "[]\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        from csi_conformance.groundwork.files import write_atomic

        write_atomic(args.output, text)
    return 0
