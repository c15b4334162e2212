"""Scoring of a captured pile, for every preset.

The kernel :c:func:`score_pile` is pure C over a ``uint64`` mask.  Flexible cards
(9A the sake cup, 5A the bridge where the rules allow) are counted whichever way
scores more for their owner; the engine never asks.
"""
from libc.stdint cimport uint64_t, int32_t
from libc.string cimport memset

from gostop_core.cards cimport (
    GS_MASK_BRIGHT, GS_MASK_RAIN_BRIGHT, GS_MASK_ANIMAL, GS_MASK_RIBBON,
    GS_MASK_SINGLE_JUNK, GS_MASK_DOUBLE_JUNK, GS_MASK_HONGDAN, GS_MASK_CHEONGDAN,
    GS_MASK_CHODAN, GS_MASK_RAIN_RIBBON, GS_MASK_GODORI, GS_MASK_SAKE_CUP, GS_MASK_BRIDGE,
    GS_CARD_X2, GS_CARD_X3, GS_BIT, GS_MONTH_MASK, gs_popcount, parse_mask,
)
from gostop_core.rules cimport Rules, RulesC, BONUS_EFFECT_JUNK
from gostop_core.guard cimport gs_poll_begin, gs_interrupted, gs_raise_if_interrupted

import threading
from gostop_core.cards import format_mask
from gostop_core.rules import Rules as _Rules


cdef inline int32_t _count_points(int32_t count, int32_t minimum) noexcept nogil:
    # "N cards = 1 point, +1 for each beyond" (written to become a conditional move)
    cdef int32_t points = count - minimum + 1
    return points if points > 0 else 0


cdef inline int32_t _bonus_junk(uint64_t pile, const RulesC* r) noexcept nogil:
    cdef int32_t v = 0
    if (pile & GS_BIT(GS_CARD_X2)) and r.bonus_x2_effect == BONUS_EFFECT_JUNK:
        v += r.bonus_x2_junk
    if (pile & GS_BIT(GS_CARD_X3)) and r.bonus_x3_effect == BONUS_EFFECT_JUNK:
        v += r.bonus_x3_junk
    return v


cdef void score_assignment(uint64_t pile, const RulesC* r, int sake_junk, int bridge_junk,
                            ScoreC* s) noexcept nogil:
    cdef uint64_t brights = pile & GS_MASK_BRIGHT
    cdef uint64_t animals = pile & GS_MASK_ANIMAL
    cdef uint64_t ribbons = pile & GS_MASK_RIBBON
    cdef int32_t nb
    memset(s, 0, sizeof(ScoreC))
    # brights
    nb = gs_popcount(brights)
    s.brights = nb
    if nb == 5:
        s.bright_points = r.bright5
    elif nb == 4:
        s.bright_points = r.bright4_rain if brights & GS_MASK_RAIN_BRIGHT else r.bright4
    elif nb == 3:
        s.bright_points = r.bright3_rain if brights & GS_MASK_RAIN_BRIGHT else r.bright3
    # ribbons
    if not r.rain_ribbon_counts:
        ribbons &= ~GS_MASK_RAIN_RIBBON
    s.ribbons = gs_popcount(ribbons)
    s.ribbon_points = _count_points(s.ribbons, r.ribbon_min)
    if pile & GS_MASK_HONGDAN == GS_MASK_HONGDAN:
        s.hongdan_points = r.ribbon_set
    if pile & GS_MASK_CHEONGDAN == GS_MASK_CHEONGDAN:
        s.cheongdan_points = r.ribbon_set
    if pile & GS_MASK_CHODAN == GS_MASK_CHODAN:
        s.chodan_points = r.ribbon_set
    # animals and junk, flexible cards as assigned
    s.junk = gs_popcount(pile & GS_MASK_SINGLE_JUNK) + 2 * gs_popcount(pile & GS_MASK_DOUBLE_JUNK)
    s.junk += _bonus_junk(pile, r)
    if sake_junk:
        animals &= ~GS_MASK_SAKE_CUP
        s.junk += r.sake_cup_junk
        s.sake_cup_as_junk = 1
    if bridge_junk:
        animals &= ~GS_MASK_BRIDGE
        s.junk += r.bridge_junk
        s.bridge_as_junk = 1
    s.animals = gs_popcount(animals)
    s.animal_points = _count_points(s.animals, r.animal_min)
    if pile & GS_MASK_GODORI == GS_MASK_GODORI:
        s.godori_points = r.godori
    s.junk_points = _count_points(s.junk, r.junk_min)
    s.total = (s.bright_points + s.ribbon_points + s.hongdan_points + s.cheongdan_points
               + s.chodan_points + s.animal_points + s.godori_points + s.junk_points)


