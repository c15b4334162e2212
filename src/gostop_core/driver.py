"""The one loop that plays a hand with bots: :class:`HandDriver`.

Every place that lets bots play (``play_game``, the arena, ``Match``, ``gostop
play``, the web table, the learning environments) drives the hand through it,
so every bot gets the same hooks in the same order:

* ``start_hand(view)`` once, after the deal;
* ``choose(view, legal)`` on its turns;
* ``observe(view, move)`` before another seat's move is played (only on bots
  whose class overrides the no-op hook: computing a view for every move costs
  time in a fast arena);
* ``end_hand(view, outcome)`` once, when the hand is over.

A seat may hold no bot (``None``): a person, or the learner of an environment;
its moves come from outside through :meth:`HandDriver.push`, and the bots still
observe them.

What happens when a bot fails is the **error policy** of its seat:

``"raise"``
    nothing is caught: the bot's exception reaches the caller (``play_game``);
``"trusted"``
    a :class:`~gostop_core.errors.BotError` (a program that crashed, timed out,
    broke the protocol) forfeits, any other exception is a bug and is raised
    (gostop's own bots in the arena);
``"forfeit"``
    any exception, an answer that is not a legal move, or (with ``move_time``)
    an answer later than the time per move forfeits (outside bots, the table's
    bots); a failure in ``end_hand`` is ignored (the hand is over).

A forfeit raises :class:`BotForfeit` (a ``BotError``) naming the seat and the
reason, with the game unchanged.  The driver imports only the game API."""

from __future__ import annotations

import time
from typing import Any, Callable, Sequence

from gostop_core.errors import BotError, BotTimeoutError, IllegalBotMoveError
from gostop_core.game import Game, Outcome
from gostop_core.moves import Move

__all__ = ["HandDriver", "BotForfeit", "ERROR_POLICIES", "wants_hook"]

#: The error policies a seat may have (module docstring).
ERROR_POLICIES = ("raise", "trusted", "forfeit")


class BotForfeit(BotError):
    """The bot of :attr:`seat` lost the hand by forfeit; :attr:`reason` is the
    short label (``"timeout"``, ``"crash"``, ``"illegal"``, ``"error"``, ...)
    and :attr:`detail` the whole explanation (``"reason: what happened"``)."""

    def __init__(self, seat: int, reason: str, detail: str):
        self.seat = seat
        self.reason = reason
        self.detail = detail
        super().__init__(f"seat {seat} forfeits: {detail}")


def wants_hook(bot: Any, hook: str) -> bool:
    """Whether ``bot`` defines ``hook`` beyond the no-op of the Bot interface
    (whose hooks carry ``default_hook = True``); a duck-typed bot (no Bot
    subclass) wants every hook it has."""
    fn = getattr(type(bot), hook, None)
    return fn is not None and not getattr(fn, "default_hook", False)


def _detail(exc: BaseException) -> str:
    """The forfeit's explanation: ``reason: message`` for a BotError, else
    ``error: Type: message`` (one line, at most 300 characters)."""
    text = " ".join(str(exc).split())
    if isinstance(exc, BotError):
        return f"{exc.reason}: {text}"[:300]
    return f"error: {type(exc).__name__}: {text}"[:300]


