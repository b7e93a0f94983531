"""Write a report so that a reader only ever sees the old file or the whole new one.

A run can be interrupted (Ctrl-C, a CI timeout, a full disk) while a report is being written;
a half-written `report.json` would be worse than none, because tools would read it as a result.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_atomic"]

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
