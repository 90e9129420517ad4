"""Ctrl-C stops a long search from Python within a fraction of a second."""

import os
import signal
import threading
import time

import pytest

import othello
from othello import Engine, Game


def interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="needs SIGINT")
@pytest.mark.parametrize(
    "search",
    [
        lambda: Engine().solve(Game()),  # 60 empties: never finishes
        lambda: Engine().move_values(Game(10, 10)),
        lambda: othello.perft(Game(), 14),
        lambda: othello.perft(Game(), 14, threads=2),
    ],
    ids=["solve", "move_values", "perft", "perft-threads"],
)
def test_ctrl_c_raises_keyboard_interrupt_quickly(search) -> None:  # type: ignore[no-untyped-def]
    timer = interrupt_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        search()
    elapsed = time.monotonic() - start
    timer.join()
    assert elapsed < 0.3 + 0.5, f"stopped {elapsed - 0.3:.2f} s after Ctrl-C"
