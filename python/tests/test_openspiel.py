"""Random 8x8 games played through this package and through OpenSpiel's `othello` agree move
for move: the same legal moves at every turn, the same passes and the same final returns."""

import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel (pip install open_spiel) is not installed here"
)

from othello import Game  # noqa: E402

PASS = 64  # OpenSpiel's pass action on 8x8
GAMES = 5000


def test_random_games_agree_with_openspiel_move_for_move() -> None:
    spiel = pyspiel.load_game("othello")
    rng = random.Random(2026)
    passes = 0
    for number in range(GAMES):
        state = spiel.new_initial_state()
        game = Game()
        while not state.is_terminal():
            legal = state.legal_actions()
            if legal == [PASS]:
                # OpenSpiel names the pass; the package made it by itself.
                assert game.turn != ("black" if state.current_player() == 0 else "white")
                state.apply_action(PASS)
                passes += 1
                continue
            assert game.turn == ("black" if state.current_player() == 0 else "white"), number
            ours = sorted(row * 8 + col for row, col in game.legal_coords())
            assert ours == legal, f"game {number}, after {game.moves}"
            action = rng.choice(legal)
            state.apply_action(action)
            game.play(divmod(action, 8))
        assert game.is_over, f"game {number}: OpenSpiel ended it, the package did not"
        black, white = state.returns()
        expected = {"black": (1.0, -1.0), "white": (-1.0, 1.0), "draw": (0.0, 0.0)}[game.winner]
        assert (black, white) == expected, f"game {number}, {game.score}"
    assert passes > 0  # the games went through passes too
