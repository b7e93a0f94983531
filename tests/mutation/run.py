"""One mutation run: the working tree copied to a scratch folder, one cosmic-ray session per test set there,
and the score per module and per room read back from the sessions.

The copy is why: cosmic-ray's local distributor writes each mutant into the very file it mutates, and
several people work in one working tree. The copy is imported as `csi_conformance` through a folder of
its own put first on PYTHONPATH (the editable install's finder comes after the path), so the tests run
against the mutant, not the working tree.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tests.mutation.plan import Group, Rules

if TYPE_CHECKING:
    from cosmic_ray.work_item import WorkItem

__all__ = ["Score", "copy_tree", "run_group"]


@dataclass(frozen=True)
class Score:
    module: str
    killed: int
    survived: int
    other: int
    """Incompetent or abnormal runs (the tool could not apply the mutant): in neither count."""
    survivors: tuple[str, ...]
    """`line: operator` of each survivor, and its diff."""

    @property
    def percent(self) -> str:
        total = self.killed + self.survived
        return f"{100 * self.killed // total}%" if total else "-"


def copy_tree(root: Path, work: Path) -> dict[str, str]:
    """The working tree's files (tracked and new, as they are on disk) copied under `work/tree`; the
    environment that imports `csi_conformance` from the copy."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                            check=True, capture_output=True).stdout.decode().split("\0")
    tree = work / "tree"
    for name in filter(None, listed):
        source = root / name
        if source.is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            (tree / name).write_bytes(source.read_bytes())
    site = work / "site"
    site.mkdir(exist_ok=True)
    (site / "csi_conformance").symlink_to(tree, target_is_directory=True)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(tree)]), "PYTHONDONTWRITEBYTECODE": "1",
            "CSI_PROVER": os.environ.get("CSI_PROVER", "none")}


def _test_command(tests: tuple[str, ...]) -> list[str]:
    return [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]


def _baseline(group: Group, tree: Path, env: dict[str, str]) -> float:
    """The group's tests on the unmutated copy: seconds taken; SystemExit when they fail (every mutant
    would count as killed)."""
    started = time.monotonic()
    done = subprocess.run(_test_command(group.tests), cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"the tests of {group.name} fail before any mutation:\n{done.stdout[-3000:]}")
    return time.monotonic() - started


def _config(group: Group, rules: Rules, timeout: float) -> str:
    quoted = ", ".join(f'"{module}"' for module in group.modules)
    excluded = ", ".join(f'"{operator}"' for operator in rules.exclude_operators)
    return (f'[cosmic-ray]\nmodule-path = [{quoted}]\ntimeout = {timeout:.0f}.0\nexcluded-modules = []\n'
            f'test-command = "{" ".join(_test_command(group.tests))}"\n\n'
            f'[cosmic-ray.distributor]\nname = "local"\n\n'
            f'[cosmic-ray.filters.operators-filter]\nexclude-operators = [{excluded}]\n')


def run_group(group: Group, rules: Rules, work: Path, env: dict[str, str], index: int,
              sample: int | None = None) -> list[Score]:
    """Init, filter and execute one session in the copy (`sample` mutants of each module, or all); its scores
    per module."""
    tree = work / "tree"
    seconds = _baseline(group, tree, env)
    timeout = max(rules.min_timeout_seconds, rules.timeout_factor * seconds)
    config, session = work / f"session-{index}.toml", work / f"session-{index}.sqlite"
    config.write_text(_config(group, rules, timeout), encoding="utf-8")
    tools = Path(sys.executable).parent

    def tool(*command: object) -> None:
        subprocess.run([str(tools / str(command[0])), *map(str, command[1:])], cwd=tree, env=env, check=True)

    tool("cosmic-ray", "init", config, session)
    tool("cr-filter-operators", session, config)
    if sample is not None:
        _keep_sample(session, sample)
    tool("cosmic-ray", "exec", config, session)
    return _scores(session, group)


def _keep_sample(session: Path, sample: int, seed: int = 1) -> None:
    """Skip all but `sample` pending mutants of each module, drawn with a fixed seed: a run that fits a budget
    scores a random sample, the same one each time."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(str(session), WorkDB.Mode.open) as db:
        by_module: dict[str, list[str]] = {}
        for item in sorted(db.pending_work_items, key=_place):
            by_module.setdefault(str(item.mutations[0].module_path), []).append(item.job_id)
        for jobs in by_module.values():
            kept = set(random.Random(seed).sample(jobs, min(sample, len(jobs))))
            for job in jobs:
                if job not in kept:
                    db.set_result(job, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="not sampled"))


def _place(item: WorkItem) -> tuple:
    """Where a mutant is, as every init of the same code names it (job ids are drawn anew each time)."""
    (mutation,) = item.mutations
    return str(mutation.module_path), tuple(mutation.start_pos), mutation.operator_name, mutation.occurrence


def _scores(session: Path, group: Group) -> list[Score]:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    counts: dict[str, Counter] = {module: Counter() for module in group.modules}
    survivors: dict[str, list[str]] = {module: [] for module in group.modules}
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            (mutation,) = item.mutations
            module = Path(mutation.module_path).as_posix()
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                continue
            if result.worker_outcome != WorkerOutcome.NORMAL:
                counts[module]["other"] += 1
            elif result.test_outcome == TestOutcome.SURVIVED:
                counts[module]["survived"] += 1
                survivors[module].append(f"{mutation.start_pos[0]}: {mutation.operator_name}\n{result.diff or ''}")
            elif result.test_outcome == TestOutcome.KILLED:
                counts[module]["killed"] += 1
            else:
                counts[module]["other"] += 1
    return [Score(module, c["killed"], c["survived"], c["other"], tuple(survivors[module]))
            for module, c in counts.items()]