cdef void _score_family(uint64_t pile, const RulesC* r, ScoreC* s) noexcept nogil:
    # Family variant (004): card points, all ten ribbons and all nine animals count.
    memset(s, 0, sizeof(ScoreC))
    s.brights = gs_popcount(pile & GS_MASK_BRIGHT)
    s.ribbons = gs_popcount(pile & GS_MASK_RIBBON)
    s.animals = gs_popcount(pile & GS_MASK_ANIMAL)
    s.junk = gs_popcount(pile & GS_MASK_SINGLE_JUNK) + 2 * gs_popcount(pile & GS_MASK_DOUBLE_JUNK)
    s.bright_points = s.brights * r.family_bright
    s.ribbon_points = s.ribbons * r.family_ribbon
    s.animal_points = s.animals * r.family_animal
    s.total = s.bright_points + s.ribbon_points + s.animal_points
    if pile & GS_MASK_HONGDAN == GS_MASK_HONGDAN:
        s.hongdan_points = r.family_ribbon_set
    if pile & GS_MASK_CHEONGDAN == GS_MASK_CHEONGDAN:
        s.cheongdan_points = r.family_ribbon_set
    s.family_set_bonus = s.hongdan_points + s.cheongdan_points
    if pile & GS_MONTH_MASK(5) == GS_MONTH_MASK(5):
        s.family_set_bonus += r.family_month_set
    if pile & GS_MONTH_MASK(10) == GS_MONTH_MASK(10):
        s.family_set_bonus += r.family_month_set
    if pile & GS_MONTH_MASK(12) == GS_MONTH_MASK(12):
        s.family_set_bonus += r.family_month_set
    if pile & GS_MONTH_MASK(11) == GS_MONTH_MASK(11):
        s.family_set_bonus += r.family_november_set


cdef int32_t score_pile(uint64_t pile, const RulesC* r, ScoreC* out) noexcept nogil:
    """Best score of a pile over the flexible-card assignments; fills ``out``."""
    cdef ScoreC trial
    cdef int sake, bridge, sake_options, bridge_options
    if r.family_scoring:
        _score_family(pile, r, out)
        return out.total
    sake_options = 2 if (r.sake_cup_junk and (pile & GS_MASK_SAKE_CUP)) else 1
    bridge_options = 2 if (r.bridge_junk and (pile & GS_MASK_BRIDGE)) else 1
    score_assignment(pile, r, 0, 0, out)
    for sake in range(sake_options):
        for bridge in range(bridge_options):
            if sake == 0 and bridge == 0:
                continue
            score_assignment(pile, r, sake, bridge, &trial)
            # strictly better only: ties keep the card an animal
            if trial.total > out.total:
                out[0] = trial
    return out.total