class HandDriver:
    """Plays one hand of ``game`` with ``bots`` (one per seat, ``None`` for a
    seat whose moves come from outside), each seat under its error policy
    (one name for every seat, or one per seat; ``move_time`` in seconds for the
    ``"forfeit"`` seats' time check, which allows ``grace`` seconds more: an
    outside program's pipe).  ``exit_forfeits`` makes a ``"forfeit"`` bot's
    ``SystemExit`` a forfeit too (an arena worker, where no signal raises it);
    elsewhere it is how SIGTERM ends the program, and goes through.
    ``on_ignored(seat, exc)`` hears of the failures the policy lets pass (a
    ``"forfeit"`` bot failing in ``end_hand``), e.g. to log them.  :meth:`play` runs the bots to the end;
    the step-wise calls (:meth:`start`, :meth:`choose`, :meth:`push`) serve
    loops with people in them."""

    def __init__(self, game: Game, bots: Sequence[Any], policy: str | Sequence[str] = "raise",
                 move_time: float | None = None, grace: float = 0.0,
                 exit_forfeits: bool = False,
                 on_ignored: Callable[[int, BaseException], None] | None = None):
        if len(bots) != game.players:
            raise ValueError(f"need {game.players} bots, one per seat (None for a seat "
                             f"played from outside), got {len(bots)}")
        policies = [policy] * game.players if isinstance(policy, str) else list(policy)
        if len(policies) != game.players or any(p not in ERROR_POLICIES for p in policies):
            raise ValueError(f"policy: one of {', '.join(ERROR_POLICIES)}, or one per seat")
        self.game = game
        self.bots = list(bots)
        self.policies = policies
        self.move_time = move_time
        self.grace = grace
        self.exit_forfeits = exit_forfeits
        self.on_ignored = on_ignored
        self.started = False
        self.ended = False
        self._watching = [s for s, b in enumerate(self.bots)
                          if b is not None and wants_hook(b, "observe")]

    # ------------------------------------------------------------ failures
    def _fail(self, seat: int, exc: BaseException) -> BotForfeit:
        """The exception to raise for ``exc`` of seat ``seat``'s bot: a forfeit,
        or ``exc`` itself where the seat's policy lets it through."""
        policy = self.policies[seat]
        if isinstance(exc, BotForfeit):
            return exc
        if policy == "raise" or (policy == "trusted" and not isinstance(exc, BotError)):
            raise exc
        reason = exc.reason if isinstance(exc, BotError) else "error"
        return BotForfeit(seat, reason, _detail(exc))

    def _call(self, seat: int, hook: str, *args: Any) -> Any:
        try:
            return getattr(self.bots[seat], hook)(*args)
        except (Exception, SystemExit) as exc:
            if isinstance(exc, SystemExit) and not (
                    self.exit_forfeits and self.policies[seat] == "forfeit"):
                raise
            raise self._fail(seat, exc) from exc

    # ------------------------------------------------------------ the hand
    def start(self) -> None:
        """The ``start_hand`` hooks (once; :meth:`choose` and :meth:`push` call
        it when it was not called)."""
        if self.started:
            return
        self.started = True
        for seat, bot in enumerate(self.bots):
            if bot is not None:
                self._call(seat, "start_hand", self.game.view(seat))
        if self.game.is_over():  # a hand can end at the deal (a showdown)
            self._end()

    def bot_to_move(self) -> Any:
        """The bot of the seat to move, ``None`` when that seat has no bot or
        the hand is over."""
        turn = self.game.turn
        return None if turn is None else self.bots[turn]

    def choose(self) -> Move:
        """The move of the bot whose turn it is (the game is not changed: play
        it with :meth:`push`).  Raises :class:`BotForfeit` when the bot fails
        under its seat's policy."""
        self.start()
        game = self.game
        seat = game.turn
        if seat is None or self.bots[seat] is None:
            raise ValueError("no bot is to move" if seat is not None else "the hand is over")
        legal = list(game.legal_moves)
        started = time.monotonic()
        move = self._call(seat, "choose", game.view(seat), legal)
        if self.policies[seat] == "forfeit":
            if not isinstance(move, Move) or move not in legal:
                raise self._fail(seat, IllegalBotMoveError(
                    f"the bot answered {move!r}, which is not one of the legal moves"))
            if self.move_time is not None and time.monotonic() - started > self.move_time + self.grace:
                raise self._fail(seat, BotTimeoutError(f"no move within {self.move_time:g} s"))
        return move

    def push(self, move: Move | str) -> Any:
        """Play ``move`` for the seat to move (a bot's answer or a person's
        decision): the other seats' bots observe it first; when the hand is
        over, the ``end_hand`` hooks follow.  Returns the move's events.  A
        bot failing in ``observe`` forfeits under its policy (the move is then
        not played)."""
        self.start()
        game = self.game
        turn = game.turn
        if turn is None:
            raise ValueError("the hand is over")
        if not isinstance(move, Move):
            move = Move.from_str(move)
        if move not in game.legal_moves:  # checked before anyone observes it
            game.push(move)  # raises the engine's own IllegalMoveError
        self.announce(move)
        events = game.push(move)
        if game.is_over():
            self._end()
        return events

    def announce(self, move: Move) -> None:
        """Only the ``observe`` hooks of ``move``, about to be played by the
        seat to move, for a loop that plays its moves itself (an OpenSpiel
        state that owns the game); :meth:`finish` then ends the hand."""
        self.start()
        turn = self.game.turn
        for seat in self._watching:
            if seat != turn:
                self._call(seat, "observe", self.game.view(seat), move)

    def finish(self) -> None:
        """The ``end_hand`` hooks, once the hand is over (for a loop that plays
        its moves itself; :meth:`push` and :meth:`play` call them)."""
        if not self.game.is_over():
            raise ValueError("the hand is not over")
        self._end()

    def _end(self) -> None:
        if self.ended:
            return
        self.ended = True
        outcome = self.game.outcome()
        assert outcome is not None
        for seat, bot in enumerate(self.bots):
            if bot is None:
                continue
            try:
                bot.end_hand(self.game.view(seat), outcome)
            except (Exception, SystemExit) as exc:
                if self.policies[seat] != "forfeit" or (
                        isinstance(exc, SystemExit) and not self.exit_forfeits):
                    raise
                if self.on_ignored is not None:
                    self.on_ignored(seat, exc)

    def play(self) -> Outcome:
        """Every remaining move by the bots, to the end of the hand; returns the
        outcome.  Raises :class:`BotForfeit` (the game as it stood) when a bot
        fails under its policy, ``ValueError`` when a seat without a bot is to
        move."""
        self.start()
        while not self.game.is_over():
            self.push(self.choose())
        self._end()
        outcome = self.game.outcome()
        assert outcome is not None
        return outcome

    def play_bots(self) -> None:
        """The bots' moves until a seat without a bot is to move or the hand is
        over (an environment's opponents, a table's bots)."""
        self.start()
        while self.bot_to_move() is not None:
            self.push(self.choose())

    def replace(self, seat: int, bot: Any) -> None:
        """Seat ``bot`` at ``seat`` in the middle of the hand (a table's greedy
        for a bot that failed): it gets ``start_hand`` with the seat's view now
        and every hook from here on."""
        self.bots[seat] = bot
        self._watching = [s for s, b in enumerate(self.bots)
                          if b is not None and wants_hook(b, "observe")]
        if bot is not None and self.started:
            self._call(seat, "start_hand", self.game.view(seat))

    def resync(self) -> None:
        """Tell the bots the hand again after moves were taken back
        (``game.pop()``): ``start_hand`` on the deal's view, then every move
        played since, observed by the other seats as if new."""
        game = self.game
        moves = list(game.move_stack)
        replay = game.copy()
        for _ in moves:
            replay.pop()
        self.started = True
        self.ended = False
        for seat, bot in enumerate(self.bots):
            if bot is not None:
                self._call(seat, "start_hand", replay.view(seat))
        for move in moves:
            turn = replay.turn
            for seat in self._watching:
                if seat != turn:
                    self._call(seat, "observe", replay.view(seat), move)
            replay.push(move)
        if game.is_over():
            self._end()
