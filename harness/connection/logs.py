"""Keep the api-key out of the HTTP stack's own log records.

The wires log every request's URL at INFO (`HTTP Request: POST https://host/?api-key=KEY …`,
`harness.connection.curl`, or httpx for an injected transport) and, at DEBUG, the response headers, in
which a target may echo the key back. A program
that configures logging (a CI job at DEBUG, pytest's log capture) would then write the key
wherever its handlers write. Each `Target` registers its redactor here; a filter on each of
those loggers rewrites a record's message with the keys redacted before any handler sees it.
A logger's filters apply only to records logged to that logger by name, so every logger the
stack uses is listed, not just the parents.
"""

from __future__ import annotations

import logging
import threading
import weakref

from csi_conformance.harness.redact import Redactor

__all__ = ["HTTP_LOGGERS", "redact_http_logs"]

HTTP_LOGGERS = ("csi_conformance.harness.connection.curl", "httpx", "httpcore.connection", "httpcore.http11",
                "httpcore.http2", "httpcore.proxy", "httpcore.socks")


class _RedactingFilter(logging.Filter):
    """Replaces a record's message by its redacted text when any registered key occurs in it."""

    def __init__(self) -> None:
        super().__init__()
        self._redactors: weakref.WeakSet[Redactor] = weakref.WeakSet()
        self._lock = threading.Lock()

    def add(self, redactor: Redactor) -> None:
        with self._lock:
            self._redactors.add(redactor)

    def filter(self, record: logging.LogRecord) -> bool:
        with self._lock:
            redactors = list(self._redactors)
        if not redactors:
            return True
        message = text = record.getMessage()
        for redactor in redactors:
            text = redactor.url(text)
        if text != message:
            record.msg, record.args = text, ()
        return True


_FILTER = _RedactingFilter()
_INSTALLED = threading.Lock()


def redact_http_logs(redactor: Redactor) -> None:
    """Redact `redactor`'s secrets from httpx and httpcore log records for as long as it lives."""
    _FILTER.add(redactor)
    with _INSTALLED:
        for name in HTTP_LOGGERS:
            logger = logging.getLogger(name)
            if _FILTER not in logger.filters:
                logger.addFilter(_FILTER)
