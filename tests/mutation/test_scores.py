"""How a mutation session is read back and sampled: a cosmic-ray session written here with outcomes of
every kind (no mutant is run, and no test runs the mutation tool)."""

from __future__ import annotations

from pathlib import Path

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import MutationSpec, WorkerOutcome, WorkItem, WorkResult
from cosmic_ray.work_item import TestOutcome as Outcome

from tests.mutation.plan import Group
from tests.mutation.run import Score, _keep_sample, _scores

GROUP = Group("ledger_ingest/", ("ledger_ingest/a.py", "ledger_ingest/b.py"), ("tests/ledger_ingest",))


def _item(job: str, module: str, line: int) -> WorkItem:
    return WorkItem.single(job, MutationSpec(module, "core/AddNot", 0, (line, 4), (line, 9)))


def _session(path: Path, outcomes: dict[str, tuple[str, int, WorkResult | None]]) -> Path:
    with use_db(str(path), WorkDB.Mode.create) as db:
        db.add_work_items([_item(job, module, line) for job, (module, line, _) in outcomes.items()])
        for job, (_, _, result) in outcomes.items():
            if result is not None:
                db.set_result(job, result)
    return path


def _normal(outcome: Outcome) -> WorkResult:
    return WorkResult(worker_outcome=WorkerOutcome.NORMAL, test_outcome=outcome, diff=f"--- {outcome.value}\n")


def test_killed_survived_and_the_rest_are_counted_apart_per_module(tmp_path: Path) -> None:
    session = _session(tmp_path / "s.sqlite", {
        "1": ("ledger_ingest/a.py", 10, _normal(Outcome.KILLED)),
        "2": ("ledger_ingest/a.py", 11, _normal(Outcome.KILLED)),
        "3": ("ledger_ingest/a.py", 12, _normal(Outcome.SURVIVED)),
        "4": ("ledger_ingest/a.py", 13, _normal(Outcome.INCOMPETENT)),
        "5": ("ledger_ingest/a.py", 14, WorkResult(worker_outcome=WorkerOutcome.EXCEPTION)),
        "6": ("ledger_ingest/a.py", 15, WorkResult(worker_outcome=WorkerOutcome.SKIPPED)),
        "7": ("ledger_ingest/a.py", 16, None),  # not run yet
    })
    a, b = _scores(session, GROUP)
    assert (a.module, a.killed, a.survived, a.other, a.percent) == ("ledger_ingest/a.py", 2, 1, 2, "66%")
    assert a.survivors == ("12: core/AddNot\n--- survived\n",)
    assert b == Score("ledger_ingest/b.py", 0, 0, 0, ()) and b.percent == "-"


def test_a_sample_keeps_that_many_pending_mutants_of_each_module_the_same_each_time(tmp_path: Path) -> None:
    """The same places are kept from two sessions of the same code, whose job ids differ (each init draws them)."""
    kept = []
    for run, order in (("one", 1), ("two", -1)):  # job ids in the places' order, then in reverse
        outcomes = {f"{run}-{module}-{50 + order * n}": (f"ledger_ingest/{module}.py", n + 1, None)
                    for module in "ab" for n in range(10)}
        outcomes[f"{run}-done"] = ("ledger_ingest/a.py", 50, _normal(Outcome.KILLED))
        session = _session(tmp_path / f"{run}.sqlite", outcomes)
        _keep_sample(session, 3)
        with use_db(str(session), WorkDB.Mode.open) as db:
            kept.append(sorted((str(item.mutations[0].module_path), item.mutations[0].start_pos[0])
                               for item in db.pending_work_items))
    assert kept[0] == kept[1]
    assert [module for module, _ in kept[0]] == ["ledger_ingest/a.py"] * 3 + ["ledger_ingest/b.py"] * 3
    a, _ = _scores(tmp_path / "one.sqlite", GROUP)
    assert (a.killed, a.other) == (1, 0)  # the skipped ones count nowhere
