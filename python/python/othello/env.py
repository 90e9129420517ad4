"""Othello as reinforcement-learning environments: Gymnasium (one colour against the engine)
and PettingZoo (two agents, AEC), on every even board from 4x4 to 16x16 and both rule sets.

Needs the optional extra: ``pip install "othello-rs[rl]"`` (numpy, gymnasium, pettingzoo).

Observations are planes of 0s and 1s, ``(3, rows, cols)`` int8: the discs of the player the
observation is for, the opponent's, and that player's legal moves. Actions are squares,
``row * cols + col``. A player without a legal move passes by itself, so every action is a
square. A move that is not legal ends the game: -1 for the player who made it (as
PettingZoo's ``TerminateIllegalWrapper`` does); a finished game gives +1 to the winner, -1 to
the loser, 0 for a draw.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError(
        "othello.env needs numpy, gymnasium and pettingzoo: "
        'pip install "othello-rs[rl]"'
    ) from error

from . import Engine, Game

__all__ = ["OthelloEnv", "OthelloAECEnv", "aec_env", "planes", "action_mask"]

_COLORS = ("black", "white")
_LETTER = {"black": "B", "white": "W"}


def planes(game: Game, color: str) -> "np.ndarray":
    """The observation of ``game`` for ``color``: its discs, the opponent's discs and its
    legal moves (none when it is not to move), as ``(3, rows, cols)`` int8."""
    board = np.array(game.board)
    own = board == _LETTER[color]
    other = board == _LETTER["white" if color == "black" else "black"]
    legal = np.zeros(board.shape, dtype=bool)
    if game.turn == color:
        for row, col in game.legal_coords():
            legal[row, col] = True
    return np.stack([own, other, legal]).astype(np.int8)


def action_mask(game: Game, color: str) -> "np.ndarray":
    """1 for each square ``color`` may play now (all 0 when it is not to move), flat."""
    mask = np.zeros(game.rows * game.cols, dtype=np.int8)
    if game.turn == color:
        for row, col in game.legal_coords():
            mask[row * game.cols + col] = 1
    return mask


def _result(game: Game, color: str) -> int:
    winner = game.winner
    if winner is None or winner == "draw":
        return 0
    return 1 if winner == color else -1


class OthelloEnv(gymnasium.Env):  # type: ignore[misc]
    """One colour against the engine at ``level`` (1 to 6, as ``othello play``'s computer).

    ``color`` is the agent's: ``"black"``, ``"white"``, or ``"random"`` (drawn at each reset
    from the reset's seed). ``info["action_mask"]`` (and `action_masks()`) gives the legal
    moves. The engine's moves are part of each step.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        rows: int = 8,
        cols: int = 8,
        rules: str = "full",
        level: int = 1,
        color: str = "black",
        render_mode: Optional[str] = None,
    ) -> None:
        if color not in ("black", "white", "random"):
            raise ValueError(f'color must be "black", "white" or "random", found {color!r}')
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', found {render_mode!r}")
        if not 1 <= level <= 6:
            raise ValueError(f"level must be from 1 to 6, found {level}")
        self._settings = (rows, cols, rules)
        self.game = Game(rows, cols, rules)
        self.level = level
        self.color_choice = color
        self.color = "black" if color == "random" else color
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, 1, (3, rows, cols), dtype=np.int8)
        self.action_space = spaces.Discrete(rows * cols)
        self._engine = Engine(hash_mb=4)

    def _observation(self) -> "np.ndarray":
        return planes(self.game, self.color)

    def _info(self) -> Dict[str, Any]:
        return {"action_mask": action_mask(self.game, self.color), "moves": len(self.game.moves)}

    def action_masks(self) -> "np.ndarray":
        """The legal moves as a flat 0/1 array (the name sb3-contrib's maskable agents use)."""
        return action_mask(self.game, self.color)

    def _engine_moves(self) -> None:
        opponent = "white" if self.color == "black" else "black"
        while self.game.turn == opponent:
            self.game.play(self._engine.best_move(self.game, level=self.level).move)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple["np.ndarray", Dict[str, Any]]:
        super().reset(seed=seed)
        self.game = Game(*self._settings)
        # A fresh table each game: the same seed plays the same game.
        self._engine = Engine(hash_mb=4)
        if self.color_choice == "random":
            self.color = _COLORS[int(self.np_random.integers(2))]
        self._engine_moves()
        return self._observation(), self._info()

    def step(self, action: int) -> Tuple["np.ndarray", float, bool, bool, Dict[str, Any]]:
        if self.game.is_over:
            raise RuntimeError("the game is over: call reset()")
        row, col = divmod(int(action), self.game.cols)
        if not 0 <= int(action) < self.game.rows * self.game.cols or not self.game.is_legal(
            (row, col)
        ):
            info = self._info()
            info["illegal_move"] = True
            return self._observation(), -1.0, True, False, info
        self.game.play((row, col))
        self._engine_moves()
        terminated = self.game.is_over
        reward = float(_result(self.game, self.color)) if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return str(self.game)
        return None


class OthelloAECEnv(AECEnv):  # type: ignore[misc]
    """Two agents, ``"black"`` and ``"white"``, taking turns (PettingZoo's AEC API).

    Each observation is a dict, as PettingZoo's classic games have it: ``"observation"``
    (the planes) and ``"action_mask"``. The agent to move is the game's player to move, so
    after a pass the same agent moves again. Use `aec_env` for the environment with
    PettingZoo's usual wrappers (illegal moves end the game with -1, order enforced).
    """

    metadata = {
        "render_modes": ["ansi"],
        "name": "othello_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self, rows: int = 8, cols: int = 8, rules: str = "full", render_mode: Optional[str] = None
    ) -> None:
        super().__init__()
        self._settings = (rows, cols, rules)
        self.game = Game(rows, cols, rules)
        self.render_mode = render_mode
        self.possible_agents: List[str] = list(_COLORS)
        self.agents = self.possible_agents[:]
        squares = rows * cols
        self.action_spaces = {agent: spaces.Discrete(squares) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, (3, rows, cols), dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, (squares,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }

    def observation_space(self, agent: str) -> "spaces.Space[Any]":
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> "spaces.Space[Any]":
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, "np.ndarray"]:
        return {"observation": planes(self.game, agent), "action_mask": action_mask(self.game, agent)}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        self.game = Game(*self._settings)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: Dict[str, Dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.game.turn or "black"

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        row, col = divmod(int(action), self.game.cols)
        self.game.play((row, col))
        if self.game.is_over:
            for color in self.agents:
                self.rewards[color] = _result(self.game, color)
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = "white" if agent == "black" else "black"
        else:
            self.agent_selection = self.game.turn or agent
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return str(self.game)
        return None

    def close(self) -> None:
        pass


def aec_env(**kwargs: Any) -> AECEnv:
    """`OthelloAECEnv` with PettingZoo's wrappers for board games: an illegal move ends the
    game with -1 for the agent that made it, an action out of range is an error, and the
    calls must come in order."""
    env: AECEnv = OthelloAECEnv(**kwargs)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
