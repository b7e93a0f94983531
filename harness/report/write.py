"""Write a report so that a reader only ever sees the old file or the whole new one.

A run can be interrupted (Ctrl-C, a CI timeout, a full disk) while a report is being written;
a half-written `report.json` would be worse than none, because tools would read it as a result.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from schema.errors import ConfigError

__all__ = ["ensure_writable", "write_atomic"]

_MODE = 0o644


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write `text` (UTF-8 when a string) to a temporary file beside `path`, then rename it into place.

    The rename is atomic on POSIX and Windows, so `path` never holds a partial document; on any
    failure, even an interrupt, the temporary file is removed and the error propagates.
    """
    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, _MODE)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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
