"""JSON in and out with integers kept exact.

Lamports, amounts, discriminators, roots and leaves can exceed 2^53, so a JSON number must
never pass through a float. `json` keeps integers exact already; this module adds the
failure modes a hostile peer can trigger (deep nesting, 10,000-digit integers, NaN) as one
error type, `JsonError`, instead of a RecursionError or a bare ValueError.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from csi_conformance.groundwork.errors import JsonError

__all__ = ["MAX_DEPTH", "dumps", "loads"]

MAX_DEPTH = 200
"""Deepest nesting of arrays and objects read; no answer or request of this API comes near it."""


def _reject_constant(name: str) -> Any:
    raise JsonError(f"{name} is not a JSON number")


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


def _depth(text: str) -> int:
    """Deepest bracket nesting, strings excluded; only scanned when the document could be deep."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    return max(accumulate(1 if char in "[{" else -1 for char in brackets), default=0)


def loads(data: str | bytes | bytearray) -> Any:
    """Parse one JSON document; integers stay `int`, numbers with a fraction or exponent are `float`.

    Nesting deeper than `MAX_DEPTH` is refused before parsing, so no reader (in any thread,
    whatever its stack) recurses into a hostile document.
    """
    try:
        text = data.decode("utf-8") if isinstance(data, bytes | bytearray) else data
        if _depth(text) > MAX_DEPTH:
            raise JsonError(f"JSON nested deeper than {MAX_DEPTH} levels")
        if text.startswith("\ufeff"):  # what json.loads says of it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        return _DECODER.decode(text)
    except JsonError:
        raise
    except RecursionError as exc:
        raise JsonError("JSON nested too deeply to read") from exc
    except UnicodeDecodeError as exc:
        raise JsonError(f"not UTF-8: {exc.reason} at byte {exc.start}") from exc
    except ValueError as exc:  # JSONDecodeError, and integers past the interpreter's digit limit
        raise JsonError(str(exc)) from exc


def dumps(value: Any) -> str:
    """Compact JSON text with exact integers; non-ASCII kept as is."""
    return _ENCODER.encode(value)


# json.loads and json.dumps build a new decoder or encoder on every call given an option; both
# are stateless between calls, so one of each serves every call (benchmarks/README.md)
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
