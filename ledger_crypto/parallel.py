"""Batch Poseidon over worker processes, for building large ledgers.

The Poseidon binding holds the GIL, so threads do not help. Inside a ``hashing_pool()`` block,
``poseidon_many`` splits a large batch between this process and worker processes, and
``poseidon_stream`` keeps the workers hashing the next batch while the caller uses the last.

Workers are plain subprocesses fed over pipes (``ledger_crypto._hash_worker``), not
``multiprocessing`` children: those re-import the caller's ``__main__`` under spawn and
forkserver, and under fork inherit whatever locks other threads hold. Workers exist only
inside the block, so nothing lingers in a server once its ledger is built. Results never
depend on whether workers were used.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from typing import TypeVar

from .hashing import poseidon

__all__ = ["PARALLEL_MIN", "hashing_pool", "parallel_threshold", "poseidon_many", "poseidon_stream"]

PARALLEL_MIN = 8_192
"""Smallest batch shared with workers; below it the transfer costs more than it saves."""

T = TypeVar("T")
Rows = Sequence[Sequence[bytes]]

_SEGMENT = 131_072  # rows of one poseidon_many in flight at once: bounds what the pipes hold
_WORKER_MODULE = f"{__package__}._hash_worker"
_STATE: ContextVar[tuple[tuple[_Worker, ...], int] | None] = ContextVar("ledger_crypto_hashing_pool", default=None)
"""The open block's workers and the smallest batch it shares; None outside any block."""


class _Worker:
    """One hashing subprocess: a request is a pickled list of rows, the answer their hashes joined."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", _WORKER_MODULE], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)

    def send(self, rows: Rows) -> None:
        """Queue a request; the worker drains its input at once, so this never waits on hashing."""
        data = pickle.dumps(rows, protocol=pickle.HIGHEST_PROTOCOL)
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(len(data).to_bytes(8, "little"))
        stdin.write(data)
        stdin.flush()

    def receive(self) -> tuple[bool, bytes]:
        """The answer to the oldest request: (True, hashes joined) or (False, the error message)."""
        stdout = self.process.stdout
        assert stdout is not None
        header = stdout.read(9)
        if len(header) != 9:
            raise RuntimeError(f"hash worker exited with {self.process.poll()}")
        return header[0] == 0, stdout.read(int.from_bytes(header[1:], "little"))

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


@contextmanager
def hashing_pool(workers: int | None = None, *, min_batch: int = PARALLEL_MIN) -> Iterator[int]:
    """Within the block, batches of ``min_batch`` rows or more are hashed with ``workers``
    subprocesses.

    ``workers`` defaults to the CPUs this process may use (this process shares the work of
    ``poseidon_many`` too, and the system shares the CPUs); 0 starts none, and everything inside
    then hashes in this process. Yields the number of workers. A nested block keeps the outer
    block's workers (or their absence).
    """
    if workers is not None and workers < 0:
        raise ValueError(f"workers must not be negative, got {workers}")
    outer = _STATE.get()
    if outer is not None:
        yield len(outer[0])
        return
    count = workers if workers is not None else _usable_cpus()
    started: list[_Worker] = []
    try:
        started.extend(_Worker() for _ in range(count))
        token = _STATE.set((tuple(started), max(1, min_batch)))
        try:
            yield len(started)
        finally:
            _STATE.reset(token)
    finally:
        for worker in started:
            worker.close()


def _usable_cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def parallel_threshold() -> int | None:
    """The smallest batch ``poseidon_many`` shares with workers now; None when none are running."""
    state = _STATE.get()
    return state[1] if state is not None and state[0] else None


def _workers_for(size: int) -> tuple[_Worker, ...]:
    state = _STATE.get()
    return state[0] if state is not None and size >= state[1] else ()


def poseidon_many(rows: Rows) -> list[bytes]:
    """``[poseidon(*row) for row in rows]``, shared with the workers of an open ``hashing_pool``.

    Rows may differ in arity. Errors are those of ``poseidon`` (a wrong arity, an input that is
    not 32 bytes or not below the field modulus), raised here whichever process met them.
    """
    workers = _workers_for(len(rows))
    if not workers:
        return [poseidon(*row) for row in rows]
    out: list[bytes] = []
    for start in range(0, len(rows), _SEGMENT):
        segment = rows[start : start + _SEGMENT]
        share = -(-len(segment) // (len(workers) + 1))
        _send(workers, segment[: share * len(workers)])
        try:
            mine = [poseidon(*row) for row in segment[share * len(workers) :]]
        finally:
            theirs = _receive(workers)  # read even after an error, to keep the pipes in step
        out += theirs + mine
    return out


def poseidon_stream(batches: Iterable[tuple[T, Rows]]) -> Iterator[tuple[T, list[bytes]]]:
    """``(tag, poseidon_many(rows))`` for each ``(tag, rows)``, the workers one batch ahead.

    While the caller handles one batch's hashes, the workers hash the next, and drawing the
    next batch from ``batches`` (say, building its rows) overlaps them too. Without workers
    (no pool, or a batch under the pool's ``min_batch``) a batch is hashed when its turn comes.
    """
    pending: tuple[T, Rows, tuple[_Worker, ...]] | None = None  # sent, answer not read yet
    try:
        for tag, rows in batches:
            workers = _workers_for(len(rows))
            if workers:
                _send(workers, rows)
            previous, pending = pending, (tag, rows, workers)
            if previous is not None:
                yield _finish(*previous)
        if pending is not None:
            last, pending = pending, None
            yield _finish(*last)
    finally:
        if pending is not None and pending[2]:  # a caller that stopped early: keep the pipes in step
            with suppress(ValueError):
                _receive(pending[2])


def _finish(tag: T, rows: Rows, workers: tuple[_Worker, ...]) -> tuple[T, list[bytes]]:
    return tag, _receive(workers) if workers else [poseidon(*row) for row in rows]


def _send(workers: Sequence[_Worker], rows: Rows) -> None:
    """One equal share per worker (the last may be shorter or empty)."""
    share = -(-len(rows) // len(workers))
    for index, worker in enumerate(workers):
        worker.send(rows[index * share : (index + 1) * share])


def _receive(workers: Sequence[_Worker]) -> list[bytes]:
    """Every worker's answer to its oldest request, in order; the first error raised after all."""
    out: list[bytes] = []
    errors: list[str] = []
    for worker in workers:
        ok, blob = worker.receive()
        if ok:
            out += [blob[at : at + 32] for at in range(0, len(blob), 32)]
        else:
            errors.append(blob.decode("utf-8", "replace"))
    if errors:
        raise ValueError(errors[0])
    return out
