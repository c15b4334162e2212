"""Analysis from a seat's view, for every front end (the CLI's ``hint`` and
``analyse``, the web table's hint, the protocol, notebooks): the best bot's
ranking of a decision in the payout's units (:func:`hint_moves`), a principal
line as the seat may know it (:func:`public_line`), what a hand pays
(:func:`payout_unit`) and the review of a record's decisions
(:func:`review_record`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Callable, Iterable, Sequence

from gostop_core.bots.best import BestBot
from gostop_core.bots.expectimax import ExpectimaxBot, RankedMove
from gostop_core.bots.registry import BEST_SETTINGS
from gostop_core.errors import GoStopError
from gostop_core.game import Game, PlayerView
from gostop_core.moves import Move
from gostop_core.notation import parse_view
from gostop_core.records import Decision, Record, RecordVisitor, replay
from gostop_core.rules import Rules

__all__ = ["HINT_TIME_MS", "hint_moves", "public_line", "payout_unit", "THRESHOLDS",
           "mark_of", "Review", "Reviewer", "review_record"]


#: Default time budget of ``gostop hint`` in milliseconds: the search stops
#: sampling there even when the choice is still close.
HINT_TIME_MS = 800.0


def hint_moves(view: str | PlayerView, depth: int | None = None, samples: int | None = None,
               seed: int = 0, leaf: str | None = None,
               time_ms: float | None = None) -> list[RankedMove]:
    """Every legal move of the view's seat ranked by the best bot's search
    (``make_bot("best")``, with the network's playouts at the tables where
    ``best`` plays them; ``depth``, ``samples``, ``leaf`` override its
    settings, ``time_ms`` caps the search, default :data:`HINT_TIME_MS`, 0 for
    no cap), valued in the payout's units: the net points (chips, balance) the
    hand is expected to bring that seat from this decision on.  Chips already
    paid this hand (a first-turn ppeok...) are left out, and so is the bot's own
    preference for won hands (its win bonus), so a Stop is worth exactly what it
    pays.  The seat's own later decisions are valued per information set
    (``consistent``): a move followed by another decision of the seat (banking
    a bonus card, then a play) is worth the best it can expect after it.  The
    values are the search's alone: where ``best`` blends them with the
    network's Q before it chooses (2-player casual), the hint does not, so each
    value stays what the move is expected to bring, and its first move may be
    another than ``best``'s."""
    text = view if isinstance(view, str) else view.to_str()
    _, fields = parse_view(text)
    booked = fields["chips"][fields["seat"]]
    settings: dict[str, Any] = dict(BEST_SETTINGS, win_bonus=0.0, consistent=True, blend=False,
                                    time_ms=HINT_TIME_MS if time_ms is None else time_ms)
    for key, value in (("depth", depth), ("samples", samples), ("leaf", leaf)):
        if value is not None:
            settings[key] = value
    bot = BestBot(seed, **settings)
    return [replace(r, value=r.value - booked) for r in bot.analyse(text)]


def public_line(line: Sequence[str], names: Sequence[str] | None = None,
                known: Iterable[str] | None = None) -> list[str]:
    """A principal line as the seat may know it.  The search drew the other
    hands and the stock at random, so a card turned from the stock shows as
    ``flip``, another seat's move as that seat's name (``p1`` by default), and
    a move of the seat's own that names a card outside ``known`` (the cards it
    holds or sees now; default: every card) as ``?``."""
    seen = None if known is None else set(known)
    out = []
    for entry in line:
        if entry.startswith("flip:"):
            out.append("flip")
        elif entry.startswith("p") and ":" in entry and entry[1:entry.index(":")].isdigit():
            other = int(entry[1:entry.index(":")])
            out.append(names[other] if names is not None else f"p{other}")
        elif seen is not None and not _names_only(entry, seen):
            out.append("?")
        else:
            out.append(entry)
    return out


def _names_only(move: str, known: set[str]) -> bool:
    """Whether every card a move names is in ``known``."""
    try:
        m = Move.from_str(move)
    except (GoStopError, ValueError):
        return False
    return all(c is None or c in known for c in (m.card, m.target))


def payout_unit(rules: Rules) -> str:
    """What a hand pays under ``rules``: ``points`` (net points), ``chips`` or
    ``balance`` (family rules)."""
    return {1: "chips", 2: "balance"}.get(rules.payment, "points")


#: Loss (expected points) from which a decision is marked, worst first.
THRESHOLDS = (("blunder", 3.0), ("mistake", 1.5), ("inaccuracy", 0.5))


def mark_of(loss: float) -> str | None:
    """``blunder``, ``mistake``, ``inaccuracy`` or ``None`` for a loss."""
    for name, at in THRESHOLDS:
        if loss >= at:
            return name
    return None


@dataclass(frozen=True)
class Review:
    """One judged decision: ``index`` (0-based: the decisions before it, so that
    ``gostop replay --position-at INDEX`` shows where it was decided), the seat,
    the move played and the search's best, their values and the loss."""

    game: int
    index: int
    seat: int
    move: str
    best: str
    value_played: float
    value_best: float
    loss: float
    mark: str | None

    def as_dict(self) -> dict:
        return asdict(self)


class Reviewer(RecordVisitor):
    """Judges the decisions of ``seats`` (all when ``None``) that had a choice;
    ``on_decision()`` is called after each decision of those seats."""

    def __init__(self, bot: ExpectimaxBot, number: int, seats: set[int] | None = None,
                 on_decision: Callable[[], None] | None = None):
        self.bot = bot
        self.number = number
        self.seats = seats
        self.on_decision = on_decision
        self.reviews: list[Review] = []

    def before_decision(self, game: Game, index: int, decision: Decision) -> None:
        if self.seats is not None and decision.seat not in self.seats:
            return
        if game.legal_moves.count() > 1:
            played = Move.from_str(decision.move)
            ranked = self.bot.analyse(game.view(decision.seat))  # the seat's view only
            best = max(ranked, key=lambda r: r.value)
            value = next(r.value for r in ranked if r.move == played)
            loss = max(0.0, best.value - value)
            self.reviews.append(Review(self.number, index, decision.seat, decision.move,
                                       str(best.move), round(value, 3), round(best.value, 3),
                                       round(loss, 3), mark_of(loss)))
        if self.on_decision:
            self.on_decision()

    def result(self) -> list[Review]:
        return self.reviews


def review_record(record: Record, number: int = 1, seats: set[int] | None = None,
                  depth: int | None = None, samples: int | None = None, seed: int = 0,
                  on_decision: Callable[[], None] | None = None) -> list[Review]:
    """The reviews of a record's decisions (see :class:`Reviewer`)."""
    # consistent values: a move followed by the seat's own decision is worth the
    # best it can do after it, not the best of each sampled world
    bot = ExpectimaxBot(seed, depth=depth, samples=samples, win_bonus=0.0, consistent=True)
    return replay(record, Reviewer(bot, number, seats, on_decision))
