"""`pytest --csi-target URL`: the check catalogue as pytest tests, for CI that already speaks pytest.

With `--csi-target` pytest runs the certification only: other tests it collects (a project's own, or
this kit's when started inside its clone) are deselected, so the command means the same wherever it runs.

One test per selected check (`csi::<check id>`) and one for the run's verdict (`csi::verdict`), all
fed by a single run, made when the first of them runs. The options are every `csi run` option,
prefixed `--csi-` (`harness.engine.options.OPTIONS`), read and checked by the same
`RunOptions.from_inputs`, and the run is the same `harness.engine.session.certify` (SIGTERM, the
references, the reports included): they mean exactly what they mean there. `-k` and `--deselect`
narrow the run itself, not only what is shown. The verdict test gates like `csi run`: a run that is
inconclusive (it stopped on 429s, spent its budget) or met an error of the kit fails it, so such a
run never goes green. Without `--csi-target` the plugin adds nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from csi_conformance.harness.core.errors import CsiError
from csi_conformance.harness.core.model import CheckResult, RunResult, Status
from csi_conformance.harness.engine.options import OPTIONS, RunOptions

RUN_KEY = pytest.StashKey[RunResult]()
OPTIONS_KEY = pytest.StashKey[RunOptions]()
DESELECTED_KEY = pytest.StashKey[set]()
VERDICT = "verdict"
"""Name of the test that carries the run's verdict: `csi::verdict`."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("csi", "csi-conformance certification (the options of `csi run`, prefixed csi-)")
    for option in OPTIONS:
        if option.flag:
            group.addoption(f"--csi-{option.name}", dest=f"csi_{option.field}", action="store_const", const=True,
                            help=f"as `csi run --{option.name}`")
        else:
            group.addoption(f"--csi-{option.name}", metavar=option.metavar, dest=f"csi_{option.field}",
                            action="append" if option.many else "store", help=f"as `csi run --{option.name}`")


def given_by_config(config: pytest.Config) -> dict[str, Any]:
    """The run options pytest was given, by option name, as text (what `RunOptions.from_inputs` reads)."""
    return {option.name: config.getoption(f"csi_{option.field}") for option in OPTIONS
            if config.getoption(f"csi_{option.field}") is not None}


def options_from_config(config: pytest.Config) -> RunOptions:
    """The checked options of a pytest command line; a bad one is a pytest usage error (before any test)."""
    try:
        return RunOptions.from_inputs(given_by_config(config))
    except CsiError as exc:
        raise pytest.UsageError(f"csi: {exc}") from None


class CheckItem(pytest.Item):
    """One registered check: fails at the gate or on an error of the kit, skips when it examined nothing."""

    def __init__(self, *, check_id: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.check_id = check_id

    def runtest(self) -> None:
        result = _run_once(self.config)
        check = next((c for c in result.checks if c.check_id == self.check_id), None)
        gate = self.config.stash[OPTIONS_KEY].fail_on
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
        gate = self.config.stash[OPTIONS_KEY].fail_on
        if result.exit_code(gate) != 0:
            raise VerdictFailed(result, gate)

    def repr_failure(self, excinfo, style=None) -> str:
        if isinstance(excinfo.value, VerdictFailed):
            from csi_conformance.harness.report.findings import verdict_reasons

            result, gate = excinfo.value.result, excinfo.value.gate
            lines = [f"{result.verdict(gate)} (csi run would exit {result.exit_code(gate)})"]
            return "\n".join(lines + [f"- {reason}" for reason in verdict_reasons(result, gate)])
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


def _blocking(result: RunResult, check: CheckResult, gate: Status) -> bool:
    return any(f.check_id == check.check_id for f in result.blocking(gate))


def _describe(check: CheckResult, target: str) -> str:
    from csi_conformance.harness.report.junit import finding_text

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
    import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
    from csi_conformance.harness.core.registry import REGISTRY
    from csi_conformance.harness.engine.session import read_given
    from csi_conformance.schema import Contract

    options = config.stash[OPTIONS_KEY] = options_from_config(config)
    try:  # every file an option names is read now: a bad one stops pytest before any test runs
        read_given(options, Contract.for_api(options.api))
    except CsiError as exc:
        raise pytest.UsageError(f"csi: {exc}") from None
    catalogue = Catalogue.from_parent(session, name="csi", nodeid="csi")
    others = list(items)
    items[:] = [CheckItem.from_parent(catalogue, name=spec.id, check_id=spec.id)
                for spec in REGISTRY.select(options.only, options.skip)]
    items.append(VerdictItem.from_parent(catalogue, name=VERDICT))
    if others:  # with --csi-target, pytest runs the certification only, wherever it is started
        config.hook.pytest_deselected(items=others)


def pytest_deselected(items: list) -> None:
    """Checks deselected (`-k`, `--deselect`) are not run at all: they join the run's `--skip`."""
    for item in items:
        if isinstance(item, CheckItem):
            item.config.stash.setdefault(DESELECTED_KEY, set()).add(item.check_id)


def _run_once(config: pytest.Config) -> RunResult:
    if RUN_KEY not in config.stash:
        from csi_conformance.harness.engine.session import certify

        options = config.stash[OPTIONS_KEY]
        deselected = tuple(sorted(config.stash.get(DESELECTED_KEY, set())))
        config.stash[RUN_KEY] = certify(options.replace(skip=options.skip + deselected))
    return config.stash[RUN_KEY]


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """The verdict line `csi run` would print, so a pytest log says it too."""
    result = config.stash.get(RUN_KEY, None)
    if result is None:
        return
    from csi_conformance.harness.report.findings import verdict_counts

    options = config.stash[OPTIONS_KEY]
    gate = options.fail_on
    terminalreporter.write_line(f"csi: {result.verdict(gate)} (csi run would exit {result.exit_code(gate)}): "
                                f"{verdict_counts(result, gate)}")
    if options.report_dir is not None:
        terminalreporter.write_line(f"csi: reports written to {options.report_dir}")
