"""Write a file so that a reader only ever sees the old one or the whole new one.

A run, a fetch or an export can be interrupted (Ctrl-C, a CI timeout, a full disk) while it
writes; half a report, a truncated cache entry or half an export would be read as whole ones.
One writer for every such file: the harness's reports, the ingest's block cache, the scenario
export and the golden cases.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_atomic"]


def write_atomic(path: str | os.PathLike[str], text: str | bytes, *, mode: int = 0o644) -> None:
    """Write `text` (UTF-8 when a string) to a temporary file beside `path`, then rename it into place.

    The data is flushed to disk before the rename, and the rename is atomic on POSIX and Windows,
    so `path` never holds a partial document. The file gets `mode` (the temporary file starts
    private). On any failure, even an interrupt, the temporary file is removed and the error
    propagates.
    """
    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
