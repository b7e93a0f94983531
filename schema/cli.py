"""`csi schema export`: write the contract as JSON Schema, OpenAPI 3.1 or OpenRPC; `csi schema diff`: how an
OpenAPI document differs from a contract of the kit."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from csi_conformance.groundwork.errors import CsiError, UsageError
from csi_conformance.schema.apis import DEFAULT_API
from csi_conformance.schema.contract import Contract
from csi_conformance.schema.diff import diff_document, read_document
from csi_conformance.schema.export import EXPORTS, render

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    schema = subparsers.add_parser("schema", help="the contract derived from the spec")
    actions = schema.add_subparsers(dest="action", metavar="ACTION", required=True)
    export = actions.add_parser("export", help="write the contract as JSON Schema, OpenAPI or OpenRPC")
    export.add_argument("--format", choices=[*EXPORTS, "all"], default="openapi",
                        help="export format (default: openapi); `all` writes every format into --dir")
    export.add_argument("-o", "--output", type=Path, help="file to write (default: standard output)")
    export.add_argument("--dir", type=Path, help="with --format all: the folder to write the three files into")
    export.set_defaults(handler=_export)
    diff = actions.add_parser("diff", help="how an OpenAPI document differs from a contract of the kit "
                                           "(exit 0 when identical, 1 when they differ)")
    diff.add_argument("file", type=Path, metavar="FILE", help="the OpenAPI document (YAML or JSON)")
    diff.add_argument("--api", default=DEFAULT_API, metavar="NAME",
                      help=f"the contract to compare with (default: {DEFAULT_API}, the spec's)")
    diff.set_defaults(handler=_diff)


def _export(args: argparse.Namespace) -> int:
    contract = Contract.default()
    if args.format == "all":
        if args.dir is None:
            raise UsageError("--format all writes several files: give --dir")
        args.dir.mkdir(parents=True, exist_ok=True)
        for fmt, (name, _) in EXPORTS.items():
            _write(args.dir / name, render(contract, fmt))
            print(f"wrote {args.dir / name}")
        return 0
    text = render(contract, args.format)
    if args.output is None:
        sys.stdout.write(text)
    else:
        _write(args.output, text)
        print(f"wrote {args.output} ({args.format})")
    return 0


def _diff(args: argparse.Namespace) -> int:
    contract = Contract.for_api(args.api)
    differences = diff_document(read_document(args.file), contract)
    for difference in differences:
        print(difference)
    if not differences:
        print(f"{args.file}: no difference from the contract {contract.version}")
        return 0
    methods = len({d.method for d in differences if d.method})
    print(f"{len(differences)} differences from the contract {contract.version} ({methods} methods differ)")
    return 1


def _write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CsiError(f"cannot write {path}: {exc.strerror}") from exc
