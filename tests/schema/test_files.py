"""write_atomic: a file holds the old document or the whole new one, flushed to disk, and no temp file remains."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from csi_conformance.groundwork.files import write_atomic


def test_writes_text_and_bytes_exactly(tmp_path: Path) -> None:
    write_atomic(tmp_path / "a.json", "é\n")
    write_atomic(tmp_path / "b.xml", b"<x/>")
    assert (tmp_path / "a.json").read_bytes() == "é\n".encode()
    assert (tmp_path / "b.xml").read_bytes() == b"<x/>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.xml"]


def test_replaces_with_the_mode_asked(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text("old")
    write_atomic(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o644
    write_atomic(path, "private", mode=0o600)
    assert path.read_text() == "private" and stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_data_is_on_disk_before_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda src, dst: (calls.append("replace"), real_replace(src, dst))[1])
    write_atomic(tmp_path / "a", "x")
    assert calls == ["fsync", "replace"]


def test_a_failed_rename_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "report.json"
    path.write_text("old")

    def refuse(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        write_atomic(path, "new" * 1000)
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


class _Interrupting:
    """A file whose write stores half the data, then is interrupted like Ctrl-C would."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.stream.close()

    def write(self, data: bytes) -> None:
        self.stream.write(data[: len(data) // 2])
        self.stream.flush()
        raise KeyboardInterrupt


def test_an_interrupt_mid_write_leaves_no_partial_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda fd, mode: _Interrupting(real_fdopen(fd, mode)))
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "report.json", "x" * 100_000)
    assert list(tmp_path.iterdir()) == []


def test_unencodable_text_fails_before_touching_the_directory(tmp_path: Path) -> None:
    with pytest.raises(UnicodeEncodeError):
        write_atomic(tmp_path / "report.json", "\ud800")
    assert list(tmp_path.iterdir()) == []
