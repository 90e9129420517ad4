"""What a first call or a wrong argument gets: a bounded search, a file read as a file, games
taken one at a time, and a typed exception (never a panic, an overflow or silent clamping)."""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import othello
from conftest import FIXTURES
from othello import Engine, Game


def test_the_first_call_anyone_writes_is_a_bounded_search() -> None:
    # With no depth, time or level: level 5, the command line's hints (8 plies, 10 M nodes).
    result = Engine().best_move(Game())
    assert result.move in Game().legal_moves()
    assert not result.exact and result.depth <= 8
    assert result.nodes <= 10_000_000
    values = Engine().move_values(Game(10, 10))
    assert len(values) == 4 and not any(value.exact for value in values)
    assert Engine().best_move(Game(), level=1).move in Game().legal_moves()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda e: e.best_move(Game(), level=0), "level must be from 1 to 6, found 0"),
        (lambda e: e.best_move(Game(), level=7), "level must be from 1 to 6, found 7"),
        (lambda e: e.best_move(Game(), depth=3, level=2), "not both"),
        (lambda e: e.best_move(Game(), depth=-1), "depth must be from 1 to 128, found -1"),
        (lambda e: e.best_move(Game(), depth=2**40), "depth must be from 1"),
        (lambda e: e.best_move(Game(), time=1e20), "time must be a positive number"),
        (lambda e: e.best_move(Game(), depth=1, time=1e19), "time must be a positive number"),
        (lambda e: e.best_move(Game(), time=float("nan")), "time must be a positive number"),
        (lambda e: e.move_values(Game(), time=float("inf")), "time must be a positive number"),
    ],
)
def test_search_limits_are_checked(call, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        call(Engine(hash_mb=1))


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: Engine(threads=0), ValueError, "threads must be from 1 to 256, found 0"),
        (lambda: Engine(threads=10**6), ValueError, "threads must be from 1 to 256"),
        (lambda: Engine(hash_mb=-1), ValueError, "hash_mb must be from 1 to 1048576, found -1"),
        (lambda: Engine(hash_mb=0), ValueError, "hash_mb must be from 1"),
        (lambda: Engine(seed=-1), ValueError, "seed must be from 0"),
        (lambda: Game(-4, 4), othello.SetupError, "-4x4"),
        (lambda: Game(18, 18), othello.SetupError, "an 18x18 board is not supported"),
        (lambda: Game(8, 7), othello.SetupError, "an 8x7 board is not supported"),
    ],
)
def test_arguments_are_checked_before_any_work(make, error, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=message):
        make()


def test_perft_checks_its_threads_before_starting_any() -> None:
    before = len(os.listdir("/proc/self/task")) if sys.platform == "linux" else 0
    with pytest.raises(ValueError, match="threads must be from 1 to 256, found 1451"):
        othello.perft(Game(), 3, threads=1451)
    with pytest.raises(ValueError, match="threads must be from 1 to 256, found 0"):
        othello.perft(Game(), 3, threads=0)
    with pytest.raises(ValueError, match="depth must be from 0"):
        othello.perft(Game(), -1)
    if sys.platform == "linux":
        assert len(os.listdir("/proc/self/task")) <= before + 1


class _Wrong(random.Random):
    def __init__(self, value: object) -> None:
        super().__init__(1)
        self.value = value

    def randrange(self, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        return self.value


@pytest.mark.parametrize("value", [99, -1, 2**70, "a", 1.5])
def test_a_random_generator_out_of_range_is_a_value_error(value: object) -> None:
    game = Game()
    with pytest.raises(ValueError, match=r"rng.randrange\(4\) returned"):
        game.play_random(_Wrong(value))
    assert game.moves == []


def test_no_panic_reaches_python() -> None:
    # Whatever is left is an InternalError, which `except Exception` catches.
    assert issubclass(othello.InternalError, Exception)
    assert not issubclass(othello.InternalError, ValueError)


def test_a_path_is_read_as_a_file(tmp_path: Path) -> None:
    games = othello.read_records(FIXTURES / "records" / "two-games.ggf")
    assert len(games) == 2
    assert othello.read_records(os.fspath(FIXTURES / "records" / "two-games.ggf")) == games
    with pytest.raises(FileNotFoundError):
        othello.read_records("games.ggf")
    with pytest.raises(FileNotFoundError):
        othello.read_records(tmp_path / "missing.txt")
    with pytest.raises(FileNotFoundError):
        othello.read_records("no/such/folder/games")
    # Text still reads as text.
    assert othello.read_records("f5d6c3")[0].moves == ["f5", "d6", "c3"]


def test_records_are_taken_one_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "many.txt"
    path.write_text("f5d6c3d3c4\n" * 1000)
    reader = othello.iter_records(path)
    assert len(reader) == 1000
    first = next(reader)
    assert first.moves == ["f5", "d6", "c3", "d3", "c4"] and len(reader) == 999
    assert sum(1 for _ in reader) == 999


def test_a_record_over_the_command_lines_cap_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    with open(path, "wb") as file:
        file.truncate(othello.MAX_RECORD_BYTES + 1)
    with pytest.raises(othello.RecordError, match="larger than 64 MiB"):
        othello.read_records(path)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/status")
def test_games_from_a_record_are_compact(tmp_path: Path) -> None:
    # 20,000 whole games in about 26 MB above the interpreter (they took about 23 KB each before).
    game = Game()
    rng = random.Random(7)
    while not game.is_over:
        game.play_random(rng)
    path = tmp_path / "games.txt"
    path.write_text((game.to_movelist() + "\n") * 20_000)
    # The peak of this process's own memory (VmHWM; ru_maxrss would count the forking parent's).
    script = (
        "import othello, sys\n"
        "games = othello.read_records(sys.argv[1])\n"
        "peak = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1]\n"
        "print(len(games), peak)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, os.fspath(path)], capture_output=True, text=True, check=True
    ).stdout.split()
    count, max_rss_kib = int(out[0]), int(out[1])
    assert count == 20_000
    assert max_rss_kib < 80 * 1024, f"{max_rss_kib} KiB for 20,000 games"


def test_the_environments_name_their_extra_when_it_is_missing() -> None:
    script = (
        "import sys\n"
        "sys.modules['gymnasium'] = None\n"
        "import othello\n"
        "assert othello.Game().legal_moves()\n"
        "try:\n"
        "    import othello.env\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert 'pip install "othello-rs[rl]"' in out.stdout
