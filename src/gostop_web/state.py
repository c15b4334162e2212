"""What a browser is sent: a seat's :class:`~gostop_core.PlayerView` (or the
public part of one, for a watcher) as a JSON-ready dict.

Everything here is built from a ``PlayerView`` alone, never from a ``Game``:
a frame can hold only what the view holds, and a watcher's frame drops the
one private thing a view has, the seat's own hand (and what a Stop would
bring that seat)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from gostop_core import CardSet, Event, Move, Outcome, PlayerView, Rules
from gostop_core.cards import (
    CARD_CODES, MASK_BRIGHT, MASK_CHEONGDAN, MASK_CHODAN, MASK_GODORI, MASK_HONGDAN, card_month,
)
from gostop_core.bots.analysis import payout_unit
from gostop_core.display import PILES, bak_risks, group_captured, multipliers_in_force
from gostop_core.korean import bot_name_ko, name_ko, translate

from gostop_web.report import bak_words, hand_report, head_lines, multiplier_words

__all__ = ["view_state", "seat_view_state", "seat_states", "public_events", "outcome_state",
           "korean_names", "move_options", "PILES", "SETS"]

#: The sets whose progress is shown: name -> the cards of the set.
SETS = (("godori", MASK_GODORI), ("hongdan", MASK_HONGDAN), ("cheongdan", MASK_CHEONGDAN),
        ("chodan", MASK_CHODAN))


#: Each card's month (0 for a bonus card), read once: a frame asks for every field card's.
_MONTH = {code: card_month(code) for code in CARD_CODES}


def _pile_state(view: PlayerView, seat: int) -> dict[str, Any]:
    """A seat's captured cards grouped by kind, the counted totals, its score and
    how far it is along each set."""
    return _pile_state_of(view.rules, int(view.captured[seat]))


@lru_cache(maxsize=2048)
def _pile_state_of(rules: Rules, mask: int) -> dict[str, Any]:
    """:func:`_pile_state` of a pile (a card mask) under ``rules``: it depends on
    nothing else, and a pile changes only when it takes cards, so every frame
    after that reads it here (a shared dict: callers never change it)."""
    cards = CardSet(mask)
    codes = cards.codes()
    grouped = group_captured(cards, rules)  # the core's one grouping
    sc = grouped.score
    sets = []
    for name, set_mask in SETS:
        if name == "godori" and not rules.godori:
            continue
        if name != "godori" and not rules.ribbon_set and not rules.family_scoring:
            continue
        sets.append({"name": name, "have": bin(mask & set_mask).count("1"),
                     "of": bin(set_mask).count("1")})
    brights = bin(mask & MASK_BRIGHT).count("1")
    goals = {"brights": 3, "animals": rules.animal_min, "ribbons": rules.ribbon_min,
             "junk": rules.junk_min}
    return {
        "piles": {p: list(grouped.piles[p]) for p in PILES},
        "as_junk": sorted(grouped.as_junk),
        "uncounted": sorted(grouped.uncounted),
        "counts": {"brights": sc.brights, "animals": sc.animals, "ribbons": sc.ribbons,
                   "junk": sc.junk},
        "goals": goals,
        "points": {"brights": sc.bright_points, "animals": sc.animal_points,
                   "ribbons": sc.ribbon_points, "junk": sc.junk_points},
        "score": sc.total,
        "sets": sets,
        "bright_cards": brights,
        "lines": sc.lines(),
    }


def seat_states(view: PlayerView) -> list[dict[str, Any]]:
    """Every seat's public state (counts, calls, captured piles, multipliers, baks):
    the same in every seat's view of one position, so a broadcast builds it once."""
    seats = []
    for q in range(view.players):
        seats.append({
            "seat": q,
            "hand_count": view.hand_counts[q],
            "go": view.go_counts[q],
            "shaken": list(view.shaken[q]),
            "bombs": view.bombs[q],
            "ppeoks": view.ppeoks[q],
            "chips": view.chips[q],
            "flip_only": view.flip_only[q],
            "sits_out": view.sitter == q,
            "captured": _pile_state(view, q),
            "multiplier": _multiplier_state(view, q),
            "baks": _bak_state(view, q),
        })
    return seats


