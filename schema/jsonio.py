"""JSON in and out with integers kept exact.

Lamports, amounts, discriminators, roots and leaves can exceed 2^53, so a JSON number must
never pass through a float. `json` keeps integers exact already; this module adds the
failure modes a hostile peer can trigger (deep nesting, 10,000-digit integers, NaN) as one
error type, `JsonError`, instead of a RecursionError or a bare ValueError.
"""

from __future__ import annotations

import json
from typing import Any

from schema.errors import JsonError

__all__ = ["dumps", "loads"]


def _reject_constant(name: str) -> Any:
    raise JsonError(f"{name} is not a JSON number")


def loads(data: str | bytes | bytearray) -> Any:
    """Parse one JSON document; integers stay `int`, numbers with a fraction or exponent are `float`."""
    try:
        return json.loads(data, parse_constant=_reject_constant)
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
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
