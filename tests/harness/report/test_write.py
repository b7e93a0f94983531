"""The report writers write through the kit's one atomic writer (tested in tests/schema/test_files.py)."""

from __future__ import annotations

import harness.report.write as write_module
import schema.files


def test_the_report_room_names_the_one_atomic_writer() -> None:
    assert write_module.write_atomic is schema.files.write_atomic
