"""The docs site builds with every internal link and anchor resolving, and its generated pages are current.

`mkdocs build --strict` turns every warning into a failure, and mkdocs.yml's `validation:` makes a link to a
missing page or anchor, and a page left out of the navigation, a warning. mkdocs (with mkdocs-material) is a
development dependency: nothing here is skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs_reference import PAGES

ROOT = Path(__file__).resolve().parents[1]
MKDOCS = Path(sys.executable).parent / "mkdocs"


def _build(project: Path, site: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # mkdocs-material's notice about its successor
    return subprocess.run([str(MKDOCS), "build", "--strict", "--site-dir", str(site)], cwd=project, env=env,
                          capture_output=True, text=True)


def test_the_site_builds_with_every_link_resolving(tmp_path: Path) -> None:
    done = _build(ROOT, tmp_path / "site")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert (tmp_path / "site" / "how-to" / "certify" / "index.html").is_file()
    assert not (ROOT / "site").exists(), "the site is built outside the repository, never committed"


@pytest.mark.parametrize(("page", "broken"), [
    ("how-to/certify.md", "[a missing anchor](../explanation/verdicts.md#no-such-section)"),
    ("index.md", "[a missing page](how-to/no-such-page.md)"),
])
def test_a_broken_link_fails_the_build(page: str, broken: str, tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(ROOT / "docs", project / "docs")
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    with (project / "docs" / page).open("a", encoding="utf-8") as text:
        text.write(f"\n{broken}\n")
    done = _build(project, tmp_path / "site")
    target = broken[broken.index("(") + 1:-1]
    assert done.returncode != 0 and f"contains a link '{target}'" in done.stderr, done.stderr[-2000:]


def test_a_page_left_out_of_the_navigation_fails_the_build(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(ROOT / "docs", project / "docs")
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    (project / "docs" / "how-to" / "orphan.md").write_text("# A page no reader can reach\n", encoding="utf-8")
    done = _build(project, tmp_path / "site")
    assert done.returncode != 0 and "orphan.md" in done.stderr, done.stderr[-2000:]


@pytest.mark.parametrize("name", list(PAGES))
def test_a_generated_reference_page_is_current(name: str) -> None:
    committed = (ROOT / "docs" / "reference" / name).read_text(encoding="utf-8")
    assert committed == PAGES[name](), f"docs/reference/{name} is stale: run `make export`"
