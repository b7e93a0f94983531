"""`python -m tests.mutation` (`make mutate`): mutate the modules changed against MUTATE_BASE (main), or those
MUTATE_PATHS names (files or folders, space-separated), and print the score per room and module. MUTATE_TESTS
(space-separated) answers for every module instead of tests/mutation/rules.toml; MUTATE_SAMPLE=N runs N mutants of
each module, drawn at random with a fixed seed; MUTATE_DIR keeps the copy and the sessions (default: a new folder
under the system's temporary folder)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from tests.mutation.plan import changed_paths, groups, load_rules, modules
from tests.mutation.run import Score, copy_tree, run_group

ROOT = Path(__file__).resolve().parents[2]


def _report(scores: dict[str, list[Score]], work: Path) -> str:
    lines = ["| room | module | killed | survived | not run | score |", "| --- | --- | --- | --- | --- | --- |"]
    for room, room_scores in scores.items():
        for s in room_scores:
            lines.append(f"| {room} | {s.module} | {s.killed} | {s.survived} | {s.other} | {s.percent} |")
        total = Score(room, sum(s.killed for s in room_scores), sum(s.survived for s in room_scores),
                      sum(s.other for s in room_scores), ())
        lines.append(f"| **{room}** | all | {total.killed} | {total.survived} | {total.other} | {total.percent} |")
    survivors = [f"## {s.module}:{line}" for group in scores.values() for s in group for line in s.survivors]
    (work / "survivors.txt").write_text("\n\n".join(survivors) + "\n", encoding="utf-8")
    return "\n".join(lines) + f"\n\nsurvivors and their diffs: {work / 'survivors.txt'}\n"


def main() -> int:
    named = os.environ.get("MUTATE_PATHS", "").split()
    found = modules(named or changed_paths(ROOT, os.environ.get("MUTATE_BASE", "main")), ROOT)
    plan = groups(found, load_rules(), os.environ.get("MUTATE_TESTS", "").split())
    if not plan:
        print("no module of the kit to mutate (MUTATE_PATHS names some)")
        return 0
    sample = int(os.environ["MUTATE_SAMPLE"]) if os.environ.get("MUTATE_SAMPLE") else None
    work = Path(os.environ.get("MUTATE_DIR") or tempfile.mkdtemp(prefix="csi-mutate-"))
    work.mkdir(parents=True, exist_ok=True)
    env = copy_tree(ROOT, work)
    scores = {}
    for index, group in enumerate(plan):
        print(f"{group.name}: {len(group.modules)} module(s), tests {' '.join(group.tests)}", flush=True)
        scores[group.name] = run_group(group, load_rules(), work, env, index, sample)
    print(_report(scores, work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
