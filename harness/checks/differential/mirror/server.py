"""The mirror's reference server: a reference over what discovery saw, which never starts a prover."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from csi_conformance.harness.connection import NOT_JSON, Target
from csi_conformance.harness.connection.reference import bundled_reference
from csi_conformance.harness.core.errors import ConfigError

__all__ = ["MirrorSession", "mirror_server"]


@contextlib.contextmanager
def mirror_server(document: dict[str, Any], api: str | None = None) -> Iterator[str]:
    """A reference over `document` serving the contract `api` on loopback (no prover: the mirror is never asked
    for a proof); yields its URL. Raises `ConfigError` when the document does not load as a ledger."""
    with bundled_reference(document, prover="none", api=api) as handle:
        yield handle.url


class MirrorSession:
    """A running mirror: the reference over a mirror document, and a `Target` to ask it.

    Started once per run; `error` says why it could not start, and `refused` whether that is
    because the reference refused the document (what the target showed is no ledger) rather
    than because no reference could run. The session never holds the run's context. The checks of a
    run ask it from several threads: one at a time, as its `Target` is not thread-safe (it is on loopback).
    """

    def __init__(self, document: dict[str, Any], api: str | None = None) -> None:
        self.document = document
        self.api = api
        self.error: str | None = None
        self.refused = False
        self._stack = contextlib.ExitStack()
        self._target: Target | None = None
        self._asking = threading.Lock()

    def start(self) -> None:
        try:
            url = self._stack.enter_context(mirror_server(self.document, self.api))
            self._target = self._stack.enter_context(Target(url, timeout=60.0))
        except Exception as exc:  # a finding or a skip of the mirror checks, never a crash of the run
            self.error = f"{type(exc).__name__}: {exc}"
            self.refused = isinstance(exc, ConfigError)
            self.close()

    def close(self) -> None:
        self._target = None
        self._stack.close()

    def result(self, method: str, params: Any) -> Any:
        """The mirror's `result`; the mirror is the reference, so anything else is a fault of the kit."""
        if self._target is None:
            raise RuntimeError(f"the mirror is not running ({self.error or 'stopped'})")
        with self._asking:
            exchange = self._target.call(method, params)
        body = exchange.json
        if body is NOT_JSON or not isinstance(body, dict) or "result" not in body:
            raise RuntimeError(f"the mirror did not answer {method} {params}: {exchange.error or body}")
        return body["result"]

    def value(self, method: str, params: Any) -> Any:
        """`result.value` of a state query, the bare result otherwise."""
        result = self.result(method, params)
        return result.get("value") if isinstance(result, dict) and "context" in result else result
