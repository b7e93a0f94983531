"""`csi schema export` through the installed console command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from csi_conformance.harness.faces.cli import main

CSI = Path(sys.executable).with_name("csi")


def test_export_openapi_to_file(tmp_path: Path) -> None:
    out = tmp_path / "openapi.json"
    done = subprocess.run([CSI, "schema", "export", "--format", "openapi", "-o", out], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["openapi"] == "3.1.0"


def test_export_all_to_dir(tmp_path: Path) -> None:
    assert main(["schema", "export", "--format", "all", "--dir", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["indexer-api.schema.json", "openapi.json", "openrpc.json"]


def test_export_to_stdout_is_json(capsys) -> None:
    assert main(["schema", "export", "--format", "openrpc"]) == 0
    assert json.loads(capsys.readouterr().out)["openrpc"] == "1.3.2"


def test_usage_errors_exit_2(capsys, tmp_path: Path) -> None:
    assert main(["schema", "export", "--format", "all"]) == 2
    assert "--dir" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["schema", "export", "-o", str(blocker / "x.json")]) == 2