cdef int32_t score_total(uint64_t pile, const RulesC* r) noexcept nogil:
    """``score_pile(pile).total`` without the breakdown (the engine's hot path: it
    runs after every capture).  What every assignment of the flexible cards shares
    is counted once; only the animal and junk points are tried each way."""
    cdef ScoreC s
    cdef uint64_t brights, ribbons
    cdef int32_t nb, total = 0, animals, junk, best, t
    cdef int sake, bridge, sake_options, bridge_options
    if r.family_scoring:
        return score_pile(pile, r, &s)
    brights = pile & GS_MASK_BRIGHT
    nb = gs_popcount(brights)
    if nb >= 3:  # rare: most piles score no brights
        if nb == 5:
            total = r.bright5
        elif nb == 4:
            total = r.bright4_rain if brights & GS_MASK_RAIN_BRIGHT else r.bright4
        else:
            total = r.bright3_rain if brights & GS_MASK_RAIN_BRIGHT else r.bright3
    ribbons = pile & GS_MASK_RIBBON
    if not r.rain_ribbon_counts:
        ribbons &= ~GS_MASK_RAIN_RIBBON
    total += _count_points(gs_popcount(ribbons), r.ribbon_min)
    # the sets, added by arithmetic rather than by a branch each
    total += r.ribbon_set * ((pile & GS_MASK_HONGDAN == GS_MASK_HONGDAN)
                             + (pile & GS_MASK_CHEONGDAN == GS_MASK_CHEONGDAN)
                             + (pile & GS_MASK_CHODAN == GS_MASK_CHODAN))
    total += r.godori * (pile & GS_MASK_GODORI == GS_MASK_GODORI)
    animals = gs_popcount(pile & GS_MASK_ANIMAL)
    junk = (gs_popcount(pile & GS_MASK_SINGLE_JUNK) + 2 * gs_popcount(pile & GS_MASK_DOUBLE_JUNK)
            + _bonus_junk(pile, r))
    best = _count_points(animals, r.animal_min) + _count_points(junk, r.junk_min)
    # a flexible card counted as junk leaves the animals (it is one when in the pile)
    sake_options = 2 if (r.sake_cup_junk and (pile & GS_MASK_SAKE_CUP)) else 1
    bridge_options = 2 if (r.bridge_junk and (pile & GS_MASK_BRIDGE)) else 1
    if sake_options == 1 and bridge_options == 1:
        return total + best
    for sake in range(sake_options):
        for bridge in range(bridge_options):
            if sake == 0 and bridge == 0:
                continue
            t = (_count_points(animals - sake - bridge, r.animal_min)
                 + _count_points(junk + sake * r.sake_cup_junk + bridge * r.bridge_junk,
                                 r.junk_min))
            if t > best:
                best = t
    return total + best


cdef int32_t junk_value(uint64_t pile, const RulesC* r) noexcept nogil:
    """Junk count of a pile with flexible cards as animals (used for steals and pi-bak)."""
    return (gs_popcount(pile & GS_MASK_SINGLE_JUNK) + 2 * gs_popcount(pile & GS_MASK_DOUBLE_JUNK)
            + _bonus_junk(pile, r))


class Score:
    """A scored pile: ``total`` plus its breakdown (see :func:`score`)."""

    __slots__ = ("cards", "total", "brights", "bright_points", "ribbons", "ribbon_points",
                 "hongdan_points", "cheongdan_points", "chodan_points", "animals",
                 "animal_points", "godori_points", "junk", "junk_points",
                 "sake_cup_as_junk", "bridge_as_junk", "family_set_bonus", "family")

    def __init__(self, cards, values, family):
        self.cards = cards
        self.family = family
        for key, value in values.items():
            setattr(self, key, value)
        self.sake_cup_as_junk = bool(self.sake_cup_as_junk)
        self.bridge_as_junk = bool(self.bridge_as_junk)

    def as_dict(self):
        """Plain data, for JSON output."""
        d = {k: getattr(self, k) for k in self.__slots__ if k != "cards"}
        d["cards"] = format_mask(int(self.cards)).split() if int(self.cards) else []
        return d

    def lines(self):
        """Human-readable breakdown lines, one per scoring category that counts."""
        out = []
        if self.family:
            for name, count, pts in (("brights", self.brights, self.bright_points),
                                     ("ribbons", self.ribbons, self.ribbon_points),
                                     ("animals", self.animals, self.animal_points)):
                each = pts // count if count else 0
                out.append(f"{name}: {count} x {each} = {pts}")
            if self.family_set_bonus:
                out.append(f"set bonuses from each other player: {self.family_set_bonus}")
            out.append(f"card points: {self.total}")
            return out
        out.append(f"brights: {self.brights} card(s) -> {self.bright_points}")
        out.append(f"ribbons: {self.ribbons} counted -> {self.ribbon_points}")
        for name in ("hongdan", "cheongdan", "chodan"):
            pts = getattr(self, name + "_points")
            if pts:
                out.append(f"  {name} -> {pts}")
        sake = " (9A as junk)" if self.sake_cup_as_junk else ""
        bridge = " (5A as junk)" if self.bridge_as_junk else ""
        out.append(f"animals: {self.animals} counted -> {self.animal_points}")
        if self.godori_points:
            out.append(f"  godori -> {self.godori_points}")
        out.append(f"junk: {self.junk} counted{sake}{bridge} -> {self.junk_points}")
        out.append(f"total: {self.total}")
        return out

    def __eq__(self, other):
        if not isinstance(other, Score):
            return NotImplemented
        return self.as_dict() == other.as_dict()

    __hash__ = None

    def __repr__(self):
        return f"<Score total={self.total} cards={self.cards}>"


