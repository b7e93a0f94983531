"""What a run is asked to do: one options model, built the same way whatever face asks.

`csi run`'s flags, the pytest plugin's `--csi-<flag>` options, a `csi.toml` and the Python API all
name the options of `OPTIONS` and go through `RunOptions.from_inputs`, which reads them (as text,
or as TOML values), fills what was not given from `$CSI_API_KEY`, the nearest `csi.toml` and the
defaults, and checks every value once: one that cannot work is a `UsageError` naming the option
(exit 2, one line), whichever face it came through.

    options = RunOptions.from_inputs({"target": "https://indexer.example", "max-requests": "500"})

A `csi.toml` (the one given with `--config`, else the nearest in this folder or a parent, up to the
repository's root) holds a `[run]` table whose keys are the same option names:

    [run]
    target = "https://indexer.example"
    profile = "strict"
    only = ["health", "crypto"]
    max-requests = 2000

Precedence, highest first: what the face was given, `$CSI_API_KEY` for the key, the file, the default.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema_rs
from csi_conformance.harness.core.errors import ConfigError, UsageError
from csi_conformance.harness.core.model import GATES, Status
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.shard import Shard, parse_shard
from csi_conformance.ledger_ingest.ledger_source import LedgerSource
from csi_conformance.ledger_ingest.sources import DEFAULT_WAIT, SlotRange, parse_slots
from csi_conformance.schema.apis import DEFAULT_API, api_directories

__all__ = ["CONFIG_NAME", "OPTIONS", "Option", "RunOptions", "config_schema", "find_config"]

CONFIG_NAME = "csi.toml"
DEFAULT_CONCURRENCY = 8
"""Requests a run has out together by default: a remote target's round trips overlap, a loopback one's CPU
does not grow (benchmarks/README.md)."""


def _positive_integer(text: str) -> int:
    if not re.fullmatch(r"\s*\d+\s*", text) or int(text) < 1:
        raise ValueError(f"must be a whole number of 1 or more, got {text!r}")
    return int(text)


def _seed(text: str) -> int:
    if not re.fullmatch(r"\s*\d+\s*", text):
        raise ValueError(f"must be a whole number of 0 or more, got {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"must be a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"must be more than 0 seconds, got {text!r}")
    return value


def _rate(text: str) -> float:
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(?:/s)?\s*", text)
    if not match or float(match.group(1)) <= 0:
        raise ValueError(f"must look like 20 or 20/s, got {text!r}")
    return float(match.group(1))


def _yes(text: str) -> bool:
    if text.lower() not in ("true", "false"):
        raise ValueError(f"takes no value on a command line, true or false in a file, got {text!r}")
    return text.lower() == "true"


def _choice(choices: Mapping[str, Any]) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        if text not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}, got {text!r}")
        return choices[text]

    return parse


def _label(text: str) -> str:
    """A short name for reports: one line of printable text."""
    text = text.strip()
    if not text or len(text) > 100 or not text.isprintable():
        raise ValueError("give one line of printable text, 1 to 100 characters")
    return text


def _url(text: str) -> str:
    if not re.match(r"https?://[^/?#\s]+", text):
        raise ValueError("must be an http:// or https:// URL")
    return text


def _existing_folder(text: str) -> Path:
    path = Path(text).expanduser()
    if not path.is_dir():
        raise ValueError(f"{text}: no such folder")
    return path


def _existing_file(text: str) -> Path:
    path = Path(text).expanduser()
    if not path.is_file():
        raise ValueError(f"{text}: no such file")
    return path


@dataclass(frozen=True)
class Option:
    """One option of a run: its name (a flag without `--`), what it takes, and how it is read from text."""

    name: str
    metavar: str
    help: str
    parse: Callable[[str], Any] = str
    default: Any = None
    many: bool = False
    """Repeatable: the values given make a list."""
    env: str | None = None
    """An environment variable read when the option is not given (the key: kept out of files)."""
    flag: bool = False
    """Takes no value: given on a command line, `true` in a csi.toml."""

    @property
    def field(self) -> str:
        return self.name.replace("-", "_")


GATE_CHOICES = {status.value.lower(): status for status in GATES}

OPTIONS: tuple[Option, ...] = (
    Option("target", "URL", "base URL of the indexer (default: the bundled reference server on a free loopback port)",
           _url),
    Option("target-name", "NAME", "what reports and `csi site` call the target (default: its URL, key redacted)",
           _label),
    Option("target-version", "VERSION", "the target's version, as its operator declares it: `csi site` shows a "
           "target's runs by version", _label),
    Option("api-key", "KEY", "API key sent as ?api-key= (default: $CSI_API_KEY); never printed", env="CSI_API_KEY"),
    Option("api", "NAME", f"the contract the target is certified against: {', '.join(api_directories())} (default "
           f"{DEFAULT_API}, the spec's; another is the API clients call today, which extends it)",
           _choice({name: name for name in api_directories()}), default=DEFAULT_API),
    Option("profile", "NAME", f"how the spec's silences are judged: {', '.join(PROFILES)} (default spec)",
           _choice({name: name for name in PROFILES}), default="spec"),
    Option("seed", "N", "seed of generated requests (default 0): the same seed sends the same requests", _seed,
           default=0),
    Option("report-dir", "DIR", "folder the reports are written to: report.json, junit.xml, report.html "
           "(default csi-report)", Path, default=Path("csi-report")),
    Option("only", "ID|FAMILY|METHOD", "run only these checks, families or methods (repeatable)", many=True),
    Option("skip", "ID|FAMILY|METHOD", "leave out these checks, families or methods (repeatable)", many=True),
    Option("keys", "FILE", "YAML file of keys to cover besides those discovered (owners, hashes, …)", _existing_file),
    Option("timeout", "S", "seconds a whole request may take, body included (default 10); a proof method gets "
           "--proof-timeout", _seconds, default=10.0),
    Option("proof-timeout", "S", "seconds a request to a method that makes a proof (getValidityProof, "
           "getMultiple*Proofs, …) may take (default 6 x --timeout: 60)", _seconds),
    Option("rate", "N/s", "requests per second at most, e.g. 20 or 20/s (default: no pacing)", _rate),
    Option("concurrency", "N", f"requests out together at most (default {DEFAULT_CONCURRENCY}); the same seed sends "
           "the same requests and gives the same report whatever N is", _positive_integer, default=DEFAULT_CONCURRENCY),
    Option("max-requests", "N", "stop asking after N requests (1 or more; the run is then inconclusive)",
           _positive_integer),
    Option("fail-on", "STATUS", "lowest status that fails the gate, exit 1: " + ", ".join(GATE_CHOICES)
           + " (default fail); `skip` also refuses a run in which a check that could apply examined nothing",
           _choice(GATE_CHOICES), default=Status.FAIL),
    Option("scenario", "NAME|FILE", "the scenario the target has loaded: its answers are compared with a reference "
           "over it"),
    Option("ledger-rpc", "URL", "a Solana JSON-RPC endpoint: the reference indexes --slots from it, and the target, "
           "which indexed the same slots, must answer exactly as the reference does", _url),
    Option("slots", "A..B", "the slice of the chain --ledger-rpc reads (both included)", parse_slots),
    Option("ledger-wait", "S", f"seconds the read of --slots follows a node whose tip has not reached the last slot "
           f"(default {DEFAULT_WAIT:g}); at the deadline the run is inconclusive, saying how far it read", _seconds),
    Option("ledger-cache", "DIR", "where blocks read from a Solana node are kept, a folder per chain (its genesis "
           "hash), each checked against the node's blockhash chain before use (default: $CSI_LEDGER_CACHE, else "
           "~/.cache/csi-conformance/ledger)", lambda text: Path(text).expanduser()),
    Option("no-ledger-cache", "", "fetch every block from the node: keep none, read none kept", _yes, flag=True),
    Option("ledger", "SOURCE", "the ledger the target indexed, in one string: file:PATH[,PATH…], URL#slots=A..B "
           "or chain:DIR; the reference indexes it too and the target must answer exactly as it does",
           LedgerSource.parse),
    Option("chain", "DIR", "a chain written by `csi chain generate` that the target indexed: the reference indexes "
           "it too, the target must answer exactly as it does, and the onchain checks put the target's proofs "
           "before Light's programs over it", _existing_folder),
    Option("baseline", "FILE", "known findings (YAML or JSON list of {check, method, title}, or a report.json): "
           "reported, not gated", _existing_file),
    Option("shard", "I/N", "run shard I of N (a split by a hash of check and method names); "
           "`csi report merge` joins the shards' reports", parse_shard),
    Option("config", "FILE", f"the {CONFIG_NAME} to read (default: the nearest one here or in a parent folder)",
           _existing_file),
)
"""Every option of a run, in the order `csi run --help` lists them."""

BY_NAME = {option.name: option for option in OPTIONS}


def _default(name: str) -> Any:
    """An option's default, as the table gives it: `RunOptions` has no default of its own."""
    return BY_NAME[name].default


