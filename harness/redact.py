"""Keep secrets out of everything the harness writes.

The API key travels in the query string (§5), so it turns up wherever a URL does: error
messages from the HTTP stack, redirect locations, servers that echo the request line. A
`Redactor` replaces every spelling of each secret a peer or a library may produce (raw,
percent-encoded with either hex case, form-encoded, encoded twice, JSON-escaped) with
`REDACTED`, and `url()` also blanks what `groundwork.redaction.redact_url` does: any key-like query
value and any URL's user part, known or not.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from urllib.parse import quote, quote_plus

from csi_conformance.groundwork.redaction import REDACTED, redact_url

__all__ = ["REDACTED", "Redactor"]


def _spellings(secret: str) -> set[str]:
    """Every form in which `secret` can appear in a URL, a header, a log line or a JSON body."""
    encoded = {quote(secret, safe=""), quote(secret), quote_plus(secret), quote_plus(secret, safe="")}
    encoded |= {quote(form, safe="") for form in set(encoded)}  # a URL carried inside a URL
    encoded |= {re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), form) for form in set(encoded)}
    escaped = {json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1], secret.replace("/", "\\/")}
    return {secret} | encoded | escaped


class Redactor:
    """Replaces the given secrets with `REDACTED` in text, bytes and URLs; empty secrets are ignored."""

    def __init__(self, secrets: Iterable[str]) -> None:
        spellings: set[str] = set()
        for secret in secrets:
            if secret:
                spellings |= _spellings(secret)
        ordered = sorted(spellings, key=len, reverse=True)  # longest first: an encoded form contains the raw one
        self._text = re.compile("|".join(map(re.escape, ordered))) if ordered else None
        raw = [s.encode("utf-8") for s in ordered]
        self._bytes = re.compile(b"|".join(map(re.escape, raw))) if raw else None

    def text(self, s: str) -> str:
        """`s` with every spelling of every secret replaced."""
        return self._text.sub(REDACTED, s) if self._text else s

    def bytes(self, b: bytes) -> bytes:
        """`b` with every UTF-8 spelling of every secret replaced."""
        return self._bytes.sub(REDACTED.encode(), b) if self._bytes else b

    def url(self, u: str) -> str:
        """`u` with the secrets replaced, and any key-like query value and user part blanked, even ones
        not ours."""
        return redact_url(self.text(u))
