"""Go-Stop as a PettingZoo AEC (agent-environment cycle) environment.

>>> from gostop_core.envs import aec_env
>>> env = aec_env(rules="casual", players=2)
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated else env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)

Agents are ``player_0`` ... ``player_{n-1}``, one per seat.  The agent to act
is always the seat whose decision it is (``player_{game.turn}``): a seat that
banks a bonus card, or calls Go, acts again at once, so the order is not a
fixed round.  Forced steps (the flip, steals, forced flip-only turns) run
inside the step that caused them.  Each observation is a dict with
``observation``, the seat's :meth:`~gostop_core.PlayerView.to_array`, and
``action_mask``, int8 over :mod:`gostop_core.envs.actions` (all zero for a seat
that is not to act).  Rewards arrive when the hand ends (see
:mod:`gostop_core.envs.rewards`).  A deal that ends the hand before any
decision (chongtong) is dealt again.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from gostop_core.envs.actions import NUM_ACTIONS, action_mask, check_rules, legal_actions
from gostop_core.envs.rewards import hand_rewards
from gostop_core.errors import IllegalMoveError
from gostop_core.game import ARRAY_LENGTH, Game
from gostop_core.rules import Rules

#: The highest value of any observation entry (a card count, the stock size).
OBS_HIGH = 50.0
#: Deals in a row that may end at once before the environment gives up.
MAX_VOID_DEALS = 1000


def observation_space() -> spaces.Dict:
    """The observation space shared by the adapters."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, OBS_HIGH, shape=(ARRAY_LENGTH,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
    })


def deal(rules: Rules, players: int, np_random: np.random.Generator) -> tuple[Game, int]:
    """A fresh hand with a deal seed drawn from ``np_random``, dealt again
    while the deal itself ends the hand; returns ``(game, seed)``."""
    for _ in range(MAX_VOID_DEALS):
        seed = int(np_random.integers(0, 2 ** 63))
        game = Game(rules, players, seed=seed)
        if not game.is_over():
            return game, seed
    raise RuntimeError("every deal ended the hand at once")  # pragma: no cover


def env(**kwargs):
    """The AEC environment wrapped as PettingZoo's classic games are: an illegal
    action ends the hand with reward -1 for the seat that made it
    (``TerminateIllegalWrapper``), out-of-range actions are asserted, and the
    call order is enforced."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv, EzPickle):
    """One hand of Go-Stop per episode under ``rules`` (a preset name or
    :class:`~gostop_core.Rules`) with ``players`` seats.  An illegal action
    raises :class:`~gostop_core.IllegalMoveError` here (use :func:`env` for
    the wrapped version that ends the hand instead)."""

    metadata = {"render_modes": ["ansi"], "name": "gostop_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, rules: Rules | str = "casual", players: int = 2,
                 render_mode: str | None = None):
        EzPickle.__init__(self, rules=rules, players=players, render_mode=render_mode)
        super().__init__()
        self.rules = rules if isinstance(rules, Rules) else Rules(rules)
        self.rules.check_players(players)
        check_rules(self.rules, players)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.players = players
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agents = self.possible_agents[:]
        space = observation_space()
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.game: Game | None = None
        #: The seed of the current deal: ``Game(rules, players, seed=deal_seed)``
        #: and the pushed moves rebuild the state.
        self.deal_seed: int | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        assert self.game is not None, "reset() first"
        mask = (action_mask(self.game) if self.game.turn == seat
                else np.zeros(NUM_ACTIONS, dtype=np.int8))
        return {"observation": self.game.view(seat).to_array(), "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.game, self.deal_seed = deal(self.rules, self.players, self.np_random)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.turn]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        move = legal_actions(self.game).get(int(action))
        if move is None:
            raise IllegalMoveError(f"action {action} is not legal for {agent} here")
        self._cumulative_rewards[agent] = 0.0
        self.game.push(move)
        if self.game.is_over():
            result = hand_rewards(self.game)
            self.rewards = {a: float(result[p]) for p, a in enumerate(self.possible_agents)}
            self.terminations = {a: True for a in self.agents}
            self._accumulate_rewards()
            # the dead steps begin with the seat that acted last
        else:
            self._clear_rewards()
            self.agent_selection = self.possible_agents[self.game.turn]

    def render(self):
        """The whole table as text (a spectator's view, every hand shown)."""
        if self.render_mode is None:
            return None
        return "" if self.game is None else str(self.game)

    def close(self):
        pass
