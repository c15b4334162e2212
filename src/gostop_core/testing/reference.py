# This file stays one module, by design: the reference engine is written from
# docs/rules.md as one plain file that shares nothing with the compiled core, so
# that it can be read against the rules text from top to bottom.
"""An independent, pure-Python reference engine for Go-Stop.

This module plays a hand exactly as ``docs/rules.md`` describes it, in plain
Python: cards are their codes (``"3B"``, ``"11D"``, ``"X2"``), hands, piles and
the field are sets of codes, the stock is a list of codes (top first), and every
step of a turn is written out as its own small method.  It shares nothing with
the compiled core except the card codes (:data:`gostop_core.cards.CARD_CODES`)
and the rules parameters (a :class:`gostop_core.rules.Rules`, read through
``as_dict()``).  Speed is no goal here: clarity is.  The differential tests
(``tests/test_reference_diff.py``) play it in lockstep with the core.

The only place that knows the core's data layout is the pair
:meth:`ReferenceGame.to_fields` / :meth:`ReferenceGame.from_fields`, which
translate to and from the plain dict of ``CoreState.to_fields()`` (masks with
bit ``i`` for card ``CARD_CODES[i]``, the stock as card indices, ...), so that
states can be compared field by field.

>>> g = ReferenceGame("casual", players=2, seed=7)
>>> moves = g.legal_moves()
>>> events = g.push(moves[0])
>>> _ = g.pop()
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field as dc_field
from types import SimpleNamespace
from typing import Any, NamedTuple

from gostop_core.cards import CARD_CODES

__all__ = ["ReferenceGame", "RefEvent", "RefOutcome", "score_pile", "ReferenceGameError"]


class ReferenceGameError(Exception):
    """An illegal move or a bad argument given to the reference engine."""


# ---------------------------------------------------------------------------
# The deck, read off the card codes (rules matrix, "The deck")
# ---------------------------------------------------------------------------

PACK_48 = list(CARD_CODES[:48])
BONUS_CARDS = ["X2", "X3"]
INDEX = {code: i for i, code in enumerate(CARD_CODES)}


def _read_month(card: str) -> int:
    """Month 1..12 from a code's leading digits; 0 for a bonus card (it has no month)."""
    if card.startswith("X"):
        return 0
    digits = ""
    for ch in card:
        if not ch.isdigit():
            break
        digits += ch
    return int(digits)


def _read_kind(card: str) -> str:
    """``B`` bright, ``A`` animal, ``R`` ribbon, ``J`` junk, ``D`` double junk, ``X`` bonus."""
    if card.startswith("X"):
        return "X"
    return card[len(str(_read_month(card)))]


# read once from the codes, looked up many times
MONTH = {card: _read_month(card) for card in CARD_CODES}
KIND = {card: _read_kind(card) for card in CARD_CODES}


def month_of(card: str) -> int:
    return MONTH[card]


def kind_of(card: str) -> str:
    return KIND[card]


def month_cards(month: int) -> list[str]:
    return [c for c in PACK_48 if month_of(c) == month]


def in_pack_order(cards) -> list[str]:
    return sorted(cards, key=INDEX.__getitem__)


RAIN_BRIGHT = "12B"
RAIN_RIBBON = "12R"
HONGDAN = {"1R", "2R", "3R"}
CHEONGDAN = {"6R", "9R", "10R"}
CHODAN = {"4R", "5R", "7R"}
GODORI = {"2A", "4A", "8A"}
SAKE_CUP = "9A"
BRIDGE = "5A"

PHASES = ("play", "flip", "gostop", "over", "showdown")
END_REASONS = ("", "stop", "last_turn_stop", "draw", "chongtong", "three_ppeok", "family")
# The flags of a turn in progress, in the bit order of the core's to_fields dict.
TURN_FLAG_BITS = {"ppeok": 1, "ttadak": 2, "jjok": 4, "stack": 8, "sseul": 16, "captured": 32,
                  "two_apart": 64}


# ---------------------------------------------------------------------------
# Scoring (rules matrix, "Scoring"; docs/rules.md "scoring")
# ---------------------------------------------------------------------------

@dataclass
class ScoreSheet:
    """A pile's points with one way of counting its flexible cards."""

    total: int = 0
    brights: int = 0
    bright_points: int = 0
    ribbons: int = 0
    ribbon_points: int = 0
    set_points: int = 0
    animals: int = 0
    animal_points: int = 0
    godori_points: int = 0
    junk: int = 0
    junk_points: int = 0
    sake_as_junk: bool = False
    bridge_as_junk: bool = False
    family_set_bonus: int = 0


def points_for_count(count: int, minimum: int) -> int:
    """"N cards = 1 point, +1 for each beyond"."""
    return count - minimum + 1 if count >= minimum else 0


def bonus_junk_value(card: str, R) -> int:
    """Junk value of a bonus card: its junk value while its effect is plain junk."""
    effect = R.bonus_x2_effect if card == "X2" else R.bonus_x3_effect
    if effect != 0:
        return 0
    return R.bonus_x2_junk if card == "X2" else R.bonus_x3_junk


def plain_junk_value(pile: set[str], R) -> int:
    """Junk of a pile with every flexible card counted as an animal."""
    value = 0
    for card in pile:
        k = kind_of(card)
        if k == "J":
            value += 1
        elif k == "D":
            value += 2
        elif k == "X":
            value += bonus_junk_value(card, R)
    return value


def most_junk_value(pile: set[str], R) -> int:
    """Junk of a pile with 9A / 5A counted as junk where the rules allow it (what a
    loser facing pi-bak counts)."""
    value = plain_junk_value(pile, R)
    if R.sake_cup_junk and SAKE_CUP in pile:
        value += R.sake_cup_junk
    if R.bridge_junk and BRIDGE in pile:
        value += R.bridge_junk
    return value


