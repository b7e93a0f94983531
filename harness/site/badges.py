"""Badges: a self-contained SVG per target and contract, and the shields.io endpoint JSON of the same.

The SVG draws its own text (no font file, no link), so it shows from `file://` and from a README; the
endpoint JSON (https://shields.io/badges/endpoint-badge) lets shields.io draw it where the site is hosted.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.harness.report.markup import escape

__all__ = ["COLOURS", "badge_json", "badge_svg"]

COLOURS = {"conformant": ("brightgreen", "#1a7f37"), "not conformant": ("red", "#b3261e"),
           "inconclusive": ("yellow", "#8a5300"), "not run": ("lightgrey", "#555555")}
"""A verdict's colour: the shields name, and the SVG's fill (white text stays readable on each)."""
LABEL_FILL = "#444444"
CHAR_WIDTH = 7
"""Pixels per character at the badge's 11px font, rounded up: a label never overflows its box."""


def badge_json(contract: str, verdict: str) -> dict[str, Any]:
    """The shields endpoint document."""
    return {"schemaVersion": 1, "label": f"csi {contract}", "message": verdict, "color": COLOURS[verdict][0]}


def badge_svg(contract: str, verdict: str) -> str:
    """The badge as one SVG document."""
    label, fill = f"csi {contract}", COLOURS[verdict][1]
    left, right = len(label) * CHAR_WIDTH + 10, len(verdict) * CHAR_WIDTH + 10
    width = left + right
    text = f"{label}: {verdict}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
            f'aria-label="{escape(text)}"><title>{escape(text)}</title>'
            f'<rect width="{left}" height="20" fill="{LABEL_FILL}"/>'
            f'<rect x="{left}" width="{right}" height="20" fill="{fill}"/>'
            f'<g fill="#ffffff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">'
            f'<text x="{left // 2}" y="14">{escape(label)}</text>'
            f'<text x="{left + right // 2}" y="14">{escape(verdict)}</text></g></svg>\n')
