"""`pytest --csi-target URL`: the check catalogue as pytest tests, for CI that already speaks pytest.

One test per selected check (`csi::<check id>`) and one for the run's verdict (`csi::verdict`), all
fed by a single harness run over the target, made when the first of them runs. The options are
`csi run`'s, prefixed `--csi-` (target, api-key, profile, seed, scenario, keys, baseline, fail-on,
only, skip, max-requests, timeout, rate, report-dir): they go through the same parser and the
same configuration code, so they mean exactly what they mean there. `-k` and `--deselect` narrow
the run itself, not only what is shown. The verdict test gates like `csi run`: a run that is
inconclusive (it stopped on 429s, spent its budget, reached a family not at all) or met an error
of the kit fails it, so such a run never goes green. Without `--csi-target` the plugin adds nothing.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from harness.core.model import CheckResult, RunResult, Status

RUN_KEY = pytest.StashKey[RunResult]()
CONFIG_KEY = pytest.StashKey[object]()
DESELECTED_KEY = pytest.StashKey[set]()
VERDICT = "verdict"
"""Name of the test that carries the run's verdict: `csi::verdict`."""
OPTIONS = {"target": "URL", "api-key": "KEY", "profile": "NAME", "seed": "N", "scenario": "NAME|FILE", "keys": "FILE",
           "baseline": "FILE", "fail-on": "STATUS", "max-requests": "N", "timeout": "S", "rate": "N/s",
           "report-dir": "DIR"}
"""`csi run` flags the plugin takes once, as `--csi-<flag>`; `--csi-only` and `--csi-skip` repeat."""
REPEATED = ("only", "skip")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("csi", "csi-conformance certification (the options of `csi run`, prefixed csi-)")
    for flag, metavar in OPTIONS.items():
        group.addoption(f"--csi-{flag}", metavar=metavar, help=f"as `csi run --{flag}`")
    for flag in REPEATED:
        group.addoption(f"--csi-{flag}", action="append", default=[], metavar="ID|FAMILY|METHOD",
                        help=f"as `csi run --{flag}` (repeatable)")


def run_arguments(config: pytest.Config) -> argparse.Namespace:
    """The plugin's options read by `csi run`'s own parser; a bad one is a pytest usage error."""
    from harness.faces.cli import build_parser

    argv = ["run"]
    for flag in OPTIONS:
        value = config.getoption(f"csi_{flag.replace('-', '_')}")
        argv += [f"--{flag}", str(value)] if value is not None else []
    for flag in REPEATED:
        for value in config.getoption(f"csi_{flag}"):
            argv += [f"--{flag}", value]
    try:
        return build_parser().parse_args(argv)
    except SystemExit:
        raise pytest.UsageError(f"csi options: `csi {' '.join(argv)}` is not a valid run (see above)") from None


