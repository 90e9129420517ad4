"""The engine and perft from Python, against the Rust results."""

import threading
import time

import pytest

import othello
from conftest import FIXTURES, SHARED
from othello import Engine, Game


def ffo_position(number: int) -> "tuple[Game, int, list[str]]":
    """An FFO position of the fixtures, its exact score and its best moves."""
    for line in (FIXTURES / "ffo" / "ffo-40-59.txt").read_text().splitlines():
        fields = line.split()
        if fields and fields[0] == str(number):
            board, side, best, score = fields[1], fields[2], fields[4], fields[5]
            rows = [board[r * 8 : r * 8 + 8] for r in range(8)]
            game = Game.from_board(rows, first="black" if side == "X" else "white")
            return game, int(score), [m.lower() for m in best.split(",")]
    raise LookupError(number)


# Published counts: /work/shared/data/perft.md (8x8 from the start, FULL rules).
PERFT_8X8 = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]


@pytest.mark.parametrize("depth", range(len(PERFT_8X8)))
def test_perft_matches_the_published_counts(depth: int) -> None:
    assert othello.perft(Game(), depth) == PERFT_8X8[depth]


def test_perft_on_threads_and_other_boards() -> None:
    assert othello.perft(Game(), 9, threads=2) == 3005288
    assert othello.perft(Game(6, 6), 8) == 308716


def test_perft_table_file_agrees() -> None:
    table = SHARED / "data" / "perft.md"
    if not table.exists():
        pytest.skip("needs ../shared/data")
    assert "| 9 | 3005288 |" in table.read_text()


def test_solve_ffo_40_exactly() -> None:
    game, score, best = ffo_position(40)
    result = Engine().solve(game)
    assert result.exact and result.score == score
    assert result.move in best
    assert result.pv[0] == result.move and result.nodes > 0 and result.depth == 20
    assert result.confidence is None
    assert repr(result) == (
        f"SearchResult(move={result.move!r}, score={score}, depth=20, exact=True, "
        f"confidence=None, nodes={result.nodes}, pv={result.pv!r})"
    )


def test_a_search_stopped_in_the_selective_solve_says_how_sure_it_is() -> None:
    game, _, _ = ffo_position(40)
    for seconds in (0.01, 0.05, 0.2):
        result = Engine(threads=1).best_move(game, time=seconds)
        # Midgame iterations stop short of the end; a selective solve reaches it at 87%.
        selective = not result.exact and result.depth == 20
        assert result.confidence == (87 if selective else None), result
        assert f"exact=False, confidence={87 if selective else None}, nodes=" in repr(result)


def test_best_move_within_limits() -> None:
    engine = Engine(hash_mb=16, threads=1)
    assert (engine.hash_mb, engine.threads) == (16, 1)
    result = engine.best_move(Game(), depth=4)
    assert result.move in Game().legal_moves()
    assert result.depth == 4 and not result.exact
    timed = engine.best_move(Game(), time=0.05)
    assert timed.move in Game().legal_moves()
    small = engine.best_move(Game(4, 4))
    assert small.exact and small.score == -8
    with pytest.raises(ValueError, match="depth must be from 1 to 128, found 0"):
        engine.best_move(Game(), depth=0)
    with pytest.raises(ValueError, match="time must be a positive number"):
        engine.best_move(Game(), time=-1)
    over = Game(4, 4)
    while not over.is_over:
        over.play(over.legal_moves()[0])
    with pytest.raises(ValueError, match="the game is over"):
        engine.best_move(over)


def test_move_values_agree_with_the_solve() -> None:
    game, score, best = ffo_position(40)
    values = Engine().move_values(game, level=6)
    assert [value.move for value in values] == game.legal_moves()
    assert all(value.exact for value in values)
    top = max(values, key=lambda value: value.score)
    assert top.score == score and top.move in best
    assert all(value.pv[0] == value.move for value in values)
    shallow = Engine().move_values(Game(), depth=3)
    assert len(shallow) == 4 and all(not value.exact for value in shallow)
    first = shallow[0]
    assert repr(first) == (
        f"MoveValue(move={first.move!r}, score={first.score}, exact=False, depth={first.depth}, "
        "confidence=None)"
    )


def test_move_values_stopped_in_a_selective_solve_say_how_sure_they_are() -> None:
    game, _, _ = ffo_position(40)
    for seconds in (0.01, 0.05, 0.2):
        for value in Engine(threads=1).move_values(game, time=seconds):
            # After the move 19 empties: a selective solve reaches the end at 87%.
            selective = not value.exact and value.depth == 20
            assert value.confidence == (87 if selective else None), value
            assert repr(value).endswith(f"confidence={87 if selective else None})")


def test_searches_release_the_gil() -> None:
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    thread = threading.Thread(target=count)
    thread.start()
    Engine().best_move(Game(), time=0.5)
    done.set()
    thread.join()
    assert ticks > 50, "another Python thread ran during the search"


def brute_force_perft(board: "list[list[str]]", player: str, depth: int, rules: str) -> int:
    """Perft by the published convention, written with the Python API only."""
    other = "white" if player == "black" else "black"
    game = Game.from_board(board, first=player, rules=rules)
    if depth == 0:
        return 1
    mine = game.moves_of(player)
    if not mine:
        return 1 if not game.moves_of(other) else brute_force_perft(board, other, depth - 1, rules)
    if depth == 1:
        return len(mine)
    total = 0
    for square in mine:
        child = game.copy()
        child.play(square)
        total += brute_force_perft(child.board, other, depth - 1, rules)
    return total


@pytest.mark.parametrize("rules", ["full", "simple"])
def test_perft_cut_into_pieces_counts_passes_and_ends_as_the_convention(rules: str) -> None:
    # 4x4 trees are small but deep enough (10 plies and more) to be cut into pieces, and full
    # of passes and early ends.
    start = Game(4, 4, rules=rules)
    for depth in ([10, 11, 12] if rules == "full" else [8]):
        expected = brute_force_perft(start.board, "black", depth, rules)
        assert othello.perft(start, depth) == expected
        assert othello.perft(start, depth, threads=2) == expected
