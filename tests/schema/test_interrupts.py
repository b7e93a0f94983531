"""Ctrl-C and SIGTERM remembered: raised where they land, and still heard where Python drops what they raise."""

from __future__ import annotations

import os
import signal
import time
import weakref

import pytest
from csi_conformance.groundwork import interrupts

pytestmark = pytest.mark.usefixtures("python_default_signals")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_in_the_block_raises_and_is_remembered_until_the_block_ends(signum: int) -> None:
    with interrupts.remembered():
        interrupts.raise_if_interrupted()  # nothing heard yet
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signum)
            time.sleep(30)  # a hang guard: the handler raises at once
        with pytest.raises(KeyboardInterrupt):
            interrupts.raise_if_interrupted()
    interrupts.raise_if_interrupted()  # forgotten with the block
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the drop this test makes
def test_an_interrupt_whose_keyboard_interrupt_python_dropped_is_still_heard() -> None:
    """A weakref callback runs when its object goes; what it raises is printed and dropped, a KeyboardInterrupt
    too. The wait after it does not go on as if nothing had happened."""
    class Thing:
        pass

    def interrupted_here(ref: weakref.ref) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(30)  # the handler raises here, inside the callback

    with interrupts.remembered():
        thing = Thing()
        watch = weakref.ref(thing, interrupted_here)
        del thing  # the callback runs; its KeyboardInterrupt goes no further
        assert watch() is None
        with pytest.raises(KeyboardInterrupt):
            interrupts.raise_if_interrupted()


def test_a_handler_of_the_program_s_own_is_left_alone() -> None:
    def own(signum: int, frame: object) -> None:
        pass

    signal.signal(signal.SIGINT, own)
    with interrupts.remembered():
        assert signal.getsignal(signal.SIGINT) is own
        assert signal.getsignal(signal.SIGTERM) is interrupts.heard
    assert signal.getsignal(signal.SIGINT) is own
