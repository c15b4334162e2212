"""The game API, in the shape of python-chess: a :class:`Game` with ``push``/``pop``,
lazy ``legal_moves``, ``outcome()``, per-turn event logs and player views."""

from __future__ import annotations

from dataclasses import dataclass



from gostop_core.arguments import rules_of, seat_number, whole_number
from gostop_core.cards import CARD_CODES, CardSet, card_month
from gostop_core.errors import (
    ArgumentTypeError, EmptyHistoryError, PositionError,
)
from gostop_core.gameloop import (
    Events, LegalMoves, game_is_over, game_legal_moves, game_push, move_of_code,
)
from gostop_core.movegen import (
    EVENT_NAMES, OVER, PHASE_NAMES,
)
from gostop_core.events import Event, _event  # noqa: F401  (Event is re-exported here)
from gostop_core.moves import Move
from gostop_core.state import CoreState
from gostop_core.notation import format_position, parse_position
from gostop_core.rules import Rules
from gostop_core.scoring import Score, score as score_pile
# PlayerView and its array layout live in gostop_core.view; re-exported here as before
from gostop_core.view import ARRAY_LENGTH, ARRAY_PLANES, ARRAY_SCALARS, PlayerView, seat_fields  # noqa: F401

_EV = {name: kind for kind, name in EVENT_NAMES.items()}


@dataclass(frozen=True)
class Turn:
    """One player's turn: its number, the player and everything that happened."""

    number: int
    player: int
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Outcome:
    """How a hand ended.  ``winner`` is ``None`` for a drawn hand.

    ``reason`` is ``stop``, ``last_turn_stop``, ``draw`` (nagari), ``chongtong``,
    ``three_ppeok`` or ``family``.  ``points`` is the winner's basic payment (its
    score after Goes; family rules: its balance).  ``chips`` is what each seat won
    (+) or paid (-) in this hand, special-event chips included (casual: the
    winner's score, nobody pays).  ``settlement`` explains a Stop's payment: the
    multiplier each opponent paid and why."""

    winner: int | None
    points: int
    scores: tuple[int, ...]
    go_counts: tuple[int, ...]
    reason: str
    chips: tuple[int, ...] = ()
    settlement: dict | None = None
    winner_score: Score | None = None

    def as_dict(self) -> dict:
        return {"winner": self.winner, "points": self.points, "scores": list(self.scores),
                "go_counts": list(self.go_counts), "reason": self.reason,
                "chips": list(self.chips), "settlement": self.settlement,
                "winner_score": self.winner_score.as_dict() if self.winner_score else None}

    def result(self) -> str:
        if self.reason == "family":
            return "balances " + ", ".join(f"player {p}: {c:+d}" for p, c in enumerate(self.chips))
        if self.winner is None:
            return "draw" if self.reason == "draw" else f"no winner ({self.reason})"
        return f"player {self.winner} wins {self.points}"

    def report(self, names: list[str] | None = None) -> list[str]:
        """A human-readable account: the winner, its points by category, each
        multiplier applied and why, and the chips each player paid or won."""
        def who(p: int) -> str:
            return names[p] if names else f"player {p}"
        lines = []
        if self.reason == "family":
            lines.append("the stock is gone: card points against the break-even target")
        elif self.winner is None:
            lines.append("nobody stopped: the hand is drawn (nagari)" if self.reason == "draw"
                         else f"the hand ended without a winner ({self.reason})")
        else:
            how = {"stop": "called Stop", "last_turn_stop": "reached the threshold on the last turn",
                   "chongtong": "held four of a month (chongtong)",
                   "three_ppeok": "made a third ppeok"}.get(self.reason, self.reason)
            lines.append(f"{who(self.winner)} {how}: {self.points} point(s)")
        if (self.winner is not None and self.winner_score is not None
                and self.reason in ("stop", "last_turn_stop")):
            lines += ["  " + line for line in self.winner_score.lines()]
            gos = self.go_counts[self.winner]
            if gos:
                lines.append(f"  {gos} Go(es): {self.points} point(s) in all")
        if self.settlement:
            for q, (pay, mult, why) in enumerate(zip(self.settlement["pay"],
                                                     self.settlement["multiplier"],
                                                     self.settlement["reasons"])):
                if q == self.winner:
                    continue
                reasons = ", ".join(_SETTLE_WORDS.get(w, w) for w in why) if why else "no multiplier"
                lines.append(f"  {who(q)}: pays {pay} (x{mult}: {reasons})")
        if self.chips:
            lines.append("chips: " + ", ".join(f"{who(p)} {c:+d}" for p, c in enumerate(self.chips)))
        return lines


