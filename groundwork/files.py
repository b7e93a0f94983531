"""Write a file, or fill a folder, so that a reader only ever sees the old one or the whole new one.

A run, a fetch or an export can be interrupted (Ctrl-C, a CI timeout, a full disk) while it
writes; half a report, a truncated cache entry or half an export would be read as whole ones.
One writer for every such file: the harness's reports, the ingest's block cache, the scenario
export and the golden cases; one staged folder for every folder the kit installs or makes once
per machine (the provers, Light's programs, the kit setup's keys).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["staged_folder", "write_atomic"]


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


@contextlib.contextmanager
def staged_folder(folder: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield an empty staging folder beside `folder`; when the block ends, put it into place as `folder`.

    What was at `folder` is first renamed aside, so a reader finds the old folder, none, or the whole
    new one, never a half-deleted or half-written one; what was there is then removed. When the block
    raises (even an interrupt), `folder` is left as it was and the staging folder is removed.
    """
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".staging", dir=folder.parent))
    try:
        staging, aside = scratch / "new", scratch / "old"
        staging.mkdir()  # the default mode, not the scratch folder's private one
        yield staging
        if folder.exists() or folder.is_symlink():
            folder.rename(aside)
        try:
            staging.rename(folder)
        except BaseException:
            if aside.exists():
                aside.rename(folder)
            raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
