"""One exchange of an app's traffic, as the proxy saw it pass: the request as sent, the answer as it came.

A `Passage` is what is judged, recorded (`--record`, one NDJSON line each) and read back (`csi judge
--traffic`). It never holds a key: whoever makes one redacts the URL, the bodies and the headers first
(`Passage.redacted`), so the record and every finding made from it are safe to keep. `exchange` turns one
into the `Exchange` the checks judge, as the kit's own client would have built it.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.connection import NOT_JSON, ErrorKind, Exchange
from csi_conformance.harness.connection.body import parse_json
from csi_conformance.harness.redact import Redactor

__all__ = ["Passage", "from_record", "to_record"]


@dataclass(frozen=True)
class Passage:
    """A request the app sent and what the upstream answered (or why it did not)."""

    path: str
    """The path and query the app asked, as forwarded (the api-key redacted)."""
    sent: bytes
    """The request body, byte for byte."""
    status: int | None
    headers: Mapping[str, str] = field(default_factory=dict)
    """The answer's headers, lower-case names."""
    body: bytes = b""
    error: str | None = None
    """Why no whole answer came (a transport failure), or None."""
    error_kind: ErrorKind | None = None
    elapsed: float = 0.0
    http_method: str = "POST"
    content_type: str | None = "application/json"
    """The request's Content-Type."""

    def redacted(self, redactor: Redactor) -> Passage:
        """This passage with every spelling of the keys `redactor` knows replaced, in every part."""
        return replace(self, path=redactor.url(self.path), sent=redactor.bytes(self.sent),
                       headers={name: redactor.text(value) for name, value in self.headers.items()},
                       body=redactor.bytes(self.body),
                       error=redactor.text(self.error) if self.error is not None else None)

    @property
    def request(self) -> Any:
        """The request as JSON (exact integers), or its text when it is none."""
        value, _ = parse_json(self.sent, "application/json")
        return self.sent.decode("utf-8", "backslashreplace") if value is NOT_JSON else value

    def exchange(self, base_url: str, *, request: Any = None, body: Any = NOT_JSON) -> Exchange:
        """The `Exchange` the checks judge: the whole passage, or (`request`, `body`) one call of a batch in it."""
        whole = body is NOT_JSON and request is None
        request = self.request if request is None else request
        if whole and self.error is None:
            value, json_error = parse_json(self.body, self.headers.get("content-type"))
        elif whole:
            value, json_error = NOT_JSON, f"not parsed: {self.error}"
        else:
            value, json_error = body, None
        method = request.get("method") if isinstance(request, dict) else None
        return Exchange(method=method if isinstance(method, str) else None, path=self.path.split("?", 1)[0],
                        url=base_url.rstrip("/") + self.path, request=request, status=self.status,
                        headers=dict(self.headers), body=self.body if whole else dumps(body).encode(),
                        elapsed=self.elapsed, json=value, json_error=json_error, error=self.error,
                        error_kind=self.error_kind, http_method=self.http_method, content_type=self.content_type,
                        sent=self.sent if whole else dumps(request).encode())


def to_record(passage: Passage, **extra: Any) -> str:
    """One NDJSON line: bodies as text when they are UTF-8, else base64 (`…_base64`)."""
    line: dict[str, Any] = {"path": passage.path, "http_method": passage.http_method,
                            "content_type": passage.content_type, **_bytes("request", passage.sent),
                            "status": passage.status, "headers": dict(passage.headers),
                            **_bytes("response", passage.body), "elapsed": round(passage.elapsed, 6)}
    if passage.error is not None:
        line |= {"error": passage.error, "error_kind": passage.error_kind}
    return dumps({**line, **extra})


def from_record(line: Mapping[str, Any]) -> Passage:
    """A passage from one NDJSON line `to_record` wrote; ValueError when the line holds none."""
    if not isinstance(line, Mapping) or not isinstance(line.get("path"), str):
        raise ValueError("a traffic line needs a `path`")
    status = line.get("status")
    headers = line.get("headers") if isinstance(line.get("headers"), Mapping) else {}
    return Passage(path=line["path"], sent=_unbytes(line, "request"), status=status if type(status) is int else None,
                   headers={str(k).lower(): str(v) for k, v in headers.items()}, body=_unbytes(line, "response"),
                   error=line.get("error"), error_kind=line.get("error_kind"),
                   elapsed=float(line.get("elapsed") or 0.0), http_method=str(line.get("http_method") or "POST"),
                   content_type=line.get("content_type"))


def _bytes(name: str, data: bytes) -> dict[str, str]:
    try:
        return {name: data.decode("utf-8")}
    except UnicodeDecodeError:
        return {f"{name}_base64": base64.b64encode(data).decode("ascii")}


def _unbytes(line: Mapping[str, Any], name: str) -> bytes:
    if isinstance(line.get(f"{name}_base64"), str):
        return base64.b64decode(line[f"{name}_base64"])
    text = line.get(name)
    return text.encode("utf-8") if isinstance(text, str) else b""

