"""Tools that read the checkout without installing it find the kit's modules: `.import-root/csi_conformance` links
to the repository's root, and the tools' configuration in the repository names that folder."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = ROOT / ".import-root" / "csi_conformance"


def test_the_import_root_maps_the_package_onto_the_repository() -> None:
    assert LINK.is_symlink() and LINK.resolve() == ROOT
    module = "csi_conformance.harness.context.steering"
    through_link = ROOT / ".import-root" / (module.replace(".", "/") + ".py")
    assert through_link.resolve() == ROOT / "harness" / "context" / "steering.py"


def test_pyright_searches_the_import_root_and_does_not_read_it_twice() -> None:
    config = json.loads((ROOT / "pyrightconfig.json").read_text(encoding="utf-8"))
    assert config["extraPaths"] == [".import-root"] and ".import-root" in config["exclude"]
    rooms = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    assert rooms <= set(config["include"])
