"""Othello (Reversi) in Rust, for Python: the rules, game records and a strong engine.

Every even board from 4x4 to 16x16, the standard ("full") and simplified ("simple") rules,
"most" or "fewest" discs wins.

>>> from othello import Game, Engine
>>> game = Game()
>>> game.legal_moves()
['d3', 'c4', 'f5', 'e6']
>>> game.play("d3")
1
>>> game.score
(4, 1)
"""

from __future__ import annotations

import os
from typing import List, Union

from ._othello import (
    Engine,
    Game,
    IllegalMoveError,
    InvalidSquareError,
    MoveValue,
    RecordError,
    SearchResult,
    SetupError,
    perft,
)
from ._othello import read_records_bytes as _read_records_bytes

__all__ = [
    "Engine",
    "Game",
    "IllegalMoveError",
    "InvalidSquareError",
    "MoveValue",
    "RecordError",
    "SearchResult",
    "SetupError",
    "perft",
    "read_records",
]


def read_records(
    source: Union[str, bytes, "os.PathLike[str]"], rules: str = "full"
) -> List[Game]:
    """Every game of a record, as `Game` objects with their moves played.

    ``source`` is a path (``str`` naming an existing file, or any path-like object), the text
    of a record, or its bytes. The format is found from the content: a move list
    (``f5d6c3...``, one game per line), GGF, OBF position lines, the console protocol's input,
    or a WTHOR ``.wtb`` database. ``rules`` applies where the format names no rule set.
    Raises `RecordError` naming the line and column (or byte) of the first problem.
    """
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and os.path.isfile(source)
    ):
        with open(source, "rb") as file:
            data: Union[str, bytes] = file.read()
    else:
        data = source
    return _read_records_bytes(data, rules)
