"""Seed 001's classes as its examples and tests use them, output byte for byte."""

import pytest

from Othello import Board, Othello, Player

START = """\
* * * * * * * * * *
* . . . . . . . . *
* . . . . . . . . *
* . . . . . . . . *
* . . . O X . . . *
* . . . X O . . . *
* . . . . . . . . *
* . . . . . . . . *
* . . . . . . . . *
* * * * * * * * * *
"""

FIGURE_2 = """\
* * * * * * * * * *
* . . . . . . . . *
* . . . . . . . . *
* . . . . . . . . *
* . . . O X . . . *
* . . . X X X . . *
* . . . . . . . . *
* . . . . . . . . *
* . . . . . . . . *
* * * * * * * * * *
Here are the valid moves: [(4, 6), (6, 4), (6, 6)]
"""

AFTER_BLACK_6_5 = """\
* * * * * * * * * *
* . . . . . . . . *
* . . . . . . . . *
* . . . . . . . . *
* . . . O X . . . *
* . . . X X . . . *
* . . . . X . . . *
* . . . . . . . . *
* . . . . . . . . *
* * * * * * * * * *
"""

AFTER_WHITE_6_6 = """\
* * * * * * * * * *
* . . . . . . . . *
* . . . . . . . . *
* . . . . . . . . *
* . . . O X . . . *
* . . . X O . . . *
* . . . . X O . . *
* . . . . . . . . *
* . . . . . . . . *
* * * * * * * * * *
"""


def players() -> Othello:
    game = Othello()
    game.create_player("Helen", "white")
    game.create_player("Leo", "black")
    return game


def test_figure_1_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    Othello().print_board()
    assert capsys.readouterr().out == START


def test_figure_2_make_move_then_an_invalid_move(capsys: pytest.CaptureFixture[str]) -> None:
    game = players()
    game.make_move("black", (5, 6))
    game.print_board()
    assert game.play_game("white", (7, 6)) == "Invalid move"
    game.print_board()
    out = capsys.readouterr().out
    # The figure shows the first board and the message; the second board is the first again.
    assert out == FIGURE_2 + FIGURE_2.split("Here")[0]


def test_figure_3_two_valid_moves_print_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    game = Othello()
    game.print_board()
    game.create_player("Helen", "white")
    game.create_player("Leo", "black")
    assert game.play_game("black", (6, 5)) is None
    game.print_board()
    assert game.play_game("white", (6, 6)) is None
    game.print_board()
    assert capsys.readouterr().out == START + AFTER_BLACK_6_5 + AFTER_WHITE_6_6


def test_available_positions_are_sorted_tuples() -> None:
    game = players()
    assert game.return_available_positions("black") == [(3, 4), (4, 3), (5, 6), (6, 5)]
    assert game.return_available_positions("white") == [(3, 5), (4, 6), (5, 3), (6, 4)]
    game.make_move("black", (5, 6))
    assert game.return_available_positions("white") == [(4, 6), (6, 4), (6, 6)]


def test_make_move_returns_the_board_itself() -> None:
    game = players()
    board = game.make_move("black", (5, 6))
    assert board is game._board.get_board()
    assert len(board) == 10 and all(len(row) == 10 for row in board)
    assert board[5][4:7] == ["X", "X", "X"]
    assert game._board[5][6] == "X"
    assert board[0] == ["*"] * 10 and [row[9] for row in board] == ["*"] * 10


def test_board_indexing_and_counts() -> None:
    board = Board()
    assert board[4][4] == "O" and board[4][5] == "X"
    assert board.get_board()[5][4] == "X"
    assert board.piece_counts() == {"black": 2, "white": 2}
    board.update_board("black", 3, 4)
    assert board[3][4] == "X" and board[4][4] == "X"
    assert board.piece_counts() == {"black": 4, "white": 1}
    assert len(board) == 10 and list(board)[0] == ["*"] * 10


def test_player_keeps_name_and_colour() -> None:
    player = Player("Helen", "white")
    assert player.get_player_name() == "Helen"
    assert player.get_color() == "white"
    assert not [name for name in vars(player) if not name.startswith("_")]


def test_data_members_are_private() -> None:
    game = players()
    assert all(name.startswith("_") for name in vars(game))
    assert all(name.startswith("_") for name in vars(Board()))


def test_a_colour_without_moves_is_told_so(capsys: pytest.CaptureFixture[str]) -> None:
    game = players()
    board = game._board.get_board()
    for r in range(1, 9):
        for c in range(1, 9):
            board[r][c] = "."
    # A white corner disc and a black disc apart: no line to close for either colour.
    board[1][1], board[3][3] = "O", "X"
    assert game.return_available_positions("white") == []
    assert game.play_game("white", (1, 3)) == "Invalid move"
    assert capsys.readouterr().out == "Here are the valid moves: []\n"
    assert game.return_available_positions("black") == []


def test_game_end_prints_counts_and_returns_the_winner(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = players()
    board = game._board.get_board()
    for r in range(1, 9):
        for c in range(1, 9):
            board[r][c] = "X"
    board[1][1], board[1][2], board[1][3] = ".", "O", "O"
    board[8][8] = "."
    # Black plays a1's neighbour line: (1, 1) flips (1, 2) and (1, 3). Then (8, 8) is empty
    # and nobody can take anything: the game is over.
    result = game.play_game("black", (1, 1))
    assert capsys.readouterr().out == "Game is ended white piece: 0 black piece: 63\n"
    assert result == "Winner is black player: Leo"


def test_return_winner_white_and_tie() -> None:
    game = players()
    board = game._board.get_board()
    board[4][5] = "O"
    assert game.return_winner() == "Winner is white player: Helen"
    board[4][5] = "X"
    assert game.return_winner() == "It's a tie"
    board[4][4] = "X"
    assert game.return_winner() == "Winner is black player: Leo"


def test_a_whole_game_ends_with_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    game = players()
    color = "black"
    result = None
    for _ in range(200):
        moves = game.return_available_positions(color)
        other = "white" if color == "black" else "black"
        if not moves:
            color = other
            continue
        result = game.play_game(color, moves[-1])
        if result is not None:
            break
        color = other
    out = capsys.readouterr().out
    counts = game._board.piece_counts()
    assert out == f"Game is ended white piece: {counts['white']} black piece: {counts['black']}\n"
    assert result == game.return_winner()
    assert result.startswith(("Winner is", "It's a tie"))
