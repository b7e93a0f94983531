"""docs/report.png: report.html of a target with a wrong leaf index, as headless Chromium renders it.

`make export` remakes it: `python -m tests.harness.report.screenshot docs/report.png`. The target is
the reference with every account's leafIndex one too high (the `shifted-leaf-index` variant), served
on loopback and certified by the crypto family, so the first finding names the member that is wrong.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.harness.connection import Target
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.harness.report import write_html
from csi_conformance.schema import Contract

from tests.conftest import PROOF_CHECK
from tests.harness.broken import VARIANTS, serving

WIDTH, HEIGHT = 1280, 1100


def screenshot(out: Path) -> None:
    variant = next(v for v in VARIANTS if v.name == "shifted-leaf-index")
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(Target(stack.enter_context(serving(variant))))
        result = run(target, RunFacts(profile=PROFILES["spec"]),
                     RunConfig(only=["crypto", "schema"], skip=[PROOF_CHECK]))
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("chromium is not installed (apt-get install -y chromium)")
    with tempfile.TemporaryDirectory() as folder:
        page = write_html(result, Path(folder), Contract.default())
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={out.resolve()}", page.as_uri()],
                       check=True, capture_output=True, timeout=180, cwd=folder)


if __name__ == "__main__":
    screenshot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/report.png"))