def score_sheet(pile: set[str], R, sake_as_junk: bool = False,
                bridge_as_junk: bool = False) -> ScoreSheet:
    """Points of a pile (Go/Stop scoring) with 9A / 5A counted as told."""
    s = ScoreSheet(sake_as_junk=sake_as_junk, bridge_as_junk=bridge_as_junk)
    brights = [c for c in pile if kind_of(c) == "B"]
    s.brights = len(brights)
    rain = RAIN_BRIGHT in pile
    if s.brights == 5:
        s.bright_points = R.bright5
    elif s.brights == 4:
        s.bright_points = R.bright4_rain if rain else R.bright4
    elif s.brights == 3:
        s.bright_points = R.bright3_rain if rain else R.bright3

    ribbons = [c for c in pile if kind_of(c) == "R"]
    if not R.rain_ribbon_counts:
        ribbons = [c for c in ribbons if c != RAIN_RIBBON]
    s.ribbons = len(ribbons)
    s.ribbon_points = points_for_count(s.ribbons, R.ribbon_min)
    for ribbon_set in (HONGDAN, CHEONGDAN, CHODAN):
        if ribbon_set <= pile:
            s.set_points += R.ribbon_set

    animals = [c for c in pile if kind_of(c) == "A"]
    s.junk = plain_junk_value(pile, R)
    if sake_as_junk:
        animals.remove(SAKE_CUP)
        s.junk += R.sake_cup_junk
    if bridge_as_junk:
        animals.remove(BRIDGE)
        s.junk += R.bridge_junk
    s.animals = len(animals)
    s.animal_points = points_for_count(s.animals, R.animal_min)
    if GODORI <= pile:
        s.godori_points = R.godori
    s.junk_points = points_for_count(s.junk, R.junk_min)
    s.total = (s.bright_points + s.ribbon_points + s.set_points + s.animal_points
               + s.godori_points + s.junk_points)
    return s


def flexible_assignments(pile: set[str], R) -> list[tuple[bool, bool]]:
    """Every way of counting the pile's flexible cards: (9A as junk, 5A as junk)."""
    sake_options = [False, True] if (R.sake_cup_junk and SAKE_CUP in pile) else [False]
    bridge_options = [False, True] if (R.bridge_junk and BRIDGE in pile) else [False]
    return [(s, b) for s in sake_options for b in bridge_options]


def family_sheet(pile: set[str], R) -> ScoreSheet:
    """Family variant (004): card points, and the set bonuses this pile earns from
    each other player."""
    s = ScoreSheet()
    s.brights = sum(1 for c in pile if kind_of(c) == "B")
    s.ribbons = sum(1 for c in pile if kind_of(c) == "R")
    s.animals = sum(1 for c in pile if kind_of(c) == "A")
    s.junk = plain_junk_value(pile, R)
    s.bright_points = s.brights * R.family_bright
    s.ribbon_points = s.ribbons * R.family_ribbon
    s.animal_points = s.animals * R.family_animal
    s.total = s.bright_points + s.ribbon_points + s.animal_points
    bonus = 0
    if HONGDAN <= pile:
        bonus += R.family_ribbon_set
    if CHEONGDAN <= pile:
        bonus += R.family_ribbon_set
    for month in (5, 10, 12):
        if set(month_cards(month)) <= pile:
            bonus += R.family_month_set
    if set(month_cards(11)) <= pile:
        bonus += R.family_november_set
    s.family_set_bonus = bonus
    return s


def best_sheet(pile: set[str], R) -> ScoreSheet:
    """The pile's score with its flexible cards counted the way that scores most."""
    if R.family_scoring:
        return family_sheet(pile, R)
    best: ScoreSheet | None = None
    for sake, bridge in flexible_assignments(pile, R):
        sheet = score_sheet(pile, R, sake, bridge)
        if best is None or sheet.total > best.total:
            best = sheet
    assert best is not None
    return best


def score_pile(cards, rules) -> int:
    """Points of a pile of card codes under ``rules`` (a Rules, a preset name or a dict)."""
    return best_sheet(set(cards), _rules_namespace(rules)).total


# Caps (docs/notation.md): a payment and a winner's points saturate at PAY_CAP,
# a seat's chips in one hand at +-CHIPS_CAP, and at most SHIFT_CAP doublings of
# a payment count (shakes, bombs, the nagari stake, jokers).  Only absurd
# positions reach them; a real hand stays far below.
PAY_CAP = 10 ** 8
CHIPS_CAP = 10 ** 9
SHIFT_CAP = 24


def _chips(value: int) -> int:
    return max(-CHIPS_CAP, min(CHIPS_CAP, value))


def go_value(score: int, gos: int, scheme: int) -> int:
    """The winner's points after ``gos`` Goes (docs/rules.md, "Go value"), at most PAY_CAP."""
    return min(PAY_CAP, _go_value(score, gos, scheme))


def _go_value(score: int, gos: int, scheme: int) -> int:
    if scheme == 0:
        # casual (000): +1 per Go; from the fourth Go on the total doubles at each Go
        total = score + gos
        if gos >= 4:
            total *= 2 ** (gos - 3)
        return total
    if scheme == 1:
        # traditional (001): +1 / +2 for one / two Goes; three Goes pay double and
        # each Go beyond three doubles again
        if gos <= 2:
            return score + gos
        return score * 2 ** (gos - 2)
    if scheme == 2:
        # standard (002): +1, +2; the third Go doubles; beyond it, x(Goes - 1)
        total = score + gos
        if gos == 3:
            total *= 2
        elif gos > 3:
            total *= gos - 1
        return total
    # scheme 3 (001 variant): one chip for one Go, then x(Goes)
    if gos <= 1:
        return score + gos
    return score * gos


# ---------------------------------------------------------------------------
# The seeded shuffle (docs/rules.md "deal order")
# ---------------------------------------------------------------------------

MASK64 = (1 << 64) - 1


