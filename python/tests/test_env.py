"""The reinforcement-learning environments, through Gymnasium's and PettingZoo's own checkers."""

import pytest

np = pytest.importorskip("numpy", reason='the [rl] extra: pip install "othello-rs[rl]"')
pytest.importorskip("gymnasium", reason='the [rl] extra: pip install "othello-rs[rl]"')
pytest.importorskip("pettingzoo", reason='the [rl] extra: pip install "othello-rs[rl]"')

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from othello import Game  # noqa: E402
from othello.env import OthelloAECEnv, OthelloEnv, aec_env, planes  # noqa: E402


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"color": "white"}, {"color": "random"}, {"rows": 6, "cols": 10, "rules": "simple"}],
)
def test_the_gymnasium_environment_passes_check_env(kwargs) -> None:  # type: ignore[no-untyped-def]
    env = OthelloEnv(**kwargs)
    check_env(env, skip_render_check=True)


@pytest.mark.parametrize("size", [(4, 4), (8, 8), (6, 10)])
def test_the_pettingzoo_environment_passes_api_test_and_seed_test(size) -> None:  # type: ignore[no-untyped-def]
    rows, cols = size
    api_test(aec_env(rows=rows, cols=cols), num_cycles=200)
    api_test(OthelloAECEnv(rows=rows, cols=cols), num_cycles=200)
    seed_test(lambda: aec_env(rows=rows, cols=cols), num_cycles=200)


def test_a_whole_game_against_the_engine_with_legal_moves() -> None:
    env = OthelloEnv(level=1)
    observation, info = env.reset(seed=3)
    assert observation.shape == (3, 8, 8) and observation[2].sum() == 4
    total, done, steps = 0.0, False, 0
    rng = np.random.default_rng(3)
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, done, truncated, info = env.step(action)
        total += reward
        steps += 1
    assert total in (-1.0, 0.0, 1.0) and env.game.is_over and steps <= 32
    assert "illegal_move" not in info


def test_an_illegal_move_ends_the_game_with_minus_one() -> None:
    env = OthelloEnv()
    env.reset(seed=1)
    _, reward, terminated, _, info = env.step(0)  # a1 is never legal at the start
    assert (reward, terminated, info["illegal_move"]) == (-1.0, True, True)


def test_self_play_through_the_aec_api_ends_with_opposite_rewards() -> None:
    env = aec_env(rows=6, cols=6)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    finals = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            finals[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert set(finals) == {"black", "white"}
    assert finals["black"] == -finals["white"]


def test_planes_are_from_the_players_point_of_view() -> None:
    game = Game(4, 4)
    black, white = planes(game, "black"), planes(game, "white")
    assert (black[0] == white[1]).all() and (black[1] == white[0]).all()
    assert black[2].sum() == 4 and white[2].sum() == 0


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="color"):
        OthelloEnv(color="green")
    with pytest.raises(ValueError, match="level"):
        OthelloEnv(level=9)
