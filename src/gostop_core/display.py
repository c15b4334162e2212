"""What every front end shows of a seat beside its cards, worked out once from a
:class:`~gostop_core.PlayerView`: the captured pile grouped the way the score
counts it (:func:`group_captured`), the baks a seat would pay if another seat
won now (:func:`bak_risks`), the multipliers in force for a seat that wins
(:func:`multipliers_in_force`) and the family break-even target
(:func:`family_target`).

The terminal board (``gostop_cli``), the SVG tables (``gostop_core.svg``) and
the web table (``gostop_web``) all draw from these, so they cannot disagree
about where a card counts.  Each takes a view, or the public piles of one: a
view holds every captured pile, Go count and shown month, and nothing here
reads a hand or the stock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gostop_core.cards import CardSet, card_kind
from gostop_core.rules import Rules
from gostop_core.scoring import Score, score as score_pile

if TYPE_CHECKING:
    from gostop_core.view import PlayerView

__all__ = ["PILES", "CapturedGroups", "group_captured", "uncounted_cards", "family_target",
           "BakRisk", "bak_risks", "Multiplier", "MultipliersInForce", "multipliers_in_force"]

#: The captured piles, in the order every board shows them.
PILES = ("brights", "animals", "ribbons", "junk")
_PILE_OF_KIND = {"B": "brights", "A": "animals", "R": "ribbons", "J": "junk", "D": "junk",
                 "X": "junk"}
#: rules fields of the bonus cards' effects (rules.pxd BONUS_EFFECT_*)
_DOUBLE_PAYMENT, _BRIGHT_PROTECTION = 1, 2


@dataclass(frozen=True)
class CapturedGroups:
    """A captured pile by kind as its score counts it.  ``piles`` maps each of
    :data:`PILES` to its codes (in card order); ``as_junk`` holds the animals the
    score counts as junk (9A, 5A: they stand in the junk pile); ``uncounted`` the
    cards that count toward nothing in their pile (12R where the rain ribbon does
    not count); ``score`` is the pile's :class:`~gostop_core.scoring.Score`."""

    piles: dict[str, tuple[str, ...]]
    as_junk: frozenset[str]
    uncounted: frozenset[str]
    score: Score


def uncounted_cards(rules: Rules) -> frozenset[str]:
    """The cards that count for nothing in their kind under ``rules``: the rain
    ribbon where ``rain_ribbon_counts`` is off (family scoring counts every
    ribbon's card points, whatever that field says)."""
    return frozenset() if rules.rain_ribbon_counts or rules.family_scoring else frozenset({"12R"})


def group_captured(cards: CardSet, rules: Rules, score: Score | None = None) -> CapturedGroups:
    """``cards`` (a captured pile) grouped for display under ``rules``; ``score``
    is its score when the caller has it already."""
    sc = score_pile(cards, rules) if score is None else score
    as_junk = frozenset(code for code, moved in (("9A", sc.sake_cup_as_junk),
                                                 ("5A", sc.bridge_as_junk)) if moved)
    groups: dict[str, list[str]] = {p: [] for p in PILES}
    for code in cards.codes():
        groups["junk" if code in as_junk else _PILE_OF_KIND[card_kind(code)]].append(code)
    dead = uncounted_cards(rules) & set(groups["ribbons"])
    return CapturedGroups({p: tuple(groups[p]) for p in PILES}, as_junk, frozenset(dead), sc)


def family_target(rules: Rules, players: int) -> int:
    """Family rules: the card points a seat needs to break even, its even share of
    the deck's card points (5 brights, 10 ribbons, 9 animals)."""
    deck = 5 * rules.family_bright + 10 * rules.family_ribbon + 9 * rules.family_animal
    return int(deck) // players


# ---------------------------------------------------------------- baks
@dataclass(frozen=True)
class BakRisk:
    """A bak a seat would pay if another seat won now.  ``name`` is ``pi_bak``,
    ``gwang_bak``, ``go_bak`` or ``mong_bak``; ``have`` and ``need`` say how far
    the seat is from safety: its junk and the pi-bak threshold, its brights (0) and
    1, its Go calls (a called Go is never taken back: ``need`` 0), or the most
    animals another seat holds and the mong-bak count (the winner's, so ``have``
    is at least ``need``)."""

    name: str
    have: int
    need: int


