"""`pytest --csi-target URL`: the check catalogue as pytest tests, for CI that already speaks pytest.

One test per registered check (`csi::<check id>`), all fed by a single harness run over the
target, made when the first of them runs. Same registry and engine as `csi run`; nothing is
implemented twice. Without `--csi-target` the plugin adds nothing.
"""

from __future__ import annotations

import pytest

from harness.core.model import CheckResult, RunResult, Status

RUN_KEY = pytest.StashKey[RunResult]()
GATES = {"fail": Status.FAIL, "warn": Status.WARN, "ambiguous": Status.AMBIGUOUS}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("csi", "csi-conformance certification")
    group.addoption("--csi-target", help="certify this indexer URL: one test per check")
    group.addoption("--csi-api-key", help="API key sent as ?api-key= (default: $CSI_API_KEY)")
    group.addoption("--csi-profile", default="spec", choices=["spec", "strict", "lenient"])
    group.addoption("--csi-seed", type=int, default=0)
    group.addoption("--csi-fail-on", default="fail", choices=list(GATES))
    group.addoption("--csi-only", action="append", default=[], help="check id, family or method")


class CheckItem(pytest.Item):
    """One registered check; fails when its status reaches the gate, skips when it found nothing to check."""

    def __init__(self, *, check_id: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.check_id = check_id

    def runtest(self) -> None:
        result = _run_once(self.config)
        check = next((c for c in result.checks if c.check_id == self.check_id), None)
        if check is None or check.status is Status.SKIP:
            pytest.skip(check.skip_reason if check else "not selected")
        if check.status.rank >= GATES[self.config.getoption("csi_fail_on")].rank:
            raise CheckFailed(check)

    def repr_failure(self, excinfo, style=None) -> str:
        if isinstance(excinfo.value, CheckFailed):
            check = excinfo.value.check
            lines = [f"{check.check_id} [{check.status}] clauses {', '.join(check.clauses)}"]
            for finding in check.findings:
                lines += [f"- {finding.status} {finding.method or ''} {finding.title}", finding.message]
                lines += [f"  reproduce: {finding.curl}"] if finding.curl else []
            return "\n".join(lines)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return "csi", None, f"csi::{self.check_id}"


class Catalogue(pytest.Collector):
    """The parent of the check items, so their ids read `csi::<check id>`."""

    def collect(self) -> list:
        return []


class CheckFailed(Exception):
    def __init__(self, check: CheckResult) -> None:
        super().__init__(check.check_id)
        self.check = check


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list) -> None:
    if not config.getoption("csi_target"):
        return
    import harness.checks  # noqa: F401  (registers the catalogue)
    from harness.core.registry import REGISTRY

    catalogue = Catalogue.from_parent(session, name="csi", nodeid="csi")
    for spec in REGISTRY.select(config.getoption("csi_only")):
        items.append(CheckItem.from_parent(catalogue, name=spec.id, check_id=spec.id))


def _run_once(config: pytest.Config) -> RunResult:
    if RUN_KEY not in config.stash:
        import os

        from harness.core.profile import profile_named
        from harness.engine.runner import RunConfig, run
        from harness.target import Target

        key = config.getoption("csi_api_key") or os.environ.get("CSI_API_KEY")
        run_config = RunConfig(profile=profile_named(config.getoption("csi_profile")),
                               seed=config.getoption("csi_seed"), only=config.getoption("csi_only"))
        with Target(config.getoption("csi_target"), api_key=key) as target:
            config.stash[RUN_KEY] = run(target, run_config)
    return config.stash[RUN_KEY]
