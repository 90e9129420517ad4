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
import re
from typing import List, Union

from ._othello import (
    Engine,
    Game,
    IllegalMoveError,
    InternalError,
    InvalidSquareError,
    MoveValue,
    RecordError,
    RecordReader,
    SearchResult,
    SetupError,
    perft,
)
from ._othello import iter_records_bytes as _iter_records_bytes

__all__ = [
    "Engine",
    "Game",
    "IllegalMoveError",
    "InternalError",
    "InvalidSquareError",
    "MoveValue",
    "RecordError",
    "RecordReader",
    "SearchResult",
    "SetupError",
    "MAX_RECORD_BYTES",
    "iter_records",
    "perft",
    "read_records",
]

#: The largest record read, as on the command line: 64 MiB.
MAX_RECORD_BYTES = 64 << 20

#: A name that can only be a file's: a folder separator, or an extension such as ``.ggf``.
_FILE_NAME = re.compile(r"[/\\]|\.[A-Za-z0-9]{1,5}$")

Source = Union[str, bytes, "os.PathLike[str]"]


def _record_bytes(source: Source) -> Union[str, bytes]:
    """The record's text or bytes: read from the file ``source`` names, or ``source`` itself."""
    if isinstance(source, os.PathLike):
        path: Union[str, "os.PathLike[str]", None] = source
    elif isinstance(source, str) and "\n" not in source and not source.startswith("(;"):
        if os.path.isfile(source) or _FILE_NAME.search(source.strip()):
            path = source
        else:
            path = None
    else:
        path = None
    if path is None:
        if len(source) > MAX_RECORD_BYTES:  # type: ignore[arg-type]
            raise RecordError(f"the record is larger than {MAX_RECORD_BYTES >> 20} MiB")
        return source  # type: ignore[return-value]
    with open(path, "rb") as file:  # FileNotFoundError, IsADirectoryError, ... as Python has them
        data = file.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{os.fspath(path)}: larger than {MAX_RECORD_BYTES >> 20} MiB")
    return data


def iter_records(source: Source, rules: str = "full") -> RecordReader:
    """The games of a record one at a time, as `Game` objects with their moves played.

    ``source`` is a path (a ``str`` that names a file, or any path-like object), the text of a
    record, or its bytes; a ``str`` that can only be a file name (``"games.ggf"``, ``"a/b"``)
    and names no file raises ``FileNotFoundError``. Records are read whole (at most 64 MiB, as
    on the command line) and kept as their moves; each `Game` is made when it is taken, so
    memory stays about the size of the file. The format is found from the content: a move
    list (``f5d6c3...``, one game per line), GGF, OBF position lines, the console protocol's
    input, or a WTHOR ``.wtb`` database. ``rules`` applies where the format names no rule set.
    Raises `RecordError` naming the line and column (or byte) of the first problem.
    """
    return _iter_records_bytes(_record_bytes(source), rules)


def read_records(source: Source, rules: str = "full") -> List[Game]:
    """Every game of a record as a list of `Game` objects (see `iter_records`, which takes
    them one at a time)."""
    return list(iter_records(source, rules))
