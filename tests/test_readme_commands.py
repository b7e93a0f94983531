"""Every command of the README and of the docs runs as written, and every count they state is the live one.

Each ```sh block of README.md and of every docs/**/*.md page is marked on the line before it:
`<!-- csi:runnable -->` blocks are run here, as written, by bash (`-euo pipefail`), against a `csi serve` on
loopback whose URL is `$INDEXER_URL`, and must exit 0; `<!-- csi:not-runnable: why -->` blocks say why they
cannot be. A block with no marker fails the test, so a new command cannot slip in untested.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ledger_proofs.support import installed_prover

ROOT = Path(__file__).resolve().parents[1]
PAGES = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
         for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]}
"""Page (its path in the repository) -> its text: the README and every page of the docs."""
TEXT = "\n\n".join(PAGES.values())
BIN = Path(sys.executable).parent
_BLOCK = re.compile(r"(?:<!-- csi:(runnable|not-runnable: [^>]+) -->\n)?```sh\n(.*?)```", re.S)
LINKED = ("harness", "schema")
"""Repository folders the commands name by relative path (schemathesis's config and the OpenAPI export)."""


def _blocks() -> list[tuple[str, str | None, str]]:
    """(page, marker, body) of every ```sh block."""
    return [(page, match.group(1), match.group(2)) for page, text in PAGES.items()
            for match in _BLOCK.finditer(text)]


RUNNABLE = [(page, body) for page, marker, body in _blocks() if marker == "runnable"]


def test_every_shell_block_says_whether_it_runs() -> None:
    blocks = _blocks()
    assert len(blocks) == sum(text.count("```sh") for text in PAGES.values())
    assert [(page, body) for page, marker, body in blocks if marker is None] == []
    assert len(RUNNABLE) >= 4
    assert any(page == "README.md" for page, _ in RUNNABLE), "the README's own commands run"


def test_the_readme_is_short_and_opens_on_the_vendors_path() -> None:
    """A vendor finds "certify my indexer" and "gate CI" on the first screen; the rest is in docs/."""
    lines = PAGES["README.md"].splitlines()
    assert len(lines) <= 150
    first_screen = "\n".join(lines[:25])
    assert "csi run --target" in first_screen and "- uses: " in first_screen
    text = re.sub(r"<!--.*?-->", "", PAGES["README.md"], flags=re.S)
    assert re.search(r"`make test`.{0,200}tens of minutes", text, re.S), "how long `make test` takes, said in the text"


@pytest.fixture(scope="module")
def indexer() -> Iterator[str]:
    """`csi serve` as the README describes it, on a free loopback port; ready once it says where it serves."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([str(BIN / "csi"), "serve", "--port", str(port)], stderr=subprocess.PIPE, text=True,
                              env=_as_a_user())
    try:
        for line in server.stderr:  # the prover starts first; the last line names the URL
            if f"on http://127.0.0.1:{port}/" in line:
                break
        else:
            pytest.fail(f"csi serve ended before serving (exit {server.wait()})")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait()


def _as_a_user() -> dict[str, str]:
    """The environment of a user who followed the quick start: no key in it, the light prover installed
    (`make test`, like `make run`, installs it) and used by default, as the README describes."""
    env = {key: value for key, value in os.environ.items() if key not in ("CSI_API_KEY", "CSI_PROVER")}
    installed_prover()
    return env


def _run(block: str, url: str, folder: Path) -> subprocess.CompletedProcess:
    for name in LINKED:
        (folder / name).symlink_to(ROOT / name)
    env = _as_a_user()
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", INDEXER_URL=url)
    return subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=folder, env=env, capture_output=True,
                          text=True)


@pytest.mark.parametrize(("page", "block"), RUNNABLE, ids=[f"{page}:{body.split()[0]}" for page, body in RUNNABLE])
def test_a_runnable_block_runs_as_written(page: str, block: str, indexer: str, tmp_path: Path) -> None:
    done = _run(block, indexer, tmp_path)
    assert done.returncode == 0, f"{block}\nexit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr
    if block.startswith("pytest"):  # the test ids the page names are the plugin's
        for test_id in set(re.findall(r"`(csi::[\w.-]+)`", PAGES[page])):
            assert re.search(rf"^{re.escape(test_id)} PASSED", done.stdout, re.M), test_id
    if block.startswith("csi scenario generate"):  # `-o -` is standard output, not a file named `-`
        assert done.stdout.startswith("version: 1\n") and not (tmp_path / "-").exists()
    if block.startswith("csi run"):
        assert (tmp_path / "reports" / "report.html").is_file()
        assert "Verdict: CONFORMANT (exit 0)" in done.stdout


def _stated(pattern: str) -> list[int]:
    """The numbers a sentence of the README or the docs states: the same wherever it is stated."""
    found = [[int(value) for value in (match if isinstance(match, tuple) else (match,))]
             for match in re.findall(pattern, TEXT)]
    assert found, pattern
    assert all(numbers == found[0] for numbers in found), (pattern, found)
    return found[0]


def test_the_counts_the_pages_state_are_the_live_ones(contract) -> None:
    import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
    from csi_conformance.cases.loader import scenario_cases
    from csi_conformance.harness.core.registry import REGISTRY
    from csi_conformance.harness.report.coverage import clause_coverage

    from tests.harness.broken import all_variants
    from tests.harness.clause_map import proven_by_variants

    coverage = clause_coverage(REGISTRY, contract, proven_by_variants())
    assert _stated(r"There are (\d+) checks in twelve families") == [len(REGISTRY.all())]
    clauses = (r"(\d+) clauses are covered \(a broken server is shown caught violating each\),\s+(\d+) are excluded "
               r"with a reason, and (\d+) (?:is|are) left untested")
    assert _stated(clauses) == [len(coverage["covered"]), len(coverage["excluded"]), len(coverage["untested"])]
    assert _stated(r"replays the (\d+) golden cases") == [len(scenario_cases("default"))]
    assert _stated(r"against (\d+) deliberately broken variants") == [len(all_variants())]
    assert _stated(r"\((\d+) of them, such as") == _stated(r"lists the (\d+) points the spec leaves open") == [
        len(contract.ambiguities)]
    assert _stated(r"implements the spec's (\d+) methods") == [len(contract.methods)]
