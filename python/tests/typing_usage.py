"""Uses every public name with its types, for `mypy --strict` (see test_typing.py)."""

from typing import List, Optional, Tuple

import othello
from Othello import Board, Othello, Player
from othello import Engine, Game, MoveValue, SearchResult

game: Game = Game(rows=8, cols=8, rules="full", win="most", first="black")
moves: List[str] = game.legal_moves()
coords: List[Tuple[int, int]] = game.legal_coords()
flipped: int = game.play("d3") + game.play((4, 2))
turn: Optional[str] = game.turn
score: Tuple[int, int] = game.score
over: bool = game.is_over
winner: Optional[str] = game.winner
board: List[List[str]] = game.board
snapshot: Tuple[Tuple[str, ...], ...] = game.snapshot
undone: str = game.undo()
twin: Game = game.copy()
ggf: str = twin.to_ggf() + twin.to_movelist()
games: List[Game] = othello.read_records("f5d6c3")
engine = Engine(hash_mb=16, threads=1)
result: SearchResult = engine.best_move(game, depth=2)
line: List[str] = result.pv
values: List[MoveValue] = engine.move_values(game, depth=1)
leaves: int = othello.perft(game, 3)

seed = Othello()
seed.create_player("Helen", "white")
seed.create_player("Leo", "black")
positions: List[Tuple[int, int]] = seed.return_available_positions("black")
grid: List[List[str]] = seed.make_move("black", (5, 6))
outcome: Optional[str] = seed.play_game("white", (7, 6))
text: str = seed.return_winner()
player = Player("Helen", "white")
counts = Board().piece_counts()
reader: othello.RecordReader = othello.iter_records("f5d6c3\nf5f6\n")
first: Game = next(reader)
bounded: SearchResult = Engine().best_move(Game(4, 4), level=2)
