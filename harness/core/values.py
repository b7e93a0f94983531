"""Any value made writable as exact JSON: what findings carry and every report writes.

Answers come from servers that may be broken or hostile: lone UTF-16 surrogates (valid in a JSON
string escape, not encodable as UTF-8), numbers too large for a float, bytes, sets. A finding
keeps the values it is about as JSON values, and they must survive being written and read back.
"""

from __future__ import annotations

import math
import re
from enum import Enum
from typing import Any

from csi_conformance.groundwork import jsonio

__all__ = ["CLIP_CHARS", "CLIP_ITEMS", "REPLACEMENT", "TOO_DEEP", "clean", "clip", "jsonable", "writable"]

REPLACEMENT = "\ufffd"
_SURROGATES = re.compile("[\ud800-\udfff]")
TOO_DEEP = "<nested too deeply to report>"


def clean(text: str) -> str:
    """`text` with lone surrogates replaced by U+FFFD, so that it encodes as UTF-8."""
    return _SURROGATES.sub(REPLACEMENT, text)


def jsonable(value: Any, max_depth: int = jsonio.MAX_DEPTH) -> Any:
    """A copy of `value` that `jsonio.dumps` accepts and `jsonio.loads` reads back: integers stay exact.

    Strings lose only lone surrogates; bytes are decoded as UTF-8 with replacement; tuples
    become lists and sets sorted lists; a non-finite float (only `1e400`-like input makes
    one) becomes its name as a string; anything else becomes `str(value)`. Arrays and objects
    nested deeper than `max_depth` are replaced by the string `TOO_DEEP`, so the rest survives.
    """
    value = writable(value)
    if not isinstance(value, dict | list | tuple):
        return value
    if max_depth < 1:
        return TOO_DEEP
    if isinstance(value, dict):
        return {clean(str(key)): jsonable(item, max_depth - 1) for key, item in value.items()}
    return [jsonable(item, max_depth - 1) for item in value]


def writable(value: Any) -> Any:
    """One value made writable; a dict, list or tuple comes back as is, for the caller to walk."""
    if isinstance(value, Enum):
        value = value.value
    if value is None or isinstance(value, bool | int | dict | list | tuple):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    return clean(str(value))


CLIP_ITEMS = 10
"""List items a finding's value keeps; the answer itself is in the finding whole."""
CLIP_CHARS = 300
"""Characters of a string a finding's value keeps."""


def clip(value: Any, items: int = CLIP_ITEMS, chars: int = CLIP_CHARS) -> Any:
    """`value` small enough for a finding's `received`: long lists keep their first `items` and a last
    string saying how many more there were, long strings their first `chars` characters and `…`."""
    if isinstance(value, str):
        return value if len(value) <= chars else value[:chars] + "…"
    if isinstance(value, list):
        kept = [clip(item, items, chars) for item in value[:items]]
        return kept + ([f"… {len(value) - items} more"] if len(value) > items else [])
    if isinstance(value, dict):
        return {key: clip(item, items, chars) for key, item in value.items()}
    return value