def view_state(view: PlayerView, *, own_hand: bool = True,
               seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The JSON-ready state of ``view``.  With ``own_hand=False`` (a watcher) the
    seat's hand and its Stop value are left out, so what remains is public.
    ``seats`` is :func:`seat_states` of a view of the same position, when the
    caller has it already."""
    rules = view.rules
    n = view.players
    if seats is None:
        seats = seat_states(view)
    stop = view.stop_value if own_hand else None
    return {
        "rules": rules.preset,
        "go_stop": bool(rules.go_stop),
        "unit": payout_unit(rules),  # what a hand pays: points, chips or balance
        "family": bool(rules.family_scoring),
        "threshold": rules.threshold(n) if rules.go_stop else None,
        "players": n,
        "seat": view.seat if own_hand else None,
        "dealer": view.dealer,
        "to_move": view.to_move,
        "phase": view.phase,
        "turns": view.turns,
        "field": view.field.codes(),
        "field_groups": _field_groups(view),
        "hand": view.hand.codes() if own_hand else None,
        "flip_card": view.flip_card,
        "played_card": view.played_card,
        "played_target": view.played_target,
        "stock": view.stock_count,
        "stake_doublings": view.stake_doublings,
        "seats": seats,
        "winner": view.winner,
        "points": view.points,
        "stop_value": _jsonable(stop),
        "showdown_caller": view.showdown_caller,
        "showdown_card": view.showdown_card,
    }


def seat_view_state(view: PlayerView, public: dict[str, Any]) -> dict[str, Any]:
    """:func:`view_state` of ``view`` from ``public``, the watcher's state
    (``own_hand=False``) of any view of the same position: only the seat, its
    hand and its Stop value differ from seat to seat, so a broadcast builds the
    rest once."""
    return dict(public, seat=view.seat, hand=view.hand.codes(),
                stop_value=_jsonable(view.stop_value))


def _field_groups(view: PlayerView) -> list[dict[str, Any]]:
    """The field by month, in month order (the bonus cards last): a month with three
    cards where the rules keep stacks is one ppeok stack (a bonus card stacked with
    it goes with it), drawn as one pile and taken whole by the fourth card."""
    months: dict[int, list[str]] = {}
    for code in view.field.codes():
        month = _MONTH[code]
        if month == 0 and code in view.stack_bonus:
            month = view.stack_bonus[code]
        months.setdefault(month or 13, []).append(code)
    out = []
    for month in sorted(months):
        codes = months[month]
        month_cards = [c for c in codes if _MONTH[c]]
        out.append({"month": month if month <= 12 else None, "cards": codes,
                    "stack": bool(view.rules.field_stacks) and len(month_cards) == 3})
    return out


#: The words of the moves that are buttons, in English and in Korean.
_MOVE_WORDS = {"go": ("Go", "고"), "stop": ("Stop", "스톱"), "fliponly": ("Flip only", "뒤집기만"),
               "accept": ("Receive the showdown", "쇼다운 받기"), "refuse": ("Refuse", "거절")}


def move_options(moves: Iterable[Move]) -> list[dict[str, Any]]:
    """What the page needs of each legal move, so that it parses no notation: the
    move's text (sent back as it is), its kind, the card played (or banked, or
    shown in a showdown), the field card it takes, the month of a shake or a bomb,
    and a label in English and in Korean."""
    out = []
    for move in moves:
        kind = move.kind
        if kind in _MOVE_WORDS:
            en, ko = _MOVE_WORDS[kind]
        elif kind in ("shake", "bomb"):
            word = {"shake": ("Shake", "흔들기"), "bomb": ("Bomb", "폭탄")}[kind]
            en, ko = f"{word[0]} {move.month}", f"{word[1]} {move.month}월"
        elif kind == "showdown":
            en, ko = f"Showdown with {move.card}", f"쇼다운: {move.card}"
        else:  # a card played, banked or flipped: the page shows the cards themselves
            en = ko = str(move)
        out.append({"move": str(move), "kind": kind, "card": move.card, "target": move.target,
                    "month": move.month, "label": en, "label_ko": ko})
    return out


def _multiplier_state(view: PlayerView, seat: int) -> dict[str, Any]:
    """What multiplies the payment to ``seat`` if it wins now, with the total
    (months shown once each, nagari, jokers), in both languages."""
    force = multipliers_in_force(view, seat)
    return {"total": force.total, "parts": [p.reason for p in force.parts],
            "text": multiplier_words(force, korean=False),
            "text_ko": multiplier_words(force, korean=True)}


def _bak_state(view: PlayerView, seat: int) -> list[dict[str, Any]]:
    """The baks ``seat`` would pay if another seat won now (public: its pile and
    Go calls), each with its words in both languages."""
    if view.phase == "over":
        return []
    return [{"name": r.name, "have": r.have, "need": r.need,
             "text": bak_words(r, korean=False),
             "text_ko": bak_words(r, korean=True)} for r in bak_risks(view, seat)]


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def public_events(events: Iterable[Event], seat: int | None,
                  names: list[str] | None = None) -> list[dict[str, Any]]:
    """Events as a seat may know them: a card drawn from the stock (after a bonus
    card) is private to its drawer, so everyone else gets the event without
    its card."""
    out = []
    for ev in events:
        d = ev.as_dict()
        if ev.kind == "drawn" and ev.player != seat:
            d["card"] = None
            d["cards"] = []
        d["text"] = ev.describe(names)  # a "drawn" event's text names no card
        # the same sentence in Korean, from the terminal's table (gostop_core.korean)
        d["text_ko"] = in_korean(lambda who: ev.describe(who), names)
        out.append(d)
    return out


def outcome_state(outcome: Outcome, names: list[str], view: PlayerView) -> dict[str, Any]:
    """The hand-over: the engine's outcome and the report in the preset's terms
    (:func:`gostop_web.report.hand_report`), in English and in Korean; ``view`` is
    a view of the finished hand (any seat's: the piles are public by then)."""
    d = _jsonable(outcome.as_dict())
    d["report"] = hand_report(outcome, view, names)
    d["report_ko"] = hand_report(
        outcome, view, korean_names(names), korean=True,
        head=lambda: in_korean(lambda who: head_lines(outcome, who), names))
    return d


def in_korean(render, names: list[str] | None):
    """``render(names)`` (a sentence or a list of them) in Korean: rendered with
    the seat names the Korean table knows (``Bot 0``, ``Bot 1``, ...), translated
    line by line (:func:`gostop_core.korean.translate`), then each seat's own
    Korean name put back."""
    if names is None:
        out = render(None)
        return translate(out) if isinstance(out, str) else [translate(x) for x in out]
    stand_ins = [f"Bot {q}" for q in range(len(names))]
    key = tuple(names)
    out = render(stand_ins)
    return (_korean_line(out, key) if isinstance(out, str)
            else [_korean_line(x, key) for x in out])


@lru_cache(maxsize=4096)
def _korean_line(line: str, names: tuple[str, ...]) -> str:
    """One sentence rendered with the stand-in names, in Korean with the seats'
    own Korean names (a table says the same sentences again and again)."""
    text = translate(line)
    for q in range(len(names)):  # one digit each: no name is a prefix of another
        text = text.replace(f"봇 {q}", f"\0{q}\0")
    for q, name in enumerate(korean_names(list(names)) or ()):
        text = text.replace(f"\0{q}\0", name)
    return text


def korean_names(names: list[str] | None) -> list[str] | None:
    """Seat names as the Korean screens write them (``Player 0`` -> ``참가자 0``,
    ``Bot 1 (greedy)`` -> ``봇 1 (욕심쟁이)``)."""
    if names is None:
        return None
    out = []
    for name in names:
        head, sep, spec = name.partition(" (")
        if sep and spec.endswith(")"):  # "Bot 1 (spec)": the bot's name in Korean
            name = f"{head} ({bot_name_ko(spec[:-1])})"
        out.append(name_ko(name))
    return out
