"""The run's worker threads: independent work (a check on one method, a discovery step) asks the target
together, at most `--concurrency` requests out at once (the target's `Gate` admits them).

Each thread asks through its own handles, forks of the run's target and reference (a libcurl handle
is not thread-safe). The run's own thread waits for the work in the order it was given and judges it
there; a Ctrl-C or SIGTERM, which only that thread hears (the workers block both, so the kernel cannot hand
one to a worker while the run's thread sleeps), cancels the gate, which ends what waits and what is on
the wire at once, and the threads are done before the run writes its reports. The signal cancels the gate
in its handler, before the KeyboardInterrupt is raised: an interrupt that lands where Python swallows
exceptions (a weakref callback run by the garbage collector) still ends the run.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor, wait
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

from csi_conformance.harness.connection import Target

__all__ = ["Workers"]

T = TypeVar("T")
Work = Callable[[Target, Target | None], T]
"""Work for a thread: given that thread's handles on the target and the reference."""


class Workers:
    """`concurrency` threads asking through handles of their own; used as a context manager."""

    def __init__(self, target: Target, reference: Target | None, concurrency: int) -> None:
        self._target, self._reference = target, reference
        self._concurrency = concurrency
        self._pool = ThreadPoolExecutor(concurrency, thread_name_prefix="csi-worker", initializer=_deaf_to_signals)
        self._local = threading.local()
        self._handles: list[Target] = []
        self._lock = threading.Lock()
        self._futures: list[Future] = []

    @property
    def concurrency(self) -> int:
        return self._concurrency

    def submit(self, work: Work[T]) -> Future[T]:
        """Run `work` on a thread of the pool; work given by a thread of the pool itself (a check's `call_many`)
        is done there and then, in turn: queued behind it, it would wait for a thread that waits for it."""
        if getattr(self._local, "handles", None) is not None:
            done: Future[T] = Future()
            try:
                done.set_result(self._on_thread(work))
            except BaseException as exc:  # given back where the result is asked for, as the pool's futures do
                done.set_exception(exc)
            return done
        future = self._pool.submit(self._on_thread, work)
        self._futures.append(future)
        return future

    def results(self, futures: Sequence[Future[T]]) -> Iterator[T]:
        """Each future's result in the order given, as it comes; an interrupt stops every thread first."""
        try:
            for future in futures:
                yield _waited(future)
        except KeyboardInterrupt:
            self.stop()
            raise

    def stop(self) -> None:
        """Cancel the work not started and end the work under way (promptly: the gate is cancelled)."""
        self._target.gate.cancel()
        for future in self._futures:
            future.cancel()
        wait(self._futures)

    def outcome(self, future: Future[T]) -> T | BaseException | None:
        """What a finished future gave (its result or what it raised); None for one cancelled before it ran."""
        try:
            error = future.exception(timeout=0)
        except (CancelledError, TimeoutError):
            return None
        return error if error is not None else future.result()

    def __enter__(self) -> Workers:
        self._previous = {}
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGINT, signal.SIGTERM):
                self._previous[signum] = signal.signal(signum, self._cancel_then(signal.getsignal(signum)))
        return self

    def __exit__(self, *exc_info: object) -> None:
        try:
            if exc_info[0] is not None:
                self.stop()
            self._pool.shutdown(wait=True)
            for handle in self._handles:
                handle.close()
        finally:
            for signum, previous in self._previous.items():
                signal.signal(signum, previous)

    def _cancel_then(self, previous: Any) -> Callable[[int, Any], None]:
        """A handler that cancels the gate, then does what `previous` did (raise KeyboardInterrupt, as a rule)."""
        def handler(signum: int, frame: Any) -> None:
            self._target.gate.cancel()
            if callable(previous):
                previous(signum, frame)
            elif previous != signal.SIG_IGN:
                raise KeyboardInterrupt
        return handler

    def _on_thread(self, work: Work[T]) -> T:
        if self._target.gate.cancelled.is_set():  # interrupted before this work began: it does not begin
            raise KeyboardInterrupt
        handles = getattr(self._local, "handles", None)
        if handles is None:
            handles = self._local.handles = (self._target.fork(),
                                             self._reference.fork() if self._reference is not None else None)
            with self._lock:
                self._handles += [handle for handle in handles if handle is not None]
        return work(*handles)


def _deaf_to_signals() -> None:
    """A worker blocks SIGINT and SIGTERM: the run's own thread is the one to take them."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})


def _waited(future: Future[T]) -> T:
    """The future's result, waited for in short sleeps, so that a signal's handler runs at once whatever the
    thread the kernel woke."""
    while True:
        try:
            return future.result(timeout=0.2)
        except FutureTimeout:
            continue
