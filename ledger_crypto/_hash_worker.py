"""The hashing subprocess of ``parallel.hashing_pool``: requests on stdin, hashes on stdout.

A request is an 8-byte little-endian length and a pickled list of Poseidon input rows; the
answer is a status byte (0 ok, 1 error), an 8-byte length, then the hashes joined (or the
error message). A thread drains stdin as requests arrive, so the parent can queue the next
request while this one is hashed. The pickles come only from the parent that started it.
"""

from __future__ import annotations

import pickle
import queue
import sys
import threading
from typing import BinaryIO

from csi_conformance.ledger_crypto.hashing import poseidon


def main() -> None:
    requests: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
    threading.Thread(target=_read, args=(sys.stdin.buffer, requests), daemon=True).start()
    stdout = sys.stdout.buffer
    while (data := requests.get()) is not None:
        try:
            status, body = 0, b"".join([poseidon(*row) for row in pickle.loads(data)])
        except (ValueError, TypeError) as exc:
            status, body = 1, str(exc).encode("utf-8")
        stdout.write(bytes([status]) + len(body).to_bytes(8, "little") + body)
        stdout.flush()


def _read(stdin: BinaryIO, requests: queue.SimpleQueue[bytes | None]) -> None:
    while len(header := stdin.read(8)) == 8:
        requests.put(stdin.read(int.from_bytes(header, "little")))
    requests.put(None)


if __name__ == "__main__":
    main()
