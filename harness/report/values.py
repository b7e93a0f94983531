"""Make what a target sent safe to print in any report, without changing what it says.

Answers come from servers that may be broken or hostile: lone UTF-16 surrogates (valid in a
JSON string escape, not encodable as UTF-8), control characters XML cannot hold, numbers too
large for a float (`1e400` reads as infinity), bytes, sets. Reports must still be written.
Redaction is not done here: the engine has already redacted every value a report receives.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from csi_conformance.groundwork import jsonio
from csi_conformance.harness.core.values import REPLACEMENT, TOO_DEEP, clean, jsonable, writable

__all__ = ["TOO_DEEP", "clean", "jsonable", "one_line", "pretty_json", "pretty_json_head", "xml_text"]

_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def xml_text(value: object) -> str:
    """`value` as text XML 1.0 can carry: characters it forbids become U+FFFD."""
    return _XML_ILLEGAL.sub(REPLACEMENT, str(value))


def one_line(value: object) -> str:
    """`value` on one line for a log: newlines become ` | `, other control characters `\\xNN`.

    Escape sequences from a target must not reach a terminal or a CI log as commands.
    """
    text = clean(str(value)).strip().replace("\r\n", "\n").replace("\n", " | ")
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def pretty_json(value: Any, indent: str = "  ") -> str:
    """Indented JSON for people to read, with every scalar written by `jsonio.dumps` (exact integers)."""
    return pretty_json_head(value, None, indent)[0]


def pretty_json_head(value: Any, limit: int | None, indent: str = "  ") -> tuple[str, bool]:
    """The first `limit` characters of `pretty_json(value)`, and whether it was cut.

    Rendering stops at the limit, so a huge answer costs no more than the part shown.
    """
    parts, size = [], 0
    for chunk in _chunks(value, indent, 0):
        parts.append(chunk)
        size += len(chunk)
        if limit is not None and size > limit:
            return "".join(parts)[:limit], True
    return "".join(parts), False


def _chunks(value: Any, indent: str, level: int) -> Iterator[str]:
    value = writable(value)
    inner, outer = indent * (level + 1), indent * level
    if isinstance(value, dict | list | tuple) and level >= jsonio.MAX_DEPTH:
        yield jsonio.dumps(TOO_DEEP)
    elif isinstance(value, dict) and value:
        separator = "{\n"
        for key, item in value.items():
            yield f"{separator}{inner}{jsonio.dumps(clean(str(key)))}: "
            yield from _chunks(item, indent, level + 1)
            separator = ",\n"
        yield f"\n{outer}}}"
    elif isinstance(value, list | tuple) and value:
        separator = "[\n"
        for item in value:
            yield f"{separator}{inner}"
            yield from _chunks(item, indent, level + 1)
            separator = ",\n"
        yield f"\n{outer}]"
    else:
        yield jsonio.dumps(list(value) if isinstance(value, tuple) else value)
