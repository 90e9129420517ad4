"""The Pythonic API of `othello.Game`: rules, boards, errors and records."""

import copy
import random

import pytest

import othello
from conftest import SHARED
from othello import Game, IllegalMoveError, InvalidSquareError, SetupError


def test_the_start_and_a_first_move() -> None:
    game = Game()
    assert (game.rows, game.cols, game.rules, game.win) == (8, 8, "full", "most")
    assert game.turn == "black" and not game.is_over and game.winner is None
    assert game.legal_moves() == ["d3", "c4", "f5", "e6"]
    assert game.legal_coords() == [(2, 3), (3, 2), (4, 5), (5, 4)]
    assert game.moves_of("white") == ["e3", "f4", "c5", "d6"]
    assert game.coords_of("black") == game.legal_coords()
    assert game.play("d3") == 1
    assert game.score == (4, 1)
    assert game.turn == "white"
    assert game.last_move == "d3" and game.moves == ["d3"]
    assert game.play((4, 2)) == 1  # c5
    assert game.moves == ["d3", "c5"]


def test_squares_in_every_typed_form() -> None:
    for form in ["d3", "D3", "3d", "3 4", (2, 3)]:
        game = Game()
        game.play(form)
        assert game.last_move == "d3"


def test_board_list_and_snapshot() -> None:
    game = Game(4, 6)
    assert game.board == [
        [".", ".", ".", ".", ".", "."],
        [".", ".", "W", "B", ".", "."],
        [".", ".", "B", "W", ".", "."],
        [".", ".", ".", ".", ".", "."],
    ]
    rows = game.board
    rows[0][0] = "B"
    assert game.board[0][0] == ".", "board is a copy"
    snap = game.snapshot
    assert isinstance(snap, tuple) and isinstance(snap[0], tuple)
    assert {snap: 1}[game.snapshot] == 1
    game.play(game.legal_moves()[0])
    assert game.snapshot != snap


def test_errors_are_value_errors_with_the_library_message() -> None:
    game = Game()
    with pytest.raises(IllegalMoveError, match="^a1 is not a legal move for black: it flips no discs$"):
        game.play("a1")
    with pytest.raises(IllegalMoveError, match="^d4 is already occupied$"):
        game.play("d4")
    with pytest.raises(InvalidSquareError, match="^column z is off the board: columns are a to h$"):
        game.play("z9")
    with pytest.raises(InvalidSquareError, match=r"^\(8, 0\) is outside the 8x8 board"):
        game.play((8, 0))
    with pytest.raises(InvalidSquareError):
        game.play(3)  # type: ignore[arg-type]
    with pytest.raises(SetupError, match="^a 5x8 board is not supported"):
        Game(5, 8)
    with pytest.raises(SetupError, match="^expected a rule set, full or simple"):
        Game(rules="fast")
    with pytest.raises(SetupError, match="^expected a win rule"):
        Game(win="more")
    with pytest.raises(SetupError, match="^expected a colour"):
        Game(first="red")
    for error in (IllegalMoveError, InvalidSquareError, SetupError, othello.RecordError):
        assert issubclass(error, ValueError)
    assert game.moves == [], "a refused move changes nothing"


def test_undo_copy_and_equality() -> None:
    game = Game()
    game.play("d3")
    twin = game.copy()
    game.play("c5")
    assert twin.moves == ["d3"]
    assert game.undo() == "c5"
    assert game == twin
    assert copy.deepcopy(game) == game and copy.copy(game) == game
    assert game.undo() == "d3"
    assert game == Game()
    with pytest.raises(IndexError, match="no move to take back"):
        game.undo()


def play_out(game: Game, rng: random.Random) -> Game:
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game


def test_passes_are_automatic_and_pass_names_them() -> None:
    # The fixture's first game has a white pass before its last move.
    rng = random.Random(7)
    seen_pass = False
    for _ in range(200):
        game = Game(4, 4)
        while not game.is_over:
            mover = game.turn
            game.play(rng.choice(game.legal_moves()))
            if game.turn == mover:
                seen_pass = True
                game.pass_()  # names the automatic pass
                with pytest.raises(IllegalMoveError, match="has a legal move and cannot pass"):
                    game.pass_()
        with pytest.raises(IllegalMoveError, match="the game is over"):
            game.pass_()
    assert seen_pass
    game = Game()
    with pytest.raises(IllegalMoveError, match="^black has a legal move and cannot pass$"):
        game.pass_()


