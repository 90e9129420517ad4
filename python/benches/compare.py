"""Speed from Python, side by side with rust-reversi and OpenSpiel (PyPI), in one run.

    python benches/compare.py [--games 10000] [--perft-depth 9] [--binary ../target/release/othello]

Random playouts: games of uniformly random legal moves from the 8x8 start to the end, the same
Python loop for both packages (the plain API), plus this package's playout through its move
mask. Perft: the leaves 9 plies below the start, from Python and through `othello perft`.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import shutil
import subprocess
import time
from typing import Callable, Optional

import othello


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The least CPU time of `runs` runs of `work`, in seconds (every thread of the process).

    CPU time rather than wall-clock time, so that the figures mean something on a machine
    shared with other work; on an idle machine the two agree for one thread.
    """
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def child_cpu() -> float:
    """CPU time of the finished child processes so far, in seconds."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def playouts_othello(games: int, listing: Callable[[othello.Game], list]) -> None:
    """`games` random games, the moves listed by `listing` (a `Game` method)."""
    rng = random.Random(1)
    for _ in range(games):
        game = othello.Game()
        while not game.is_over:
            game.play(rng.choice(listing(game)))


def playouts_othello_random(games: int) -> None:
    for _ in range(games):
        game = othello.Game()
        while not game.is_over:
            game.play_random()


def playouts_rust_reversi(games: int, random_move: bool) -> Optional[Callable[[], None]]:
    """`games` random games with rust-reversi: a move chosen in Python from the legal moves,
    or by its own `get_random_move()`; `None` without the package."""
    try:
        import rust_reversi
    except ImportError:
        return None

    def run() -> None:
        rng = random.Random(1)
        for _ in range(games):
            board = rust_reversi.Board()
            while not board.is_game_over():
                if board.is_pass():
                    board.do_pass()
                elif random_move:
                    board.do_move(board.get_random_move())
                else:
                    board.do_move(rng.choice(board.get_legal_moves_vec()))

    return run


def playouts_openspiel(games: int) -> Optional[Callable[[], None]]:
    """`games` random games with OpenSpiel's `othello` (passes are actions there); `None`
    without the package."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("othello")

    def run() -> None:
        rng = random.Random(1)
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))

    return run


def perft_rust_reversi(depth: int) -> Optional[Callable[[], int]]:
    try:
        import rust_reversi
    except ImportError:
        return None

    def count(board: "rust_reversi.Board", depth: int) -> int:
        if depth == 0:
            return 1
        if board.is_game_over():
            return 1
        if board.is_pass():
            child = board.clone()
            child.do_pass()
            return count(child, depth - 1)
        if depth == 1:
            return len(board.get_legal_moves_vec())
        total = 0
        for move in board.get_legal_moves_vec():
            child = board.clone()
            child.do_move(move)
            total += count(child, depth - 1)
        return total

    return lambda: count(rust_reversi.Board(), depth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--perft-depths", default="9,11", help="comma-separated depths")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--binary", default="../target/release/othello")
    args = parser.parse_args()

    print(f"random playouts, {args.games} games from the 8x8 start (CPU time, best of {args.runs} rounds):")
    rows = [
        (
            "othello: play(random.choice(legal_moves()))",
            lambda: playouts_othello(args.games, othello.Game.legal_moves),
        ),
        (
            "othello: play(random.choice(legal_coords()))",
            lambda: playouts_othello(args.games, othello.Game.legal_coords),
        ),
    ]
    peer = playouts_rust_reversi(args.games, random_move=False)
    if peer is not None:
        rows.append(("rust-reversi: do_move(random.choice(get_legal_moves_vec()))", peer))
    spiel = playouts_openspiel(args.games)
    if spiel is not None:
        rows.append(("open_spiel: apply_action(random.choice(legal_actions()))", spiel))
    rows.append(("othello: play_random() (the cheap path)", lambda: playouts_othello_random(args.games)))
    peer_random = playouts_rust_reversi(args.games, random_move=True)
    if peer_random is not None:
        rows.append(("rust-reversi: do_move(get_random_move())", peer_random))
    # The rows take turns, round after round, so that a busy spell of the machine does not
    # fall on one of them only.
    best = [float("inf")] * len(rows)
    for _ in range(args.runs):
        for index, (_, work) in enumerate(rows):
            best[index] = min(best[index], best_of(1, work))
    for (name, _), seconds in zip(rows, best):
        print(f"  {name:62} {args.games / seconds:10.0f} games/s ({seconds:.2f} s)")

    for depth in [int(depth) for depth in args.perft_depths.split(",")]:
        perft_rows(depth, args.runs, args.binary)
    peer_perft = perft_rust_reversi(9)
    if peer_perft is not None:
        leaves = peer_perft()
        seconds = best_of(1, peer_perft)
        name = "rust-reversi, depth 9 (no perft: Python recursion, clone/do_move)"
        print(f"  {name:62} {seconds * 1000:10.1f} ms ({leaves} leaves)")


def perft_rows(depth: int, runs: int, binary_path: str) -> None:
    """Perft at `depth` from Python and through the binary."""
    print(f"perft depth {depth} from the 8x8 start (CPU time, best of {runs}):")
    expected = othello.perft(othello.Game(), depth)
    seconds = best_of(runs, lambda: othello.perft(othello.Game(), depth))
    print(f"  {'othello.perft(Game(), depth)':62} {seconds * 1000:10.1f} ms ({expected} leaves)")
    binary = shutil.which(binary_path) or binary_path
    try:
        timings = []
        for _ in range(runs):
            start = child_cpu()
            out = subprocess.run(
                [binary, "perft", str(depth)], capture_output=True, text=True, check=True
            ).stdout
            timings.append(child_cpu() - start)
        # The binary's own (wall-clock) timing excludes starting the process.
        reported = re.search(r"([0-9.]+) s", out)
        own = f"; its own clock: {float(reported.group(1)) * 1000:.1f} ms" if reported else ""
        print(f"  {'othello perft ' + str(depth) + ' (the process)':62} {min(timings) * 1000:10.1f} ms{own}")
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"  othello perft: not run ({error})")


if __name__ == "__main__":
    main()
