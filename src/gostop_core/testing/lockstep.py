"""The compiled core and the pure-Python reference engine, kept in lockstep.

:class:`Lockstep` follows a :class:`~gostop_core.game.Game` with a
:class:`~gostop_core.testing.reference.ReferenceGame` of the same hand: every decision
pushed on the game is pushed on the reference too, and after each the two
engines must agree on the legal moves, on the whole state (the ``to_fields``
dicts) and on the events of the move; when the hand ends, on the outcome.  The
first disagreement raises :class:`EngineDisagreement`, naming the decisions so
far and what differs.  ``gostop play --reference`` uses it; the differential
tests (``tests/test_reference_diff.py``) check the same things on their own.

>>> from gostop_core import Game
>>> game = Game("casual", 2, seed=7)
>>> both = Lockstep(game)
>>> move = next(iter(game.legal_moves))
>>> both.push(move) is not None
True
>>> both.decisions
1
"""

from __future__ import annotations

from typing import Any, NoReturn, Sequence

from gostop_core.cards import CardSet
from gostop_core.errors import GoStopError
from gostop_core.game import Event, Game
from gostop_core.testing.reference import ReferenceGame, ReferenceGameError

__all__ = ["EngineDisagreement", "Lockstep", "reference_game"]


class EngineDisagreement(GoStopError):
    """The core and the reference engine disagree (a bug in one of them)."""


def reference_game(game: Game) -> ReferenceGame:
    """A reference engine in the state of ``game``.

    A game freshly dealt from a seed is dealt again by the reference itself (from
    the same rules, players, seed, dealer and nagari stakes), so the deal is its
    own; any other game (from a position string, or with moves made) is copied
    field by field."""
    if game.seed is not None and not game.move_stack:
        try:
            return ReferenceGame(game.rules, game.players, game.seed, game.dealer,
                                 game.stake_doublings)
        except ReferenceGameError as exc:
            raise EngineDisagreement(f"the reference engine cannot deal this hand: {exc}") from None
    return ReferenceGame.from_fields(game.rules, game.core_state.to_fields())


def _event_key(e: Event) -> tuple:
    return (e.kind, e.player, e.card, e.other, tuple(CardSet(e.cards).codes()))


def _differences(a: dict[str, Any], b: dict[str, Any]) -> str:
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    return "; ".join(f"{k}: core {a.get(k)!r}, reference {b.get(k)!r}" for k in keys[:3])


class Lockstep:
    """A game and its reference twin.  Push moves with :meth:`push` (or push on
    the game yourself and call :meth:`follow`); :meth:`finish` checks the outcome.

    ``decisions`` counts the decisions both engines agreed on."""

    def __init__(self, game: Game):
        self.game = game
        self.reference = reference_game(game)
        self.decisions = 0
        self.moves: list[str] = []
        where = "at the deal"
        self._check_state(where)
        if game.seed is not None and not game.move_stack:
            core = [_event_key(e) for e in game.deal_events()]
            ref = [tuple(e) for e in self.reference.deal_events]
            if core != ref:
                self._fail(where, f"deal events differ: core {core}, reference {ref}")
        self._check_moves(where)

    # ------------------------------------------------------------ checks
    def _where(self) -> str:
        if not self.moves:
            return "at the deal"
        last = self.moves[-1]
        return f"after decision {len(self.moves)} ({last})"

    def _fail(self, where: str, what: str) -> NoReturn:
        raise EngineDisagreement(f"the core and the reference engine disagree {where}: {what}")

    def _check_state(self, where: str) -> None:
        a, b = self.game.core_state.to_fields(), self.reference.to_fields()
        if a != b:
            self._fail(where, f"state differs ({_differences(a, b)})")

    def _check_moves(self, where: str) -> None:
        core = sorted(str(m) for m in self.game.legal_moves)
        ref = sorted(self.reference.legal_moves())
        if core != ref:
            self._fail(where, f"legal moves differ: core {' '.join(core) or '-'}, "
                              f"reference {' '.join(ref) or '-'}")

    # ------------------------------------------------------------ moves
    def push(self, move) -> Sequence[Event]:
        """Push ``move`` on the game, then follow it on the reference."""
        events = self.game.push(move)
        self.follow(self.game.peek(), events)
        return events

    def follow(self, move, events: Sequence[Event]) -> None:
        """The game has just made ``move`` with ``events``: make it on the
        reference and check that both engines agree."""
        text = str(move)
        self.moves.append(text)
        where = self._where()
        try:
            ref_events = [tuple(e) for e in self.reference.push(text)]
        except ReferenceGameError as exc:
            self._fail(where, f"the reference refuses {text}: {exc}")
        core_events = [_event_key(e) for e in events]
        if core_events != ref_events:
            self._fail(where, f"events differ: core {core_events}, reference {ref_events}")
        self._check_state(where)
        self._check_moves(where)
        if self.game.is_over():
            self.finish()
        self.decisions += 1

    def finish(self) -> None:
        """At the end of the hand: both engines must report the same outcome."""
        where = self._where()
        o, r = self.game.outcome(), self.reference.outcome()
        if o is None or r is None:
            self._fail(where, f"the hand is over for the {'core' if o else 'reference'} only")
        core = (o.winner, o.points, tuple(o.chips), o.reason, tuple(o.scores), tuple(o.go_counts))
        ref = (r.winner, r.points, r.chips, r.reason, r.scores, r.go_counts)
        if core != ref:
            self._fail(where, f"outcome differs: core {core}, reference {ref}")
