"""`Target`: the harness's only way to talk to an endpoint.

Every call returns an `Exchange`, whatever the target does; see `failures` for how transport
failures are named. Per HTTP request (a redirect hop or a 429 retry is a new request) the
target gets `timeout` seconds in total, body included (a proof method `proof_timeout`: see `kinds`).

A request that timed out while other requests of the run were in flight is asked once more alone
(`Gate.alone`) with the full deadline, and only that answer is recorded: a deadline measures the target,
not the kit's own load (`core.asked_again`). A target that answered earlier and now refuses connections has
gone away: the gate halts the run (`Halted`), so what it no longer answers is not judged.

Requests go through libcurl (`curl.CurlWire`), or through an httpx transport given as `transport`
(`wire.Wire`). Both apply one `policy.Policy` (redirects, the head and body caps, the deadline):
neither follows a redirect itself; the Target asks the policy's `RedirectTrail` where each leads.

Cookies are never kept, so each request stands alone and `Exchange.curl()` repeats it
exactly. Proxies from the environment are not used.

Not thread-safe: one Target per thread. The threads of one run each ask through a `fork`, a handle of
its own sharing the run's `Gate` (how many requests are out together, the pacing, the budget).
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import quote

import httpx
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.connection.body import UnsupportedEncoding, parse_json
from csi_conformance.harness.connection.curl import CurlWire
from csi_conformance.harness.connection.exchange import NOT_JSON, OMIT, ErrorKind, Exchange, Throttled
from csi_conformance.harness.connection.failures import describe
from csi_conformance.harness.connection.gate import Gate, Halted
from csi_conformance.harness.connection.kinds import Deadlines, kind_of
from csi_conformance.harness.connection.logs import redact_http_logs
from csi_conformance.harness.connection.pacing import Pacer, backoff_delay
from csi_conformance.harness.connection.policy import DEFAULT_PORTS, Policy, RedirectRefused
from csi_conformance.harness.connection.probe import refuses_connections
from csi_conformance.harness.connection.wire import BaseWire, Wire
from csi_conformance.harness.core.asked_again import AskedAgain
from csi_conformance.harness.core.errors import UsageError
from csi_conformance.harness.redact import REDACTED, Redactor

__all__ = ["Target"]

_HEADERS = {"user-agent": "csi-conformance", "accept-encoding": "identity"}


@dataclass(frozen=True)
class _Request:
    """What the caller asked to send."""

    method: str | None
    path: str  # as shown in the Exchange
    wire_path: str  # as put in the URL
    request: Any
    body: bytes
    content_type: str | None
    http_method: str
    with_key: bool


KEPT_OF_TOO_LARGE = 64 * 1024
"""Bytes kept of an answer over the body cap: its head for the report, not the cap (8 MiB) per answer waiting."""


@dataclass
class _Answer:
    """What one attempt (a request and its same-origin redirect hops) produced."""

    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    body: bytearray = field(default_factory=bytearray)
    complete: bool = False
    error: str | None = None
    kind: ErrorKind | None = None
    hops: list[str] = field(default_factory=list)
    location: str | None = None  # as sent, unredacted: a same-origin redirect may carry our key along


class Target:
    """An HTTP client for one JSON-RPC endpoint that turns every behaviour of it into an `Exchange`."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout: float = Policy.timeout,
        proof_timeout: float | None = None,
        max_response_bytes: int = Policy.max_response_bytes,
        rate: float | None = None,
        max_429_retries: int = 3,
        max_backoff: float = 5.0,
        max_redirects: int = Policy.max_redirects,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        """Raises UsageError for a base URL or a bound that cannot work; nothing is sent yet.

        `base_url` may carry a path prefix and query members, which every request keeps; an
        `api-key` in it is used when `api_key` is not given, and redacted either way.
        `timeout` is the total deadline of one HTTP request, body included; `rate` is in
        requests per second. `transport` replaces the network (tests, in-process servers); the
        deadline is then enforced between body chunks only, as the transport may have no socket.
        `proof_timeout` is the deadline of a proof method (None: `kinds.PROOF_FACTOR` times `timeout`).
        """
        self.policy = Policy(timeout=timeout, max_response_bytes=max_response_bytes, max_redirects=max_redirects)
        _require(proof_timeout is None or proof_timeout > 0, "proof_timeout must be positive")
        self.deadlines = Deadlines(timeout, proof_timeout)
        _require(rate is None or rate > 0, "rate must be positive")
        _require(max_429_retries >= 0 and max_backoff >= 0, "retry bounds must not be negative")
        self._base, self._query, url_key = _split_base_url(base_url)
        self._key = api_key if api_key is not None else url_key
        self.redactor = Redactor(k for k in (self._key, url_key) if k)
        redact_http_logs(self.redactor)  # the wire logs every URL it requests, key included
        self._max_retries = max_429_retries
        self._max_backoff = max_backoff
        self.gate = Gate(pacer=Pacer(rate))
        self._sent_here = 0
        self._paced = 0.0
        self._transport = transport
        self._wire: BaseWire = self._new_wire(owns_transport=True)
        self._urls: dict[tuple[str, bool], str] = {}

    def fork(self) -> Target:
        """Another handle on the same endpoint, for another thread: its own connection, the same key, bounds
        and `gate`. Close it when its thread is done (an injected transport is shared, and closed by this one)."""
        twin = copy.copy(self)
        twin._sent_here = 0
        twin._urls = {}
        twin._wire = twin._new_wire(owns_transport=False)
        return twin

    def _new_wire(self, *, owns_transport: bool) -> BaseWire:
        if self._transport is None:  # no cookie kept by either wire
            return CurlWire(policy=self.policy, headers=_HEADERS, cancelled=self.gate.cancelled)
        return Wire(self._transport, policy=self.policy, headers=_HEADERS, owns_transport=owns_transport)

    @property
    def api_key(self) -> str | None:
        """"REDACTED" when a key is configured, else None: enough to ask whether there is one.

        The key itself is not part of the public surface, so it cannot end up in a report by accident.
        """
        return REDACTED if self._key else None

    @property
    def base_url(self) -> str:
        """The root URL requests go to, api-key REDACTED: safe to print."""
        return self.redactor.url(self._url("/", with_key=True))

    @property
    def requests_sent(self) -> int:
        """HTTP requests put on the wire so far through this handle and its forks, redirect hops and retries
        included."""
        return self.gate.sent

    @property
    def sent_here(self) -> int:
        """HTTP requests put on the wire through this handle alone (what one thread's work cost)."""
        return self._sent_here

    @property
    def throttled(self) -> int:
        """HTTP 429 answers received so far (retried or not): how much the target held the run back."""
        return self.gate.throttled

    def call(
        self, method: str, params: Any = OMIT, *, id: Any = "csi-1", path_form: Literal["root", "method"] = "root"
    ) -> Exchange:
        """Send one JSON-RPC 2.0 request (§4.1) to `/` or to `/<method>`; `OMIT` leaves a member out."""
        if path_form not in ("root", "method"):
            raise ValueError(f"path_form must be 'root' or 'method', not {path_form!r}")
        payload: dict[str, Any] = {"jsonrpc": "2.0"}
        if id is not OMIT:
            payload["id"] = id
        payload["method"] = method
        if params is not OMIT:
            payload["params"] = params
        by_method = path_form == "method"
        return self._exchange(_Request(
            method=method,
            path=f"/{method}" if by_method else "/",
            wire_path=f"/{quote(method, safe='')}" if by_method else "/",
            request=payload,
            body=dumps(payload).encode(),
            content_type="application/json",
            http_method="POST",
            with_key=True,
        ))

    def send(
        self,
        payload: bytes | str | Any,
        *,
        path: str = "/",
        content_type: str | None = "application/json",
        http_method: str = "POST",
        with_key: bool = True,
    ) -> Exchange:
        """Send anything, for envelope and transport checks: bytes or text as is, any other value as JSON.

        `path` is put in the URL as given (after the base URL's own path), so it may hold
        deliberate oddities; `with_key=False` leaves the api-key out.
        """
        if isinstance(payload, bytes):
            body, request = payload, payload.decode("utf-8", "backslashreplace")
        elif isinstance(payload, str):
            body, request = payload.encode("utf-8", "surrogatepass"), payload
        else:
            body, request = dumps(payload).encode(), payload
        method = payload.get("method") if isinstance(payload, dict) else None
        path = path if path.startswith("/") else f"/{path}"
        return self._exchange(_Request(
            method=method if isinstance(method, str) else None,
            path=path,
            wire_path=path,
            request=request,
            body=body,
            content_type=content_type,
            http_method=http_method.upper(),
            with_key=with_key,
        ))

    def close(self) -> None:
        self._wire.close()

    def __enter__(self) -> Target:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _exchange(self, sent: _Request) -> Exchange:
        """One logical exchange: an attempt, then 429 retries while the target keeps refusing; asked again alone
        when it timed out in a crowd. Raises the gate's `Halted` or `BudgetSpent` when it refuses a request or
        the target went away, and KeyboardInterrupt once cancelled."""
        url = self._url(sent.wire_path, sent.with_key)
        kind = kind_of(sent.method)
        with self.gate.exchange(kind) as place:
            answer, throttled, elapsed = self._asked(sent, url)
        again = None
        if answer.kind == "timeout" and place.crowd:
            self.gate.lower(kind)
            first = answer
            with self.gate.alone(kind):
                answer, throttled, elapsed = self._asked(sent, url)
            again = AskedAgain(sent.method, sent.path, self.deadlines.of(sent.method), place.crowd,
                               first.error or "timeout", answer.status is not None, _ended(answer, elapsed))
            self.gate.record(again)
        self._halt_if_gone(answer)
        return self._record(sent, url, answer, throttled, elapsed, in_flight=place.crowd, again=again)

    def _asked(self, sent: _Request, url: str) -> tuple[_Answer, tuple[Throttled, ...], float]:
        """An attempt, then 429 retries while the target keeps refusing: the answer, the 429s, the seconds."""
        started, self._paced = time.monotonic(), 0.0
        throttled: list[Throttled] = []
        while True:
            answer = self._attempt(sent, url)
            if answer.status != 429 or answer.error is not None:
                break
            if len(throttled) >= self._max_retries:
                _failed(answer, "rate-limited", f"rate limited: 429 persisted after {len(throttled)} retries")
                break
            delay = backoff_delay(answer.headers.get("retry-after"), len(throttled), self._max_backoff)
            throttled.append(Throttled(answer.headers, self.redactor.bytes(bytes(answer.body)), delay))
            self.gate.count_throttled(1)
            self.gate.sleep(delay)
        self.gate.count_throttled(answer.status == 429)
        return answer, tuple(throttled), time.monotonic() - started - self._paced

    def _halt_if_gone(self, answer: _Answer) -> None:
        """A target that answered earlier in the run and now refuses connections went away (stopped, restarted):
        halt the run, so that nothing it no longer answers is judged."""
        self.gate.count_answered(answer.status is not None)
        if not self.gate.answered or answer.kind not in ("unreachable", "network", "protocol"):
            return
        if answer.kind != "unreachable" and (self._transport is not None
                                             or not refuses_connections(self._base, self.policy.timeout)):
            return
        self.gate.halt(f"the target stopped answering after {self.gate.answered} answers ({answer.error}): check "
                       f"that {self.base_url} is up (stopped or restarted mid-run?) and run again")
        raise Halted(self.gate.halted)

    def _attempt(self, sent: _Request, url: str) -> _Answer:
        """Send, then go where the policy's `RedirectTrail` says each redirect leads."""
        trail = self.policy.redirects(self._wire.normal(url), self._key if sent.with_key else None, self.redactor.url)
        while True:
            answer = self._once(sent, url)
            answer.hops = trail.hops
            if answer.error is not None:
                return answer
            try:
                there = trail.follow(answer.status, answer.location)
            except RedirectRefused as exc:
                return _failed(answer, "redirect", str(exc))
            if there is None:
                return answer
            url = there

    def _once(self, sent: _Request, url: str) -> _Answer:
        """One HTTP request on the wire, within the total deadline and the size cap."""
        self._paced += self.gate.admit()
        self._sent_here += 1
        answer = _Answer()
        deadline = self.deadlines.of(sent.method)

        def head(status: int, headers: list[tuple[str, str]]) -> None:
            answer.status = status
            answer.headers = {name: self.redactor.text(value) for name, value in headers}
            answer.location = next((value for name, value in headers if name == "location"), None)

        try:
            if self._wire.fetch(sent.http_method, url, sent.body, sent.content_type, into=answer.body,
                                deadline_at=time.monotonic() + deadline, on_head=head):
                del answer.body[KEPT_OF_TOO_LARGE:]  # judged by its size alone: its head is what a report shows
                return _failed(answer, "too-large", self.policy.over_cap)
            answer.complete = True
        except UnsupportedEncoding as exc:
            _failed(answer, "encoding", str(exc))
        except Exception as exc:  # the boundary: see failures.describe
            kind, message = describe(exc, timeout=deadline)
            if kind == "timeout":
                message += " (no response)" if answer.status is None else f" ({len(answer.body)} body bytes read)"
            _failed(answer, kind, self.redactor.text(message))
        return answer

    def _record(self, sent: _Request, url: str, answer: _Answer, throttled: tuple[Throttled, ...],
                elapsed: float, *, in_flight: int, again: AskedAgain | None) -> Exchange:
        body = self.redactor.bytes(bytes(answer.body))
        if answer.complete:
            value, json_error = parse_json(body, answer.headers.get("content-type"))
        else:
            value, json_error = NOT_JSON, f"not parsed: {answer.error}"
        return Exchange(
            method=sent.method,
            path=sent.path,
            url=self.redactor.url(url),
            request=sent.request,
            status=answer.status,
            headers=answer.headers,
            body=body,
            elapsed=elapsed,
            json=value,
            json_error=json_error,
            error=answer.error,
            error_kind=answer.kind,
            retries=len(throttled),
            throttled=throttled,
            redirects=tuple(answer.hops),
            http_method=sent.http_method,
            content_type=sent.content_type,
            sent=sent.body,
            deadline=self.deadlines.of(sent.method),
            in_flight=0 if again is not None else in_flight,
            asked_again=again,
        )

    def _url(self, wire_path: str, with_key: bool) -> str:
        url = self._urls.get((wire_path, with_key))
        if url is None:
            query = list(self._query)
            if with_key and self._key:
                query.append(f"api-key={quote(self._key, safe='')}")
            url = f"{self._base}{wire_path}" + (f"?{'&'.join(query)}" if query else "")
            if len(self._urls) < 1024:  # a run asks a few paths; `send` may be given any number
                self._urls[wire_path, with_key] = url
        return url



def _ended(answer: _Answer, elapsed: float) -> str:
    """How a lone attempt ended, in a few words."""
    if answer.status is not None and answer.error is None:
        return f"answered HTTP {answer.status} in {elapsed:.1f} s"
    return f"{answer.error or 'no answer'}, alone too"


def _failed(answer: _Answer, kind: ErrorKind, message: str) -> _Answer:
    answer.kind, answer.error = kind, message
    return answer


def _split_base_url(base_url: str) -> tuple[str, list[str], str | None]:
    """(scheme://host[:port][/prefix] without a trailing slash, other query members, api-key in the URL)."""
    try:
        url = httpx.URL(base_url)
    except httpx.InvalidURL as exc:
        raise UsageError(f"not a usable base URL: {exc}") from exc
    _require(url.scheme in DEFAULT_PORTS and bool(url.host), "the base URL must be http:// or https:// with a host")
    members = [m for m in url.query.decode("ascii").split("&") if m]
    others = [m for m in members if m.split("=", 1)[0] != "api-key"]
    key = url.params.get("api-key") or None
    base = str(url.copy_with(query=None, fragment=None)).rstrip("/")
    return base, others, key


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise UsageError(message)
