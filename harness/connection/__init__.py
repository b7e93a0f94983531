"""The harness's HTTP client for any endpoint: api-key, total deadline, size cap, redirects, 429 back-off.

    from csi_conformance.harness.connection import Target
    with Target("https://indexer.example", api_key=key, timeout=10.0) as target:
        ex = target.call("getIndexerSlot")
        ex.status, ex.json, ex.error, ex.curl()

Whatever the target does, `call` and `send` return an `Exchange`; they never raise for the
target's behaviour and never hang past the deadline.
"""

from csi_conformance.harness.connection.client import Target
from csi_conformance.harness.connection.exchange import NOT_JSON, OMIT, ErrorKind, Exchange

__all__ = ["NOT_JSON", "OMIT", "ErrorKind", "Exchange", "Target"]
