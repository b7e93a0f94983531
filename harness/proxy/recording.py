"""Traffic kept out of the path: written as NDJSON (`csi proxy --record`), read back from NDJSON or a browser's HAR.

A recording is one passage a line (`passage.to_record`), keys already redacted. A HAR file (what a browser's
developer tools save) holds every request the page made: those that are POSTs with a body are read as
passages, in the order the file lists them; the rest (pages, scripts, images) are not JSON-RPC and are left.
"""

from __future__ import annotations

import base64
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
    """The JSON-RPC exchanges of a HAR 1.2 log: POSTs with a body."""
    for entry in loads(text)["log"]["entries"]:
        request, response = entry["request"], entry.get("response") or {}
        posted = request.get("postData") or {}
        if request.get("method") != "POST" or not posted.get("text"):
            continue
        url = urlsplit(request["url"])
        content = response.get("content") or {}
        body = _har_text(content)
        status = response.get("status")
        answered = type(status) is int and status > 0  # a browser records 0 for a request that got no answer
        yield Passage(path=(url.path or "/") + (f"?{url.query}" if url.query else ""),
                      sent=posted["text"].encode("utf-8"), status=status if answered else None,
                      headers={h["name"].lower(): h["value"] for h in response.get("headers", [])},
                      body=body, error=None if answered else "no answer recorded",
                      error_kind=None if answered else "network",
                      elapsed=float(entry.get("time") or 0.0) / 1000, content_type=posted.get("mimeType"))


def _har_text(content: dict[str, Any]) -> bytes:
    text = content.get("text") or ""
    return base64.b64decode(text) if content.get("encoding") == "base64" else text.encode("utf-8")