@dataclass(frozen=True)
class RunOptions:
    """A run's options, checked: build them with `from_inputs` (or `dataclasses.replace` a checked one). Each
    default is the options table's."""

    target: str | None = None
    target_name: str | None = None
    target_version: str | None = None
    api_key: str | None = None
    api: str = _default("api")
    """The name of the contract the run certifies against (`Contract.for_api`)."""
    profile: str = _default("profile")
    seed: int = _default("seed")
    report_dir: Path | None = _default("report-dir")  # noqa: RUF009  (a Path: immutable)
    """None writes no report (the Python API's choice; the CLI and the plugin always name a folder)."""
    only: tuple[str, ...] = ()
    skip: tuple[str, ...] = ()
    keys: Path | None = None
    timeout: float = _default("timeout")
    proof_timeout: float | None = None
    """A proof method's deadline; None: `kinds.PROOF_FACTOR` times `timeout`."""
    rate: float | None = None
    concurrency: int = _default("concurrency")
    max_requests: int | None = None
    fail_on: Status = _default("fail-on")  # noqa: RUF009  (an enum member)
    scenario: str | None = None
    ledger: LedgerSource | None = None
    """The ledger the reference indexes and the target must answer exactly as (`--ledger-rpc` and `--slots`,
    `--ledger`, or `--chain DIR`, which is `LedgerSource.chain(DIR)`)."""
    baseline: Path | None = None
    shard: Shard | None = None
    config: Path | None = None
    """The csi.toml the options were read from, if any."""

    @classmethod
    def from_inputs(cls, given: Mapping[str, Any], *, env: Mapping[str, str] | None = None,
                    cwd: Path | None = None) -> RunOptions:
        """The options `given` (option name -> text, TOML value or list), with what was not given filled in from
        the environment, a csi.toml and the defaults; `UsageError` naming the first option that cannot work."""
        env = os.environ if env is None else env
        given = {name.replace("_", "-"): value for name, value in given.items() if value not in (None, [], ())}
        unknown = sorted(set(given) - set(BY_NAME))
        if unknown:
            raise UsageError(f"no run option {unknown[0]!r}: the options are {', '.join(BY_NAME)}")
        config = _read(BY_NAME["config"], given["config"]) if "config" in given else find_config(cwd or Path.cwd())
        merged = {**(load_config(config) if config else {}), **given}
        values: dict[str, Any] = {}
        for option in OPTIONS:
            if option.name in merged:
                values[option.field] = _read(option, merged[option.name])
            elif option.env and env.get(option.env):
                values[option.field] = env[option.env]
        values["config"] = config
        return cls._checked(values)

    @classmethod
    def _checked(cls, values: dict[str, Any]) -> RunOptions:
        chain = values.pop("chain", None)
        if chain is not None:
            if values.get("ledger") is not None or values.get("scenario") or values.get("ledger_rpc"):
                raise UsageError("--chain names the ledger: not with --ledger, --ledger-rpc or --scenario")
            values["ledger"] = LedgerSource.chain(chain)
        fetching = {"cache": values.pop("ledger_cache", None), "cached": not values.pop("no_ledger_cache", False),
                    "wait": values.pop("ledger_wait", None)}
        if fetching["cache"] is not None and not fetching["cached"]:
            raise UsageError("--ledger-cache names where blocks are kept, --no-ledger-cache keeps none: give one")
        rpc, slots = values.pop("ledger_rpc", None), values.pop("slots", None)
        if (rpc or slots) and (not (rpc and slots) or values.get("scenario") or values.get("ledger")):
            raise UsageError("--ledger-rpc and --slots go together, and not with --scenario or --ledger")
        if values.get("ledger") is not None and values.get("scenario"):
            raise UsageError("--ledger and --scenario name two ledgers: give one")
        if rpc:
            values["ledger"] = LedgerSource.rpc(rpc, slots if isinstance(slots, SlotRange) else parse_slots(slots))
        if values.get("ledger") is not None:
            values["ledger"] = values["ledger"].fetched_with(**fetching)
        return cls(**values)

    def replace(self, **changes: Any) -> RunOptions:
        """A copy with some options changed (already checked values: the API's and the plugin's use)."""
        return dataclasses.replace(self, **changes)


