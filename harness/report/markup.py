"""Text of a run made safe for report.html: escaped for HTML, and anchors built from names a target chose.

Answers, messages and even the target URL come from a server that may be hostile, so every string the
page shows passes through `escape`, and every id built from one through `anchor`.
"""

from __future__ import annotations

import html
import re

from csi_conformance.harness.report.values import clean

__all__ = ["anchor", "escape"]


def escape(value: object) -> str:
    return html.escape(clean(str(value)), quote=True)


def anchor(*parts: object) -> str:
    """An id attribute value from names a target may have chosen: letters, digits, `.`, `_` and `-` only."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", "-".join(clean(str(part)) for part in parts))
