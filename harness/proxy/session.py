"""The proxy as an ASGI app: each request forwarded, its passage judged on one thread, the answer given back.

The app's answer is the upstream's, byte for byte (its body decoded from any content coding), unless asked
otherwise: `--header` adds `x-csi-findings: N` (the findings of that exchange), `--block fail` turns an
answer that gave a FAIL into a JSON-RPC error with the request's id, naming the findings. A key the upstream
URL carries is the proxy's, not the app's: it is taken out of whatever goes back. An upstream that gives no
whole answer is answered a JSON-RPC error (HTTP 502), and `transport.answered` records the finding.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.core.model import Finding, Status
from csi_conformance.harness.proxy.forward import HOP_BY_HOP, Upstream
from csi_conformance.harness.proxy.judge import TrafficJudge
from csi_conformance.harness.proxy.passage import Passage
from csi_conformance.harness.proxy.recording import Recorder
from csi_conformance.harness.redact import Redactor
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

__all__ = ["BLOCKED", "ProxySession", "Settings"]

BLOCKED = -32099
"""The JSON-RPC error code of an answer `--block fail` held back (in the implementation-defined server range)."""
NO_ANSWER = -32098
"""The code of the error the app gets when the upstream gave no whole answer."""


@dataclass(frozen=True)
class Settings:
    """How the proxy answers the app."""

    header: bool = False
    block: bool = False


class ProxySession:
    """One proxy's upstream, shadow, judge and record; `app` serves it."""

    def __init__(self, judge: TrafficJudge, upstream: Upstream, *, settings: Settings = Settings(),
                 shadow: Upstream | None = None, recorder: Recorder | None = None,
                 on_finding: Callable[[Finding], None] = lambda finding: None) -> None:
        self.judge, self.upstream, self.shadow, self.recorder = judge, upstream, shadow, recorder
        self.settings = settings
        self.on_finding = on_finding
        self._keys = {key for key in (upstream.key, shadow.key if shadow else None) if key}
        self.redactor = Redactor(self._keys)
        self._ours = Redactor(self._keys)
        """The keys of the upstream URLs: the app never gets them back."""
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="csi-proxy-judge")
        self._lock = threading.Lock()

    def app(self) -> Starlette:
        methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]
        return Starlette(routes=[Route("/{path:path}", self._handle, methods=methods)])

    def drain(self) -> None:
        """Wait until every passage handed over so far is judged (before a report is written)."""
        self._executor.submit(lambda: None).result()

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        if self.recorder is not None:
            self.recorder.close()

    async def _handle(self, request: Request) -> Response:
        body = await request.body()
        path, query = request.url.path, request.url.query
        headers = {name: value for name, value in request.headers.items()}
        self._learn(query)
        asked = [self.upstream.forward(request.method, path, query, body, headers)]
        if self.shadow is not None:
            asked.append(self.shadow.forward(request.method, path, query, body, headers))
        got = await asyncio.gather(*asked)
        passage, shadow = got[0], got[1] if len(got) > 1 else None
        kept = passage.redacted(self.redactor)
        judged = self._executor.submit(self._judged, kept, shadow.redacted(self.redactor) if shadow else None)
        findings: list[Finding] = []
        if self.settings.header or self.settings.block:
            findings = await asyncio.wrap_future(judged)
        return self._answer(passage, findings)

    def _judged(self, passage: Passage, shadow: Passage | None) -> list[Finding]:
        """On the judge's thread: record, judge, tell each finding."""
        if self.recorder is not None:
            self.recorder.write(passage)
        findings = self.judge.judge(passage, shadow)
        for finding in findings:
            self.on_finding(finding)
        return findings

    def _answer(self, passage: Passage, findings: list[Finding]) -> Response:
        failed = [f for f in findings if f.status is Status.FAIL]
        if self.settings.block and failed:
            return self._error(passage, BLOCKED, "csi proxy held back an answer that fails the contract: "
                               + "; ".join(f"{f.check_id}: {f.title}" + (f" at {f.path}" if f.path else "")
                                           for f in failed),
                               200, findings, data=[{"check": f.check_id, "title": f.title, "path": f.path,
                                                     "clauses": list(f.clauses)} for f in failed])
        if passage.error is not None:
            return self._error(passage, NO_ANSWER, f"csi proxy: the upstream gave no whole answer: "
                               f"{self._ours.text(passage.error)}", 502, findings)
        headers = {name: self._ours.text(value) for name, value in passage.headers.items()
                   if name not in HOP_BY_HOP}
        if self.settings.header:
            headers["x-csi-findings"] = str(len(findings))
        return Response(self._ours.bytes(passage.body), status_code=passage.status or 502, headers=headers)

    def _error(self, passage: Passage, code: int, message: str, status: int, findings: list[Finding], *,
               data: Any = None) -> Response:
        request = passage.request
        error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        body = {"jsonrpc": "2.0", "id": request.get("id") if isinstance(request, dict) else None, "error": error}
        headers = {"content-type": "application/json"}
        if self.settings.header:
            headers["x-csi-findings"] = str(len(findings))
        return Response(self._ours.bytes(self.redactor.bytes(dumps(body).encode())), status_code=status,
                        headers=headers)

    def _learn(self, query: str) -> None:
        """A key the app sends in its query is one more secret no record or report may hold."""
        key = dict(parse_qsl(query, keep_blank_values=True)).get("api-key")
        if key and key not in self._keys:
            with self._lock:
                self._keys.add(key)
                self.redactor = Redactor(self._keys)
