"""docs/site-index.png and docs/site-target.png: the site of the test reports, as headless Chromium renders it.

    python -m tests.harness.site.screenshots [docs]

The reports are the site tests' own (runs.py: the reference, three broken variants, a run under the
second contract, and one target at two versions), made on loopback; the target page is that target's,
whose history shows the check it broke at 1.10.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from csi_conformance.harness.site import build_site

from tests.harness.site.runs import all_reports

WIDTH, HEIGHT = 1280, 1000


def screenshots(docs: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("chromium is not installed (apt-get install -y chromium)")
    with tempfile.TemporaryDirectory() as folder:
        reports = all_reports(Path(folder) / "reports")
        site = Path(folder) / "site"
        build_site(list(reports.values()), site)
        for page, name in (("index.html", "site-index.png"), ("targets/vendor.html", "site-target.png")):
            subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={(docs / name).resolve()}",
                            (site / page).as_uri()], check=True, capture_output=True, timeout=180, cwd=folder)


if __name__ == "__main__":
    screenshots(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"))
