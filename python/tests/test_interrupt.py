"""Ctrl-C stops a long search from Python within a fraction of a second."""

import os
import signal
import threading
import time
from typing import Callable, List

import pytest

import othello
from othello import Engine, Game

# A search stops at its next check of the stop flag after the 50 ms signal poll; the rest of
# the allowance is for a machine busy with other work.
ALLOWED = 0.5


def interrupt_after(seconds: float, sent: List[float]) -> threading.Timer:
    def send() -> None:
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(seconds, send)
    timer.start()
    return timer


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="needs SIGINT")
@pytest.mark.parametrize(
    "search",
    [
        lambda engine: engine.solve(Game()),  # 60 empties: never finishes
        lambda engine: engine.best_move(Game(16, 16), depth=60),
        lambda engine: engine.move_values(Game(10, 10), depth=60),
        lambda engine: othello.perft(Game(), 14),
        lambda engine: othello.perft(Game(), 14, threads=2),
        lambda engine: othello.perft(Game(16, 16), 14),
    ],
    ids=["solve", "best_move", "move_values", "perft", "perft-threads", "perft-16x16"],
)
def test_ctrl_c_raises_keyboard_interrupt_quickly(search: Callable[[Engine], object]) -> None:
    engine = Engine(hash_mb=16)
    sent: List[float] = []
    timer = interrupt_after(0.3, sent)
    with pytest.raises(KeyboardInterrupt):
        search(engine)
    stopped = time.monotonic()
    timer.join()
    assert sent, "the search ended before Ctrl-C"
    assert stopped - sent[0] < ALLOWED, f"stopped {stopped - sent[0]:.2f} s after Ctrl-C"
