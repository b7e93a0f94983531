"""axe-core from npm, fetched once into the user's cache and checked against its published integrity.

`npm pack axe-core@4.10.2` writes the tarball npm's registry serves; its sha512 must be the one pinned
here (the `integrity` npm records for that version), or the test fails rather than run unknown code.
"""

from __future__ import annotations

import base64
import hashlib
import subprocess
import tarfile
from pathlib import Path

from csi_conformance.groundwork.cache import user_cache
from csi_conformance.groundwork.files import write_atomic

VERSION = "4.10.2"
INTEGRITY = "sha512-RE3mdQ7P3FRSe7eqCWoeQ/Z9QXrtniSjp1wUjt5nRC3WIpz5rSCve6o3fsZ2aCpJtrZjSZgjwXAoTO5k4tEI0w=="
"""The `dist.integrity` of axe-core 4.10.2 in the npm registry."""
TARBALL = f"axe-core-{VERSION}.tgz"


def axe_script() -> str:
    """The text of axe.min.js; fetched with npm on first use. AssertionError when it cannot be had or the
    tarball is not the one pinned."""
    folder = user_cache("axe-core", VERSION)
    script = folder / "axe.min.js"
    if not script.exists():
        folder.mkdir(parents=True, exist_ok=True)
        if not (folder / TARBALL).exists():
            done = subprocess.run(["npm", "pack", f"axe-core@{VERSION}", "--silent"], cwd=folder,
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, f"npm pack axe-core@{VERSION} failed: {done.stderr[-1000:]}"
        _check(folder / TARBALL)
        with tarfile.open(folder / TARBALL) as archive:
            member = archive.extractfile("package/axe.min.js")
            assert member is not None
            write_atomic(script, member.read())
    return script.read_text(encoding="utf-8")


def _check(tarball: Path) -> None:
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    if digest != INTEGRITY:
        tarball.unlink()
        raise AssertionError(f"{tarball}: integrity {digest}, npm publishes {INTEGRITY}: removed")
