"""The ``learned`` bot: the expectimax search with the learned playout policy
and value (:mod:`gostop_core.bots.policy`, fitted by :mod:`gostop_core.bots.training`).

It is :class:`~gostop_core.bots.ExpectimaxBot` with a playout model: below the
root, the other seats' moves (``others``, on by default) and optionally the
bot's own playout moves (``own``) follow the learned policy instead of the
greedy one; ``cut`` K
ends each playout after K turns with the learned value; ``worlds`` W draws
every sampled deal among W deals by how likely the opponents' observed moves
were under the learned policy (the opponent model).  The bot sees only views:
the moves it learns from are those it is shown (:meth:`observe`, every move is
public), and the deals are sampled from its own view.

Settings by name: ``learned:samples=256,own=0,others=1,cut=0,worlds=1,temp=1,weights=PATH``
(also ``depth``, ``win``, ``halving``, ``time``, ``stop`` as for ``expectimax:``).
"""

from __future__ import annotations

from typing import Any

from gostop_core.bots.expectimax import ExpectimaxBot
from gostop_core.bots.policy import MAX_OBS, LearnedPolicy, load_weights
from gostop_core.bots.search import MAX_CUT, MAX_WORLDS
from gostop_core.bots.settings import Setting, settings_from_spec
from gostop_core.game import PlayerView
from gostop_core.moves import Move
from gostop_core.notation import parse_view
from gostop_core.rules import Rules

__all__ = ["LearnedBot", "learned_from_spec", "LEARNED_KEYS", "observed_decisions"]

_WEIGHTS_CACHE: dict[str | None, dict] = {}

# move kinds (gostop_core.movegen): a play, a bonus card banked, a bomb
_PLAY, _BONUS, _BOMB = 1, 2, 3


def _weights(path: str | None) -> dict:
    """The validated weights of ``path`` (read once per process)."""
    if path not in _WEIGHTS_CACHE:
        _WEIGHTS_CACHE[path] = load_weights(path)
    return _WEIGHTS_CACHE[path]


def observed_decisions(seen: list[tuple[str, int]], now: dict,
                       limit: int = MAX_OBS) -> list[tuple[dict, int, int]]:
    """The opponents' decisions a bot was shown this hand (``seen``: its view's
    text when another seat moved, and the move's code, oldest first) as an
    opponent model takes them: ``(fields, move, since)``, ``since`` the cards
    that seat laid down from its hand from then on (``now``: the bot's view
    fields now); the last ``limit``.  A seat's decisions before it banked a
    bonus card are left out: it drew a card nobody saw, so its earlier hand
    cannot be rebuilt."""
    out: list[tuple[dict, int, int]] = []
    since: dict[int, int] = {}
    stopped: set[int] = set()
    visible_now = now["field"]
    for pile in now["captured"]:
        visible_now |= pile
    for text, code in reversed(seen):
        fields = parse_view(text)[1]
        seat = fields["to_move"]
        if seat in stopped:
            continue
        kind = code >> 12
        card = (code >> 6) & 63
        laid = 0
        if kind in (_PLAY, _BONUS):
            laid = 1 << card
        elif kind == _BOMB:
            # the month's cards this seat held: unseen then, on the table now
            unseen_then = ~(fields["field"] | fields["hand"])
            for pile in fields["captured"]:
                unseen_then &= ~pile
            month = sum(1 << c for c in range(4 * (card - 1), 4 * card))
            laid = month & unseen_then & visible_now
        since[seat] = since.get(seat, 0) | laid
        if kind == _BONUS:
            stopped.add(seat)
            continue
        if len(out) < limit:
            out.append((fields, code, since[seat]))
    out.reverse()
    return out


