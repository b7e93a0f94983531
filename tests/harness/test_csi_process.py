"""The tests' `csi run` helper: a run that hangs fails its test with where it stood, never silently."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.harness.csi_process import start


def test_a_hung_run_is_killed_and_reported_with_its_stacks(tmp_path: Path) -> None:
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/"
        run = start("--target", url, "--timeout", "600", "--concurrency", "1", cwd=tmp_path)
        with pytest.raises(AssertionError) as hung:
            run.finish(timeout=5)
    said = str(hung.value)
    assert "csi run hung" in said
    assert "most recent call first" in said, said  # faulthandler's dump of each thread
    assert run.process.returncode is not None