def _read(option: Option, value: Any) -> Any:
    """One option's value from text (or a TOML value, or a list of them for a repeatable option)."""
    try:
        if option.many:
            items = value if isinstance(value, list | tuple) else [value]
            return tuple(option.parse(_text(option, item)) for item in items)
        if isinstance(value, list | tuple):
            if len(value) != 1:
                raise ValueError("takes one value, not a list")
            value = value[0]
        return option.parse(_text(option, value))
    except (ValueError, UsageError) as exc:
        reason = exc.args[0] if exc.args else str(exc)
        raise UsageError(f"--{option.name}: {reason}") from None


def _text(option: Option, value: Any) -> str:
    if option.flag and isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, bool) or not isinstance(value, str | int | float | Path):
        raise ValueError(f"takes text, got {type(value).__name__}")
    return str(value)


def find_config(start: Path) -> Path | None:
    """The nearest csi.toml in `start` or a parent folder, stopping at a repository's root (a `.git`)."""
    for folder in (start, *start.parents):
        if (folder / CONFIG_NAME).is_file():
            return folder / CONFIG_NAME
        if (folder / ".git").exists():
            return None
    return None


def config_schema() -> dict[str, Any]:
    """The JSON Schema of a csi.toml, made from `OPTIONS`: one `[run]` table of known options."""
    def value(option: Option) -> dict[str, Any]:
        if option.flag:
            return {"type": "boolean"}
        scalar = {"type": ["string", "integer", "number"]}
        return {"anyOf": [scalar, {"type": "array", "items": scalar}]} if option.many else scalar

    run = {"type": "object", "additionalProperties": False,
           "properties": {option.name: {"description": option.help, **value(option)}
                          for option in OPTIONS if option.name != "config"}}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": CONFIG_NAME, "type": "object",
            "additionalProperties": False, "properties": {"run": run}}


def load_config(path: Path) -> dict[str, Any]:
    """The `[run]` table of a csi.toml, checked against `config_schema`; `ConfigError` naming what is wrong."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it as TOML: {exc}") from None
    for error in jsonschema_rs.validator_for(config_schema()).iter_errors(document):
        where = "/".join(str(part) for part in error.instance_path) or "the file"
        raise ConfigError(f"{path}: {where}: {error.message} (the [run] table takes the options of `csi run`)")
    if "api-key" in document.get("run", {}):
        raise ConfigError(f"{path}: keep the API key out of files: use $CSI_API_KEY or --api-key")
    return dict(document.get("run", {}))
