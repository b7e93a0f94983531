"""Ctrl-C and SIGTERM, remembered as well as raised.

Python raises KeyboardInterrupt from a signal's handler wherever the main thread happens to be, and a few
places drop what they raise: a callback the garbage collector runs, C code that ignores the errors of the
Python code it calls. A long wait (the prover loading its keys, a server starting) would then go on as if
nothing had happened. Inside `remembered()`, the handler records the interrupt before it raises, and each
turn of such a wait calls `raise_if_interrupted()`: an interrupt whose KeyboardInterrupt was lost still
ends the wait at its next turn.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

__all__ = ["heard", "raise_if_interrupted", "remembered"]

_HEARD = threading.Event()


def heard(signum: int, frame: FrameType | None) -> None:
    """The handler `remembered()` installs: remember the interrupt, then raise KeyboardInterrupt."""
    _HEARD.set()
    raise KeyboardInterrupt


def raise_if_interrupted() -> None:
    """KeyboardInterrupt when an interrupt was heard inside the open `remembered()` block."""
    if _HEARD.is_set():
        raise KeyboardInterrupt


@contextlib.contextmanager
def remembered() -> Iterator[None]:
    """Within the block, SIGINT (when Python's default handler has it) and SIGTERM (what a CI job's timeout
    sends: it ends the block like Ctrl-C) raise KeyboardInterrupt and are remembered. Only the main thread
    can take signals: elsewhere nothing changes. A program's own SIGINT handler is left as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _HEARD.clear()
    previous = {signal.SIGTERM: signal.signal(signal.SIGTERM, heard)}
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, heard)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        _HEARD.clear()