class LearnedBot(ExpectimaxBot):
    """Expectimax search whose playouts follow the learned policy (the
    registry gives it the ``expectimax-v1`` settings); see the module docstring."""

    name = "learned"

    #: Defaults: the setting that measured best on the tuning deals (docs/strength.md):
    #: the other seats' moves in the search by the policy, the bot's own by greedy.
    OWN = False
    OTHERS = True

    #: The settings, declared once (gostop_core.bots.settings): the search's
    #: (those of ``expectimax:`` the learned bot takes) and the model's.
    SETTINGS = tuple(s for s in ExpectimaxBot.SETTINGS
                     if s.name in ("depth", "samples", "win", "halving", "time", "stop")) + (
        Setting("own", "own", "switch", OWN, "the policy plays the bot's own playout moves"),
        Setting("others", "others", "switch", OTHERS,
                "the policy plays the other seats' playout moves"),
        Setting("cut", "cut", "int", 0, "playout turns before the learned value (0: to the end)",
                0, MAX_CUT),
        Setting("worlds", "worlds", "int", 1,
                "deals drawn by the opponents' observed moves (1: off)", 1, MAX_WORLDS, cap=8),
        Setting("temp", "temperature", "float", None, "the policy's temperature "
                "(default: the weights')", 0.01, 100.0, live=False),
        Setting("weights", "weights", "path", None, "a weights file (default: the shipped one)",
                live=False),
    )

    def __init__(self, seed: int | None = None, weights: str | None = None,
                 own: bool | None = None, others: bool | None = None, cut: int = 0,
                 worlds: int = 1,
                 temperature: float | None = None, **settings: Any):
        super().__init__(seed, **settings)
        w = _weights(weights)
        self.weights = weights
        self.own = self.OWN if own is None else bool(own)
        self.others = self.OTHERS if others is None else bool(others)
        self.cut = int(cut)
        self.worlds = int(worlds)
        if not 0 <= self.cut <= MAX_CUT:
            raise ValueError(f"learned cut must be 0..{MAX_CUT} turns, got {cut}")
        if not 1 <= self.worlds <= MAX_WORLDS:
            raise ValueError(f"learned worlds must be 1..{MAX_WORLDS}, got {worlds}")
        #: The policy's temperature (the weights' own unless given).
        self.temperature = float(w["temperature"] if temperature is None else temperature)
        self.model = LearnedPolicy(w["policy"], w["value"], self.temperature, w["header"])
        self._capsule = self.model.capsule()
        self._seat: int | None = None
        self._seen: list[tuple[str, int]] = []

    # the opponent model's observations -------------------------------------------
    def start_hand(self, view: PlayerView) -> None:
        self._seat = view.seat
        self._seen = []

    def observe(self, view: PlayerView, move: Move) -> None:
        """Another seat played ``move`` when this bot's view was ``view``."""
        if self.worlds > 1 and view.to_move != view.seat:
            self._seen.append((view.to_str(), move.code))
            del self._seen[:-4 * MAX_OBS]

    def _observations(self, now: dict) -> list[tuple[dict, int, int]]:
        return observed_decisions(self._seen, now)

    def search_options(self, rules: Rules, fields: dict) -> dict[str, Any]:
        if self.worlds > 1:
            self.model.set_observations(rules, self._observations(fields))
        return {"model": self._capsule, "model_own": self.own, "model_others": self.others,
                "cutoff": self.cut, "worlds": self.worlds}


def learned_from_spec(spec: str, seed: int | None,
                      base: dict[str, Any] | None = None) -> LearnedBot:
    """A LearnedBot from ``key=value`` pairs separated by commas (its
    :data:`~LearnedBot.SETTINGS`), over the search settings ``base``."""
    return LearnedBot(seed, **settings_from_spec("learned", spec, LearnedBot.SETTINGS,
                                                 "learned:samples=128,worlds=8", base))


#: ``learned:key=value`` settings and the LearnedBot argument each sets (from
#: :data:`LearnedBot.SETTINGS`).
LEARNED_KEYS = {s.name: s.attribute for s in LearnedBot.SETTINGS}
