"""Learning environments over the Go-Stop engine.

* :class:`VectorGame`: many games stepped in one call, in C (numpy in, numpy out).
* :func:`aec_env` / :func:`raw_env`: a PettingZoo AEC environment (needs ``pettingzoo``).
* ``gymnasium.make("gostop/GoStop-v0", opponent="greedy")``: a single-agent
  Gymnasium environment against a bot (needs ``gymnasium``; registered when
  this package is imported).
* ``import gostop_core.envs.openspiel``: the ``python_gostop`` OpenSpiel game
  (needs ``open_spiel``).

Every adapter shares the action table of :mod:`gostop_core.envs.actions` and
observes :meth:`gostop_core.PlayerView.to_array` of the seat to move.  The
framework packages are imported only when their adapter is used; install them
with ``pip install 'gostop[rl]'``.  See docs/envs.md.
"""

from __future__ import annotations

from gostop_core.envs.actions import (
    ACTION_NAMES, NUM_ACTIONS, action_mask, action_name, action_to_move, legal_actions,
    move_to_action,
)
from gostop_core.envs.rewards import hand_rewards
from gostop_core.envs.vector import VectorGame

ENV_ID = "gostop/GoStop-v0"


def aec_env(**kwargs):
    """The PettingZoo AEC environment, wrapped like PettingZoo's classic games
    (see :func:`gostop_core.envs.aec.env`)."""
    from gostop_core.envs.aec import env
    return env(**kwargs)


def raw_env(**kwargs):
    """The unwrapped PettingZoo AEC environment (:class:`gostop_core.envs.aec.raw_env`)."""
    from gostop_core.envs.aec import raw_env as _raw
    return _raw(**kwargs)


def _register_gymnasium() -> None:
    try:
        import gymnasium
    except ImportError:  # the rl extra is not installed: nothing to register
        return
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="gostop_core.envs.gym_env:GoStopEnv")


_register_gymnasium()

__all__ = ["VectorGame", "aec_env", "raw_env", "ENV_ID", "NUM_ACTIONS", "ACTION_NAMES",
           "action_name", "move_to_action", "action_to_move", "legal_actions", "action_mask",
           "hand_rewards"]
