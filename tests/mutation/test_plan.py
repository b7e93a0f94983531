"""What `make mutate` would mutate and with which tests (the plan only: no test runs the mutation tool)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.mutation.plan import Group, changed_paths, groups, load_rules, modules

ROOT = Path(__file__).resolve().parents[2]


def test_every_test_path_of_the_rules_exists_and_every_key_is_a_room_path() -> None:
    rules = load_rules()
    assert rules.exclude_operators and rules.timeout_factor >= 1
    for prefix, tests in rules.tests.items():
        assert (ROOT / prefix).exists(), prefix
        assert tests and all((ROOT / test).exists() for test in tests), (prefix, tests)


def test_only_the_kits_modules_are_mutated_and_a_folder_stands_for_its_modules() -> None:
    found = modules(["ledger_ingest/queues.py", "tests/ledger_ingest/test_ingest.py", "README.md",
                     "ledger_ingest/no_such_module.py", "ledger_chain"], ROOT)
    assert "ledger_ingest/queues.py" in found and "ledger_chain/judge_queued.py" in found
    assert all(path.endswith(".py") and not path.startswith("tests/") for path in found)
    assert "ledger_ingest/no_such_module.py" not in found and found == sorted(found)


def test_modules_are_grouped_by_the_first_rule_that_names_them() -> None:
    rules = load_rules()
    plan = groups(["ledger_chain/blocks.py", "ledger_chain/judge_queued.py", "ledger_ingest/queues.py",
                   "ledger_ingest/system.py", "reference_server/batched.py"], rules)
    by_name = {group.name: group for group in plan}
    assert by_name["ledger_ingest/"].modules == ("ledger_ingest/queues.py", "ledger_ingest/system.py")
    assert "tests/ledger_ingest/test_instruction_accounts.py" in by_name["ledger_ingest/"].tests
    assert by_name["reference_server/batched.py"].modules == ("reference_server/batched.py",)
    assert by_name["ledger_chain/judge_queued.py"].tests == rules.tests["ledger_chain/judge_queued.py"]
    assert by_name["ledger_chain/"] == Group("ledger_chain/", ("ledger_chain/blocks.py",), ("tests/ledger_chain",))


def test_named_tests_answer_for_every_module_and_nothing_plans_nothing() -> None:
    assert groups(["ledger_ingest/queues.py", "harness/core/registry.py"], load_rules(), ["tests/x.py"]) == [
        Group("named tests", ("ledger_ingest/queues.py", "harness/core/registry.py"), ("tests/x.py",))]
    assert groups([], load_rules()) == [] and groups([], load_rules(), ["tests/x.py"]) == []


def test_the_changed_files_are_the_diff_against_the_base_and_the_new_ones(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path, check=True,
                       capture_output=True)

    git("init", "-q", "-b", "main")
    for name in ("ledger_ingest/kept.py", "ledger_ingest/edited.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("x = 1\n", encoding="utf-8")
    git("add", ".")
    git("commit", "-q", "-m", "base")
    (tmp_path / "ledger_ingest/edited.py").write_text("x = 2\n", encoding="utf-8")
    (tmp_path / "ledger_ingest/new.py").write_text("y = 1\n", encoding="utf-8")
    assert changed_paths(tmp_path, "main") == ["ledger_ingest/edited.py", "ledger_ingest/new.py"]
    assert modules(changed_paths(tmp_path, "main"), tmp_path) == ["ledger_ingest/edited.py", "ledger_ingest/new.py"]
