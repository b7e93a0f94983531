"""report.html in a real browser: headless Chromium renders the verdict banner first, then the first finding.

Chromium comes from Debian's packages (`make test` installs it when missing). Without it this test
FAILS: a report nobody looked at in a browser is not known to open on the verdict.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from csi_conformance.harness.core.model import RunResult, Status
from csi_conformance.harness.report import write_html
from csi_conformance.harness.report.html import BANNER_COLOURS
from csi_conformance.schema import Contract

WIDTH, HEIGHT = 1280, 900
FIRST_FINDING_BORDER = (0xCC, 0x33, 0x33)
"""`.finding.FAIL` left border (#c33) in report.html's CSS."""


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium is not installed: `make test` installs it (apt-get install -y chromium)")
    return found


def _browse(page: Path, *how: str) -> subprocess.CompletedProcess:
    return subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           f"--window-size={WIDTH},{HEIGHT}", *how, page.as_uri()],
                          capture_output=True, timeout=180, cwd=page.parent)


def _pixels(png: bytes) -> list[list[tuple[int, int, int]]]:
    """Rows of RGB pixels of an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    offset, data, header = 8, b"", None
    while offset < len(png):
        length, kind = struct.unpack(">I4s", png[offset:offset + 8])
        chunk = png[offset + 8:offset + 8 + length]
        offset += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            data += chunk
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    step = 3 if colour == 2 else 4
    raw, stride, rows, previous = zlib.decompress(data), width * step, [], bytearray(width * step)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up, corner = previous[x], previous[x - step] if x >= step else 0
            line[x] = (line[x] + _predict(kind, left, up, corner)) & 0xFF
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, step)])
        previous = line
    return rows


def _predict(kind: int, left: int, up: int, corner: int) -> int:
    if kind == 0:
        return 0
    if kind == 1:
        return left
    if kind == 2:
        return up
    if kind == 3:
        return (left + up) // 2
    guess = left + up - corner
    near = min((abs(guess - left), 0), (abs(guess - up), 1), (abs(guess - corner), 2))[1]
    return (left, up, corner)[near]


def _hex(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def _close(pixel: tuple[int, int, int], colour: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 6 for a, b in zip(pixel, colour, strict=True))


def test_the_report_opens_on_the_verdict_then_the_first_finding(result: RunResult, contract: Contract,
                                                                 tmp_path: Path) -> None:
    page = write_html(result, tmp_path, contract)
    done = _browse(page, f"--screenshot={tmp_path / 'shot.png'}")
    assert done.returncode == 0, done.stderr[-2000:]
    rows = _pixels((tmp_path / "shot.png").read_bytes())
    assert (len(rows), len(rows[0])) == (HEIGHT, WIDTH)
    red = _hex(BANNER_COLOURS[result.verdict(Status.FAIL)])
    edge = WIDTH - 120  # right of the banner's text, inside its background
    banner = [y for y, row in enumerate(rows) if _close(row[edge], red)]
    assert banner and banner[0] < 120, "the banner is the first thing on the page"
    assert len(banner) >= 60 and banner[-1] - banner[0] == len(banner) - 1  # one solid band, tall enough to see
    assert sum(_close(pixel, red) for pixel in rows[banner[0] + 5]) > WIDTH // 2  # across the page
    border = [y for y, row in enumerate(rows) if any(_close(p, FIRST_FINDING_BORDER) for p in row[60:120])]
    assert border and banner[-1] < border[0] < HEIGHT, "the first finding shows on the first screen, under the banner"


def test_the_rendered_page_reads_verdict_findings_then_catalogue(result: RunResult, contract: Contract,
                                                                 tmp_path: Path) -> None:
    done = _browse(write_html(result, tmp_path, contract), "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout.decode("utf-8")
    order = [dom.index(marker) for marker in ('id="verdict"', "Not conformant", 'id="findings"',
                                              "Response id differs from request id", 'id="checks"')]
    assert order == sorted(order)
