"""The report writers write through the kit's one atomic writer (tested in tests/schema/test_files.py)."""

from __future__ import annotations

import csi_conformance.harness.report.write as write_module
from csi_conformance.groundwork import files


def test_the_report_room_names_the_one_atomic_writer() -> None:
    assert write_module.write_atomic is files.write_atomic