def _junk_at_most(cards: CardSet, rules: Rules) -> int:
    """The junk a losing pile shows against pi-bak: every flexible animal (9A, 5A)
    counted as junk where the rules allow it, as the settlement counts a loser."""
    flexible = {"9A": rules.sake_cup_junk, "5A": rules.bridge_junk}
    codes = cards.codes()
    plain = [c for c in codes if not (c in flexible and flexible[c])]
    junk = score_pile(CardSet(" ".join(plain)) if plain else CardSet(), rules).junk
    return junk + sum(value for code, value in flexible.items() if value and code in codes)


def _protected(cards: CardSet, rules: Rules) -> bool:
    """A bright-protection joker in the pile saves it from gwang-bak."""
    codes = set(cards.codes())
    return (("X2" in codes and rules.bonus_x2_effect == _BRIGHT_PROTECTION)
            or ("X3" in codes and rules.bonus_x3_effect == _BRIGHT_PROTECTION))


def bak_risks(view: "PlayerView", seat: int) -> tuple[BakRisk, ...]:
    """The baks ``seat`` would pay now if another seat won with the matching score:
    pi-bak (junk under the threshold; the winner scores junk), gwang-bak (no
    bright; the winner scores brights), go-bak (the seat called Go) and mong-bak
    (another seat holds the mong-bak count of animals), each only where the rules
    have it and the hand pays each opponent.  Only public parts of the view are
    read: the captured piles and the Go counts."""
    rules = view.rules
    if rules.payment != 1 or view.sitter == seat:
        return ()
    pile = view.captured[seat]
    out = []
    threshold = rules.pi_bak_threshold_2p if _active(view) == 2 else rules.pi_bak_threshold
    if threshold:
        junk = _junk_at_most(pile, rules)
        if junk < threshold:
            out.append(BakRisk("pi_bak", junk, threshold))
    if rules.gwang_bak and not any(card_kind(c) == "B" for c in pile.codes()) \
            and not _protected(pile, rules):
        out.append(BakRisk("gwang_bak", 0, 1))
    if rules.go_bak and view.go_counts[seat] > 0:
        out.append(BakRisk("go_bak", view.go_counts[seat], 0))
    if rules.mong_bak_animals:
        most = max((score_pile(view.captured[q], rules).animals for q in range(view.players)
                    if q != seat), default=0)
        if most >= rules.mong_bak_animals:
            out.append(BakRisk("mong_bak", most, rules.mong_bak_animals))
    return tuple(out)


def _active(view: "PlayerView") -> int:
    return view.players - (1 if view.sitter is not None else 0)


# ---------------------------------------------------------------- multipliers
@dataclass(frozen=True)
class Multiplier:
    """One doubling in force: ``reason`` is ``shake`` (months shown by shaking or
    by a bomb that counts as a shake: ``months``, each once), ``nagari`` (drawn
    hands before: ``count``) or ``double_joker`` (``count`` jokers held);
    ``factor`` is what it multiplies the payment by."""

    reason: str
    factor: int
    count: int = 0
    months: tuple[int, ...] = ()


@dataclass(frozen=True)
class MultipliersInForce:
    """The doublings every opponent would pay ``seat`` if it won now, and their
    product (the baks of each opponent come on top, :func:`bak_risks`)."""

    parts: tuple[Multiplier, ...]
    total: int


def multipliers_in_force(view: "PlayerView", seat: int) -> MultipliersInForce:
    """What multiplies the payment to ``seat`` if it wins now, as the settlement
    counts it: one double per month shown (a month shaken and later bombed is
    shown once: the view's ``shaken`` holds it once), one per drawn hand before,
    one per double-payment joker held.  Empty where nobody pays (casual, family)."""
    rules = view.rules
    if rules.payment != 1:
        return MultipliersInForce((), 1)
    parts = []
    months = tuple(view.shaken[seat])
    if months:
        parts.append(Multiplier("shake", 2 ** len(months), len(months), months))
    if view.stake_doublings:
        parts.append(Multiplier("nagari", 2 ** view.stake_doublings, view.stake_doublings))
    codes = set(view.captured[seat].codes())
    jokers = sum(1 for code, effect in (("X2", rules.bonus_x2_effect),
                                        ("X3", rules.bonus_x3_effect))
                 if code in codes and effect == _DOUBLE_PAYMENT)
    if jokers:
        parts.append(Multiplier("double_joker", 2 ** jokers, jokers))
    total = 1
    for part in parts:
        total *= part.factor
    return MultipliersInForce(tuple(parts), total)
