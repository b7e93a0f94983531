"""`csi serve` over real HTTP on 127.0.0.1: by default it serves the second contract's 39 methods, and `--api 0.50.0`
serves the spec's 19 alone (every other name is "Method not found")."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from csi_conformance.reference_server.wiring import SERVED_API
from csi_conformance.schema import Contract

from tests.reference_server.support import HANG_GUARD, csi_serve

METHOD_NOT_FOUND = -32601


def _post(url: str, method: str, params: Any) -> dict[str, Any]:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=HANG_GUARD) as answer:
        return json.loads(answer.read())


@pytest.mark.parametrize(("flags", "served"), [((), True), (("--api", "0.50.0"), False),
                                               (("--api", SERVED_API), True)])
def test_the_added_methods_are_served_unless_the_spec_alone_is_asked(tmp_path: Path, flags: tuple[str, ...],
                                                                     served: bool) -> None:
    with csi_serve("--port", "0", "--scenario", "default", "--prover", "none", *flags, cwd=tmp_path) as server:
        liveness = _post(server.url, "liveness", [])
        slot = _post(server.url, "getIndexerSlot", [])
        queues = _post(server.url, "getQueueInfo", {})
    assert slot["result"] == 1010
    if served:
        assert liveness == {"jsonrpc": "2.0", "id": 1, "result": None}
        assert queues["result"] == {"queues": [], "slot": 1010}
    else:
        assert liveness["error"]["code"] == queues["error"]["code"] == METHOD_NOT_FOUND
    assert "liveness" in Contract.for_api(SERVED_API).methods
