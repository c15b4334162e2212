# This file stays one module, by design: the greedy policy, the leaf model,
# playouts and the tree search call one another in the innermost loop of every
# search, and Cython inlines those calls only within a module.  The sampling of
# the hidden cards lives below it, in gostop_core/sampling.pyx.
"""Expectimax search from one player's view (the hidden cards stay unknown).

The model (docs/search.md has the long form):

* **Determinization of the opponents' hands.**  The searching seat sees its own
  hand, the field, the captured piles and the counts of the other hands and the
  stock.  The unseen cards (the pack minus everything visible) are dealt at
  random to the other hands (their counts) and the stock, ``samples`` times,
  with a seeded shuffle: every deal consistent with the view is equally likely.
  A card whose place is public (a refused showdown's forced card, a showdown
  card) goes to its owner.  The values of the root moves are averaged over the
  samples, every root move searched on the same samples.
* **Max nodes** for every decision of the searching seat (plays, flip choices,
  Go/Stop, bonus cards, shakes, bombs ...).
* **Chance nodes** for every flip: when a move turns a card from the stock,
  each card still in the stock of the sample is, in turn, put on top, with
  probability 1 / stock size.  A second card turned by the same move (after a
  flipped bonus card, or a forced flip-only turn) and the replacement card drawn
  after banking a bonus card are the next cards of the sample's shuffled stock
  (sampled, not enumerated).
* **Opponents** play the greedy bot's policy (:c:func:`policy_move`, the C
  twin of ``bots.GreedyBot``, checked move for move by tests/test_policy.py),
  each from its own view of the sample.
* **Depth** counts turns (a turn is a play with its flip, Go/Stop and flip
  choices).  Depth 1 (the default) is the seat's own turn; depth 2 adds the
  next seat's turn with the chance over its flip, and so on.
* **Leaf value**, two kinds:

  - ``rollout`` (the default, :c:func:`rollout_value`): the hand is played to
    its end by the greedy policy for every seat, the searching seat included,
    with the sample's hidden hands and stock; the value is the terminal value.
  - ``estimate`` (:c:func:`leaf_value`): an estimate of the net points the
    searching seat will book, with no play.  Each seat in play has a reach =
    score + progress of its piles (weighted fractions of the next point in
    junk, animals, ribbons, brights, godori and ribbon sets that are still
    open) + a weight per card in hand; its chance to win is
    exp(beta (reach - threshold)) against a draw weight; a win pays its Go value.
    The weights were fitted by maximum likelihood on self-play (LEAF_WEIGHTS).

* **Terminal value**: the net points of the hand (casual: +points to the winner,
  -points to the others, 0 for a draw; chip and family rules: the seat's chips),
  plus ``win_bonus`` for a won hand and minus it for a hand another seat won:
  the bot is asked to win hands, not only to book points.
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int32_t
from libc.math cimport exp, fabs, sqrt
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, realloc, free
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from gostop_core.cards cimport (
    GS_BIT, GS_MONTH_MASK, GS_NO_CARD, GS_CARD_X2, GS_CARD_X3, GS_MASK_BONUS,
    GS_MASK_BRIGHT, GS_MASK_ANIMAL, GS_MASK_RIBBON, GS_MASK_GODORI, GS_MASK_HONGDAN,
    GS_MASK_CHEONGDAN, GS_MASK_CHODAN, GS_MASK_RAIN_RIBBON, GS_NUM_MONTH_CARDS,
    GS_MASK_JUNK,
    gs_popcount, gs_lowest, same_month,
)
from gostop_core.rules cimport RulesC, Rules, rules_threshold, PAY_EACH_OPPONENT, PAY_FAMILY_BALANCE
from gostop_core.scoring cimport ScoreC, score_total, score_pile, junk_value
from gostop_core.movegen cimport (
    GameStateC, SettlementC, generate_moves, apply_move, MAX_MOVES, MAX_PLAYERS,
    PHASE_PLAY, PHASE_FLIP_CHOICE, PHASE_GO_STOP, PHASE_OVER, PHASE_SHOWDOWN,
    MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_GO, MOVE_STOP, MOVE_SHAKE,
    MOVE_FLIP_ONLY, MOVE_SHOWDOWN, MOVE_ACCEPT, MOVE_REFUSE,
    move_kind, move_card, move_target, splitmix64, bounded,
)
from gostop_core.guard cimport (
    gs_poll_begin, gs_interrupted, gs_raise_if_interrupted, gs_set_stop, gs_stop_asked,
    gs_stop_wanted,
)
from gostop_core.settlement cimport settle
from gostop_core.state cimport CoreState
from gostop_core.sampling cimport shuffle_cards, fill_public, determinize, check_hidden, view_base
from gostop_core.movegen import _in_main_thread
import warnings
from cpython.pycapsule cimport PyCapsule_GetPointer

#: Name of the capsule that carries a ``PlayoutModel`` (gostop_core.bots.policy).
PLAYOUT_MODEL_CAPSULE = b"gostop_core.PlayoutModel"
cdef const char* PLAYOUT_MODEL_NAME = "gostop_core.PlayoutModel"
#: Bounds of ``cut`` (playout turns before the model's value) and ``worlds``.
MAX_CUT = 64
MAX_WORLDS = 64

DEFAULT_DEPTH = 1
DEFAULT_SAMPLES = 256
#: Bounds of ``depth`` and ``samples`` (the bot and the CLI take them from here).
#: Depth 2 searches about 12,000 nodes a sample, depth 3 about 3 million (20 s a
#: sample on the test machine, docs/testing.md): deeper searches are refused.
MAX_DEPTH = 2
MAX_SAMPLES = SEARCH_MAX_SAMPLES
#: Added to the value of a won hand, taken from a lost one (net points).
DEFAULT_WIN_BONUS = 2.0
DEFAULT_BETA = 0.511
#: Leaf weights, fitted by maximum likelihood to who won 1,500 self-play hands
#: (greedy against greedy and random, casual, 2 players; docs/search.md):
#: 0-2 progress toward the junk, animal, ribbon minimums; 3 per category already
#: scoring; 4-6 one, two, three-or-four brights with enough left; 7-8 one, two
#: godori birds (open); 9-10 ribbon sets with one, two cards (open); 11 per card
#: in hand; 12 log of the draw weight; 13 per card value in the pile; 14 the
#: best capture of the seat to move (/4); 15 blend with the plain reach difference.
LEAF_WEIGHTS = (3.953, 2.315, 2.853, 2.876, 1.116, 1.909, -0.095, 0.264, 0.95,
                0.045, 0.219, 0.897, -2.0, 0.0, 0.0, 0.0)
CHANCE_SEAT = PV_CHANCE_SEAT
#: Early stop (``stop_z``): first check after this many samples, then every
#: STOP_CHECK; a move within DEFAULT_TOLERANCE points of the best counts as tied.
DEFAULT_MIN_SAMPLES = 32
cdef enum:
    STOP_EVERY = 8
STOP_CHECK = STOP_EVERY
DEFAULT_TOLERANCE = 0.1
#: Bound of ``plan`` (nested playouts per planned Go).
MAX_PLAN = 64
DEFAULT_REACH = LEAF_WEIGHTS[11]


# ---------------------------------------------------------------- card values
cdef double card_worth(int c) noexcept nogil:
    """Value of a card in a pile before set bonuses (the greedy bot's table)."""
    cdef uint64_t b
    if c == GS_CARD_X2:
        return 2.0
    if c == GS_CARD_X3:
        return 3.0
    if c == 44:        # 12B, the rain bright
        return 3.5
    if c == 32:        # 9A, animal or double junk
        return 2.5
    b = GS_BIT(c)
    if b & GS_MASK_BRIGHT:
        return 5.0
    if b & GS_MASK_GODORI:
        return 3.0
    if b & GS_MASK_ANIMAL:
        return 2.0
    if b & GS_MASK_RAIN_RIBBON:
        return 1.0
    if b & GS_MASK_RIBBON:
        return 2.0
    if c == 41 or c == 47:  # 11D, 12D
        return 2.0
    return 1.0


cdef double capture_gain(const GameStateC* s, const RulesC* r, int p, uint64_t cards) noexcept nogil:
    cdef uint64_t pile = s.captured[p], rest = cards
    cdef double v = 4.0 * (score_total(pile | cards, r) - score_total(pile, r))
    cdef int c
    while rest:
        c = gs_lowest(rest)
        rest &= rest - 1
        v += card_worth(c)
    return v


# ---------------------------------------------------------------- the greedy policy
# The greedy bot of bots.py (GreedyBot) in C, value for value, so that the search
# models a greedy opponent exactly and its playouts are as strong as that bot.
# tests/test_policy.py checks that both choose the same move at every decision of
# many games of every preset.

cdef uint64_t SET_MASKS[4]
SET_MASKS[0] = GS_MASK_GODORI
SET_MASKS[1] = GS_MASK_HONGDAN
SET_MASKS[2] = GS_MASK_CHEONGDAN
SET_MASKS[3] = GS_MASK_CHODAN
# family sets: hongdan, cheongdan, all four of May, October, December, November
cdef uint64_t FAMILY_SET_MASKS[6]
FAMILY_SET_MASKS[0] = GS_MASK_HONGDAN
FAMILY_SET_MASKS[1] = GS_MASK_CHEONGDAN
FAMILY_SET_MASKS[2] = GS_MONTH_MASK(5)
FAMILY_SET_MASKS[3] = GS_MONTH_MASK(10)
FAMILY_SET_MASKS[4] = GS_MONTH_MASK(12)
FAMILY_SET_MASKS[5] = GS_MONTH_MASK(11)

ctypedef struct GreedyCtx:
    const GameStateC* s
    const RulesC* r
    int p                 # the seat choosing
    uint64_t unseen       # the cards p has not seen (other hands and the stock)
    int unseen_total
    int32_t mine_score    # the score of p's pile now
    int deny_set[4]       # opponents holding two of each set (SET_MASKS)
    int deny_bright       # opponents holding two brights


cdef inline int active_count(const GameStateC* s) noexcept nogil:
    return s.nplayers - (1 if s.sitter >= 0 else 0)


cdef double family_card_value(const GreedyCtx* g, int c, uint64_t pile) noexcept nogil:
    """GreedyBot._family_card_value: card points / 5, progress toward the set
    bonuses every other player would pay, denial of a nearly complete set."""
    cdef const RulesC* r = g.r
    cdef uint64_t bit = GS_BIT(c), grp
    cdef int others = active_count(g.s) - 1, i, q, held, size
    cdef double value, bonus
    if bit & GS_MASK_BRIGHT:
        value = r.family_bright / 5.0
    elif bit & GS_MASK_ANIMAL:
        value = r.family_animal / 5.0
    elif bit & GS_MASK_RIBBON:
        value = r.family_ribbon / 5.0
    else:
        value = 0.0
    for i in range(6):
        grp = FAMILY_SET_MASKS[i]
        if not (bit & grp):
            continue
        if i < 2:
            bonus = r.family_ribbon_set / 5.0
        elif i == 5:
            bonus = r.family_november_set / 5.0
        else:
            bonus = r.family_month_set / 5.0
        held = gs_popcount(grp & pile)
        size = gs_popcount(grp)
        # the Python expression's order of operations, for the same rounding
        value += bonus * others * (held + 1) / size / size
        for q in range(g.s.nplayers):
            if q != g.p and gs_popcount(grp & g.s.captured[q]) == size - 1:
                value += bonus
    return value


cdef double greedy_card_value(const GreedyCtx* g, int c, uint64_t pile) noexcept nogil:
    """GreedyBot.card_value: the card's worth, set progress, denial."""
    cdef uint64_t bit = GS_BIT(c)
    cdef double value
    cdef int i
    if g.r.family_scoring:
        return family_card_value(g, c, pile)
    value = card_worth(c)
    for i in range(4):
        if bit & SET_MASKS[i]:
            value += 1.5 * gs_popcount(SET_MASKS[i] & pile)
    if bit & GS_MASK_BRIGHT:
        value += 1.0 * gs_popcount(pile & GS_MASK_BRIGHT)
    # denial: +2 per opponent one card short of a set or of three brights (counted
    # once per decision in policy_move; every term is a multiple of 0.5, so the
    # sum is exact in any order, as in GreedyBot)
    for i in range(4):
        if bit & SET_MASKS[i]:
            value += 2.0 * g.deny_set[i]
    if bit & GS_MASK_BRIGHT:
        value += 2.0 * g.deny_bright
    return value


cdef double greedy_capture_value(const GreedyCtx* g, const int* cards, int k) noexcept nogil:
    """GreedyBot.capture_value: 4 x the score gained plus the card values, each
    card valued against the pile with the cards before it."""
    cdef uint64_t taken = 0, pile = g.s.captured[g.p]
    cdef double value = 0.0
    cdef int i
    for i in range(k):
        taken |= GS_BIT(cards[i])
    if not g.r.family_scoring:
        value = 4.0 * (score_total(pile | taken, g.r) - g.mine_score)
    for i in range(k):
        value += greedy_card_value(g, cards[i], pile)
        pile |= GS_BIT(cards[i])
    return value


cdef int list_cards(uint64_t mask, int* out) noexcept nogil:
    """The cards of ``mask`` in index order (as CardSet.codes lists them)."""
    cdef int k = 0
    while mask:
        out[k] = gs_lowest(mask)
        mask &= mask - 1
        k += 1
    return k


cdef double greedy_steal_value(const GreedyCtx* g) noexcept nogil:
    """GreedyBot.steal_value: one junk from each opponent that has some."""
    cdef int q, k = 0
    for q in range(g.s.nplayers):
        if q != g.p and q != g.s.sitter and (g.s.captured[q] & (GS_MASK_JUNK | GS_MASK_BONUS)):
            k += 1
    return 1.2 * k


cdef double greedy_play_value(const GreedyCtx* g, int card, int target) noexcept nogil:
    """GreedyBot.play_value."""
    cdef const GameStateC* s = g.s
    cdef const RulesC* r = g.r
    cdef int month = card // 4 + 1, k, u, i
    cdef int cards[5]
    cdef uint64_t same = s.field & GS_MONTH_MASK(month)
    cdef double cost, value, q, bonus
    k = gs_popcount(same)
    if k == 0:
        # nothing taken: the card is left for the others, the cost scaled by the
        # unseen cards of its month that could take it
        cost = (0.3 if (s.hand[g.p] & GS_MONTH_MASK(month) & ~GS_BIT(card)) else 0.6) * \
            greedy_card_value(g, card, 0)
        u = gs_popcount(g.unseen & GS_MONTH_MASK(month))
        q = 0.1 + 0.3 * u
        return -cost * (1.0 if q > 1.0 else q)
    cards[0] = card
    if k == 3 and r.field_stacks:
        list_cards(same, cards + 1)
        value = greedy_capture_value(g, cards, 4)
        return value + (greedy_steal_value(g) if r.stack_steal else 0.0)
    cards[1] = target if target != GS_NO_CARD else gs_lowest(same)
    value = greedy_capture_value(g, cards, 2)
    if r.capture_at_play:
        return value
    # the pair waits for the flip: a flip of the same month changes the outcome
    if g.unseen_total == 0 or s.stock_len - s.stock_pos == 0:
        q = 0.0
    else:
        q = (<double>gs_popcount(g.unseen & GS_MONTH_MASK(month))) / g.unseen_total
    if k == 1:
        return value - (0.0 if r.ppeok == 2 else q * value)
    i = list_cards(same, cards + 1)
    bonus = greedy_capture_value(g, cards, 1 + i) - value
    if r.ttadak_steal:
        bonus += greedy_steal_value(g)
    return value + q * bonus


cdef bint greedy_wants_stop(const GameStateC* s, const RulesC* r) noexcept nogil:
    """GreedyBot.wants_stop: an opponent close to the threshold, or few cards left."""
    cdef int p = s.to_move, q, thr = rules_threshold(r, active_count(s))
    cdef int margin = 2 if thr >= 5 else 1
    if r.go_bak:
        margin += 1
    for q in range(s.nplayers):
        if q != p and q != s.sitter and score_total(s.captured[q], r) >= thr - margin:
            return True
    return gs_popcount(s.hand[p]) <= 2


cdef bint greedy_wants_refuse(const GameStateC* s, const RulesC* r) noexcept nogil:
    """GreedyBot.wants_to_refuse: the card shown would bring the seat to the threshold."""
    cdef uint64_t mine = s.captured[s.to_move]
    cdef int32_t with_card
    if s.showdown_card == GS_NO_CARD:
        return False
    with_card = score_total(mine | GS_BIT(s.showdown_card), r)
    return with_card > score_total(mine, r) and with_card >= rules_threshold(r, active_count(s))


cdef double greedy_move_value(const GreedyCtx* g, uint16_t move) noexcept nogil:
    """GreedyBot.move_value."""
    cdef const GameStateC* s = g.s
    cdef const RulesC* r = g.r
    cdef int kind = move_kind(move), card = move_card(move), target = move_target(move), k
    cdef int cards[6]
    cdef bint pending
    cdef double value
    if kind == MOVE_BONUS:
        return 1000.0 + card_worth(card)
    if kind == MOVE_SHAKE:
        return 900.0
    if kind == MOVE_FLIP_ONLY:
        return 0.5
    if kind == MOVE_SHOWDOWN:
        return -1000.0
    if kind == MOVE_ACCEPT or kind == MOVE_REFUSE:
        return 1.0 if (kind == MOVE_REFUSE) == greedy_wants_refuse(s, r) else 0.0
    if kind == MOVE_PLAY:
        return greedy_play_value(g, card, target)
    if kind == MOVE_FLIP:
        # the pair waiting for the flip is taken after this choice: it counts in the pile
        pending = s.played_card != GS_NO_CARD and s.played_target != GS_NO_CARD
        k = 0
        if pending:
            cards[0] = s.played_card
            cards[1] = s.played_target
            k = 2
        if s.flip_card != GS_NO_CARD:
            cards[k] = s.flip_card
            k += 1
        cards[k] = target
        k += 1
        if pending:
            return greedy_capture_value(g, cards, k) - greedy_capture_value(g, cards, 2)
        return greedy_capture_value(g, cards, k)
    if kind == MOVE_BOMB:
        k = list_cards(GS_MONTH_MASK(card), cards)
        value = greedy_capture_value(g, cards, k)
        if r.bomb_steal:
            value += greedy_steal_value(g)
        if r.bomb_counts_as_shake:
            value += 2.0
        if r.bomb_flip_only_turns and not r.bomb_flip_only_optional:
            value -= 1.0
        return value
    return 0.0


cdef void greedy_ctx_init(GreedyCtx* g, const GameStateC* s, const RulesC* r) noexcept nogil:
    """What the greedy values of the seat to move depend on (its unseen cards,
    its score, the opponents' near-complete sets)."""
    cdef int i, q
    cdef uint64_t visible
    g.s = s
    g.r = r
    g.p = s.to_move
    visible = s.field | s.hand[g.p]
    for q in range(s.nplayers):
        visible |= s.captured[q]
    if s.flip_card != GS_NO_CARD:
        visible |= GS_BIT(s.flip_card)
    g.unseen = ((<uint64_t>1 << (50 if r.bonus_cards else 48)) - 1) & ~visible
    g.unseen_total = gs_popcount(g.unseen)
    g.mine_score = score_total(s.captured[g.p], r)
    for i in range(4):
        g.deny_set[i] = 0
    g.deny_bright = 0
    for q in range(s.nplayers):
        if q != g.p:
            for i in range(4):
                if gs_popcount(SET_MASKS[i] & s.captured[q]) == 2:
                    g.deny_set[i] += 1
            if gs_popcount(s.captured[q] & GS_MASK_BRIGHT) == 2:
                g.deny_bright += 1


cdef void greedy_values(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                        double* out) noexcept nogil:
    """The greedy bot's value of each move (``out[i]``; 0 in the Go/Stop phase,
    which the greedy bot decides by its rule of thumb): features of the
    learned policy (gostop_core.bots.policy)."""
    cdef GreedyCtx g
    cdef int i
    if s.phase == PHASE_GO_STOP:
        for i in range(n):
            out[i] = 0.0
        return
    greedy_ctx_init(&g, s, r)
    for i in range(n):
        out[i] = greedy_move_value(&g, moves[i])


cdef int policy_move(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n) noexcept nogil:
    """The index of the move the greedy bot (GreedyBot) plays from the view of the
    seat to move: the best immediate visible gain, Go/Stop by its rule of thumb,
    ties to the first move in generation order."""
    cdef GreedyCtx g
    cdef int i, best = 0
    cdef double v, best_v
    cdef int wanted
    if s.phase == PHASE_GO_STOP:
        wanted = MOVE_STOP if greedy_wants_stop(s, r) else MOVE_GO
        for i in range(n):
            if move_kind(moves[i]) == wanted:
                return i
        return 0
    greedy_ctx_init(&g, s, r)
    best_v = greedy_move_value(&g, moves[0])
    for i in range(1, n):
        v = greedy_move_value(&g, moves[i])
        if v > best_v:
            best_v = v
            best = i
    return best


def policy_choice(CoreState state):
    """The move code the search's greedy policy plays in ``state`` (for tests: it
    must be the move :class:`gostop_core.bots.GreedyBot` chooses)."""
    cdef uint16_t moves[MAX_MOVES]
    cdef int n = generate_moves(&state.s, &state.rules.c, moves)
    if n == 0:
        raise ValueError("no legal move: the hand is over")
    return moves[policy_move(&state.s, &state.rules.c, moves, n)]


# ---------------------------------------------------------------- evaluation
cdef double progress(uint64_t pile, uint64_t others, const RulesC* r, const double* w) noexcept nogil:
    """Points the pile is on its way to, beyond its score (weights ``w``, see
    LEAF_WEIGHTS): progress toward the junk, animal and ribbon minimums, the
    categories already scoring, one or two brights, godori and ribbon sets still
    open (no card of them in another pile), and card values."""
    cdef double p = 0.0
    cdef uint64_t rest
    cdef uint64_t sets[3]
    cdef int j, a, rb, b, avail, k, i, cont = 0, s1 = 0, s2 = 0
    j = junk_value(pile, r)
    if r.junk_min > 0:
        if j < r.junk_min:
            p += w[0] * j / r.junk_min
        else:
            cont += 1
    a = gs_popcount(pile & GS_MASK_ANIMAL)
    if r.animal_min > 0:
        if a < r.animal_min:
            p += w[1] * a / r.animal_min
        else:
            cont += 1
    rb = gs_popcount(pile & GS_MASK_RIBBON)
    if not r.rain_ribbon_counts and (pile & GS_MASK_RAIN_RIBBON):
        rb -= 1
    if r.ribbon_min > 0:
        if rb < r.ribbon_min:
            p += w[2] * rb / r.ribbon_min
        else:
            cont += 1
    p += w[3] * cont
    b = gs_popcount(pile & GS_MASK_BRIGHT)
    avail = 5 - gs_popcount(others & GS_MASK_BRIGHT)
    if b == 1 and avail >= 3:
        p += w[4]
    elif b == 2 and avail >= 3:
        p += w[5]
    elif 3 <= b < 5 and avail > b:
        p += w[6]
    k = gs_popcount(pile & GS_MASK_GODORI)
    if not (others & GS_MASK_GODORI):
        if k == 1:
            p += w[7] * r.godori / 5.0
        elif k == 2:
            p += w[8] * r.godori / 5.0
    sets[0] = GS_MASK_HONGDAN
    sets[1] = GS_MASK_CHEONGDAN
    sets[2] = GS_MASK_CHODAN
    for i in range(3):
        k = gs_popcount(pile & sets[i])
        if k < 3 and not (others & sets[i]):
            if k == 1:
                s1 += 1
            elif k == 2:
                s2 += 1
    p += (w[9] * s1 + w[10] * s2) * r.ribbon_set / 3.0
    if w[13] != 0.0:
        rest = pile
        while rest:
            i = gs_lowest(rest)
            rest &= rest - 1
            p += w[13] * card_worth(i)
    return p


cdef double best_capture(const GameStateC* s, const RulesC* r, int p) noexcept nogil:
    """The best immediate capture (card values + 4 x score gain) a hand card of
    ``p`` has on the field now, 0 when none."""
    cdef uint64_t rest = s.hand[p] & ~GS_MASK_BONUS, matches, bit, m
    cdef int card, k
    cdef double best = 0.0, v, v2
    while rest:
        card = gs_lowest(rest)
        rest &= rest - 1
        matches = s.field & same_month(card)
        if not matches:
            continue
        bit = GS_BIT(card)
        k = gs_popcount(matches)
        if k == 3 and r.field_stacks:
            v = capture_gain(s, r, p, matches | bit)
        else:
            v = -1e9
            m = matches
            while m:
                v2 = capture_gain(s, r, p, bit | GS_BIT(gs_lowest(m)))
                m &= m - 1
                if v2 > v:
                    v = v2
        if v > best:
            best = v
    return best


cdef double go_value(int32_t score, int gos, const RulesC* r) noexcept nogil:
    """The winner's points for ``score`` after ``gos`` Goes (+1 each, x2 per Go
    from the 4th: close enough for every scheme at the depths searched)."""
    cdef double total = score + gos
    cdef int i
    for i in range(3, gos):
        total *= 2
    return total


cdef double terminal_value(const GameStateC* s, SearchCtx* c) noexcept nogil:
    cdef double bonus = 0.0
    if s.winner >= 0:
        bonus = c.win_bonus if s.winner == c.root else -c.win_bonus
    if c.r.payment == PAY_EACH_OPPONENT or c.r.payment == PAY_FAMILY_BALANCE:
        return s.chips[c.root] + bonus
    if s.winner < 0:
        return s.chips[c.root]
    if s.winner == c.root:
        return s.points + bonus
    return -s.points + s.chips[c.root] + bonus


cdef double family_value(const GameStateC* s, SearchCtx* c) noexcept nogil:
    """Family rules: the balance the seat would get if the hand were scored now."""
    cdef ScoreC sc
    cdef int q, n = s.nplayers
    cdef double total_root = 0, bonus_root = 0, bonus_sum = 0
    cdef int target
    for q in range(n):
        score_pile(s.captured[q], c.r, &sc)
        bonus_sum += sc.family_set_bonus
        if q == c.root:
            total_root = sc.total
            bonus_root = sc.family_set_bonus
    # the same target as the scoring of a played-out hand (movegen.finish_played_out)
    target = (5 * c.r.family_bright + 10 * c.r.family_ribbon + 9 * c.r.family_animal) // n
    return total_root + bonus_root * (n - 1) - (bonus_sum - bonus_root) - target


cdef double leaf_value(const GameStateC* s, SearchCtx* c) noexcept nogil:
    """Expected net points of the searching seat (see the module docstring)."""
    cdef const RulesC* r = c.r
    cdef int q, k, score, thr = c.threshold, n = s.nplayers
    cdef uint64_t others
    cdef double weight[MAX_PLAYERS]
    cdef double value[MAX_PLAYERS]
    cdef double total = exp(c.w[12]), reach, out = 0.0, x
    cdef double reach_of[MAX_PLAYERS]
    cdef SettlementC st
    cdef int pay
    cdef double hand_w
    if r.payment == PAY_FAMILY_BALANCE or not r.go_stop:
        return family_value(s, c)
    hand_w = c.w[11] if thr == 7 else c.w[11] * thr / 7.0
    for q in range(n):
        weight[q] = 0.0
        value[q] = 0.0
        if q == s.sitter:
            continue
        others = 0
        for k in range(n):
            if k != q and k != s.sitter:
                others |= s.captured[k]
        score = score_total(s.captured[q], r)
        # the hand term was fitted with threshold 7: scaled to the hand's threshold
        reach = score + progress(s.captured[q], others, r, c.w) + hand_w * gs_popcount(s.hand[q])
        if q == s.to_move and c.w[14] != 0.0 and s.phase == PHASE_PLAY:
            reach += c.w[14] * best_capture(s, r, q) / 4.0
        reach_of[q] = reach
        x = c.beta * (reach - thr)
        if x > 30.0:
            x = 30.0
        weight[q] = exp(x)
        total += weight[q]
        value[q] = go_value(score if score > thr else thr, s.go_count[q], r)
        if r.payment == PAY_EACH_OPPONENT:
            # chip rules: what each opponent would pay, multipliers (bak, shakes,
            # Go-bak ...) as a win by q would bring them now
            settle(s, r, q, &st)
            if q == c.root:
                pay = 0
                for k in range(n):
                    pay += st.multiplier[k] if (k != q and k != s.sitter) else 0
                value[q] *= pay
            else:
                value[q] *= st.multiplier[c.root]
    for q in range(n):
        if q == s.sitter:
            continue
        if q == c.root:
            out += weight[q] * value[q]
        else:
            out -= weight[q] * value[q]
    out = out / total
    if c.w[15] != 0.0:
        # blend with the plain difference of reaches (root against the best opponent)
        x = -1e300
        for q in range(n):
            if q != s.sitter and q != c.root and reach_of[q] > x:
                x = reach_of[q]
        out = (1.0 - c.w[15]) * out + c.w[15] * (reach_of[c.root] - x)
    return out + s.chips[c.root]


cdef inline int32_t pv_entry(int seat, int code) noexcept nogil:
    return (seat << 16) | code


cdef inline int playout_pick(const GameStateC* w, SearchCtx* c, const uint16_t* moves, int n) noexcept nogil:
    """The playout policy's move: the learned model's where the bot asked for
    it (gostop_core.bots.policy), else the greedy policy's."""
    if c.model != NULL and (c.model_own if w.to_move == c.root else c.model_others):
        return c.model.pick(w, c.r, moves, n, c.model.data)
    return policy_move(w, c.r, moves, n)


cdef double rollout_value(const GameStateC* s, SearchCtx* c, int32_t* pv, int* pvlen) noexcept nogil:
    """The terminal value of the hand played out from ``s`` by the greedy policy
    for every seat (the searching seat too), with the sample's hidden cards.
    With ``pv``, the playout's first ROLLOUT_PV_TURNS turns are appended to the
    principal line (moves and the cards turned from the stock)."""
    cdef GameStateC w = s[0]
    cdef uint16_t moves[MAX_MOVES]
    cdef uint16_t move
    cdef int n, pos
    while w.phase != PHASE_OVER:
        n = generate_moves(&w, c.r, moves)
        if n == 0 or gs_interrupted():
            break
        if c.model != NULL and c.cut > 0 and w.turns - s.turns >= c.cut:
            return c.model.value(&w, c.r, c.root, c.model.data)
        if c.plan > 0 and not c.planning and w.phase == PHASE_GO_STOP and w.to_move == c.root:
            move = moves[plan_go_stop(&w, c, moves, n)]
        else:
            move = moves[playout_pick(&w, c, moves, n)]
        pos = w.stock_pos
        if pv != NULL and w.turns - s.turns < ROLLOUT_PV_TURNS and pv < c.pv_end:
            pv[0] = pv_entry(w.to_move, move)
            pv += 1
            pvlen[0] += 1
            apply_move(&w, c.r, move, NULL)
            if move_kind(move) != MOVE_BONUS:
                while pos < w.stock_pos and pv < c.pv_end:
                    pv[0] = pv_entry(PV_CHANCE_SEAT, w.stock[pos])
                    pv += 1
                    pvlen[0] += 1
                    pos += 1
        else:
            apply_move(&w, c.r, move, NULL)
    if w.phase != PHASE_OVER:
        return leaf_value(&w, c)
    return terminal_value(&w, c)


cdef void redeal_unseen(GameStateC* w, int seat, uint64_t* rng) noexcept nogil:
    """Deal the cards ``seat`` cannot see in ``w`` (the other hands and the rest
    of the stock) again at random, each hand keeping its size."""
    cdef uint8_t cards[50]
    cdef int count[MAX_PLAYERS]
    cdef int i, q, k = 0, npool = 0
    cdef uint64_t rest
    for q in range(w.nplayers):
        count[q] = 0
        if q == seat:
            continue
        rest = w.hand[q]
        count[q] = gs_popcount(rest)
        while rest:
            cards[npool] = gs_lowest(rest)
            npool += 1
            rest &= rest - 1
        w.hand[q] = 0
    for i in range(w.stock_pos, w.stock_len):
        cards[npool] = w.stock[i]
        npool += 1
    shuffle_cards(cards, npool, rng)
    for q in range(w.nplayers):
        for i in range(count[q]):
            w.hand[q] |= GS_BIT(cards[k])
            k += 1
    for i in range(w.stock_pos, w.stock_len):
        w.stock[i] = cards[k]
        k += 1


cdef int plan_go_stop(const GameStateC* s, SearchCtx* c, const uint16_t* moves, int n) noexcept nogil:
    """The searching seat's Go/Stop inside a playout, planned instead of the
    greedy rule of thumb: a Stop is worth what it books; a Go is worth the mean
    of ``c.plan`` greedy playouts after it, each on a fresh deal of the cards the
    seat cannot see at ``s`` (so the choice does not depend on the sample's
    hidden cards).  Returns the index of the move chosen."""
    cdef GameStateC w
    cdef int i, k, go_i = -1, stop_i = -1
    cdef double go_v = 0.0, stop_v
    for i in range(n):
        if move_kind(moves[i]) == MOVE_GO:
            go_i = i
        elif move_kind(moves[i]) == MOVE_STOP:
            stop_i = i
    if go_i < 0 or stop_i < 0:
        return policy_move(s, c.r, moves, n)
    c.planning = 1
    w = s[0]
    apply_move(&w, c.r, moves[stop_i], NULL)
    stop_v = terminal_value(&w, c) if w.phase == PHASE_OVER else rollout_value(&w, c, NULL, NULL)
    for k in range(c.plan):
        w = s[0]
        redeal_unseen(&w, c.root, &c.plan_rng)
        apply_move(&w, c.r, moves[go_i], NULL)
        go_v += rollout_value(&w, c, NULL, NULL)
    c.planning = 0
    return go_i if go_v / c.plan > stop_v else stop_i



# ---------------------------------------------------------------- information sets
# With ``consistent``, the searching seat's own decisions below the root are made
# per information set: a node of the table below stands for what the seat has
# seen since the root (its own moves, the cards it saw turned from the stock or
# drew after banking a bonus card, the other seats' moves), so every sample that
# agrees on those shares the node.  The leaves' values are added, weighted by
# their chance, to the node they end in; info_resolve then takes, bottom up, the
# sum of the seen outcomes and the best of the seat's own moves, each move's
# total over every sample that reaches the node.  The same choice is thus made
# in every sample of an information set, from the seat's information then, not
# from the sample's hidden cards (strategy fusion).  A sample's values are kept
# aside until it completes (a sample cut short by the clock leaves no trace).

DEFAULT_INFO_LIMIT = 1 << 20

cdef inline uint64_t info_hash(int32_t parent, int32_t edge) noexcept nogil:
    cdef uint64_t x = ((<uint64_t><uint32_t>parent) << 32) | <uint32_t>edge
    x ^= x >> 33
    x *= <uint64_t>0xFF51AFD7ED558CCD
    x ^= x >> 33
    return x


cdef int info_init(InfoTrie* t, int32_t limit) noexcept nogil:
    """An empty table with its root node (index 0); -1 when out of memory."""
    memset(t, 0, sizeof(InfoTrie))
    t.capacity = 4096
    t.limit = limit
    t.nodes = <InfoNode*>malloc(t.capacity * sizeof(InfoNode))
    t.table = <int32_t*>malloc(2 * t.capacity * sizeof(int32_t))
    t.log_capacity = 4096
    t.log_node = <int32_t*>malloc(t.log_capacity * sizeof(int32_t))
    t.log_value = <double*>malloc(t.log_capacity * sizeof(double))
    if t.nodes == NULL or t.table == NULL or t.log_node == NULL or t.log_value == NULL:
        return -1
    memset(t.table, 0, 2 * t.capacity * sizeof(int32_t))
    t.table_mask = 2 * t.capacity - 1
    t.nodes[0].parent = -1
    t.nodes[0].edge = 0
    t.nodes[0].leaf = 0.0
    t.nodes[0].is_move = 0
    t.nodes[0].live = 0
    t.count = 1
    return 0


cdef void info_free(InfoTrie* t) noexcept nogil:
    free(t.nodes)
    free(t.table)
    free(t.log_node)
    free(t.log_value)
    free(t.val)
    t.nodes = NULL
    t.table = NULL
    t.log_node = NULL
    t.log_value = NULL
    t.val = NULL


cdef int info_grow(InfoTrie* t) noexcept nogil:
    """Twice the nodes (and the hash table, rehashed); -1 past the limit or out of memory."""
    cdef int32_t cap = 2 * t.capacity, k
    cdef InfoNode* nodes
    cdef int32_t* table
    cdef uint64_t mask, h
    if cap > t.limit:
        return -1
    nodes = <InfoNode*>realloc(t.nodes, cap * sizeof(InfoNode))
    if nodes == NULL:
        return -1
    t.nodes = nodes
    table = <int32_t*>malloc(2 * cap * sizeof(int32_t))
    if table == NULL:
        return -1
    memset(table, 0, 2 * cap * sizeof(int32_t))
    mask = 2 * cap - 1
    for k in range(1, t.count):
        h = info_hash(nodes[k].parent, nodes[k].edge) & mask
        while table[h] != 0:
            h = (h + 1) & mask
        table[h] = k + 1
    free(t.table)
    t.table = table
    t.table_mask = mask
    t.capacity = cap
    return 0


cdef int32_t info_child(SearchCtx* c, int32_t parent, int32_t edge, bint is_move) noexcept nogil:
    """The node reached from ``parent`` by ``edge``, added if new (not while
    following the table); -1 without a table, below a missing node or when full."""
    cdef InfoTrie* t = c.trie
    cdef uint64_t h
    cdef int32_t k
    if t == NULL or parent < 0:
        return -1
    h = info_hash(parent, edge) & t.table_mask
    while t.table[h] != 0:
        k = t.table[h] - 1
        if t.nodes[k].parent == parent and t.nodes[k].edge == edge:
            return k
        h = (h + 1) & t.table_mask
    if c.follow:
        return -1
    if t.count >= t.capacity:
        if info_grow(t) < 0:
            t.full = 1
            return -1
        h = info_hash(parent, edge) & t.table_mask
        while t.table[h] != 0:
            h = (h + 1) & t.table_mask
    k = t.count
    t.count += 1
    t.nodes[k].parent = parent
    t.nodes[k].edge = edge
    t.nodes[k].leaf = 0.0
    t.nodes[k].is_move = 1 if is_move else 0
    t.nodes[k].live = 0
    t.table[h] = k + 1
    return k


cdef void info_add(SearchCtx* c, int32_t node, double value) noexcept nogil:
    """Keep a weighted leaf value of the current sample for ``node``."""
    cdef InfoTrie* t = c.trie
    cdef int32_t cap
    cdef int32_t* ln
    cdef double* lv
    if t == NULL or c.follow:
        return
    if node < 0:
        t.full = 1  # a leaf with no node: the table cannot hold this search
        return
    if t.log_count >= t.log_capacity:
        cap = 2 * t.log_capacity
        ln = <int32_t*>realloc(t.log_node, cap * sizeof(int32_t))
        if ln == NULL:
            t.full = 1
            return
        t.log_node = ln
        lv = <double*>realloc(t.log_value, cap * sizeof(double))
        if lv == NULL:
            t.full = 1
            return
        t.log_value = lv
        t.log_capacity = cap
    t.log_node[t.log_count] = node
    t.log_value[t.log_count] = value
    t.log_count += 1


cdef void info_commit(InfoTrie* t) noexcept nogil:
    """Add the completed sample's leaf values; mark the nodes it reached."""
    cdef int32_t i, k
    for i in range(t.log_count):
        k = t.log_node[i]
        t.nodes[k].leaf += t.log_value[i]
        while k >= 0 and not t.nodes[k].live:
            t.nodes[k].live = 1
            k = t.nodes[k].parent
    t.log_count = 0


cdef int info_resolve(InfoTrie* t) noexcept nogil:
    """``t.val[k]``: the total value of node k over the committed samples, its own
    decisions below taken per node (the best total); -1 when out of memory.
    Children are always added after their parent, so one backward pass does."""
    cdef double* best
    cdef double* val
    cdef double v
    cdef int32_t k, p
    val = <double*>realloc(t.val, t.capacity * sizeof(double))
    if val == NULL:
        return -1
    t.val = val
    best = <double*>malloc(t.count * sizeof(double))
    if best == NULL:
        return -1
    for k in range(t.count):
        val[k] = t.nodes[k].leaf
        best[k] = -1e300
    for k in range(t.count - 1, 0, -1):
        if not t.nodes[k].live:
            continue
        v = val[k] + (best[k] if best[k] > -1e299 else 0.0)
        val[k] = v
        p = t.nodes[k].parent
        if t.nodes[k].is_move:
            if v > best[p]:
                best[p] = v
        else:
            val[p] += v
    free(best)
    return 0


cdef int info_choice(SearchCtx* c, int32_t tn, int seat, const uint16_t* moves, int n,
                     int32_t* node) noexcept nogil:
    """While following the table: the index of the move with the best resolved
    total at node ``tn`` (its node in ``node``), -1 when none is known."""
    cdef int i, best_i = -1
    cdef int32_t k
    cdef double best = -1e300
    for i in range(n):
        k = info_child(c, tn, pv_entry(seat, moves[i]), 1)
        if k >= 0 and c.trie.nodes[k].live and c.trie.val[k] > best:
            best = c.trie.val[k]
            best_i = i
            node[0] = k
    return best_i


cdef void info_totals(InfoTrie* t, const int32_t* root_node, const bint* alive, int n,
                      double* totals) noexcept nogil:
    """The consistent totals of the root moves still searched (else their old
    totals stay); when the table failed, nothing changes."""
    cdef int i
    if t.full or info_resolve(t) < 0:
        t.full = 1
        return
    for i in range(n):
        if alive[i] and root_node[i] >= 0:
            totals[i] = t.val[root_node[i]]


# ---------------------------------------------------------------- the search
cdef inline double chosen_value(const GameStateC* s, SearchCtx* c, uint16_t move, int depth,
                                int32_t* pv, int* pvlen, int32_t k, double weight) noexcept nogil:
    """The value of the one move chosen at a node (another seat's policy move, or
    the table's choice for an information set), the move entering the line."""
    cdef double v
    if pv == NULL:
        return move_value(s, c, move, depth, NULL, NULL, k, weight)
    pv[0] = pv_entry(s.to_move, move)
    v = move_value(s, c, move, depth, pv + 1, pvlen, k, weight)
    pvlen[0] += 1
    return v


cdef double node_value(const GameStateC* s, SearchCtx* c, int depth, int32_t* pv, int* pvlen,
                       int32_t tn, double weight) noexcept nogil:
    """Value of a decision node; fills the principal line when ``pv`` is given.
    ``tn`` is the node of the information-set table for what the searching seat
    has seen on the way here (-1 without a table) and ``weight`` the chance of
    the way within its sample: a leaf's value is added to ``tn`` with it.

    Shakes of different months commute, and in this model a shake never lowers
    the searching seat's value (it only doubles what the seat wins), so at these
    inner nodes the seat shakes every month it can, lowest month first, before
    it plays: k shakeable months make one line of shakes, not k! orders."""
    cdef uint16_t moves[MAX_MOVES]
    cdef int n, i, best_i = 0
    cdef int32_t k = -1
    cdef double v, best = -1e300
    c.nodes += 1
    if gs_interrupted():
        return 0.0  # Ctrl-C: unwind (search_fields raises)
    if pv != NULL:
        pvlen[0] = 0
        if pv >= c.pv_end:
            pv = NULL  # the line is full: values only from here
    if s.phase == PHASE_OVER:
        v = terminal_value(s, c)
        info_add(c, tn, weight * v)
        return v
    if depth <= 0:
        v = rollout_value(s, c, pv, pvlen) if c.rollout else leaf_value(s, c)
        info_add(c, tn, weight * v)
        return v
    n = generate_moves(s, c.r, moves)
    if n == 0:
        v = leaf_value(s, c)
        info_add(c, tn, weight * v)
        return v
    if s.to_move != c.root:
        best_i = playout_pick(s, c, moves, n)
        # another seat's move is seen by the searching seat: an edge of the table
        k = info_child(c, tn, pv_entry(s.to_move, moves[best_i]), 0)
        return chosen_value(s, c, moves[best_i], depth, pv, pvlen, k, weight)
    for i in range(n):
        if move_kind(moves[i]) == MOVE_SHAKE:
            moves[0] = moves[i]  # the first shake (lowest month) is the only choice searched
            n = 1
            break
    if c.follow:
        # the choice the table made for this information set
        best_i = info_choice(c, tn, c.root, moves, n, &k)
        if best_i >= 0:
            return chosen_value(s, c, moves[best_i], depth, pv, pvlen, k, weight)
    for i in range(n):
        v = move_value(s, c, moves[i], depth, NULL, NULL,
                       info_child(c, tn, pv_entry(c.root, moves[i]), 1), weight)
        if v > best:
            best = v
            best_i = i
    if pv != NULL:
        pv[0] = pv_entry(s.to_move, moves[best_i])
        move_value(s, c, moves[best_i], depth, pv + 1, pvlen,
                   info_child(c, tn, pv_entry(c.root, moves[best_i]), 1), 0.0)
        pvlen[0] += 1
    return best


cdef inline int32_t seen_cards(SearchCtx* c, int32_t tn, const GameStateC* child, int pos) noexcept nogil:
    """The table node after the cards turned from the stock (or drawn by the
    searching seat) from ``pos`` on: each is an edge."""
    cdef int k
    for k in range(pos, child.stock_pos):
        tn = info_child(c, tn, pv_entry(PV_CHANCE_SEAT, child.stock[k]), 0)
    return tn


cdef double move_value(const GameStateC* s, SearchCtx* c, uint16_t move, int depth,
                       int32_t* pv, int* pvlen, int32_t tn, double weight) noexcept nogil:
    """Value of a move: a chance node over the card it turns or draws from the
    stock (each remaining stock card equally likely), else its single child.
    ``tn``: the table node after the move (see node_value)."""
    cdef GameStateC child
    cdef int count, i, pos = s.stock_pos, best_j = 0
    cdef double values[50]
    cdef double total = 0.0, mean, d, best_d = 1e300
    cdef uint8_t tmp
    child = s[0]
    apply_move(&child, c.r, move, NULL)
    if child.stock_pos == pos or move_kind(move) == MOVE_BONUS:
        # nothing turned from the stock (a bonus card's replacement is the
        # sample's top card: a draw into a hand, not a flip; the searching
        # seat sees its own draw, not another seat's)
        if s.to_move == c.root and c.trie != NULL:
            tn = seen_cards(c, tn, &child, pos)
        return node_value(&child, c, depth - (child.turns - s.turns), pv, pvlen, tn, weight)
    count = s.stock_len - pos
    c.nodes += 1
    if pv != NULL and pv >= c.pv_end:
        pv = NULL
        pvlen[0] = 0
    for i in range(count):
        if i > 0:
            child = s[0]
            tmp = child.stock[pos]
            child.stock[pos] = child.stock[pos + i]
            child.stock[pos + i] = tmp
            apply_move(&child, c.r, move, NULL)
        values[i] = node_value(&child, c, depth - (child.turns - s.turns), NULL, NULL,
                               seen_cards(c, tn, &child, pos) if c.trie != NULL else -1,
                               weight / count)
        total += values[i]
    mean = total / count
    if pv != NULL:
        # the principal line goes on with the outcome closest to the expectation
        for i in range(count):
            d = fabs(values[i] - mean)
            if d < best_d:
                best_d = d
                best_j = i
        child = s[0]
        tmp = child.stock[pos]
        child.stock[pos] = child.stock[pos + best_j]
        child.stock[pos + best_j] = tmp
        apply_move(&child, c.r, move, NULL)
        pv[0] = pv_entry(PV_CHANCE_SEAT, s.stock[pos + best_j])
        node_value(&child, c, depth - (child.turns - s.turns), pv + 1, pvlen,
                   seen_cards(c, tn, &child, pos) if c.trie != NULL else -1, 0.0)
        pvlen[0] += 1
    return mean


cdef void draw_world(const GameStateC* base, GameStateC* out, const uint8_t* pool, int npool,
                     const int* need, int seat, uint64_t* rng, const SearchCtx* c) noexcept nogil:
    """One sampled deal of the unseen cards (``determinize``).  With an opponent
    model (``c.worlds`` > 1), ``c.worlds`` candidate deals are drawn and one is
    kept with probability proportional to its weight, the likelihood of the
    opponents' observed moves in it (sampling-importance-resampling, as a
    weighted reservoir: candidate k replaces the kept one with probability
    w_k / (w_1 + ... + w_k))."""
    cdef GameStateC cand
    cdef double w, total, u
    cdef int k
    determinize(base, out, pool, npool, need, seat, rng)
    if c.model == NULL or c.worlds <= 1 or c.model.weight == NULL:
        return
    total = c.model.weight(out, c.r, c.model.data)
    for k in range(1, c.worlds):
        determinize(base, &cand, pool, npool, need, seat, rng)
        w = c.model.weight(&cand, c.r, c.model.data)
        total += w
        u = (splitmix64(rng) >> 11) * (1.0 / 9007199254740992.0)
        if w > 0.0 and u * total < w:
            out[0] = cand


cdef int keep_better_half(const double* values, bint* alive, int n, int nalive) noexcept nogil:
    """Drop the worse half of the moves still alive, keeping at least two; every
    alive move has the same samples, so their sums compare as their means.  A
    move stays if fewer than half of the others are better (ties: the earlier
    move in generation order is better).  Returns how many are left."""
    cdef int keep = nalive // 2, i, j, better, left = 0
    cdef bint drop[MAX_MOVES]
    if keep < 2:
        keep = 2
    if keep >= nalive:
        return nalive
    for i in range(n):
        drop[i] = False
        if not alive[i]:
            continue
        better = 0
        for j in range(n):
            if j != i and alive[j] and (values[j] > values[i] or (values[j] == values[i] and j < i)):
                better += 1
        drop[i] = better >= keep
    for i in range(n):
        if drop[i]:
            alive[i] = False
        if alive[i]:
            left += 1
    return left


cdef int halving_schedule(int n, int samples, int* ends) noexcept nogil:
    """Sequential halving of a budget of ``n * samples`` move-samples over ``n``
    root moves: ceil(log2 n) rounds with an equal share of the budget each;
    round r gives each of its moves (n, then half of them, at least 2) its share
    of new samples.  ``ends[r]``: the samples done when round r ends (at most
    SEARCH_MAX_SAMPLES).  Returns the number of rounds (at most 8)."""
    cdef int rounds = 0, alive = n, total = 0, step
    cdef long budget = <long>n * samples
    while (1 << rounds) < n and rounds < 8:
        rounds += 1
    if rounds == 0:
        rounds = 1
    for r in range(rounds):
        step = <int>(budget // (<long>alive * rounds))
        if step < 1:
            step = 1
        total += step
        if total > SEARCH_MAX_SAMPLES:
            total = SEARCH_MAX_SAMPLES
        ends[r] = total
        alive = alive // 2 if alive // 2 >= 2 else 2
    return rounds


def halving_plan(int n, int samples):
    """The samples done at the end of each round of ``halving=2`` for ``n`` root
    moves and a budget of ``samples`` each (for tests and docs)."""
    cdef int ends[8]
    cdef int k = halving_schedule(n, samples, ends)
    return [ends[i] for i in range(k)]


cdef double now_ms() noexcept nogil:
    """Milliseconds on the monotonic clock."""
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec * 1000.0 + t.tv_nsec / 1e6


cdef bint is_decided(const double* per, const bint* alive, const double* values, int n, int done,
                     double z, double tolerance, const double* totals=NULL) noexcept nogil:
    """Whether the best move so far is known well enough: for every other move
    still searched, the best one's lead (paired over the ``done`` samples, which
    every alive move shares) is above ``-tolerance`` by ``z`` standard errors.
    With ``totals`` (the consistent values' sums), the lead is theirs and only
    its spread comes from the per-sample values."""
    cdef int i, j, d, best = -1
    cdef double m, sq, diff, se, lead
    for i in range(n):
        if alive[i] and (best < 0 or values[i] > values[best]):
            best = i
    for j in range(n):
        if j == best or not alive[j]:
            continue
        m = 0.0
        sq = 0.0
        for d in range(done):
            diff = per[d * n + best] - per[d * n + j]
            m += diff
            sq += diff * diff
        m /= done
        se = sqrt(max(sq / done - m * m, 0.0) / (done - 1)) if done > 1 else 1e300
        lead = m if totals == NULL else (totals[best] - totals[j]) / done
        if lead - z * se <= -tolerance:
            return False
    return True


cdef class StopToken:
    """A stop asked of the searches given this token (``stop=`` of
    :func:`search_fields` and :func:`gostop_core.bots.ismcts.ismcts_fields`,
    ``bot.stop_token`` of the searching bots): :meth:`set` from any thread
    makes them end after their current sample, as if out of time, and report
    ``stopped == "stop"``.  The token stays set until :meth:`clear`; a search
    given another token (or none) is never stopped by it."""

    def set(self):
        """Ask the searches holding this token to stop."""
        self.asked = 1

    def clear(self):
        """Withdraw the request (before the token's next search)."""
        self.asked = 0

    def is_set(self):
        """Whether a stop is asked."""
        return self.asked != 0

    def __repr__(self):
        return f"StopToken(set={self.asked != 0})"


def request_stop(bint on=True):
    """Deprecated: ask every search of this module in the whole process to
    stop (``on=False`` clears it).  A process-wide request stops searches that
    have nothing to do with the caller's; give each search a
    :class:`StopToken` instead."""
    warnings.warn("request_stop stops every search in the process: pass a StopToken "
                  "(stop=..., bot.stop_token) instead", DeprecationWarning, stacklevel=2)
    gs_set_stop(on)


def stop_requested():
    """Whether the deprecated process-wide stop (:func:`request_stop`) is set."""
    return bool(gs_stop_asked())


def search_fields(Rules rules, dict fields, int depth=DEFAULT_DEPTH, int samples=DEFAULT_SAMPLES,
                  seed=0, double beta=DEFAULT_BETA, double reach=-1.0, weights=None,
                  bint rollout=True, double win_bonus=DEFAULT_WIN_BONUS, int halving=0,
                  double time_ms=0.0, double stop_z=0.0, int min_samples=DEFAULT_MIN_SAMPLES,
                  double tolerance=DEFAULT_TOLERANCE, int plan=0, bint consistent=False,
                  int info_limit=DEFAULT_INFO_LIMIT, model=None,
                  bint model_own=True, bint model_others=False, int cutoff=0, int worlds=1,
                  StopToken stop=None):
    """Expectimax from a player's view (``parse_view`` fields; the seat must be
    the one to move).  ``rollout`` picks the leaf value (True: the hand played
    out by the greedy policy; False: the fitted estimate, with ``beta``,
    ``reach`` and ``weights``); ``win_bonus`` is added to a won hand's value
    and taken from a lost one's; ``halving`` searches the better half of the
    moves on twice the samples, from a quarter of them up (docs/search.md);
    ``halving=2`` is sequential halving on the budget of ``samples`` for every
    move (``halving_schedule``): the rounds share the budget equally, the
    better half goes on each round, and with ``time_ms`` each round also ends
    at its share of the time.
    ``time_ms`` (> 0) stops the sampling when that many milliseconds have
    passed (the clock is read after every root move of every sample; a sample
    cut short is dropped, at least one is always completed).  ``stop_z`` (> 0)
    stops it, every ``STOP_CHECK`` samples from ``min_samples`` on, once the
    best move's paired lead over every other move is above ``-tolerance`` by
    ``stop_z`` standard errors (a decided choice needs no more samples).
    ``plan`` (> 0) plans the seat's own Go/Stop decisions inside the playouts:
    a Go is valued by ``plan`` greedy playouts on fresh deals of the cards the
    seat cannot see there, a Stop by what it books (``plan_go_stop``).
    ``consistent`` makes the seat's own later decisions (after banking a bonus
    card, a flip choice, Go/Stop, its next turn at depth 2) per information
    set: one choice over every sample that agrees on what the seat has seen,
    the one with the best total (``info_resolve``), instead of the best move of
    each sample (which knows the sample's hidden cards).  Its table holds at
    most ``info_limit`` nodes; past that the search falls back to the
    per-sample values and says so (``"consistent": False``).
    ``model`` (a ``PlayoutModel`` capsule, :meth:`gostop_core.bots.policy.LearnedPolicy.capsule`)
    plays the playout moves of the searching seat (``model_own``) and of the
    others (``model_others``) instead of the greedy policy; ``cutoff`` (> 0) ends
    a playout after that many turns with the model's value; ``worlds`` (> 1)
    draws each sample among that many deals by the likelihood of the
    opponents' observed moves (``draw_world``).  ``stop`` (a :class:`StopToken`)
    ends the sampling once set, from any thread.
    Returns ``{"moves": [(code, value, line)], "nodes", "samples", "depth",
    "counts", "stopped", "consistent"}`` with moves in generation order, ``counts`` the samples each
    move's value averages (``samples``: the most of them), ``stopped`` why the
    sampling ended (``"samples"``, ``"time"``, ``"decided"``, or ``"stop"``:
    ``stop`` was set; the sample under way is then dropped, at
    least one is always completed); ``line`` is
    the principal line of the first sample as ``(seat, code)`` pairs, seat
    ``CHANCE_SEAT`` for a card turned or drawn from the stock (code = card)."""
    cdef GameStateC base, work
    cdef SearchCtx ctx
    cdef uint16_t moves[MAX_MOVES]
    cdef double values[MAX_MOVES]
    cdef int counts[MAX_MOVES]
    cdef bint alive[MAX_MOVES]
    cdef int32_t pvs[MAX_MOVES][SEARCH_MAX_PV]
    cdef int pvlens[MAX_MOVES]
    cdef uint8_t pool[50]
    cdef int need[MAX_PLAYERS]
    cdef int n, i, d, q, npool = 0, seat = fields["seat"], round_end, nalive
    cdef uint64_t rng
    cdef int32_t* pvp
    cdef int* lenp
    cdef double* per
    cdef double started, v
    cdef int done = 0, reason = 0
    cdef bint cut
    cdef InfoTrie trie
    cdef int32_t root_node[MAX_MOVES]
    cdef double totals[MAX_MOVES]
    cdef uint64_t first_rng
    cdef bint use_trie = False
    cdef double* ranked_by = &values[0]
    cdef int round_ends[8]
    cdef int nrounds, rnd = 0
    cdef const int* stop_flag = NULL if stop is None else &stop.asked
    if depth < 1 or depth > MAX_DEPTH:
        raise ValueError(f"depth must be 1..{MAX_DEPTH}")
    if samples < 1 or samples > SEARCH_MAX_SAMPLES:
        raise ValueError(f"samples must be 1..{SEARCH_MAX_SAMPLES}")
    npool = view_base(rules, fields, &base, pool, need)
    n = base.nplayers
    ctx.r = &rules.c
    ctx.root = seat
    ctx.active = n - (1 if base.sitter >= 0 else 0)
    ctx.threshold = rules_threshold(&rules.c, ctx.active)
    ctx.beta = beta
    ctx.reach_per_card = reach
    ctx.nodes = 0
    ctx.rollout = rollout
    ctx.win_bonus = win_bonus
    weights = LEAF_WEIGHTS if weights is None else tuple(weights)
    if len(weights) != 16:
        raise ValueError("weights: 16 numbers")
    for i in range(16):
        ctx.w[i] = weights[i]
    if reach >= 0.0:
        ctx.w[11] = reach  # points expected per card in hand
    if plan < 0 or plan > MAX_PLAN:
        raise ValueError(f"plan must be 0..{MAX_PLAN}")
    if time_ms < 0.0 or stop_z < 0.0 or tolerance < 0.0:
        raise ValueError("time_ms, stop_z and tolerance must not be negative")
    ctx.plan = plan
    ctx.planning = 0
    ctx.plan_rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF) ^ <uint64_t>0xA5A5A5A55A5A5A5A
    ctx.model = NULL
    ctx.model_own = model_own
    ctx.model_others = model_others
    ctx.cut = 0
    ctx.worlds = 1
    if model is not None:
        ctx.model = <const PlayoutModel*>PyCapsule_GetPointer(model, PLAYOUT_MODEL_NAME)
        if cutoff < 0 or cutoff > MAX_CUT:
            raise ValueError(f"cutoff must be 0..{MAX_CUT}")
        if worlds < 1 or worlds > MAX_WORLDS:
            raise ValueError(f"worlds must be 1..{MAX_WORLDS}")
        ctx.cut = cutoff
        ctx.worlds = worlds
    elif cutoff != 0 or worlds != 1:
        raise ValueError("cutoff and worlds need a model")
    n = generate_moves(&base, &rules.c, moves)
    if n == 0:
        raise ValueError(f"seat {seat} has no legal move in this view")
    for i in range(n):
        values[i] = 0.0
        pvlens[i] = 0
        counts[i] = 0
        alive[i] = True
    rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    first_rng = rng
    nalive = n
    ctx.trie = NULL
    ctx.follow = 0
    if consistent:
        if info_limit < 4096:
            raise ValueError("info_limit must be at least 4096")
        if info_init(&trie, info_limit) < 0:
            info_free(&trie)
            raise MemoryError()
        ctx.trie = &trie
        use_trie = True
        for i in range(n):
            root_node[i] = info_child(&ctx, 0, pv_entry(seat, moves[i]), 1)
            totals[i] = 0.0
    else:
        for i in range(n):
            root_node[i] = -1
    if halving < 0 or halving > 2:
        raise ValueError("halving must be 0, 1 or 2")
    nrounds = 1
    if halving == 2:
        nrounds = halving_schedule(n, samples, round_ends)
        samples = round_ends[nrounds - 1]
        round_end = round_ends[0]
    else:
        round_end = samples // 4 if halving and samples >= 8 else samples
    per = <double*>malloc(samples * n * sizeof(double))
    if per == NULL:
        if use_trie:
            info_free(&trie)
        raise MemoryError()
    gs_poll_begin(_in_main_thread())
    with nogil:
        started = now_ms()
        for d in range(samples):
            draw_world(&base, &work, pool, npool, need, seat, &rng, &ctx)
            cut = False
            for i in range(n):
                if not alive[i] or gs_interrupted():
                    continue
                if d == 0 and not use_trie:
                    pvs[i][0] = pv_entry(seat, moves[i])
                    pvp = &pvs[i][1]
                    lenp = &pvlens[i]
                    ctx.pv_end = &pvs[i][SEARCH_MAX_PV - 1]
                else:
                    pvp = NULL
                    lenp = NULL
                per[d * n + i] = move_value(&work, &ctx, moves[i], depth, pvp, lenp,
                                            root_node[i], 1.0)
                if done > 0 and gs_stop_wanted(stop_flag):
                    cut = True  # stopped inside a sample: it is dropped
                    break
                if time_ms > 0.0 and done > 0 and now_ms() - started >= time_ms:
                    cut = True  # out of time inside a sample: it is dropped
                    break
            if cut:
                reason = 3 if gs_stop_wanted(stop_flag) else 1
                break
            if use_trie:
                info_commit(&trie)
            for i in range(n):
                if alive[i]:
                    values[i] += per[d * n + i]
                    counts[i] += 1
            done = d + 1
            if done == samples:
                break
            if gs_stop_wanted(stop_flag):
                reason = 3
                break
            if time_ms > 0.0 and now_ms() - started >= time_ms:
                reason = 1
                break
            if (halving == 2 and time_ms > 0.0 and rnd < nrounds - 1
                    and now_ms() - started >= time_ms * (rnd + 1) / nrounds):
                round_end = done  # the round's share of the time is spent
            if use_trie and ((stop_z > 0.0 and done >= min_samples and done % STOP_EVERY == 0)
                             or done == round_end):
                info_totals(&trie, root_node, alive, n, totals)
            # the root moves compare by their consistent totals (the per-sample
            # ones if the table failed)
            ranked_by = &totals[0] if use_trie and not trie.full else &values[0]
            if (stop_z > 0.0 and done >= min_samples and done % STOP_EVERY == 0
                    and is_decided(per, alive, ranked_by, n, done, stop_z, tolerance,
                                   ranked_by if ranked_by != values else NULL)):
                reason = 2
                break
            if done == round_end:
                # successive halving: the better half of the moves still searched
                # (at least two) go on to twice the samples
                nalive = keep_better_half(ranked_by, alive, n, nalive)
                rnd += 1
                if halving == 2:
                    round_end = round_ends[rnd] if rnd < nrounds else samples
                    if round_end <= done:
                        round_end = done + 1
                else:
                    round_end = 2 * done
            if gs_interrupted():
                break
    free(per)
    if use_trie:
        with nogil:
            trie.log_count = 0  # a sample cut short
            if not trie.full and info_resolve(&trie) == 0:
                for i in range(n):
                    if counts[i] > 0 and trie.nodes[root_node[i]].live:
                        values[i] = trie.val[root_node[i]]
            else:
                trie.full = 1
                ctx.trie = NULL  # the per-sample values and lines
            # the principal lines: the first sample again, the seat's own
            # decisions as the table chose them
            ctx.follow = 1
            rng = first_rng
            determinize(&base, &work, pool, npool, need, seat, &rng)
            for i in range(n):
                if gs_interrupted():
                    break
                pvs[i][0] = pv_entry(seat, moves[i])
                ctx.pv_end = &pvs[i][SEARCH_MAX_PV - 1]
                move_value(&work, &ctx, moves[i], depth, &pvs[i][1], &pvlens[i], root_node[i], 0.0)
            ctx.follow = 0
        use_trie = not trie.full
        info_free(&trie)
    gs_raise_if_interrupted()
    out = []
    for i in range(n):
        line = [(pvs[i][k] >> 16, pvs[i][k] & 0xFFFF) for k in range(min(pvlens[i] + 1, SEARCH_MAX_PV))]
        out.append((moves[i], values[i] / counts[i], line))
    return {"moves": out, "nodes": ctx.nodes, "samples": done, "depth": depth,
            "counts": [counts[i] for i in range(n)],
            "stopped": ("samples", "time", "decided", "stop")[reason], "consistent": use_trie}


def chance_distribution(Rules rules, dict fields, int samples=1, seed=0):
    """The probabilities the search gives to the next card turned from the stock:
    ``{card: probability}`` averaged over ``samples`` determinizations (each
    stock card 1 / stock size).  For tests: they sum to 1."""
    cdef GameStateC base, work
    cdef uint8_t pool[50]
    cdef int need[MAX_PLAYERS]
    cdef int npool = 0, q, d, i, seat = fields["seat"]
    cdef uint64_t unseen, visible, rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    fill_public(&base, fields, seat)
    visible = base.field | base.hand[seat] | base.turn_bonus
    for q in range(base.nplayers):
        visible |= base.captured[q]
        need[q] = 0 if q == seat else fields["hand_counts"][q]
    if base.flip_card != GS_NO_CARD:
        visible |= GS_BIT(base.flip_card)
    unseen = ((<uint64_t>1 << (50 if rules.c.bonus_cards else 48)) - 1) & ~visible
    while unseen:
        pool[npool] = gs_lowest(unseen)
        npool += 1
        unseen &= unseen - 1
    check_hidden(&base, need, npool, seat)
    probs = {}
    if base.stock_len == 0:
        return probs
    for d in range(samples):
        determinize(&base, &work, pool, npool, need, seat, &rng)
        for i in range(work.stock_len):
            probs[work.stock[i]] = probs.get(work.stock[i], 0.0) + 1.0 / work.stock_len / samples
    return probs