class SplitMix64:
    """splitmix64: the project's random stream (identical on every machine)."""

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform number in 0..bound-1: draws below 2**64 mod bound are thrown
        away so that every remainder is equally likely."""
        reject_below = (2 ** 64 - bound) % bound
        while True:
            x = self.next()
            if x >= reject_below:
                return x % bound


def shuffled_pack(rng: SplitMix64, with_bonus: bool) -> list[str]:
    """The pack in card order, shuffled by Fisher-Yates from the last card down."""
    deck = PACK_48 + (BONUS_CARDS if with_bonus else [])
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# ---------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------

class RefEvent(NamedTuple):
    """Something that happened, in the vocabulary of ``game.Event``: ``card`` is a
    card code, a month as a string (bomb, shake, ppeok, ttadak, jjok, stack,
    chongtong) or a chip reason (chips); ``cards`` the codes involved in pack order."""

    kind: str
    player: int
    card: str | None
    other: int
    cards: tuple[str, ...]


class RefOutcome(NamedTuple):
    winner: int | None
    points: int
    chips: tuple[int, ...]
    reason: str
    scores: tuple[int, ...]
    go_counts: tuple[int, ...]


@dataclass
class Seat:
    hand: set[str] = dc_field(default_factory=set)
    pile: set[str] = dc_field(default_factory=set)
    go_count: int = 0
    last_go_score: int = 0
    flip_only: int = 0           # flip-only turns still owed after a bomb
    shaken: set[int] = dc_field(default_factory=set)   # months shown by a shake
    bombs: int = 0
    ppeoks: int = 0
    turns_played: int = 0
    chips: int = 0

    def clone(self) -> "Seat":
        return dataclasses.replace(self, hand=set(self.hand), pile=set(self.pile),
                                   shaken=set(self.shaken))


@dataclass
class State:
    nplayers: int
    dealer: int
    seats: list[Seat]
    field: set[str] = dc_field(default_factory=set)
    stock: list[str] = dc_field(default_factory=list)      # top card first
    to_move: int = 0
    phase: str = "play"
    flip_card: str | None = None     # the flipped card waiting for the player's choice
    winner: int | None = None
    points: int = 0
    turns: int = 0
    end_reason: str = ""
    stake_doublings: int = 0
    sitter: int | None = None        # gwangpalli: the seat sitting out
    showdown_asker: int | None = None  # showdown (003): the seat that asked
    showdown_card: str | None = None   # ... and the win-card it showed
    forced_card: str | None = None     # a refused showdown: the card that must be played
    # the turn in progress
    played_card: str | None = None   # the card played this turn, still on the field
    played_target: str | None = None  # the field card it was placed on (a waiting pair)
    turn_bonus: set[str] = dc_field(default_factory=set)   # flipped bonus cards not banked yet
    turn_flags: set[str] = dc_field(default_factory=set)   # ppeok, ttadak, jjok, stack, captured...
    stack_bonus: dict[str, int] = dc_field(default_factory=dict)  # bonus card -> month of its stack

    def clone(self) -> "State":
        """An independent copy (for take-backs)."""
        return dataclasses.replace(
            self, seats=[seat.clone() for seat in self.seats], field=set(self.field),
            stock=list(self.stock), turn_bonus=set(self.turn_bonus),
            turn_flags=set(self.turn_flags), stack_bonus=dict(self.stack_bonus))


def _rules_namespace(rules) -> Any:
    """The rules parameters as attributes: from a Rules object, a preset name or a dict."""
    if isinstance(rules, SimpleNamespace):
        return rules
    if isinstance(rules, dict):
        return SimpleNamespace(**rules)
    if isinstance(rules, str):
        from gostop_core.rules import Rules
        rules = Rules(rules)
    return SimpleNamespace(**rules.as_dict())


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------

class ReferenceGame:
    """One hand of Go-Stop, played by the rules of ``docs/rules.md``.

    ``ReferenceGame(rules, players, seed, dealer=0, stake_doublings=0)`` shuffles
    and deals; :meth:`legal_moves` lists move strings (``3B``, ``3B/3R``, ``X2``,
    ``bomb9``, ``shake9``, ``flip/9R``, ``fliponly``, ``go``, ``stop``, and with the
    showdown option ``showdown/3B``, ``accept``, ``refuse``); :meth:`push` makes one
    and returns the events; :meth:`pop` takes it back.  :meth:`from_fields` builds a
    game from the core's state dict."""

    s: State

    def __init__(self, rules="casual", players: int = 2, seed: int = 0, dealer: int = 0,
                 stake_doublings: int = 0, *, _deal: bool = True):
        self.R = _rules_namespace(rules)
        self.history: list[tuple[str, State]] = []
        self.events_log: list[RefEvent] = []
        self.deal_events: list[RefEvent] = []
        if not _deal:
            return
        allowed = [n for n in (2, 3, 4) if getattr(self.R, f"allow_{n}p")]
        if players not in allowed:
            raise ReferenceGameError(f"{players} players are not allowed (allowed: {allowed})")
        if not 0 <= dealer < players:
            raise ReferenceGameError(f"no seat {dealer} to deal")
        self.s = State(nplayers=players, dealer=dealer,
                       seats=[Seat() for _ in range(players)],
                       to_move=dealer, stake_doublings=stake_doublings)
        self._events: list[RefEvent] = []
        self._deal(seed)
        self.deal_events = self._events

    # ------------------------------------------------------------ small helpers
    def _event(self, kind: str, player: int, card: str | None = None, other: int = 0,
               cards=()) -> None:
        self._events.append(RefEvent(kind, player, card, other, tuple(in_pack_order(cards))))

    def in_play(self, p: int) -> bool:
        """Every seat plays, except the one sitting out under gwangpalli."""
        return p != self.s.sitter

    def active_players(self) -> int:
        return self.s.nplayers - (1 if self.s.sitter is not None else 0)

    def opponents(self, p: int) -> list[int]:
        return [q for q in range(self.s.nplayers) if q != p and self.in_play(q)]

    def threshold(self) -> int:
        n = self.active_players()
        return {2: self.R.threshold_2p, 3: self.R.threshold_3p}.get(n, self.R.threshold_4p)

    def score(self, player: int) -> int:
        """The player's points now (family rules: card points)."""
        return best_sheet(self.s.seats[player].pile, self.R).total

    def field_of_month(self, month: int) -> set[str]:
        return {c for c in self.s.field if month_of(c) == month}

    # ------------------------------------------------------------ the deal
    def _deal(self, seed: int) -> None:
        """Shuffle and deal; redeal while four of a month lie on the field (where the
        rules say so), the shuffle continuing the same random stream; then the
        gwangpalli payment and chongtong."""
        s, R = self.s, self.R
        rng = SplitMix64(seed)
        n = s.nplayers
        size_for = n
        if R.gwangpalli and n == 4:
            # the seat before the dealer sits out; four hands of the 3-player deal
            s.sitter = (s.dealer + 3) % 4
            size_for = 3
        hand_size = getattr(R, f"hand_{size_for}p")
        field_size = getattr(R, f"field_{size_for}p")
        redeals = 0
        while True:
            self._events = []   # a void deal leaves no events behind
            for seat in s.seats:
                seat.hand = set()
                seat.pile = set()
            deck = shuffled_pack(rng, bool(R.bonus_cards))
            pos = 0
            for seat in s.seats:          # hands seat by seat from seat 0
                seat.hand = set(deck[pos:pos + hand_size])
                pos += hand_size
            s.field = set(deck[pos:pos + field_size])
            pos += field_size
            s.stock = deck[pos:]
            # a bonus card on the field goes to the dealer and the field is topped up
            # (without that rule it stays on the field, where nothing can match it)
            while R.bonus_to_dealer and any(c in s.field for c in BONUS_CARDS) and s.stock:
                bonus = next(c for c in BONUS_CARDS if c in s.field)
                s.field.remove(bonus)
                s.seats[s.dealer].pile.add(bonus)
                self._event("dealt_bonus", s.dealer, bonus, 0, [bonus])
                s.field.add(s.stock.pop(0))
            if R.four_on_field_redeal and self._first_full_month(s.field):
                redeals += 1
                continue
            break
        if redeals:
            self._event("redeal", s.dealer, None, redeals)
        if s.sitter is not None and R.gwangpalli_chips:
            brights = sum(1 for c in s.seats[s.sitter].hand if kind_of(c) == "B")
            if brights:
                self._collect_chips(s.sitter, R.gwangpalli_chips * brights, "gwangpalli")
        if R.chongtong:
            self._chongtong()

    @staticmethod
    def _first_full_month(cards: set[str]) -> int:
        for month in range(1, 13):
            if set(month_cards(month)) <= cards:
                return month
        return 0

    def _chongtong(self) -> None:
        """Four of a month in a dealt hand wins at once; several holders each collect
        from every player without one; if every player holds one, nobody pays."""
        s, R = self.s, self.R
        holders = []
        for i in range(s.nplayers):
            p = (s.dealer + i) % s.nplayers
            if not self.in_play(p):
                continue
            month = self._first_full_month(s.seats[p].hand)
            if month:
                holders.append(p)
                self._event("chongtong", p, str(month), 0, month_cards(month))
        if not holders:
            return
        amount = R.chongtong_chips if R.chongtong_chips else self.threshold()
        s.phase = "over"
        s.end_reason = "chongtong"
        players = [p for p in range(s.nplayers) if self.in_play(p)]
        if len(holders) == len(players):
            s.winner = None
            return
        s.winner = holders[0]
        s.points = amount
        for p in sorted(holders):
            for q in players:
                if q not in holders:
                    s.seats[q].chips = _chips(s.seats[q].chips - amount)
                    s.seats[p].chips = _chips(s.seats[p].chips + amount)
            self._event("chips", p, "chongtong", amount)

    # ------------------------------------------------------------ legal moves
    def legal_moves(self) -> list[str]:
        s, R = self.s, self.R
        if s.phase == "over":
            return []
        if s.phase == "gostop":
            return ["go", "stop"]
        if s.phase == "showdown":
            return ["accept", "refuse"]
        if s.phase == "flip":
            assert s.flip_card is not None
            return [f"flip/{c}" for c in in_pack_order(self.field_of_month(month_of(s.flip_card)))]
        seat = s.seats[s.to_move]
        if s.forced_card is not None:
            # a refused showdown: the asker must lay its win-card down
            return self._plays_of(s.forced_card)
        moves: list[str] = []
        if R.bonus_in_hand:
            moves += [c for c in BONUS_CARDS if c in seat.hand]
        for card in in_pack_order(c for c in seat.hand if kind_of(c) != "X"):
            moves += self._plays_of(card)
        for month in range(1, 13):
            in_hand = sum(1 for c in seat.hand if month_of(c) == month)
            if in_hand < 3:
                continue
            if R.bomb and in_hand == 3 and len(self.field_of_month(month)) == 1:
                moves.append(f"bomb{month}")
            # shake_timing 1 (001): a set is shown only before the player's first play
            first_play_still_to_come = seat.turns_played == 0
            if R.shaking and month not in seat.shaken and (not R.shake_timing or first_play_still_to_come):
                moves.append(f"shake{month}")
        if R.bomb_flip_only_optional and seat.flip_only > 0 and s.stock:
            moves.append("fliponly")
        if R.showdown:
            for card in in_pack_order(c for c in seat.hand if kind_of(c) != "X"):
                if self.is_win_card(s.to_move, card):
                    moves.append(f"showdown/{card}")
        return moves

    def _plays_of(self, card: str) -> list[str]:
        """The plays of one hand card: one per field card to choose from."""
        matches = self.field_of_month(month_of(card))
        if len(matches) <= 1 or (len(matches) == 3 and self.R.field_stacks):
            return [card]       # nothing to choose
        return [f"{card}/{t}" for t in in_pack_order(matches)]

    def is_win_card(self, p: int, card: str) -> bool:
        """Whether ``card`` is another player's win-card (003): with it that player's
        score would rise to the threshold where it may stop.  Without Go/Stop play
        (family rules) nobody may stop, so no card is a win-card."""
        if not self.R.go_stop:
            return False
        for q in self.opponents(p):
            seat = self.s.seats[q]
            now = self.score(q)
            then = best_sheet(seat.pile | {card}, self.R).total
            may_stop = then >= self.threshold() and (seat.go_count == 0 or then > seat.last_go_score)
            if then > now and may_stop:
                return True
        return False

    # ------------------------------------------------------------ push / pop
    def push(self, move: str) -> list[RefEvent]:
        """Make a decision and every forced step after it; returns the events."""
        if self.s.phase == "over":
            raise ReferenceGameError(f"the hand is over: {move} cannot be played")
        legal = {m.lower(): m for m in self.legal_moves()}
        key = move.strip().lower()
        if key not in legal:
            raise ReferenceGameError(f"illegal move {move!r} (legal: {', '.join(legal.values())})")
        move = legal[key]
        self.history.append((move, self.s.clone()))
        self._events = []
        self._apply(move)
        events = self._events
        self.events_log.extend(events)
        return events

    def pop(self) -> str:
        if not self.history:
            raise ReferenceGameError("no move to take back")
        move, before = self.history.pop()
        self.s = before
        return move

    def _apply(self, move: str) -> None:
        s = self.s
        p = s.to_move
        if move == "go":
            self._go(p)
        elif move == "stop":
            s.turns += 1
            self._finish_by_stop(p, automatic=False)
        elif move.startswith("showdown/"):
            self._ask_showdown(p, move[9:])
        elif move in ("accept", "refuse"):
            self._answer_showdown(p, move == "accept")
        elif move.startswith("flip/"):
            self._choose_flip_target(p, move[5:])
        elif move == "fliponly":
            s.seats[p].flip_only -= 1
            s.turn_flags = set()
            self._event("flip_only", p)
            self._flip_and_finish(p)
        elif move.startswith("bomb"):
            self._bomb(p, int(move[4:]))
        elif move.startswith("shake"):
            month = int(move[5:])
            s.seats[p].shaken.add(month)
            self._event("shake", p, str(month), 0,
                        [c for c in s.seats[p].hand if month_of(c) == month])
        elif move in BONUS_CARDS:
            self._bank_bonus_from_hand(p, move)
        else:
            card, _, target = move.partition("/")
            self._play_card(p, card, target or None)

    # ------------------------------------------------------------ the decisions
    def _bank_bonus_from_hand(self, p: int, bonus: str) -> None:
        """A bonus card in hand is banked and a replacement drawn; the player still
        plays this turn.  With an empty stock the banking is the whole turn."""
        s = self.s
        seat = s.seats[p]
        seat.hand.remove(bonus)
        seat.pile.add(bonus)
        self._event("bonus", p, bonus, 0, [bonus])
        if s.stock:
            drawn = s.stock.pop(0)
            seat.hand.add(drawn)
            self._event("drawn", p, drawn, 0, [drawn])
        else:
            self._end_of_turn(p)

    def _ask_showdown(self, p: int, card: str) -> None:
        """Ask the others, in turn, to receive a showdown with ``card``."""
        s = self.s
        s.showdown_asker, s.showdown_card = p, card
        self._event("showdown", p, card, 0, [card])
        s.to_move = self.next_in_play(p)
        s.phase = "showdown"

    def _answer_showdown(self, p: int, receive: bool) -> None:
        """Everyone receives: a nagari.  One refuses: the asker lays the card down."""
        s = self.s
        asker, card = s.showdown_asker, s.showdown_card
        assert asker is not None and card is not None
        self._event("showdown_answer", p, card, 1 if receive else 0)
        if not receive:
            s.forced_card = card
            s.to_move = asker
            s.phase = "play"
            s.showdown_asker = s.showdown_card = None
            return
        s.to_move = self.next_in_play(p)
        if s.to_move == asker:
            s.showdown_asker = s.showdown_card = None
            s.phase = "over"
            s.winner = None
            s.points = 0
            s.end_reason = "draw"
            self._event("draw", p, None, 1)  # 1: drawn by a received showdown

    def next_in_play(self, p: int) -> int:
        q = (p + 1) % self.s.nplayers
        while not self.in_play(q):
            q = (q + 1) % self.s.nplayers
        return q

    def _play_card(self, p: int, card: str, target: str | None) -> None:
        s, R = self.s, self.R
        s.forced_card = None
        s.seats[p].hand.remove(card)
        s.turn_flags = self._turn_start_flags()
        self._event("played", p, card, 0, [card])
        month = month_of(card)
        matches = self.field_of_month(month)
        if not matches:
            s.field.add(card)           # nothing to match: it stays on the field
            s.played_card, s.played_target = card, None
        elif len(matches) == 3 and R.field_stacks:
            self._take_stack(p, month, card)
        else:
            if target is None:
                (target,) = matches
            if R.capture_at_play:
                self._capture(p, {card, target})
            else:
                s.field.add(card)       # the pair waits for the flip
                s.played_card, s.played_target = card, target
        self._flip_and_finish(p)

    def _bomb(self, p: int, month: int) -> None:
        s, R = self.s, self.R
        seat = s.seats[p]
        s.turn_flags = self._turn_start_flags()
        from_hand = {c for c in seat.hand if month_of(c) == month}
        self._event("bomb", p, str(month), 0, from_hand)
        seat.hand -= from_hand
        self._capture(p, from_hand | self.field_of_month(month))
        seat.bombs += 1
        if R.bomb_counts_as_shake:
            seat.shaken.add(month)   # the bomb shows the month's set: one set per month
        if R.bomb_steal:
            self._steal(p)
        seat.flip_only += R.bomb_flip_only_turns
        self._flip_and_finish(p)

    def _turn_start_flags(self) -> set[str]:
        """A turn played from the hand starts with "two_apart" when a sseul is
        possible: the field holds exactly two cards, of different months (001)."""
        if not self.R.sseul_steal:
            return set()
        month_cards_on_field = [c for c in self.s.field if kind_of(c) != "X"]
        if len(month_cards_on_field) == 2 and len({month_of(c) for c in month_cards_on_field}) == 2:
            return {"two_apart"}
        return set()

    def _choose_flip_target(self, p: int, target: str) -> None:
        s = self.s
        assert s.flip_card is not None
        self._capture(p, {s.flip_card, target})
        s.flip_card = None
        s.phase = "play"
        self._end_of_turn(p)

    def _go(self, p: int) -> None:
        s = self.s
        seat = s.seats[p]
        seat.go_count += 1
        seat.last_go_score = self.score(p)
        self._event("go", p, None, seat.go_count)
        s.phase = "play"
        self._pass_turn(p)

    # ------------------------------------------------------------ captures and steals
    def _capture(self, p: int, cards: set[str]) -> None:
        s = self.s
        s.field -= cards
        s.seats[p].pile |= cards
        s.turn_flags.add("captured")
        self._event("captured", p, None, 0, cards)

    def _take_stack(self, p: int, month: int, fourth: str) -> None:
        """The fourth card takes a stack of three whole, with any bonus card sitting
        with the stack; a steal follows where the rules say so."""
        s = self.s
        cards = self.field_of_month(month) | {fourth}
        for bonus, stack_month in list(s.stack_bonus.items()):
            if stack_month == month:
                cards.add(bonus)
                del s.stack_bonus[bonus]
        self._event("stack", p, str(month), 0, cards)
        self._capture(p, cards)
        s.turn_flags.add("stack")
        if self.R.stack_steal:
            self._steal(p)

    def _steal(self, p: int) -> None:
        """Each opponent gives its least valuable junk: its lowest single junk, else
        a double junk, else X2, else X3 (a bonus card only while it counts as junk,
        not a joker with another effect); 9A is never given.  None, nothing."""
        s = self.s
        effects = {"X2": self.R.bonus_x2_effect, "X3": self.R.bonus_x3_effect}
        for q in self.opponents(p):
            pile = s.seats[q].pile
            for wanted in ("J", "D", "X"):
                candidates = in_pack_order(c for c in pile if kind_of(c) == wanted
                                           and effects.get(c, 0) == 0)
                if candidates:
                    card = candidates[0]
                    pile.remove(card)
                    s.seats[p].pile.add(card)
                    self._event("stolen", p, card, q, [card])
                    break

    def _collect_chips(self, p: int, amount: int, reason: str) -> None:
        for q in self.opponents(p):
            self.s.seats[q].chips = _chips(self.s.seats[q].chips - amount)
            self.s.seats[p].chips = _chips(self.s.seats[p].chips + amount)
        self._event("chips", p, reason, amount)

    # ------------------------------------------------------------ the flip
    def _flip_and_finish(self, p: int) -> None:
        if self._flip(p):
            self._end_of_turn(p)

    def _flip(self, p: int) -> bool:
        """Turn the top stock card (and again after a bonus card).  Returns False
        when the player must choose what the flipped card takes."""
        s, R = self.s, self.R
        while s.stock:
            card = s.stock.pop(0)
            self._event("flipped", p, card, 0, [card])
            if card in BONUS_CARDS:
                if R.flipped_bonus == 0:
                    s.seats[p].pile.add(card)          # banked at once
                    self._event("bonus", p, card, 0, [card])
                else:
                    s.turn_bonus.add(card)             # banked with the turn's captures
                continue                               # a bonus has no month: flip again
            month = month_of(card)
            matches = self.field_of_month(month)
            if s.played_card is not None and month_of(s.played_card) == month:
                self._flip_meets_played_card(p, card, month, matches)
            elif not matches:
                s.field.add(card)
            elif len(matches) == 3 and R.field_stacks:
                self._take_stack(p, month, card)
            elif len(matches) == 1:
                self._capture(p, matches | {card})
            else:
                s.flip_card = card
                s.phase = "flip"
                return False
            break
        return True

    def _flip_meets_played_card(self, p: int, card: str, month: int, matches: set[str]) -> None:
        """The flipped card is of the month just played: jjok, ttadak or ppeok."""
        s, R = self.s, self.R
        if s.played_target is None:
            # jjok/chok: the played card stood alone and the flip takes it
            self._event("jjok", p, str(month), 0, matches | {card})
            self._capture(p, matches | {card})
            s.turn_flags.add("jjok")
        elif len(matches) == 3:
            # ttadak: played onto two, the flip is the fourth
            self._event("ttadak", p, str(month), 0, matches | {card})
            self._capture(p, matches | {card})
            s.turn_flags.add("ttadak")
        else:
            # ppeok: the flip matches the pair just made
            self._event("ppeok", p, str(month), 0, matches | {card})
            if R.ppeok == 2:
                self._capture(p, matches)       # the pair is taken, the flip stays
                s.field.add(card)
            else:
                s.field.add(card)               # all three stay as a stack
                s.turn_flags.add("ppeok")
                if R.ppeok_keeps_bonus and s.turn_bonus:
                    for bonus in s.turn_bonus:  # a flipped bonus stays with the stack
                        s.stack_bonus[bonus] = month
                    s.field |= s.turn_bonus
                    s.turn_bonus = set()
        s.played_card = s.played_target = None

    # ------------------------------------------------------------ the end of a turn
    def nobody_has_a_turn(self) -> bool:
        """No seat in play holds a card (a bonus card is a turn too) or owes a
        flip-only turn that could still flip."""
        return not any(self._has_a_turn(q) for q in range(self.s.nplayers))

    def _has_a_turn(self, q: int) -> bool:
        seat = self.s.seats[q]
        return self.in_play(q) and bool(seat.hand or (seat.flip_only and self.s.stock))

    def _end_of_turn(self, p: int) -> None:
        """After the flip: settle the turn, then offer Go/Stop or pass the turn."""
        self._settle_turn(p)
        if self.s.phase == "over":
            return
        if self._go_stop_check(p):
            return
        self._pass_turn(p)

    def _settle_turn(self, p: int) -> None:
        """The waiting pair is taken, flipped bonus cards banked, the turn's steals
        and chip payments made."""
        s, R = self.s, self.R
        seat = s.seats[p]
        if s.played_card is not None and s.played_target is not None:
            self._capture(p, {s.played_card, s.played_target})
        s.played_card = s.played_target = None
        for bonus in in_pack_order(s.turn_bonus):
            seat.pile.add(bonus)
            self._event("bonus", p, bonus, 0, [bonus])
        s.turn_bonus = set()
        field_has_month_card = any(kind_of(c) != "X" for c in s.field)
        # sseul (001): the turn began with two field cards of different months and
        # both were captured, leaving the field empty
        if R.sseul_steal and "two_apart" in s.turn_flags and not field_has_month_card:
            s.turn_flags.add("sseul")
            self._event("sseul", p)
        # on the last turn of the hand sseul, ttadak and jjok steal nothing
        last_turn_exempt = R.last_turn_no_steal and self.nobody_has_a_turn()
        if not last_turn_exempt:
            steals = 0
            if "ttadak" in s.turn_flags and R.ttadak_steal:
                steals += 1
            if "jjok" in s.turn_flags and R.jjok_steal:
                steals += 1
            if "sseul" in s.turn_flags:
                steals += 1
            for _ in range(steals):
                self._steal(p)
        if seat.turns_played == 0:
            if "ppeok" in s.turn_flags and R.first_turn_ppeok_chips:
                self._collect_chips(p, R.first_turn_ppeok_chips, "first_turn_ppeok")
            if s.turn_flags & {"ttadak", "stack", "jjok"} and R.first_turn_capture_chips:
                self._collect_chips(p, R.first_turn_capture_chips, "first_turn_capture")
        if "ppeok" in s.turn_flags:
            seat.ppeoks += 1
        seat.turns_played += 1
        s.turn_flags = set()
        if R.three_ppeok_chips and seat.ppeoks >= 3:
            # a third ppeok ends the hand with that payment only
            self._collect_chips(p, R.three_ppeok_chips, "three_ppeok")
            self._event("three_ppeok", p)
            s.turns += 1
            s.winner = p
            s.points = R.three_ppeok_chips
            s.phase = "over"
            s.end_reason = "three_ppeok"

    def _go_stop_check(self, p: int) -> bool:
        """Offer Go/Stop when the mover's score reaches the threshold and it has not
        called Go yet or its score rose since its last Go.  On the last turn the
        Stop is automatic.  Returns True when the turn does not pass now."""
        s, R = self.s, self.R
        if not R.go_stop:
            return False
        seat = s.seats[p]
        score = self.score(p)
        if score < self.threshold():
            return False
        if seat.go_count > 0 and score <= seat.last_go_score:
            return False
        if self.nobody_has_a_turn():
            s.turns += 1
            self._finish_by_stop(p, automatic=True)
            return True
        s.phase = "gostop"
        return True

    def _pass_turn(self, p: int) -> None:
        """The turn ends; the next seat with a turn moves.  Optional flip-only turns
        lapse with an empty stock; forced ones are played at once (with an empty
        stock nothing is flipped)."""
        s, R = self.s, self.R
        self._event("turn_end", p)
        s.turns += 1
        s.phase = "play"
        if self.nobody_has_a_turn():
            self._played_out(p)
            return
        q = p
        for _ in range(s.nplayers):
            q = (q + 1) % s.nplayers
            if self._has_a_turn(q):
                break
        s.to_move = q
        seat = s.seats[q]
        if seat.flip_only and not s.stock and R.bomb_flip_only_optional:
            seat.flip_only = 0          # optional ones lapse; forced ones flip nothing
        if seat.flip_only and (not R.bomb_flip_only_optional or not seat.hand):
            seat.flip_only -= 1
            self._event("flip_only", q)
            self._flip_and_finish(q)

    # ------------------------------------------------------------ the end of the hand
    def settlement(self, winner: int) -> dict:
        """What each opponent would pay ``winner`` for a Stop now: the winner's 9A / 5A
        counted the way that brings in the most (ties: the higher points)."""
        R = self.R
        pile = self.s.seats[winner].pile
        best: dict | None = None
        best_key = None
        for sake, bridge in flexible_assignments(pile, R):
            sheet = score_sheet(pile, R, sake, bridge)
            base = go_value(sheet.total, self.s.seats[winner].go_count, R.go_scheme)
            pay, mult = self._payments(winner, sheet, base)
            received = sum(pay) if R.payment == 1 else base
            key = (received, base)
            if best_key is None or key > best_key:
                best_key = key
                best = dict(winner=winner, base=base, score=sheet.total, pay=pay,
                            multiplier=mult, sake_cup_as_junk=sake, bridge_as_junk=bridge)
        assert best is not None
        return best

    def _payments(self, w: int, sheet: ScoreSheet, base: int) -> tuple[list[int], list[int]]:
        s, R = self.s, self.R
        n = s.nplayers
        pay = [0] * n
        mult = [1] * n
        if R.payment != 1:
            return pay, mult
        winner = s.seats[w]
        pi_threshold = R.pi_bak_threshold_2p if self.active_players() == 2 else R.pi_bak_threshold
        callers = []
        others = []
        for q in self.opponents(w):
            loser = s.seats[q]
            # one double per set shown, by month (a bomb that counts as a shake is
            # among the shaken months)
            doublings = len(winner.shaken) + s.stake_doublings
            # each double-payment joker the winner holds doubles too (doubles add up)
            doublings += self._jokers(winner.pile, 1)
            m = 2 ** min(doublings, SHIFT_CAP)
            plus = 0
            no_bright = not any(kind_of(c) == "B" for c in loser.pile)
            if R.gwang_bak and sheet.bright_points > 0 and no_bright \
                    and not self._jokers(loser.pile, 2):
                if R.gwang_bak == 1:
                    m *= 2
                else:
                    plus += 2
            if pi_threshold and sheet.junk_points > 0 and most_junk_value(loser.pile, R) < pi_threshold:
                m *= 2
            if R.mong_bak_animals and sheet.animals >= R.mong_bak_animals:
                m *= 2
            if R.go_bak and loser.go_count > 0:
                m *= 2
                callers.append(q)
            else:
                others.append(q)
            mult[q] = m
            pay[q] = min(PAY_CAP, base * m + plus)
        if R.go_bak_pays_third and self.active_players() == 3 and len(callers) == 1 and others:
            # the Go caller pays its own losses and the third player's too
            pay[callers[0]] = min(PAY_CAP, pay[callers[0]] + pay[others[0]])
            pay[others[0]] = 0
        return pay, mult

    def _jokers(self, pile: set[str], effect: int) -> int:
        """How many of the pile's bonus cards are jokers with ``effect`` (1 double
        payment, 2 bright protection)."""
        effects = {"X2": self.R.bonus_x2_effect, "X3": self.R.bonus_x3_effect}
        return sum(1 for card, e in effects.items() if card in pile and e == effect)

    def _finish_by_stop(self, p: int, automatic: bool) -> None:
        s = self.s
        st = self.settlement(p)
        s.winner = p
        s.points = st["base"]
        s.phase = "over"
        s.end_reason = "last_turn_stop" if automatic else "stop"
        if self.R.payment == 1:
            for q in range(s.nplayers):
                s.seats[q].chips = _chips(s.seats[q].chips - st["pay"][q])
                s.seats[p].chips = _chips(s.seats[p].chips + st["pay"][q])
        else:
            s.seats[p].chips = _chips(s.seats[p].chips + st["base"])     # the score, once (casual)
        self._event("stop", p, None, 1 if automatic else 0)

    def _played_out(self, p: int) -> None:
        """Every hand is played out: a drawn hand (nagari) with Go/Stop; family rules
        score card points and set bonuses against 240 / players."""
        s, R = self.s, self.R
        s.phase = "over"
        s.winner = None
        s.points = 0
        if R.payment != 2:
            s.end_reason = "draw"
            self._event("draw", p)
            return
        s.end_reason = "family"
        n = s.nplayers
        target = (5 * R.family_bright + 10 * R.family_ribbon + 9 * R.family_animal) // n
        sheets = [family_sheet(seat.pile, R) for seat in s.seats]
        all_bonuses = sum(sh.family_set_bonus for sh in sheets)
        for q, seat in enumerate(s.seats):
            mine = sheets[q].family_set_bonus
            paid = all_bonuses - mine
            seat.chips = sheets[q].total + mine * (n - 1) - paid - target
        balances = [seat.chips for seat in s.seats]
        top = max(balances)
        if balances.count(top) == 1:
            s.winner = balances.index(top)
            s.points = top
        self._event("hand_end", p)

    # ------------------------------------------------------------ reports
    def is_over(self) -> bool:
        return self.s.phase == "over"

    def outcome(self) -> RefOutcome | None:
        if not self.is_over():
            return None
        s = self.s
        return RefOutcome(s.winner, s.points, tuple(seat.chips for seat in s.seats),
                          s.end_reason, tuple(self.score(p) for p in range(s.nplayers)),
                          tuple(seat.go_count for seat in s.seats))

    def perft(self, depth: int, bulk: bool = True) -> int:
        """Leaves exactly ``depth`` decisions away (a hand that ends sooner counts nothing)."""
        if depth == 0:
            return 1
        moves = self.legal_moves()
        if depth == 1 and bulk:
            return len(moves)
        total = 0
        for move in moves:
            self.push(move)
            total += self.perft(depth - 1, bulk)
            self.pop()
        return total

    def divide(self, depth: int, bulk: bool = True) -> dict[str, int]:
        out = {}
        for move in self.legal_moves():
            self.push(move)
            out[move] = self.perft(depth - 1, bulk)
            self.pop()
        return out

    # ------------------------------------------------------------ the core's field dict
    def to_fields(self) -> dict:
        """The state in the layout of ``CoreState.to_fields()``."""
        s = self.s
        n = s.nplayers

        def mask(cards) -> int:
            return sum(1 << INDEX[c] for c in cards)

        def index_or_none(card: str | None) -> int | None:
            return None if card is None else INDEX[card]

        return dict(
            nplayers=n, dealer=s.dealer, to_move=s.to_move, phase=PHASES.index(s.phase),
            flip_card=index_or_none(s.flip_card), winner=s.winner, points=s.points,
            turns=s.turns, field=mask(s.field),
            hands=[mask(seat.hand) for seat in s.seats],
            captured=[mask(seat.pile) for seat in s.seats],
            stock=[INDEX[c] for c in s.stock],
            go_counts=[seat.go_count for seat in s.seats],
            last_go_scores=[seat.last_go_score for seat in s.seats],
            flip_only=[seat.flip_only for seat in s.seats],
            played_card=index_or_none(s.played_card),
            played_target=index_or_none(s.played_target),
            turn_bonus=mask(s.turn_bonus),
            turn_flags=sum(TURN_FLAG_BITS[f] for f in s.turn_flags),
            stack_bonus=[s.stack_bonus.get(b, 0) for b in BONUS_CARDS],
            end_reason=END_REASONS.index(s.end_reason), stake_doublings=s.stake_doublings,
            sitter=s.sitter,
            showdown_caller=s.showdown_asker, showdown_card=index_or_none(s.showdown_card),
            forced_card=index_or_none(s.forced_card),
            shaken=[sum(1 << m for m in seat.shaken) for seat in s.seats],
            bombs=[seat.bombs for seat in s.seats],
            ppeoks=[seat.ppeoks for seat in s.seats],
            turns_played=[seat.turns_played for seat in s.seats],
            chips=[seat.chips for seat in s.seats],
        )

    @classmethod
    def from_fields(cls, rules, f: dict) -> "ReferenceGame":
        """A game in the state described by a ``CoreState.to_fields()`` dict."""
        g = cls(rules, _deal=False)
        n = f["nplayers"]

        def cards(mask: int) -> set[str]:
            return {CARD_CODES[i] for i in range(len(CARD_CODES)) if mask >> i & 1}

        def card_or_none(i: int | None) -> str | None:
            return None if i is None else CARD_CODES[i]

        seats = []
        for p in range(n):
            seats.append(Seat(
                hand=cards(f["hands"][p]), pile=cards(f["captured"][p]),
                go_count=f["go_counts"][p], last_go_score=f["last_go_scores"][p],
                flip_only=f["flip_only"][p],
                shaken={m for m in range(1, 13) if f.get("shaken", [0] * n)[p] >> m & 1},
                bombs=f.get("bombs", [0] * n)[p], ppeoks=f.get("ppeoks", [0] * n)[p],
                turns_played=f.get("turns_played", [0] * n)[p],
                chips=f.get("chips", [0] * n)[p]))
        flags = f.get("turn_flags", 0)
        g.s = State(
            nplayers=n, dealer=f["dealer"], seats=seats, field=cards(f["field"]),
            stock=[CARD_CODES[i] for i in f["stock"]], to_move=f["to_move"],
            phase=PHASES[f["phase"]], flip_card=card_or_none(f["flip_card"]),
            winner=f["winner"], points=f["points"], turns=f["turns"],
            end_reason=END_REASONS[f.get("end_reason", 0)],
            stake_doublings=f.get("stake_doublings", 0), sitter=f.get("sitter"),
            showdown_asker=f.get("showdown_caller"),
            showdown_card=card_or_none(f.get("showdown_card")),
            forced_card=card_or_none(f.get("forced_card")),
            played_card=card_or_none(f.get("played_card")),
            played_target=card_or_none(f.get("played_target")),
            turn_bonus=cards(f.get("turn_bonus", 0)),
            turn_flags={name for name, bit in TURN_FLAG_BITS.items() if flags & bit},
            stack_bonus={b: m for b, m in zip(BONUS_CARDS, f.get("stack_bonus", [0, 0])) if m})
        g._events = []
        return g