def score(cards, rules=None):
    """Score a captured pile under ``rules`` (a :class:`Rules`, a preset name, or
    ``None`` for casual).  Returns a :class:`Score` with the breakdown.

    >>> score("1B 3B 8B").total
    3
    """
    from gostop_core.cards import CardSet
    cdef ScoreC s
    cdef Rules r = _coerce_rules(rules)
    cdef uint64_t mask = parse_mask(cards)
    if (mask & (GS_BIT(GS_CARD_X2) | GS_BIT(GS_CARD_X3))) and not r.c.bonus_cards:
        from gostop_core.errors import CardCodeError
        raise CardCodeError(f"the {r.preset} rules play without the bonus cards X2/X3")
    score_pile(mask, &r.c, &s)
    return Score(CardSet(mask), <dict>s, bool(r.c.family_scoring))


def score_mask(uint64_t mask, Rules rules):
    """Total of a pile mask (fast path, no breakdown)."""
    return score_total(mask, &rules.c)


cdef Rules _coerce_rules(rules):
    if rules is None:
        return _Rules()
    if isinstance(rules, _Rules):
        return <Rules>rules
    return _Rules(rules)


cdef int32_t max_junk_value(uint64_t pile, const RulesC* r) noexcept nogil:
    """Junk count with every flexible card counted as junk where the rules allow
    (a loser facing pi-bak counts them so, to avoid the penalty)."""
    cdef int32_t v = junk_value(pile, r)
    if r.sake_cup_junk and (pile & GS_MASK_SAKE_CUP):
        v += r.sake_cup_junk
    if r.bridge_junk and (pile & GS_MASK_BRIDGE):
        v += r.bridge_junk
    return v


def score_masks_loop(const uint64_t[::1] masks, Rules rules, long repeats=1):
    """Score every pile mask of ``masks`` (a contiguous uint64 buffer: a numpy
    array, ``array('Q')``...) ``repeats`` times in a C loop without the GIL and
    return the sum of the totals, a checksum.  This is the scoring benchmark's
    entry point: ``len(masks) * repeats`` evaluations and no Python call per pile."""
    cdef Py_ssize_t i, n = masks.shape[0]
    cdef long rep
    cdef long long total = 0
    cdef const RulesC* r = &rules.c
    if repeats < 0:
        raise ValueError("repeats must be >= 0")
    gs_poll_begin(threading.current_thread() is threading.main_thread())
    with nogil:
        for rep in range(repeats):
            # Ctrl-C is polled once per round (a round is n piles: microseconds)
            if gs_interrupted():
                break
            for i in range(n):
                # the pile changes with the round (one card toggled), so no round
                # can be skipped as a repeat of the previous one
                total += score_total(masks[i] ^ (<uint64_t>(rep & 1) << (i % 48)), r)
    gs_raise_if_interrupted()
    return total
