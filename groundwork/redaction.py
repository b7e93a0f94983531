"""Keep an endpoint's key out of everything the kit prints or writes.

Indexers and Solana JSON-RPC providers take the key in the query string (`?api-key=…`, §5) or
in the user part of the URL, so it turns up wherever a URL does: error messages from the HTTP
stack, logs, reports, redirect locations. `redact_url` blanks both wherever they appear in a
text, one URL or several inside a message. It is the one list of key-like parameter names for
the ingest's Solana fetch, the reference server and the harness (whose `Redactor` also removes
the secrets it knows, in every spelling).
"""

from __future__ import annotations

import re

__all__ = ["REDACTED", "SECRET_QUERY_PARAMS", "redact_url"]

REDACTED = "REDACTED"

SECRET_QUERY_PARAMS = frozenset({"api-key", "api_key", "apikey", "key", "token", "access_token"})
"""Query parameters whose value is a secret, compared without regard to case."""


def _spelled(name: str) -> str:
    """A pattern for `name` with any of its characters percent-encoded, as a peer may write it."""
    return "".join(f"(?:{re.escape(char)}|%{ord(char):02x})" for char in name)


_SECRET_PARAM = re.compile(
    r"(?i)(?<![a-z0-9_%])((?:"
    + "|".join(_spelled(name) for name in sorted(SECRET_QUERY_PARAMS, key=len, reverse=True))
    + r")=)[^&#\s'\"]+"
)
_USER_PART = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/?#\s'\"]*@")
"""A URL's user part, up to its last `@` before the path (a password may hold an `@`)."""


def redact_url(text: str) -> str:
    """`text` with the value of every key-like query parameter (`SECRET_QUERY_PARAMS`) and the
    user part of every URL replaced by `REDACTED`; the rest, encoding included, is kept as given."""
    return _SECRET_PARAM.sub(r"\g<1>" + REDACTED, _USER_PART.sub(r"\g<1>" + REDACTED + "@", text))
