"""The official client releases known to call each method: data (`client_methods.json`), not code.

The file lists, for each release of the official client the kit drives (tests/client/), every JSON-RPC method
its read calls send, as `tests/client/record_requests.mjs` records them; tests/harness/proxy/
test_official_client.py drives each release through the proxy and fails when what it sends is not what the file
says. A report names, beside each method the traffic called that the contract lacks, the releases known to call
it: an app's traffic is read for what it is (a newer client than the indexer, or a call of its own).
"""

from __future__ import annotations

import json
from importlib.resources import files

__all__ = ["RELEASES", "callers"]

RELEASES: dict[str, list[str]] = {
    release: sorted(methods)
    for release, methods in json.loads(files(__package__).joinpath("client_methods.json").read_text("utf-8"))
    ["releases"].items()}
"""Release (`stateless.js 0.23.3 (V1)`) -> the methods it is known to call, sorted."""


def callers(method: str) -> list[str]:
    """The releases known to call `method`, in the file's order (none: no known client calls it)."""
    return [release for release, methods in RELEASES.items() if method in methods]
