"""Write a report so that a reader only ever sees the old file or the whole new one.

A run can be interrupted (Ctrl-C, a CI timeout, a full disk) while a report is being written;
a half-written `report.json` would be worse than none, because tools would read it as a result.
`write_atomic` is the kit's one atomic writer (`groundwork.files`), named here for the report writers.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.groundwork.files import write_atomic

__all__ = ["ensure_writable", "write_atomic"]


def ensure_writable(directory: Path) -> Path:
    """Create `directory` if missing and prove a file can be written there; `ConfigError` (exit 2, one
    line) otherwise. Called before a run, so a long run never ends unable to write what it found."""
    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=".csi-probe.", dir=directory)
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        raise ConfigError(f"cannot write reports to {directory}: {exc.strerror or exc}") from None
    return directory