class CheckItem(pytest.Item):
    """One registered check: fails at the gate or on an error of the kit, skips when it examined nothing."""

    def __init__(self, *, check_id: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.check_id = check_id

    def runtest(self) -> None:
        result = _run_once(self.config)
        check = next((c for c in result.checks if c.check_id == self.check_id), None)
        gate = _gate(self.config)
        if check is None:
            pytest.skip("not selected")
        if any(f.status is Status.ERROR for f in check.findings) or _blocking(result, check, gate):
            raise CheckFailed(check, result.target)
        if check.status is Status.SKIP:
            if gate is Status.SKIP:
                raise CheckFailed(check, result.target)
            pytest.skip(check.skip_reason or "examined nothing")

    def repr_failure(self, excinfo, style=None) -> str:
        if isinstance(excinfo.value, CheckFailed):
            return _describe(excinfo.value.check, excinfo.value.target)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        # A headline that the nodeid does not end with, so pytest prints the id as is (`csi::health.ok`),
        # without turning its dots into `::`.
        return "csi", None, f"csi check {self.check_id}"


class VerdictItem(pytest.Item):
    """The run as a whole: fails unless `csi run` would exit 0 (conformant)."""

    def runtest(self) -> None:
        result = _run_once(self.config)
        gate = _gate(self.config)
        if result.exit_code(gate) != 0:
            raise VerdictFailed(result, gate)

    def repr_failure(self, excinfo, style=None) -> str:
        if isinstance(excinfo.value, VerdictFailed):
            result, gate = excinfo.value.result, excinfo.value.gate
            reasons = ([result.precondition] if result.precondition else []) + list(result.inconclusive)
            if result.stopped and result.stopped not in reasons:
                reasons.append(result.stopped)
            lines = [f"{result.verdict(gate)} (csi run would exit {result.exit_code(gate)})"]
            return "\n".join(lines + [f"- {reason}" for reason in reasons])
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return "csi", None, "csi verdict"


class Catalogue(pytest.Collector):
    """The parent of the check items, so their ids read `csi::<check id>`."""

    def collect(self) -> list:
        return []


class CheckFailed(Exception):
    def __init__(self, check: CheckResult, target: str) -> None:
        super().__init__(check.check_id)
        self.check, self.target = check, target


class VerdictFailed(Exception):
    def __init__(self, result: RunResult, gate: Status) -> None:
        super().__init__(result.verdict(gate))
        self.result, self.gate = result, gate


def _gate(config: pytest.Config) -> Status:
    from harness.faces.run import GATES

    return GATES[run_arguments(config).fail_on]


def _blocking(result: RunResult, check: CheckResult, gate: Status) -> bool:
    return any(f.check_id == check.check_id for f in result.blocking(gate))


def _describe(check: CheckResult, target: str) -> str:
    from harness.report.junit import finding_text

    lines = [f"{check.check_id} [{check.status}] clauses {', '.join(check.clauses)}"]
    if check.status is Status.SKIP:
        lines.append(f"examined nothing: {check.skip_reason}")
    lines += [finding_text(finding, target) for finding in check.findings]
    return "\n\n".join(lines)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list) -> None:
    """Add the checks before `-k` and `--deselect` filter the items, so that they filter these too."""
    if not config.getoption("csi_target"):
        return
    import harness.checks  # noqa: F401  (registers the catalogue)
    from harness.core.errors import CsiError
    from harness.core.registry import REGISTRY
    from harness.faces.run import _config
    from schema import Contract

    args = run_arguments(config)
    try:  # every file an option names is read now: a bad one stops pytest before any test runs
        config.stash[CONFIG_KEY] = _config(args, Contract.default())
    except CsiError as exc:
        raise pytest.UsageError(f"csi: {exc}") from None
    catalogue = Catalogue.from_parent(session, name="csi", nodeid="csi")
    for spec in REGISTRY.select(args.only, args.skip):
        items.append(CheckItem.from_parent(catalogue, name=spec.id, check_id=spec.id))
    items.append(VerdictItem.from_parent(catalogue, name=VERDICT))


def pytest_deselected(items: list) -> None:
    """Checks deselected (`-k`, `--deselect`) are not run at all: they join the run's `--skip`."""
    for item in items:
        if isinstance(item, CheckItem):
            item.config.stash.setdefault(DESELECTED_KEY, set()).add(item.check_id)


def _run_once(config: pytest.Config) -> RunResult:
    if RUN_KEY not in config.stash:
        config.stash[RUN_KEY] = _certify(config)
    return config.stash[RUN_KEY]


def _certify(config: pytest.Config) -> RunResult:
    """One run, configured and started exactly as `csi run` starts it; reports written if asked."""
    import contextlib

    from harness.engine.runner import run
    from harness.faces.run import _bundled_reference
    from harness.report import write_reports
    from harness.target import Target
    from schema import Contract

    args = run_arguments(config)
    run_config = config.stash[CONFIG_KEY]
    run_config.skip = [*run_config.skip, *sorted(config.stash.get(DESELECTED_KEY, set()))]
    contract = Contract.default()
    with contextlib.ExitStack() as stack:
        reference_url = stack.enter_context(_bundled_reference(args.scenario)) if args.scenario else None
        target = stack.enter_context(Target(args.target, api_key=args.api_key, timeout=args.timeout, rate=args.rate))
        reference = stack.enter_context(Target(reference_url, timeout=args.timeout)) if reference_url else None
        result = run(target, run_config, contract=contract, reference=reference)
    if config.getoption("csi_report_dir"):
        write_reports(result, Path(args.report_dir), contract, gate=_gate(config))
    return result


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """The verdict line `csi run` would print, so a pytest log says it too."""
    result = config.stash.get(RUN_KEY, None)
    if result is None:
        return
    from harness.report.findings import verdict_counts

    gate = _gate(config)
    terminalreporter.write_line(f"csi: {result.verdict(gate)} (csi run would exit {result.exit_code(gate)}): "
                                f"{verdict_counts(result, gate)}")
    if config.getoption("csi_report_dir"):
        terminalreporter.write_line(f"csi: reports written to {config.getoption('csi_report_dir')}")
