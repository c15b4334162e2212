"""Go-Stop as a single-agent Gymnasium environment against bots.

>>> import gymnasium, gostop_core.envs
>>> env = gymnasium.make("gostop/GoStop-v0", rules="casual", opponent="greedy")
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))

The learner plays seat ``seat`` (0 by default; ``None``: a seat drawn for each
hand); every other seat is played by a bot given by name (anything
:func:`gostop_core.bots.make_bot` accepts: ``"random"``, ``"greedy"``,
``"expectimax:depth=2"`` ...) or as a :class:`~gostop_core.bots.Bot` object.
One episode is one hand.  The bots move inside :meth:`GoStopEnv.step` until the
learner must decide again, so every step is one of the learner's decisions.

Observations are dicts like the AEC environment's (``observation``: the
learner's :meth:`~gostop_core.PlayerView.to_array`; ``action_mask``, int8 over
:mod:`gostop_core.envs.actions`); ``info["action_mask"]`` and
:meth:`GoStopEnv.action_masks` repeat the mask for libraries that read it there.
The reward is 0 until the hand ends, then the learner's result
(:mod:`gostop_core.envs.rewards`).  An illegal action never raises: it ends the
episode with reward ``illegal_penalty`` (default -10) and
``info["illegal_action"] = True``.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from gostop_core.bots import Bot, make_bot
from gostop_core.driver import HandDriver
from gostop_core.envs.actions import NUM_ACTIONS, action_mask, check_rules, legal_actions
from gostop_core.envs.aec import deal, observation_space
from gostop_core.envs.rewards import hand_rewards
from gostop_core.game import Game
from gostop_core.rules import Rules

#: The reward of an illegal action, unless the constructor says otherwise.
ILLEGAL_PENALTY = -10.0


class GoStopEnv(gymnasium.Env):
    """One hand of Go-Stop per episode, the learner at ``seat`` against
    ``opponent`` (a bot name or Bot, or a list of them, one per other seat)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, rules: Rules | str = "casual", players: int = 2,
                 opponent: str | Bot | list = "greedy", seat: int | None = 0,
                 illegal_penalty: float = ILLEGAL_PENALTY, render_mode: str | None = None):
        self.rules = rules if isinstance(rules, Rules) else Rules(rules)
        self.rules.check_players(players)
        check_rules(self.rules, players)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1} or None, got {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        opponents = list(opponent) if isinstance(opponent, (list, tuple)) else [opponent] * (players - 1)
        if len(opponents) != players - 1:
            raise ValueError(f"need {players - 1} opponents, got {len(opponents)}")
        for o in opponents:  # fail now on a bad name, not at the first reset
            if not isinstance(o, Bot):
                make_bot(o)
        self.players = players
        self.opponents = opponents
        self.seat = seat
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        self.deal_seed: int | None = None
        self._bots: dict[int, Bot] = {}
        self._driver: HandDriver | None = None
        self._learner = 0

    def _observe(self) -> dict:
        g = self.game
        assert g is not None
        return {"observation": g.view(self._learner).to_array(), "action_mask": action_mask(g)}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (for maskable policy libraries)."""
        return action_mask(self.game).astype(bool)

    def _run_bots(self) -> None:
        assert self._driver is not None
        self._driver.play_bots()

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        while True:
            self._learner = (self.seat if self.seat is not None
                             else int(self.np_random.integers(self.players)))
            others = [p for p in range(self.players) if p != self._learner]
            self._bots = {p: o if isinstance(o, Bot)
                          else make_bot(o, seed=int(self.np_random.integers(2 ** 31)))
                          for p, o in zip(others, self.opponents)}
            self.game, self.deal_seed = deal(self.rules, self.players, self.np_random)
            # the opponents play through the one hand driver (every hook, the
            # learner's moves observed); the learner's seat has no bot
            self._driver = HandDriver(self.game, [self._bots.get(p) for p in range(self.players)])
            self._driver.start()
            self._run_bots()
            if not self.game.is_over():  # the bots cannot end a hand before the learner moves
                break
        obs = self._observe()
        return obs, {"action_mask": obs["action_mask"], "seat": self._learner}

    def step(self, action):
        g = self.game
        if g is None or g.is_over():
            raise RuntimeError("the hand is over: call reset()")
        move = legal_actions(g).get(int(action)) if np.ndim(action) == 0 else None
        if move is None:
            obs = self._observe()
            return obs, self.illegal_penalty, True, False, {
                "illegal_action": True, "action_mask": obs["action_mask"], "seat": self._learner}
        assert self._driver is not None
        self._driver.push(move)
        self._run_bots()
        obs = self._observe()
        reward = float(hand_rewards(g)[self._learner]) if g.is_over() else 0.0
        return obs, reward, g.is_over(), False, {
            "illegal_action": False, "action_mask": obs["action_mask"], "seat": self._learner}

    def render(self):
        """The whole table as text (every hand shown)."""
        if self.render_mode == "ansi" and self.game is not None:
            return str(self.game)
        return None