@pytest.mark.parametrize("rows", [4, 6, 8, 10, 12, 14, 16])
@pytest.mark.parametrize("cols", [4, 8, 16])
@pytest.mark.parametrize("rules", ["full", "simple"])
def test_every_size_and_rule_set_plays_to_the_end(rows: int, cols: int, rules: str) -> None:
    rng = random.Random(rows * 100 + cols)
    game = Game(rows, cols, rules=rules)
    every = [(row, col) for row in range(rows) for col in range(cols)]
    while not game.is_over:
        # The move lists agree with the library's check of each square.
        coords = game.legal_coords()
        assert coords == [square for square in every if game.is_legal(square)]
        assert game.legal_moves() == game.moves_of(game.turn or "")
        assert game.legal_mask() == sum(1 << (row * cols + col) for row, col in coords)
        game.play(rng.choice(coords))
    black, white = game.score
    assert game.winner == ("black" if black > white else "white" if white > black else "draw")
    assert game.legal_moves() == [] and game.turn is None
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play((0, 0))


def test_fewest_discs_wins_and_white_first() -> None:
    game = play_out(Game(6, 6, win="fewest", first="white"), random.Random(3))
    black, white = game.score
    if black != white:
        assert game.winner == ("black" if black < white else "white")
    assert Game(first="white").turn == "white"


def test_simple_rules_flip_the_neighbours() -> None:
    game = Game(rules="simple")
    # Under SIMPLE a move next to an opponent disc is legal and flips every neighbour.
    assert len(game.legal_moves()) > 4
    assert "c3" in game.legal_moves()


def test_from_protocol_reads_header_grid_and_moves() -> None:
    text = "4\n4\nB\n>\n. . . .\n. W B .\n. B W .\n. . . .\n1 2\n"
    game = Game.from_protocol(text)
    assert game.moves == ["b1"]
    assert game.to_protocol() == text
    with pytest.raises(SetupError, match="line 1"):
        Game.from_protocol("3\n")


def test_from_board_any_position() -> None:
    rows = ["....", ".WB.", ".BW.", "...."]
    game = Game.from_board(rows, first="white")
    assert game.turn == "white"
    assert game == Game(4, 4, first="white")
    with pytest.raises(SetupError, match="row 2, column 1: expected a cell B, W or ., found \"Z\""):
        Game.from_board(["....", "Z...", "....", "...."])


def test_records_round_trip() -> None:
    game = Game.from_record("f5 d6 c3 d3 c4")
    assert game.moves == ["f5", "d6", "c3", "d3", "c4"]
    assert game.to_movelist().strip() == "f5d6c3d3c4"
    assert "B[f5]W[d6]B[c3]W[d3]B[c4]" in game.to_ggf()
    assert Game.from_record(game.to_ggf()) == game
    assert othello.read_records(game.to_ggf())[0].moves == game.moves
    with pytest.raises(othello.RecordError):
        Game.from_record("f5 z9")
    with pytest.raises(othello.RecordError, match="cannot hold"):
        Game(6, 8).to_ggf()


def test_read_records_from_files(fixtures) -> None:  # type: ignore[no-untyped-def]
    two = othello.read_records(fixtures / "records" / "two-games.ggf")
    assert len(two) == 2
    assert othello.read_records(str(fixtures / "records" / "two-games.ggf"))[1] == two[1]
    obf = othello.read_records(fixtures / "records" / "positions.obf")
    assert obf and all(game.rows == 8 for game in obf)
    assert othello.read_records(b"f5d6\n")[0].moves == ["f5", "d6"]
    protocol = othello.read_records("4\n4\nB\n>\n. . . .\n. W B .\n. B W .\n. . . .\n1 2\n")
    assert protocol[0].moves == ["b1"] and protocol[0].rows == 4


def test_read_records_wthor_and_a_real_move_list() -> None:
    wthor = SHARED / "data" / "real" / "wthor" / "WTH_1977.wtb"
    if not wthor.exists():
        pytest.skip("needs ../shared/data/real")
    games = othello.read_records(wthor)
    assert len(games) == (wthor.stat().st_size - 16) // 68
    assert all(len(game.moves) > 40 for game in games)
    final = othello.read_records(SHARED / "data" / "real" / "woc2007-final-g1.txt")[0]
    assert final.is_over and final.moves[:3] == ["f5", "d6", "c5"]


def test_str_and_repr_show_the_board() -> None:
    game = Game(4, 4)
    assert str(game) == (
        "   a b c d\n"
        " 1 . * . .\n"
        " 2 * W B .\n"
        " 3 . B W *\n"
        " 4 . . * .\n"
        "black to move; black 2, white 2"
    )
    assert repr(game) == "<othello.Game 4x4 full, most discs win, 0 moves, black to move, 2-2>"
    game.play("b1")
    assert repr(game) == "<othello.Game 4x4 full, most discs win, 1 move, white to move, 4-1>"
    assert "\n" not in repr([Game(), Game(6, 8)])


def test_bitboards() -> None:
    black, white = Game().bitboards()
    assert black == (1 << 28) | (1 << 35)
    assert white == (1 << 27) | (1 << 36)
    big_black, _ = Game(16, 16).bitboards()
    assert big_black == (1 << (7 * 16 + 8)) | (1 << (8 * 16 + 7))
