"""Traffic kept out of the path: written as NDJSON (`csi proxy --record`), read back from NDJSON or a browser's HAR.

A recording is one passage a line (`passage.to_record`), keys already redacted. A HAR file (what a browser's
developer tools save) holds every request the page made: those that are POSTs with a body are read as
passages, in the order the file lists them; the rest (pages, scripts, images) are not JSON-RPC and are left.
"""

from __future__ import annotations

import base64
import binascii
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from csi_conformance.groundwork.jsonio import loads
from csi_conformance.harness.core.errors import ConfigError, JsonError
from csi_conformance.harness.proxy.passage import Passage, from_record, to_record
from csi_conformance.harness.redact import Redactor

__all__ = ["Recorder", "read_traffic"]


class Recorder:
    """Appends passages to an NDJSON file, one line each, flushed as written (a proxy killed keeps what it saw)."""

    def __init__(self, path: Path) -> None:
        try:
            self._file: TextIO = Path(path).open("a", encoding="utf-8")  # noqa: SIM115  (open for the session)
        except OSError as exc:
            raise ConfigError(f"cannot write the recording {path}: {exc.strerror or exc}") from None
        self._lock = threading.Lock()

    def write(self, passage: Passage) -> None:
        with self._lock:
            self._file.write(to_record(passage) + "\n")
            self._file.flush()

    def close(self) -> None:
        with self._lock:
            self._file.close()


def read_traffic(path: Path, redactor: Redactor | None = None) -> list[Passage]:
    """The passages of a recording (NDJSON) or of a HAR file, redacted with `redactor`; `ConfigError` when the
    file cannot be read or holds neither."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the traffic {path}: {exc}") from None
    redactor = redactor or Redactor(())
    try:
        passages = list(_har(text) if _is_har(text) else _ndjson(text))
    except (JsonError, ValueError, TypeError, KeyError) as exc:
        raise ConfigError(f"{path}: not a recording (NDJSON of `csi proxy --record`) nor a HAR file: {exc}") from None
    return [passage.redacted(redactor) for passage in passages]


def _is_har(text: str) -> bool:
    head = text.lstrip()[:200]
    return head.startswith("{") and '"log"' in head


def _ndjson(text: str) -> Iterator[Passage]:
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                yield from_record(loads(line))
            except (JsonError, ValueError) as exc:
                raise ValueError(f"line {number}: {exc}") from None


def _har(text: str) -> Iterator[Passage]:
    """The JSON-RPC exchanges of a HAR 1.2 log: POSTs with a body. ValueError naming the first entry whose
    fields are not of HAR 1.2's types."""
    log = _member(loads(text), "log", dict, "HAR")
    for number, entry in enumerate(_member(log, "entries", list, "log")):
        where = f"log.entries[{number}]"
        if not isinstance(entry, dict):
            raise ValueError(f"{where} is not an object")
        request = _member(entry, "request", dict, where)
        response = entry.get("response") or {}
        posted = request.get("postData") or {}
        if request.get("method") != "POST" or not isinstance(posted, dict) or not posted.get("text"):
            continue
        url = urlsplit(_member(request, "url", str, f"{where}.request"))
        text = _member(posted, "text", str, f"{where}.request.postData")
        status = response.get("status") if isinstance(response, dict) else None
        answered = type(status) is int and status > 0  # a browser records 0 for a request that got no answer
        yield Passage(path=(url.path or "/") + (f"?{url.query}" if url.query else ""),
                      sent=text.encode("utf-8"), status=status if answered else None,
                      headers=_har_headers(response, f"{where}.response") if answered else {},
                      body=_har_text(response.get("content"), f"{where}.response.content") if answered else b"",
                      error=None if answered else "no answer recorded",
                      error_kind=None if answered else "network", elapsed=_har_time(entry.get("time")),
                      content_type=posted.get("mimeType") if isinstance(posted.get("mimeType"), str) else None)


def _member(holder: dict[str, Any], name: str, kind: type, where: str) -> Any:
    value = holder.get(name)
    if not isinstance(value, kind):
        raise ValueError(f"{where}.{name} is not {_KINDS[kind]}")
    return value


_KINDS = {dict: "an object", list: "a list", str: "a string"}


def _har_headers(response: dict[str, Any], where: str) -> dict[str, str]:
    headers = {}
    for header in _member(response, "headers", list, where) if "headers" in response else []:
        if not isinstance(header, dict) or not isinstance(header.get("name"), str) \
                or not isinstance(header.get("value"), str):
            raise ValueError(f"{where}.headers: a header is not a name and a value (strings)")
        name = header["name"].lower()
        headers[name] = f"{headers[name]}, {header['value']}" if name in headers else header["value"]
    return headers


def _har_text(content: Any, where: str) -> bytes:
    if content is None:
        return b""
    if not isinstance(content, dict) or not isinstance(content.get("text", ""), str):
        raise ValueError(f"{where}.text is not a string")
    text = content.get("text", "")
    if content.get("encoding") == "base64":
        try:
            return base64.b64decode(text, validate=True)
        except binascii.Error:
            raise ValueError(f"{where}.text is not base64") from None
    return text.encode("utf-8")


def _har_time(value: Any) -> float:
    """HAR times are milliseconds; -1 (or nothing) when unknown."""
    return float(value) / 1000 if type(value) in (int, float) and value > 0 else 0.0
