"""How a finding names the member that is wrong: a JSON path into the answer's body.

`member("result", "value", "items", 3, "leafIndex")` is `$.result.value.items[3].leafIndex`; a JSON
pointer from a schema violation (`/result/value/0`) reads the same way through `from_pointer`. What
the body does not carry has a name of its own: `HTTP_STATUS`, `header("Content-Type")`, `BODY` (the
body as a whole, when it is not JSON or not one answer).
"""

from __future__ import annotations

import re

__all__ = ["BODY", "HTTP_STATUS", "from_pointer", "header", "member", "result_value"]

BODY = "$"
"""The body as a whole: not JSON, the wrong kind of document, or missing."""
HTTP_STATUS = "HTTP status"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def member(*parts: str | int) -> str:
    """The JSON path of a member: names become `.name` (`['odd name']` when not an identifier), integers `[i]`,
    and `"*"` stands for any element of a list (`items[*]`)."""
    out = [BODY]
    for part in parts:
        if part == "*":
            out.append("[*]")
        elif isinstance(part, int):
            out.append(f"[{part}]")
        elif _NAME.match(part):
            out.append(f".{part}")
        else:
            out.append("['" + part.replace("\\", "\\\\").replace("'", "\\'") + "']")
    return "".join(out)


def result_value(*parts: str | int) -> str:
    """A member under `result.value`, where every state query's answer lies."""
    return member("result", "value", *parts)


def from_pointer(pointer: str) -> str:
    """A JSON pointer (`/result/value/0/hash`, as schema violations name members) as a JSON path."""
    if not pointer or pointer == "/":
        return BODY
    parts: list[str | int] = []
    for token in pointer.lstrip("/").split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        parts.append(int(token) if token.isdigit() else token)
    return member(*parts)


def header(name: str) -> str:
    """An HTTP response header, for what is wrong outside the body."""
    return f"HTTP header {name}"
