"""Whether a target that answered earlier in the run has gone away: a new connection to it is refused.

A request that ends with a reset or an early close may be the target's fault (a finding) or the target
being stopped under the run (a deploy restarting): a fresh TCP connection tells them apart. Refused: the
target is gone, and what it did not answer is no finding of it. Nothing is sent on the probe.
"""

from __future__ import annotations

import socket

import httpx
from csi_conformance.harness.connection.policy import DEFAULT_PORTS

__all__ = ["refuses_connections"]


def refuses_connections(base_url: str, timeout: float) -> bool:
    """True when a TCP connection to the host and port of `base_url` is refused (nothing listens there)."""
    url = httpx.URL(base_url)
    port = url.port or DEFAULT_PORTS.get(url.scheme)
    try:
        with socket.create_connection((url.host, port), timeout=timeout):
            return False
    except ConnectionRefusedError:
        return True
    except OSError:  # no route, a DNS failure, a timeout: not the plain "nothing listens" a stopped target gives
        return False
