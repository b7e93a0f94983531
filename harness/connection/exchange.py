"""One HTTP exchange with the target, as a value the checks judge and the reports print.

An `Exchange` is complete even when the target misbehaved: a transport failure is its
`error` (with a machine-readable `error_kind`), a body that is not JSON is its `json_error`.
Nothing in it carries the API key: URLs, headers, body and messages are redacted before the
value is built, and `curl()` names the key as `${CSI_API_KEY}`.
"""

from __future__ import annotations

import enum
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from csi_conformance.harness.core.asked_again import AskedAgain
from csi_conformance.harness.core.errors import TargetError, Timeout, Unreachable
from csi_conformance.harness.redact import REDACTED

__all__ = ["NOT_JSON", "OMIT", "ErrorKind", "Exchange", "Throttled"]


class _NotJson(enum.Enum):
    NOT_JSON = "NOT_JSON"

    def __repr__(self) -> str:
        return self.value

    __str__ = __repr__


class _Omit(enum.Enum):
    OMIT = "OMIT"

    def __repr__(self) -> str:
        return self.value

    __str__ = __repr__


NOT_JSON = _NotJson.NOT_JSON
"""`Exchange.json` when the body is not JSON; JSON `null` is `None`, so a sentinel is needed."""

OMIT = _Omit.OMIT
"""Leave a member (`params`, `id`) out of the request instead of sending it as `null`."""

ErrorKind = Literal[
    "unreachable",  # no connection: refused, DNS failure
    "timeout",  # the total deadline passed
    "too-large",  # the body went past max_response_bytes
    "redirect",  # refused redirect, loop, or too many hops
    "rate-limited",  # 429 persisted after the retries
    "network",  # reset or broken connection mid-exchange
    "protocol",  # the peer spoke broken HTTP: early close, bad chunking, bad status line
    "encoding",  # a content-encoding that cannot be decoded
    "request",  # the request itself could not be sent (bad URL or header)
    "unexpected",  # anything else raised below this boundary
]

_CURL_KEY = "${CSI_API_KEY}"


@dataclass(frozen=True)
class Throttled:
    """One HTTP 429 answer the client retried after: what a flood of them looks like, for §7's body rule."""

    headers: Mapping[str, str]
    body: bytes
    waited: float
    """Seconds the client waited before asking again."""


@dataclass(frozen=True)
class Exchange:
    """One HTTP exchange with the target: what was sent, what came back, what went wrong."""

    method: str | None
    """JSON-RPC method name when known."""
    path: str
    """"/" or "/<method>", relative to the base URL."""
    url: str
    """The URL first requested, with the api-key REDACTED."""
    request: Any
    """The JSON value sent (exact ints), or the raw text when bytes were sent."""
    status: int | None
    """HTTP status of the last response; None when no response was obtained."""
    headers: Mapping[str, str]
    """Response headers, lower-case names, repeated headers joined with ", "."""
    body: bytes
    """Response body, at most max_response_bytes of it."""
    elapsed: float
    """Seconds from the first request to the last byte, over redirect hops and 429 retries (back-off
    included, client-side pacing not)."""
    json: Any = NOT_JSON
    """The parsed body (groundwork.jsonio.loads), or NOT_JSON."""
    json_error: str | None = None
    """Why the body is not JSON."""
    error: str | None = None
    """Transport failure; None when an HTTP answer was read whole."""
    error_kind: ErrorKind | None = None
    retries: int = 0
    """429 back-off retries spent."""
    throttled: tuple[Throttled, ...] = ()
    """The HTTP 429 answers retried before this one (their bodies are judged too: §7 gives one)."""
    redirects: tuple[str, ...] = ()
    """Redacted URLs of the same-origin redirects followed, in order."""
    http_method: str = "POST"
    content_type: str | None = "application/json"
    """The request's Content-Type; None when none was sent."""
    sent: bytes = field(default=b"", repr=False)
    """The exact request body."""
    deadline: float | None = None
    """Seconds the request was given (its kind's deadline: `kinds.Deadlines`); None when not known."""
    in_flight: int = 0
    """The most other requests of the run that were in flight beside this one (0 for a lone retry)."""
    asked_again: AskedAgain | None = None
    """Set when this is the answer to a lone second attempt, the first having timed out in a crowd."""

    def curl(self) -> str:
        """A shell line that repeats the first request; the key is read from $CSI_API_KEY."""
        url = _double_quoted(self.url).replace(f"api-key={REDACTED}", f"api-key={_CURL_KEY}")
        words = ["curl", "-sS", "-i"]
        if self.http_method != "POST" or not self.sent:
            words += ["-X", shlex.quote(self.http_method)]
        words.append(f'"{url}"')
        if self.content_type is not None:
            words += ["-H", shlex.quote(f"Content-Type: {self.content_type}")]
        elif self.sent:
            words += ["-H", "'Content-Type:'"]  # curl would add a form content type of its own
        if not self.sent:
            return " ".join(words)
        text = _as_argument(self.sent)
        if text is not None:
            return " ".join([*words, "--data-binary", shlex.quote(text)])
        return f"printf '{_octal(self.sent)}' | " + " ".join([*words, "--data-binary", "@-"])

    def target_error(self) -> TargetError | None:
        """The run-level error this exchange amounts to, if any; the engine decides whether to raise it."""
        if self.error_kind == "unreachable":
            return Unreachable(self.error)
        if self.error_kind == "timeout":
            return Timeout(self.error)
        return None


def _double_quoted(s: str) -> str:
    """`s` escaped for a double-quoted shell word, so that `${CSI_API_KEY}` can expand inside it."""
    for char in '\\"$`':
        s = s.replace(char, "\\" + char)
    return s


def _as_argument(body: bytes) -> str | None:
    """The body as a curl argument, or None when it cannot be one (not UTF-8, NUL, a leading `@`)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return None if "\0" in text or text.startswith("@") else text


def _octal(body: bytes) -> str:
    """A printf format that writes exactly `body`: printable ASCII as is, the rest as octal escapes."""
    return "".join(chr(b) if 32 <= b < 127 and chr(b) not in "\\'%" else f"\\{b:03o}" for b in body)
