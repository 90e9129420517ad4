"""Seed 001's text-based Othello: the classes ``Player``, ``Board`` and ``Othello``.

The board is the 10x10 list of the assignment: ``*`` edges on rows and columns 0 and 9,
``X`` black, ``O`` white, ``.`` empty; positions are ``(row, column)`` pairs from 1 to 8.
The rules are those of the ``othello`` package (the Rust library); this module only adapts the
names and the text.

>>> from Othello import Othello
>>> game = Othello()
>>> game.create_player("Helen", "white")
>>> game.create_player("Leo", "black")
>>> game.return_available_positions("black")
[(3, 4), (4, 3), (5, 6), (6, 5)]
"""

from othello import Game as _Game
from othello import IllegalMoveError as _IllegalMoveError

__all__ = ["Board", "Othello", "Player"]

_EDGE = "*"
_PIECES = {"black": "X", "white": "O"}


class Player:
    """A player: a name and a piece colour, ``"black"`` or ``"white"``."""

    def __init__(self, player_name, color):
        """A player called ``player_name`` playing the ``color`` pieces."""
        self._player_name = player_name
        self._color = color

    def get_player_name(self):
        """The player's name."""
        return self._player_name

    def get_color(self):
        """The player's piece colour, ``"black"`` or ``"white"``."""
        return self._color


class Board:
    """The 10x10 board with its ``*`` edges; ``board[row][column]`` reads a square."""

    def __init__(self):
        """The start: ``O`` at (4, 4) and (5, 5), ``X`` at (4, 5) and (5, 4)."""
        self._board = [[_EDGE] * 10]
        for _ in range(8):
            self._board.append([_EDGE] + ["."] * 8 + [_EDGE])
        self._board.append([_EDGE] * 10)
        self._board[4][4] = self._board[5][5] = _PIECES["white"]
        self._board[4][5] = self._board[5][4] = _PIECES["black"]

    def get_board(self):
        """The board itself: the 10x10 list of one-character strings."""
        return self._board

    def __getitem__(self, row):
        """Row ``row`` of the board, so that ``board[row][column]`` is a square."""
        return self._board[row]

    def __len__(self):
        """The number of rows, edges included: 10."""
        return len(self._board)

    def __iter__(self):
        """The rows, edges included."""
        return iter(self._board)

    def _game(self, color):
        """The 8x8 position as a game of the ``othello`` package, ``color`` to move."""
        cells = [row[1:9] for row in self._board[1:9]]
        return _Game.from_board(cells, first=color)

    def available_positions(self, color):
        """The ``(row, column)`` squares where ``color`` may play, sorted."""
        moves = self._game(color).coords_of(color)
        return [(row + 1, column + 1) for row, column in moves]

    def is_game_over(self):
        """Whether neither colour can move."""
        return self._game("black").is_over

    def update_board(self, color, row, column):
        """Places a ``color`` piece at (``row``, ``column``) and flips the pieces it captures."""
        game = self._game(color)
        if game.turn != color:
            raise _IllegalMoveError(f"{color} has no legal move")
        game.play((row - 1, column - 1))
        letters = {"B": _PIECES["black"], "W": _PIECES["white"], ".": "."}
        for r, cells in enumerate(game.board, start=1):
            for c, cell in enumerate(cells, start=1):
                self._board[r][c] = letters[cell]

    def piece_counts(self):
        """The number of pieces of each colour: ``{"black": n, "white": n}``."""
        black, white = self._game("black").score
        return {"black": black, "white": white}


class Othello:
    """A game of Othello between two people, on a ``Board`` named ``_board``."""

    def __init__(self):
        """A new game at the start position, with no players yet."""
        self._players = []
        self._board = Board()

    def print_board(self):
        """Prints the board, edges included: one row per line, cells separated by spaces."""
        for row in self._board.get_board():
            print(" ".join(row))

    def create_player(self, player_name, color):
        """Adds a player called ``player_name`` with the ``color`` pieces."""
        self._players.append(Player(player_name, color))

    def _player_name(self, color):
        """The name of the player with the ``color`` pieces (the last one created)."""
        for player in reversed(self._players):
            if player.get_color() == color:
                return player.get_player_name()
        return ""

    def return_winner(self):
        """``"Winner is white player: NAME"``, ``"Winner is black player: NAME"`` or
        ``"It's a tie"``, by the number of pieces on the board."""
        counts = self._board.piece_counts()
        if counts["white"] > counts["black"]:
            return "Winner is white player: " + self._player_name("white")
        if counts["black"] > counts["white"]:
            return "Winner is black player: " + self._player_name("black")
        return "It's a tie"

    def return_available_positions(self, color):
        """The ``(row, column)`` positions where ``color`` may move now, sorted."""
        return self._board.available_positions(color)

    def make_move(self, color, piece_position):
        """Puts a ``color`` piece at ``piece_position`` (a valid position), flips the pieces
        it captures and returns the board as a 2D list."""
        row, column = piece_position
        self._board.update_board(color, row, column)
        return self._board.get_board()

    def play_game(self, player_color, piece_position):
        """Moves for ``player_color`` at ``piece_position`` if it is a valid move.

        An invalid position prints the valid ones and returns ``"Invalid move"``; a move that
        ends the game prints the piece counts and returns the winner (``return_winner``).
        """
        valid = self.return_available_positions(player_color)
        if tuple(piece_position) not in valid:
            print("Here are the valid moves:", valid)
            return "Invalid move"
        self.make_move(player_color, piece_position)
        if self._board.is_game_over():
            counts = self._board.piece_counts()
            print(
                f"Game is ended white piece: {counts['white']} black piece: {counts['black']}"
            )
            return self.return_winner()
        return None