# Plain words for the settlement's reasons (movegen.SETTLE_REASON_NAMES).
_SETTLE_WORDS = {
    "shake": "the winner shook", "bomb": "the winner's bomb counts as a shake",
    "nagari": "stake doubled by a drawn hand before", "double_joker": "the winner's double joker",
    "gwang_bak": "gwang-bak (no bright)", "gwang_bak_plus_two": "gwang-bak (+2 chips)",
    "pi_bak": "pi-bak (too little junk)", "mong_bak": "mong-bak (the winner's animals)",
    "go_bak": "go-bak (called Go and lost)", "pays_third": "also pays the third player's share",
    "covered_by_go_caller": "share paid by the Go caller",
}


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, (bool, int)):
        raise ArgumentTypeError(f"{name} must be a bool, got {type(value).__name__} {value!r}")
    return bool(value)


class Game:
    """One hand of Go-Stop.

    Games copy (:meth:`copy`, ``copy.copy``, ``copy.deepcopy``: an independent
    state) and pickle (as position strings and moves; :meth:`pop` works after
    loading).  Arguments of the wrong type raise
    :class:`~gostop_core.errors.ArgumentTypeError`.

    >>> g = Game(rules="casual", players=2, seed=1)
    >>> m = next(iter(g.legal_moves)); _ = g.push(m); _ = g.pop()
    """

    def __init__(self, rules: Rules | str = "casual", players: int = 2, seed: int = 0,
                 dealer: int = 0, stake_doublings: int = 0):
        if type(players) is not int:
            players = whole_number(players, "players")
        if type(seed) is not int:
            seed = whole_number(seed, "seed")
        if type(dealer) is not int:
            dealer = whole_number(dealer, "dealer")
        if type(stake_doublings) is not int:
            stake_doublings = whole_number(stake_doublings, "stake_doublings")
        rules = rules if type(rules) is Rules else rules_of(rules)
        self._core, deal_events = CoreState.deal(rules, players, seed, dealer, stake_doublings)
        self.seed: int | None = seed
        self._start = self._core.snapshot()
        self._deal_events = Events(deal_events, 0)
        self._stack: list[tuple[Move, bytes, Events]] = []

    @classmethod
    def from_position(cls, text: str) -> "Game":
        """A game from a position string (no move history)."""
        rules, fields = parse_position(text)
        try:
            core = CoreState.from_fields(rules, fields)
        except ValueError as exc:
            raise PositionError(str(exc)) from None
        if core.phase != OVER and core.count_moves() == 0:
            # e.g. the seat to move holds no card: the hand could never go on
            raise PositionError(f"seat {fields['to_move']} is to move but has no legal move, "
                                "and the hand is not over", "hands")
        return cls.from_core_state(core)

    @classmethod
    def from_core_state(cls, core: CoreState) -> "Game":
        """A game over ``core`` (a :class:`~gostop_core.state.CoreState`, e.g.
        ``CoreState.from_fields(rules, fields)``), which it then owns: its
        starting position is the state as it is, with no move to take back and
        no deal events."""
        if not isinstance(core, CoreState):
            raise ArgumentTypeError(f"core: a CoreState, not {type(core).__name__}")
        g = cls.__new__(cls)
        g._core = core
        g.seed = None
        g._start = core.snapshot()
        g._deal_events = Events([], 0)
        g._stack = []
        return g

    #: The old private spelling, for code written against it.
    _from_core = from_core_state

    @property
    def core_state(self) -> CoreState:
        """The compiled state this game steps (:class:`~gostop_core.state.CoreState`),
        for tools that read it directly (``to_fields()``, ``divide``, the
        learning adapters).  It is the game's own: change it only through
        :meth:`push` and :meth:`pop`."""
        return self._core

    # ---------------------------------------------------------------- moves
    # The hot methods are Cython functions (gameloop.pyx) bound here as methods:
    # a Python method around each would cost a frame per decision.
    legal_moves = property(game_legal_moves,
                           doc="The legal moves: a lazy, live :class:`LegalMoves` view.")
    push = game_push
    is_over = game_is_over

    def is_legal(self, move) -> bool:
        return move in self.legal_moves

    def push_str(self, text: str) -> Move:
        m = Move.from_str(text)
        self.push(m)
        return m

    def pop(self) -> Move:
        """Take back the last move; returns it."""
        if not self._stack:
            raise EmptyHistoryError("no move to take back")
        m, before, _ = self._stack.pop()
        self._core.restore(before)
        return m

    def peek(self) -> Move:
        if not self._stack:
            raise EmptyHistoryError("no move played yet")
        return self._stack[-1][0]

    @property
    def move_stack(self) -> list[Move]:
        return [m for m, _, _ in self._stack]

    def _illegal_reason(self, m: Move) -> str:
        phase = self.phase
        legal = ", ".join(str(x) for x in self.legal_moves)
        seat = self._core.to_move
        if phase == "flip" and m.kind != "flip":
            why = f"player {seat} must choose what the flipped {self.flip_card} takes"
        elif phase == "showdown" and m.kind not in ("accept", "refuse"):
            why = f"player {seat} must accept or refuse the showdown"
        elif phase == "gostop" and m.kind not in ("go", "stop"):
            why = f"player {seat} must call go or stop"
        elif phase == "play" and m.kind in ("go", "stop", "flip"):
            why = f"player {seat} must play a card"
        elif m.card and m.kind in ("play", "bonus") and m.card not in self.hand(seat):
            why = f"{m.card} is not in player {seat}'s hand"
        elif m.kind == "play" and m.target is None:
            why = f"{m.card} matches several field cards: name the one to take, e.g. {m.card}/<card>"
        elif (m.kind == "play" and m.card is not None and m.target is not None
              and m.target in self.field and card_month(m.target) == card_month(m.card)
              and Move("play", m.card) in self.legal_moves):
            why = f"{m.card} has no choice to make here: write {m.card}"
        elif m.kind == "play":
            why = f"{m.target} is not a field card that {m.card} can take"
        elif m.kind == "bomb":
            why = f"no bomb of month {m.month}: it needs three of the month in hand and the fourth on the field"
        elif m.kind == "shake":
            why = f"no shake of month {m.month}: it needs three of the month in hand, shown once"
        elif m.kind == "fliponly":
            why = "no optional flip-only turn is owed here"
        elif m.kind == "showdown":
            why = f"{m.card} is no other player's win-card in player {seat}'s hand (or showdown is off)"
        elif phase == "showdown":
            why = f"player {seat} must accept or refuse the showdown"
        else:
            why = "not legal here"
        return f"illegal move {m}: {why} (legal: {legal})"

    # ---------------------------------------------------------------- state
    @property
    def rules(self) -> Rules:
        return self._core.rules

    @property
    def players(self) -> int:
        return self._core.nplayers

    @property
    def dealer(self) -> int:
        return self._core.dealer

    @property
    def turn(self) -> int | None:
        """The seat to decide, ``None`` once the hand is over (as python-chess's
        ``board.turn``; :attr:`turns` is a count, not a seat)."""
        return None if self._core.phase == OVER else self._core.to_move

    @property
    def to_move(self) -> int | None:
        """The seat to decide (:attr:`turn`), by the name a view gives it
        (``PlayerView.to_move``)."""
        return self.turn

    @property
    def phase(self) -> str:
        """``play``, ``flip`` (choose what the flipped card takes), ``gostop`` or ``over``."""
        return PHASE_NAMES[self._core.phase]

    @property
    def flip_card(self) -> str | None:
        c = self._core.flip_card
        return None if c is None else CARD_CODES[c]

    @property
    def turns(self) -> int:
        """How many turns were completed this hand (a count: the seat to move
        is :attr:`turn`)."""
        return self._core.turns

    @property
    def field(self) -> CardSet:
        return CardSet(self._core.field)

    def _seat(self, player: object) -> int:
        return seat_number(player, self._core.nplayers, "player")

    def hand(self, player: int) -> CardSet:
        return CardSet(self._core.hand(self._seat(player)))

    def captured(self, player: int) -> CardSet:
        return CardSet(self._core.captured(self._seat(player)))

    def stock(self) -> list[str]:
        """The stock, top card first (hidden information: for analysis only)."""
        return [CARD_CODES[c] for c in self._core.stock()]

    @property
    def stock_count(self) -> int:
        return len(self._core.stock())

    def go_count(self, player: int) -> int:
        return self._core.go_count(self._seat(player))

    def flip_only_turns(self, player: int) -> int:
        """Forced flip-only turns the player still owes (after a bomb)."""
        return self._core.flip_only(self._seat(player))

    def score(self, player: int) -> Score:
        """The score of the player's captured pile, with its breakdown."""
        return score_pile(self.captured(self._seat(player)), self.rules)

    def threshold(self) -> int:
        return self.rules.threshold(self.players)

    def outcome(self) -> Outcome | None:
        """``None`` while the hand is on."""
        if not self.is_over():
            return None
        n = self.players
        winner = self._core.winner
        reason = self._core.end_reason or ("draw" if winner is None else "stop")
        settlement = None
        winner_score = None
        if winner is not None and reason in ("stop", "last_turn_stop"):
            winner_score = self.score(winner)
            if self.rules.payment == 1:  # each opponent pays
                settlement = self._core.settlement(winner)
        return Outcome(winner, self._core.points,
                       tuple(self._core.score(p) for p in range(n)),
                       tuple(self._core.go_count(p) for p in range(n)), reason,
                       tuple(self._core.chips(p) for p in range(n)), settlement, winner_score)

    def perft(self, depth: int, bulk: bool = True) -> int:
        """Leaves at exactly ``depth`` decisions from here (see docs/perft.md)."""
        return self._core.perft(whole_number(depth, "depth"), _flag(bulk, "bulk"))

    def divide(self, depth: int, bulk: bool = True) -> dict[Move, int]:
        """Perft split by the first move."""
        return {move_of_code(code): n for code, n in
                self._core.divide(whole_number(depth, "depth"), _flag(bulk, "bulk"))}

    def stop_value(self) -> dict | None:
        """In the Go/Stop phase: what a Stop now would bring the player to move
        (``{"base", "score", "pay", "multiplier", "reasons"}``); else ``None``."""
        if self.phase != "gostop":
            return None
        return self._core.settlement(self._core.to_move)

    def chips(self, player: int) -> int:
        """Chips the player won (+) or paid (-) so far in this hand."""
        return self._core.chips(self._seat(player))

    def shaken_months(self, player: int) -> list[int]:
        return self._core.shaken_months(self._seat(player))

    @property
    def sitter(self) -> int | None:
        """Gwangpalli: the seat sitting out this hand (its hand is out of play)."""
        return self._core.sitter

    @property
    def stake_doublings(self) -> int:
        """Nagari doublings carried into this hand by a match."""
        return self._core.stake_doublings

    # ---------------------------------------------------------------- logs
    def events(self) -> list[Event]:
        """Every event since the deal, in order."""
        out: list[Event] = list(self._deal_events)
        for _, _, evs in self._stack:
            out.extend(evs)
        return out

    def turn_log(self) -> list[Turn]:
        """The events grouped by turn (the deal's events are turn 0's prelude)."""
        turns: list[Turn] = []
        current: list[Event] = []
        number = -1
        for ev in self.events():
            if ev.kind == "dealt_bonus":
                continue
            if number < 0:
                number = ev.turn
            if ev.turn != number:
                turns.append(Turn(number, current[0].player, tuple(current)))
                current, number = [], ev.turn
            current.append(ev)
        if current:
            turns.append(Turn(number, current[0].player, tuple(current)))
        return turns

    def deal_events(self) -> list[Event]:
        return list(self._deal_events)

    # ---------------------------------------------------------------- copies and notation
    def copy(self, stack: bool = True) -> "Game":
        """An independent copy: its own state, the same start and, unless
        ``stack=False``, the same move stack (so :meth:`pop` works on it)."""
        g = type(self).from_core_state(self._core.copy())
        g.seed = self.seed
        g._deal_events = self._deal_events  # immutable: shared
        g._start = self._start
        if stack:
            g._stack = list(self._stack)  # entries are immutable: shared
        return g

    def __copy__(self) -> "Game":
        return self.copy()

    def __deepcopy__(self, memo: dict) -> "Game":
        return self.copy()

    def __reduce__(self):
        """Pickles as position strings and moves, not as C memory: the state under
        the move stack, the moves (replayed on loading, so :meth:`pop` works), the
        start position, the seed and the deal's events.  Loading checks that the
        replay reaches the pickled position."""
        base = self._stack[0][1] if self._stack else self._core.snapshot()
        state = {"format": 1, "base": self._position_of(base),
                 "moves": [m.code for m, _, _ in self._stack],
                 "position": self.position(), "start": self._position_of(self._start),
                 "seed": self.seed, "deal_events": self._deal_events.raw()}
        return (_unpickle_game, (type(self), state))

    def _position_of(self, snapshot: bytes) -> str:
        core = self._core.copy()
        core.restore(snapshot)
        return format_position(self.rules, core.to_fields())

    def position(self) -> str:
        """The full state as a position string (see docs/notation.md)."""
        return format_position(self.rules, self._core.to_fields())

    def view(self, player: int) -> "PlayerView":
        """What ``player`` may see."""
        return PlayerView(self, self._seat(player))

    def __eq__(self, other) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._core == other._core

    def __hash__(self):
        return hash(self._core)

    def __repr__(self) -> str:
        return f"Game.from_position({self.position()!r})"

    def __str__(self) -> str:
        lines = [f"{self.rules.preset} rules, {self.players} players, dealer {self.dealer}, "
                 f"phase {self.phase}, stock {self.stock_count}"]
        lines.append(f"field: {self.field}")
        for p in range(self.players):
            mark = "*" if self.turn == p else " "
            lines.append(f"{mark}{p} hand: {self.hand(p)} | captured: {self.captured(p)} | "
                         f"score {self._core.score(p)} | go {self.go_count(p)}")
        return "\n".join(lines)


def _unpickle_game(cls: type[Game], state: dict) -> Game:
    """Rebuild a pickled :class:`Game` (see :meth:`Game.__reduce__`)."""
    if state.get("format") != 1:
        raise PositionError(f"unknown pickled game format {state.get('format')!r}")
    g = cls.from_position(state["base"])
    for code in state["moves"]:
        g.push(code)
    if g.position() != state["position"]:
        raise PositionError("the pickled moves do not lead to the pickled position")
    if state["start"] != state["base"]:  # else from_position already set it
        g._start = cls.from_position(state["start"])._core.snapshot()
    g.seed = state["seed"]
    g._deal_events = Events(list(map(tuple, state["deal_events"])), 0)
    return g
