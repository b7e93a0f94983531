"""A HAR file of a page's own fetch() calls, recorded by headless Chromium (Debian's, as the report's browser test
uses it).

Chromium cannot save a HAR from its command line (its `--log-net-log` writes a NetLog, another format); its
developer tools build the HAR from the DevTools protocol's Network events, and so does this: the browser is
driven over that protocol, loads a small page from 127.0.0.1, the page makes its JSON-RPC calls with fetch(),
and each request the browser made is written as a HAR 1.2 entry from the events the browser itself reported
(`requestWillBeSent`, `responseReceived`, `loadingFinished`) and the body it kept (`getResponseBody`).
"""

from __future__ import annotations

import base64
import itertools
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from csi_conformance.groundwork.jsonio import dumps, loads
from websockets.sync.client import connect

from tests.harness.csi_process import HANG_GUARD

PAGE = b"""<!doctype html><meta charset="utf-8"><title>app</title>
<script>
// What an app's page does: each JSON-RPC request POSTed with fetch(), one after the other.
window.run = async (url, bodies) => {
  for (const body of bodies) {
    const answer = await fetch(url, {method: "POST", headers: {"content-type": "application/json"}, body});
    await answer.text();
  }
  return bodies.length;
};
</script>"""
LISTENING = re.compile(rb"DevTools listening on (ws://\S+)")


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium is not installed: `make test` installs it (apt-get install -y chromium)")
    return found


@contextmanager
def _page_server() -> Iterator[str]:
    """The app's page, served on 127.0.0.1; yields its URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/app.html"
    finally:
        server.shutdown()
        server.server_close()


class _DevTools:
    """One page's DevTools session: commands answered by id, Network events kept in order."""

    def __init__(self, socket: Any) -> None:
        self._socket = socket
        self._ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self._ids)
        self._socket.send(dumps({"id": number, "method": method, "params": params}))
        while True:
            message = loads(self._socket.recv(timeout=HANG_GUARD))
            if message.get("id") == number:
                assert "error" not in message, message
                return message["result"]
            if message.get("method", "").startswith("Network."):
                self.events.append(message)


@contextmanager
def _browser(folder: Path) -> Iterator[_DevTools]:
    """Headless Chromium with its DevTools on a free loopback port, and a session on its blank page."""
    process = subprocess.Popen([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                "--disable-web-security", "--remote-debugging-address=127.0.0.1",
                                "--remote-debugging-port=0", f"--user-data-dir={folder / 'profile'}", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        said = b""
        while (found := LISTENING.search(said)) is None:
            line = process.stderr.readline()
            assert line, f"chromium ended before its DevTools listened: {said[-2000:]!r}"
            said += line
        port = int(found.group(1).split(b":")[2].split(b"/")[0])
        targets = httpx.get(f"http://127.0.0.1:{port}/json/list", timeout=HANG_GUARD, trust_env=False).json()
        page = next(t for t in targets if t["type"] == "page")
        with connect(page["webSocketDebuggerUrl"], max_size=None, open_timeout=HANG_GUARD) as socket:
            yield _DevTools(socket)
    finally:
        process.kill()
        process.wait(HANG_GUARD)


def record_har(url: str, bodies: list[bytes], folder: Path) -> dict[str, Any]:
    """The HAR 1.2 log of a page on 127.0.0.1 POSTing each body to `url` with fetch(), in turn."""
    with _page_server() as page, _browser(folder) as browser:
        browser.send("Network.enable", maxPostDataSize=1 << 20)
        browser.send("Page.enable")
        browser.send("Page.navigate", url=page)
        browser.send("Runtime.evaluate", expression="new Promise(r => document.readyState === 'complete' ? r() : "
                     "addEventListener('load', () => r()))", awaitPromise=True)
        script = f"run({dumps(url)}, {dumps([body.decode('utf-8') for body in bodies])})"
        done = browser.send("Runtime.evaluate", expression=script, awaitPromise=True, returnByValue=True)
        assert done["result"].get("value") == len(bodies), done
        version = browser.send("Browser.getVersion")
        entries = [_entry(browser, *seen) for seen in _requests(browser.events)]
    return {"log": {"version": "1.2", "creator": {"name": "csi-conformance tests (DevTools protocol)",
                                                  "version": "1"},
                    "browser": {"name": "Chromium", "version": version["product"].split("/")[-1]},
                    "pages": [], "entries": entries}}


def _requests(events: list[dict[str, Any]]) -> list[tuple[dict, dict, dict]]:
    """Each finished request's (requestWillBeSent, responseReceived, loadingFinished) params, in the order sent."""
    by_id: dict[str, dict[str, dict]] = {}
    for event in events:
        params = event["params"]
        if "requestId" not in params:
            continue
        by_id.setdefault(params["requestId"], {})[event["method"].removeprefix("Network.")] = params
    return [(seen["requestWillBeSent"], seen["responseReceived"], seen["loadingFinished"])
            for seen in by_id.values() if {"requestWillBeSent", "responseReceived", "loadingFinished"} <= set(seen)]


def _entry(browser: _DevTools, sent: dict, received: dict, finished: dict) -> dict[str, Any]:
    """One HAR 1.2 entry: the request as the browser sent it, the answer as it kept it."""
    request, response = sent["request"], received["response"]
    kept = browser.send("Network.getResponseBody", requestId=sent["requestId"])
    content: dict[str, Any] = {"size": len(base64.b64decode(kept["body"])) if kept["base64Encoded"]
                               else len(kept["body"].encode("utf-8")), "mimeType": response.get("mimeType", ""),
                               "text": kept["body"]}
    if kept["base64Encoded"]:
        content["encoding"] = "base64"
    entry_request: dict[str, Any] = {
        "method": request["method"], "url": request["url"], "httpVersion": response.get("protocol", "http/1.1"),
        "cookies": [], "headers": _headers(request["headers"]), "queryString": [], "headersSize": -1,
        "bodySize": len(request.get("postData", "").encode("utf-8"))}
    if request.get("hasPostData"):
        text = request.get("postData")
        if text is None:
            text = browser.send("Network.getRequestPostData", requestId=sent["requestId"])["postData"]
        entry_request["postData"] = {"mimeType": request["headers"].get("content-type", ""), "params": [],
                                     "text": text}
    elapsed = max(0.0, (finished["timestamp"] - sent["timestamp"]) * 1000)
    return {"startedDateTime": datetime.fromtimestamp(sent["wallTime"], UTC).isoformat(timespec="milliseconds"),
            "time": elapsed, "request": entry_request,
            "response": {"status": response["status"], "statusText": response.get("statusText", ""),
                         "httpVersion": response.get("protocol", "http/1.1"), "cookies": [],
                         "headers": _headers(response["headers"]), "content": content, "redirectURL": "",
                         "headersSize": -1, "bodySize": int(finished.get("encodedDataLength", -1))},
            "cache": {}, "timings": {"blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0,
                                     "wait": elapsed, "receive": 0}}


def _headers(headers: dict[str, str]) -> list[dict[str, str]]:
    """DevTools joins a repeated header's values with newlines; a HAR lists each."""
    return [{"name": name, "value": value} for name, values in headers.items() for value in values.split("\n")]
