"""What a mutation run mutates and which tests answer for it: the modules a change touches (or those named),
grouped by the test set `rules.toml` gives them. Pure: no tool, no copy; tests/mutation/test_plan.py
pins it."""

from __future__ import annotations

import subprocess
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["RULES", "Group", "Rules", "changed_paths", "groups", "load_rules", "modules"]

RULES = Path(__file__).with_name("rules.toml")
ROOMS = ("groundwork", "schema", "harness", "reference_server", "cases",
         "ledger_crypto", "ledger_ingest", "ledger_proofs", "ledger_chain")
"""The kit's rooms (setup.py): only their modules are mutated, never tests or benchmarks."""


@dataclass(frozen=True)
class Rules:
    tests: Mapping[str, tuple[str, ...]]
    """Path prefix -> the test paths that answer for the modules under it (first match wins)."""
    exclude_operators: tuple[str, ...]
    timeout_factor: int
    min_timeout_seconds: int


@dataclass(frozen=True)
class Group:
    """Modules whose mutants one test set answers for: one cosmic-ray session."""

    name: str
    """The rule's key (or `room/` for a room without a rule): the room a score is told per."""
    modules: tuple[str, ...]
    tests: tuple[str, ...]


def load_rules(path: Path = RULES) -> Rules:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    tool = data["cosmic-ray"]
    return Rules({key: tuple(value) for key, value in data["tests"].items()}, tuple(tool["exclude-operators"]),
                 int(tool["timeout-factor"]), int(tool["min-timeout-seconds"]))


def modules(paths: Iterable[str], root: Path) -> list[str]:
    """The kit's Python modules among `paths` (relative to `root`), present on disk, sorted; a folder stands
    for its modules."""
    found: set[str] = set()
    for path in paths:
        target = root / path
        candidates = sorted(target.rglob("*.py")) if target.is_dir() else [target]
        for file in candidates:
            relative = file.relative_to(root).as_posix()
            if file.is_file() and file.suffix == ".py" and relative.split("/")[0] in ROOMS:
                found.add(relative)
    return sorted(found)


def _rule(module: str, rules: Rules) -> tuple[str, tuple[str, ...]]:
    for prefix, tests in rules.tests.items():
        if module.startswith(prefix):
            return prefix, tests
    room = module.split("/")[0]
    return f"{room}/", (f"tests/{room}",)


def groups(found: Sequence[str], rules: Rules, tests: Sequence[str] = ()) -> list[Group]:
    """`found` grouped by the tests that answer for them; `tests`, when given, answer for every module."""
    if tests:
        return [Group("named tests", tuple(found), tuple(tests))] if found else []
    by_rule: dict[str, tuple[list[str], tuple[str, ...]]] = {}
    for module in found:
        name, answer = _rule(module, rules)
        by_rule.setdefault(name, ([], answer))[0].append(module)
    return [Group(name, tuple(mods), answer) for name, (mods, answer) in by_rule.items()]


def changed_paths(root: Path, base: str) -> list[str]:
    """Files that differ from `base` in the working tree (committed or not), and new untracked files."""
    def git(*args: str) -> list[str]:
        out = subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout
        return [line for line in out.splitlines() if line]

    return sorted({*git("diff", "--name-only", base, "--"), *git("ls-files", "--others", "--exclude-standard")})
