"""`csi schema export`: write the contract as JSON Schema, OpenAPI 3.1 or OpenRPC."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from csi_conformance.groundwork.errors import CsiError, UsageError
from csi_conformance.schema.contract import Contract
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


def _write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CsiError(f"cannot write {path}: {exc.strerror}") from exc
