"""The progress line of a long read: rewritten in place on a terminal, a line per 10% in a log."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

__all__ = ["progress_printer"]


def progress_printer(stream: TextIO | None = None) -> Callable[[str], None]:
    """Show a progress line: rewritten in place on a terminal, a line per 10% elsewhere."""
    out = stream or sys.stderr
    live = hasattr(out, "isatty") and out.isatty()
    last_step = [-1]

    def show(text: str, fraction: float = 0.0, final: bool = False) -> None:
        if live:
            out.write(f"\r\x1b[K{text}" + ("\n" if final else ""))
            out.flush()
            return
        step = int(fraction * 10)
        if final or step > last_step[0]:
            last_step[0] = step
            out.write(text + "\n")
            out.flush()

    return show
