"""The network's inputs and its first layer, in C.

One network scores every legal move: Q(state, action), the expected net points
of the seat to move.  :c:func:`encode_state` writes the seat's view (its hand,
the field, every seat's pile, the unseen cards, each seat's scoring counts, Go
counts, shakes and bombs, the stock, the phase, the threshold, and the sets each
seat is one card from with where that card is) and :c:func:`encode_action` one
legal move (its kind, the card played, the field card it names, the cards it
takes at once and the points they bring, what it leaves open on the field to
the next seat and to its own next play, and what the field cards it takes were
worth to the next seat); both read
only what the seat can see, so a view's public state with the seat's own hand
gives the same bytes as the full game.  Every entry is a small whole number.

The first layer is split (:c:func:`first_layer`): the state part is computed
once per decision, the action part once per legal move, each as a sum of the
weight rows of its non-zero entries (the inputs are sparse); the state part
adds the visible cards' rows only, with the unseen plane folded into them
(:c:func:`fold_state_rows`); the exposure bytes of the field as it stands join
the state part (:c:func:`exposure_base`) and a move adds only those it changes
(:c:func:`move_first_layer`).  The actor
(selfplay.pyx) and the search's playouts (playout.pyx) share all of it.
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int32_t, int64_t
from libc.string cimport memset, memcpy

cimport numpy as cnp
import numpy as np

from gostop_core.cards cimport (
    GS_BIT, GS_NO_CARD, GS_MONTH_MASK, gs_popcount, gs_lowest, GS_MASK_BRIGHT, GS_MASK_GODORI,
    GS_MASK_HONGDAN, GS_MASK_CHEONGDAN, GS_MASK_CHODAN,
)
from gostop_core.rules cimport RulesC, Rules, rules_threshold, PAY_SCORE_ONCE
from gostop_core.scoring cimport ScoreC, score_pile, score_total, junk_value
from gostop_core.movegen cimport (
    GameStateC, MAX_MOVES, generate_moves, move_kind, move_card, move_target, PHASE_OVER,
    MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_SHAKE, MOVE_SHOWDOWN,
)
from gostop_core.sampling cimport fill_public
from gostop_core.bots.policy cimport taken_by

cnp.import_array()

#: Python copies of the input sizes.
NUM_STATE_FEATURES = STATE_FEATURES
NUM_ACTION_FEATURES = ACTION_FEATURES
#: The (state, action) byte counts weights files have been written with, oldest
#: first: rounds 6-10, round 11 (the exposure rows), round 12 (the threats and the
#: denial).  Each added its bytes at the end of the state or the action bytes, so an
#: older file reads with zero rows for the new ones (network.load_network).
INPUT_LAYOUTS = ((416, 168), (416, 224), (STATE_FEATURES, ACTION_FEATURES))
#: Where the state's threat bytes start, and how many a seat has (the last is a count).
THREATS_START = S_THREATS
THREATS_PER_SEAT_BYTES = THREATS_PER_SEAT
NUM_LEGACY_ACTION_FEATURES = INPUT_LAYOUTS[0][1]

cdef enum:
    PLANES = 350             # 7 card planes of 50
    S_UNSEEN = 300           # the unseen cards' plane, the last of the seven
    PER_SEAT = 16
    GLOBALS = PLANES + NN_SEATS * PER_SEAT   # 398
    A_KIND = 0
    A_CARD = 12
    A_TARGET = 62
    A_TAKEN = 112
    A_GAINS = 162


cdef inline uint8_t clip8(int32_t v) noexcept nogil:
    return <uint8_t>(0 if v < 0 else (255 if v > 255 else v))


cdef inline void plane(uint8_t* out, uint64_t cards) noexcept nogil:
    # out is zeroed by the caller: only the set bits are written (a few a plane)
    cards &= (GS_BIT(50) - 1)
    while cards:
        out[gs_lowest(cards)] = 1
        cards &= cards - 1


cdef inline void set_threat(uint64_t pile, uint64_t set_cards, uint64_t table, uint64_t hand,
                            uint64_t unseen, uint8_t* f) noexcept nogil:
    # one card short of a set: where the missing card is (none of the three when
    # another seat has taken it)
    cdef uint64_t missing = set_cards & ~pile
    if gs_popcount(missing) == 1:
        f[0] = 1 if missing & table else 0
        f[1] = 1 if missing & hand else 0
        f[2] = 1 if missing & unseen else 0


cdef void encode_threats(const GameStateC* s, const RulesC* r, int seat, uint64_t table,
                         uint64_t unseen, const int32_t* scores, uint8_t* out) noexcept nogil:
    """The sets each seat (from ``seat`` on) is one card from, and where that
    card is as ``seat`` sees it: on the table (the field or a shown card), in
    ``seat``'s hand, or unseen; for three brights, how many brights still to
    take are in each place once the seat holds two; and the points each seat
    is short of the threshold.  THREATS_PER_SEAT bytes a seat."""
    cdef int n = s.nplayers, k, q = seat
    cdef uint64_t pile, live, hand = s.hand[seat]
    cdef int32_t threshold = rules_threshold(r, n)
    cdef uint8_t* f
    for k in range(n if n < NN_SEATS else NN_SEATS):
        pile = s.captured[q]
        f = out + THREATS_PER_SEAT * k
        set_threat(pile, GS_MASK_GODORI, table, hand, unseen, f)
        set_threat(pile, GS_MASK_HONGDAN, table, hand, unseen, f + 3)
        set_threat(pile, GS_MASK_CHEONGDAN, table, hand, unseen, f + 6)
        set_threat(pile, GS_MASK_CHODAN, table, hand, unseen, f + 9)
        if gs_popcount(pile & GS_MASK_BRIGHT) >= 2:
            live = GS_MASK_BRIGHT & ~pile
            f[12] = clip8(gs_popcount(live & table))
            f[13] = clip8(gs_popcount(live & hand))
            f[14] = clip8(gs_popcount(live & unseen))
        f[15] = clip8(threshold - scores[k])
        q = q + 1 if q + 1 < n else 0


cdef bint encode_state(const GameStateC* s, const RulesC* r, int seat, const int* hand_counts,
                       uint8_t* out, uint64_t* planes) noexcept nogil:
    """The view of ``seat`` as STATE_FEATURES bytes; ``hand_counts[q]`` is how
    many cards seat q holds (the only thing read of another seat's hand).
    ``planes`` (VISIBLE_PLANES masks, or NULL) gets the cards of the six planes
    before the unseen one.  True when those hold each card of the pack at most
    once (all but a flip's shown card on the field): then the unseen plane is
    the pack less them, which :c:func:`state_first_layer` uses."""
    cdef int n = s.nplayers, k, q
    cdef int in_planes
    cdef uint64_t shown = 0, visible, unseen, card_bits = GS_BIT(50) - 1
    cdef uint64_t pack = (GS_BIT(50) if r.bonus_cards else GS_BIT(48)) - 1
    cdef ScoreC sc
    cdef int32_t scores[NN_SEATS]
    cdef uint8_t* f
    memset(out, 0, STATE_FEATURES)
    if s.flip_card != GS_NO_CARD:
        shown |= GS_BIT(s.flip_card)
    if s.played_card != GS_NO_CARD:
        shown |= GS_BIT(s.played_card)
    visible = s.hand[seat] | s.field | shown | s.turn_bonus
    in_planes = gs_popcount(s.hand[seat] & card_bits) + gs_popcount(s.field & card_bits) \
        + gs_popcount((shown | s.turn_bonus) & card_bits)
    plane(out, s.hand[seat])
    plane(out + 50, s.field)
    plane(out + 100, shown | s.turn_bonus)
    if planes != NULL:
        memset(planes, 0, VISIBLE_PLANES * sizeof(uint64_t))
        planes[0] = s.hand[seat] & card_bits
        planes[1] = s.field & card_bits
        planes[2] = (shown | s.turn_bonus) & card_bits
    q = seat
    for k in range(NN_SEATS):
        if k >= n:
            break
        visible |= s.captured[q]
        in_planes += gs_popcount(s.captured[q] & card_bits)
        if planes != NULL:
            planes[3 + k] = s.captured[q] & card_bits
        plane(out + 150 + 50 * k, s.captured[q])
        f = out + PLANES + PER_SEAT * k
        score_pile(s.captured[q], r, &sc)
        f[0] = 1
        f[1] = clip8(hand_counts[q])
        f[2] = clip8(sc.total)
        scores[k] = sc.total
        f[3] = clip8(sc.brights)
        f[4] = clip8(sc.ribbons)
        f[5] = clip8(sc.animals)
        f[6] = clip8(sc.junk)
        f[7] = clip8(sc.godori_points)
        f[8] = clip8(sc.hongdan_points + sc.cheongdan_points + sc.chodan_points)
        f[9] = clip8(s.go_count[q])
        f[10] = clip8(s.last_go_score[q])
        f[11] = clip8(gs_popcount(s.shaken[q]))
        f[12] = clip8(s.bombs[q])
        f[13] = clip8(s.ppeoks[q])
        f[14] = clip8(s.flip_only[q])
        f[15] = 1 if s.dealer == q else 0
        q = q + 1 if q + 1 < n else 0
    unseen = pack & ~visible
    plane(out + 300, unseen)
    encode_threats(s, r, seat, s.field | shown, unseen, scores, out + S_THREATS)
    f = out + GLOBALS
    f[0] = clip8(s.stock_len - s.stock_pos)
    f[1] = 1 if s.to_move == seat else 0
    f[2 + (s.phase if 0 <= s.phase < 5 else 0)] = 1
    f[7] = clip8(rules_threshold(r, n))
    f[8] = clip8(s.stake_doublings)
    f[9] = clip8(s.turns)
    f[10] = 1 if n == 3 else 0
    f[11] = 1 if r.payment != PAY_SCORE_ONCE else 0
    f[12] = 1 if s.forced_card != GS_NO_CARD else 0
    f[13] = 1 if s.showdown_caller >= 0 else 0
    return in_planes == gs_popcount(visible & card_bits) and (visible & card_bits & ~pack) == 0


cdef void encode_action(const GameStateC* s, const RulesC* r, const ExposureC* ctx, uint16_t move,
                        uint8_t* out) noexcept nogil:
    """One legal move of the seat to move as ACTION_FEATURES bytes; ``ctx`` is
    :c:func:`exposure_context` of the same state (computed once a decision)."""
    cdef int kind = move_kind(move), card = move_card(move), target = move_target(move)
    cdef int p = s.to_move, m
    cdef uint64_t taken, pile = s.captured[p], cards = 0
    memset(out, 0, ACTION_FEATURES)
    if 1 <= kind <= 12:
        out[A_KIND + kind - 1] = 1
    if kind == MOVE_BOMB or kind == MOVE_SHAKE:
        if 1 <= card <= 12:
            cards = s.hand[p] & GS_MONTH_MASK(card)
    elif kind == MOVE_FLIP:
        if s.flip_card != GS_NO_CARD:
            cards = GS_BIT(s.flip_card)
    elif card < 50 and (kind == MOVE_PLAY or kind == MOVE_BONUS or kind == MOVE_SHOWDOWN):
        cards = GS_BIT(card)
    plane(out + A_CARD, cards)
    if (kind == MOVE_PLAY or kind == MOVE_FLIP) and target < 50:
        out[A_TARGET + target] = 1
    taken = taken_by(s, r, move)
    plane(out + A_TAKEN, taken)
    if taken:
        out[A_GAINS] = clip8(score_total(pile | taken, r) - score_total(pile, r))
        out[A_GAINS + 1] = clip8(gs_popcount(taken))
        out[A_GAINS + 2] = clip8(junk_value(pile | taken, r) - junk_value(pile, r))
    encode_exposure(s, r, ctx, kind, card, cards, taken, out)
    # the field cards it takes, which the next seat can no longer take; most
    # moves take a whole month of the field, whose worth ctx has worked out
    taken &= s.field
    if taken:
        m = gs_lowest(taken) // 4 + 1
        if m <= 12 and taken == s.field & GS_MONTH_MASK(m) \
                and ctx.gain_months & GS_BIT(4 * (m - 1)):
            out[A_DENY] = clip8(ctx.opp_gain[m])
            out[A_DENY + 1] = clip8(ctx.opp_junk_gain[m])
        else:
            out[A_DENY] = clip8(score_total(ctx.opp_pile | taken, r) - ctx.opp_base)
            out[A_DENY + 1] = clip8(junk_value(ctx.opp_pile | taken, r) - ctx.opp_junk)


cdef inline uint64_t month_bits(uint64_t cards) noexcept nogil:
    """One bit a month with a card in ``cards``: bit 4 (m - 1), the month's first card."""
    cards &= GS_BIT(48) - 1
    cards |= cards >> 1
    cards |= cards >> 2
    return cards & <uint64_t>0x111111111111


cdef inline uint64_t month_cards(uint64_t bits) noexcept nogil:
    """The four card bits of every month of ``bits`` (month_bits' form)."""
    return bits * <uint64_t>0xF


cdef inline void month_gains(const RulesC* r, const ExposureC* ctx, uint64_t month,
                             int32_t* opp, int32_t* junk, int32_t* own) noexcept nogil:
    opp[0] = score_total(ctx.opp_pile | month, r) - ctx.opp_base
    junk[0] = junk_value(ctx.opp_pile | month, r) - ctx.opp_junk
    own[0] = score_total(ctx.own_pile | month, r) - ctx.own_base


cdef void exposure_context(const GameStateC* s, const RulesC* r, ExposureC* ctx) noexcept nogil:
    """What every move of a decision shares for :c:func:`encode_exposure`: the
    cards the seat to move has not seen, the next seat's and its own pile and
    scores, and what each month's cards on the field now would bring either."""
    cdef int p = s.to_move, n = s.nplayers, q, m
    cdef uint64_t visible, month, todo
    cdef uint64_t pack = (GS_BIT(50) if r.bonus_cards else GS_BIT(48)) - 1
    ctx.shown = 0
    if s.flip_card != GS_NO_CARD:
        ctx.shown |= GS_BIT(s.flip_card)
    if s.played_card != GS_NO_CARD:
        ctx.shown |= GS_BIT(s.played_card)
    # gamestate.seen_by's cards and the played card, written out: calling
    # seen_by here measured 5-10 % slower in the actor (docs/performance.md)
    visible = s.hand[p] | s.field | ctx.shown | s.turn_bonus
    for q in range(n):
        visible |= s.captured[q]
    ctx.unseen = pack & ~visible
    ctx.unseen_months = month_bits(ctx.unseen)
    ctx.opp_pile = s.captured[p + 1 if p + 1 < n else 0]
    ctx.own_pile = s.captured[p]
    ctx.opp_base = score_total(ctx.opp_pile, r)
    ctx.opp_junk = junk_value(ctx.opp_pile, r)
    ctx.own_base = score_total(ctx.own_pile, r)
    # the gains of the months on the field that a move may leave open or
    # take next turn (an unseen card or the mover's hand matches them)
    todo = month_bits(s.field) & (ctx.unseen_months | month_bits(s.hand[p]))
    ctx.gain_months = todo
    while todo:
        m = gs_lowest(todo) // 4 + 1
        todo &= todo - 1
        month = s.field & GS_MONTH_MASK(m)
        month_gains(r, ctx, month, &ctx.opp_gain[m], &ctx.opp_junk_gain[m], &ctx.own_gain[m])


cdef void encode_exposure(const GameStateC* s, const RulesC* r, const ExposureC* ctx, int kind,
                          int card, uint64_t played, uint64_t taken, uint8_t* out) noexcept nogil:
    """What a move leaves on the field (before the flip the mover cannot
    foresee): the cards there whose month has a card the mover has not seen
    (the next seat may hold it, or the stock turn it up), how many such months
    and unseen cards, the most points and junk one of those months would bring
    the next seat, and the months the mover's own remaining hand can take
    next turn with the most points one of them brings.  Only what the mover
    sees is read (its hand, the field, the piles, the shown cards); the months
    the move does not touch keep the gains of ``ctx``."""
    cdef int m
    cdef uint64_t field, month, hand, open_m, own_m, touched, todo
    cdef int32_t gain_opp, gain_junk, gain_own
    cdef int32_t best_points = 0, best_junk = 0, own_best = 0
    if kind == MOVE_BOMB and 1 <= card <= 12:
        field = s.field & ~GS_MONTH_MASK(card)
        touched = month_bits(GS_MONTH_MASK(card))
    elif kind == MOVE_PLAY or kind == MOVE_FLIP:
        field = (s.field | played | ctx.shown) & ~taken
        touched = month_bits(played | ctx.shown | taken)
    else:
        field = s.field
        touched = 0
    field &= GS_BIT(48) - 1
    hand = s.hand[s.to_move]
    if kind == MOVE_PLAY or kind == MOVE_BOMB:
        hand &= ~played      # a shake shows its cards and keeps them
    open_m = month_bits(field) & ctx.unseen_months
    own_m = month_bits(field) & month_bits(hand)
    todo = open_m | own_m
    while todo:
        m = gs_lowest(todo) // 4 + 1
        todo &= todo - 1
        if touched & GS_BIT(4 * (m - 1)):
            month = field & GS_MONTH_MASK(m)
            month_gains(r, ctx, month, &gain_opp, &gain_junk, &gain_own)
        else:
            gain_opp = ctx.opp_gain[m]
            gain_junk = ctx.opp_junk_gain[m]
            gain_own = ctx.own_gain[m]
        if open_m & GS_BIT(4 * (m - 1)):
            if gain_opp > best_points:
                best_points = gain_opp
            if gain_junk > best_junk:
                best_junk = gain_junk
        if own_m & GS_BIT(4 * (m - 1)) and gain_own > own_best:
            own_best = gain_own
    plane(out + A_OPEN, field & month_cards(open_m))
    out[A_EXPOSURE] = clip8(gs_popcount(open_m))
    out[A_EXPOSURE + 1] = clip8(gs_popcount(ctx.unseen & month_cards(open_m)))
    out[A_EXPOSURE + 2] = clip8(best_points)
    out[A_EXPOSURE + 3] = clip8(best_junk)
    out[A_EXPOSURE + 4] = clip8(gs_popcount(own_m))
    out[A_EXPOSURE + 5] = clip8(own_best)


cdef extern from "gostop_nn.h":
    void gs_nn_sparse_layer(const uint8_t* x, int n, const float* w, int hidden,
                            float* out) noexcept nogil
    void gs_nn_listed_rows(const int* rows, int count, const float* w, int hidden,
                           float* out) noexcept nogil
    void gs_nn_action_row_delta(const float* state, const uint8_t* x, int n, const uint8_t* base,
                                int n_delta, const float* w, int hidden, float* out) noexcept nogil


cdef void exposure_base(const GameStateC* s, const RulesC* r, const ExposureC* ctx, const float* w1a,
                        int hidden, uint8_t* base, float* state) noexcept nogil:
    """The exposure bytes of the field as it stands (those of a move that
    changes nothing on it: Go, Stop) into ``base`` (EXPOSURE_FEATURES), and
    their rows of the first layer added to the decision's state part: each
    move then adds only the rows it changes (gs_nn_action_row_delta)."""
    cdef uint8_t row[ACTION_FEATURES]
    memset(row, 0, ACTION_FEATURES)     # encode_exposure writes only what is set
    encode_exposure(s, r, ctx, 0, 0, 0, 0, row)
    memcpy(base, row + A_OPEN, EXPOSURE_FEATURES)
    first_layer(base, EXPOSURE_FEATURES, w1a + <int64_t>A_OPEN * hidden, hidden, state)


cdef void move_first_layer(const float* state, const uint8_t* row, const uint8_t* base,
                           const float* w1a, int hidden, float* out) noexcept nogil:
    """One move's first hidden layer (after ReLU) from the decision's state
    part with the base exposure rows in (:c:func:`exposure_base`)."""
    gs_nn_action_row_delta(state, row, A_OPEN, base, EXPOSURE_FEATURES, w1a, hidden, out)


cdef void encode_moves(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                       const float* w1a, int hidden, float* state, uint8_t* a_rows,
                       float* h1_rows) noexcept nogil:
    """Every legal move of a decision: its action bytes into ``a_rows`` (``n``
    rows of ACTION_FEATURES) and its first hidden layer (after ReLU) into
    ``h1_rows`` (``n`` rows of ``hidden``).  ``state`` is the decision's state
    part (the bias and the state bytes' rows); the base exposure rows are added
    to it.  One call a decision: the per-move loop stays in this module, where
    the compiler inlines it."""
    cdef ExposureC ctx
    cdef uint8_t base[EXPOSURE_FEATURES]
    cdef int j
    exposure_context(s, r, &ctx)
    exposure_base(s, r, &ctx, w1a, hidden, base, state)
    for j in range(n):
        encode_action(s, r, &ctx, moves[j], a_rows + <int64_t>j * ACTION_FEATURES)
        move_first_layer(state, a_rows + <int64_t>j * ACTION_FEATURES, base, w1a, hidden,
                         h1_rows + <int64_t>j * hidden)


cdef void fold_state_rows(const float* w1s, const float* b1, int hidden, float* folded,
                          float* folded_bias) noexcept nogil:
    """The state rows with the unseen plane folded into the six planes before
    it: ``folded`` (STATE_FEATURES rows) is ``w1s`` less, in each of those
    planes, the unseen row of the same card, and ``folded_bias`` (2 rows) is
    ``b1`` plus the unseen rows of every card of a 48-card and of a 50-card
    pack.  Where the planes hold each card of the pack once, the unseen cards'
    rows are the pack's less the visible cards', so :c:func:`state_first_layer`
    adds the rows of the visible cards only (a third of a decision's state rows
    are unseen cards)."""
    cdef int i, j
    cdef int unseen_rows[50]
    cdef const float* unseen_row
    memcpy(folded, w1s, <size_t>STATE_FEATURES * hidden * sizeof(float))
    for i in range(S_UNSEEN):
        unseen_row = w1s + <int64_t>(S_UNSEEN + i % 50) * hidden
        for j in range(hidden):
            folded[<int64_t>i * hidden + j] -= unseen_row[j]
    for i in range(50):
        unseen_rows[i] = S_UNSEEN + i
    memcpy(folded_bias, b1, hidden * sizeof(float))
    gs_nn_listed_rows(unseen_rows, 48, w1s, hidden, folded_bias)
    memcpy(folded_bias + hidden, folded_bias, hidden * sizeof(float))
    gs_nn_listed_rows(unseen_rows + 48, 2, w1s, hidden, folded_bias + hidden)


cdef void state_first_layer(const RulesC* r, const uint8_t* s_row, const uint64_t* planes,
                            bint partition, const float* w1s, const float* b1, const float* folded,
                            const float* folded_bias, int hidden, float* out) noexcept nogil:
    """The decision's state part: ``out`` = ``b1`` + the rows of ``s_row``'s
    non-zero bytes.  Where ``partition`` (what :c:func:`encode_state` returned)
    holds, from the folded rows (:c:func:`fold_state_rows`): the visible cards'
    rows, listed from the ``planes`` masks rather than found by reading 350
    bytes, then the rows of the bytes after the planes; else from ``w1s``.  The
    two differ in rounding only."""
    cdef int rows[50 * VISIBLE_PLANES]
    cdef int count = 0, p
    cdef uint64_t bits
    if partition and folded != NULL and planes != NULL:
        memcpy(out, folded_bias + (hidden if r.bonus_cards else 0), hidden * sizeof(float))
        for p in range(VISIBLE_PLANES):
            bits = planes[p]
            while bits:
                rows[count] = 50 * p + gs_lowest(bits)
                count += 1
                bits &= bits - 1
        gs_nn_listed_rows(rows, count, folded, hidden, out)
        first_layer(s_row + PLANES, STATE_FEATURES - PLANES, folded + <int64_t>PLANES * hidden,
                    hidden, out)
    else:
        memcpy(out, b1, hidden * sizeof(float))
        first_layer(s_row, STATE_FEATURES, w1s, hidden, out)


cdef void decision_inputs(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                          const float* w1s, const float* w1a, const float* b1,
                          const float* folded, const float* folded_bias, int hidden,
                          uint8_t* s_row, uint8_t* a_rows, float* h1_rows) noexcept nogil:
    """A whole decision of the seat to move: its state bytes into ``s_row``,
    and for each of the ``n`` legal ``moves`` its action bytes and first
    hidden layer (:c:func:`encode_moves`), from the first layer's weights
    (``w1s`` the state rows, ``w1a`` the action rows, ``b1`` the bias;
    ``folded`` and ``folded_bias`` from :c:func:`fold_state_rows`, or NULL)."""
    cdef int counts[NN_SEATS]
    cdef float state[NN_MAX_HIDDEN]
    cdef int q
    cdef uint64_t planes[VISIBLE_PLANES]
    cdef bint partition
    for q in range(s.nplayers):
        counts[q] = gs_popcount(s.hand[q])
    partition = encode_state(s, r, s.to_move, counts, s_row, planes)
    state_first_layer(r, s_row, planes, partition, w1s, b1, folded, folded_bias, hidden, state)
    encode_moves(s, r, moves, n, w1a, hidden, state, a_rows, h1_rows)


cdef void first_layer(const uint8_t* x, int n, const float* w, int hidden, float* out) noexcept nogil:
    """``out += x @ w`` for bytes ``x`` (n entries) and ``w`` (n rows of ``hidden``):
    only the rows of non-zero entries are read (gostop_nn.h)."""
    gs_nn_sparse_layer(x, n, w, hidden, out)


cdef int view_state(dict fields, GameStateC* st, int* counts) except -1:
    """The public state of a view whose seat is to move (``parse_view`` fields)
    with the seat's own hand, and every seat's hand size in ``counts``; returns
    the seat.  ValueError for a view the network cannot read."""
    cdef int q, seat = fields["seat"]
    if fields["phase"] == PHASE_OVER:
        raise ValueError("the hand is over")
    if fields["to_move"] != seat:
        raise ValueError(f"seat {seat} is not the one to move")
    if fields["nplayers"] > NN_SEATS:
        raise ValueError(f"the network's encoding has room for {NN_SEATS} seats")
    fill_public(st, fields, seat)
    for q in range(st.nplayers):
        # a view holds the seat's own hand; the others' sizes come from the view
        counts[q] = gs_popcount(st.hand[q]) if q == seat else int(fields["hand_counts"][q])
    return seat


def view_inputs(Rules rules, dict fields):
    """``(codes, state, actions)`` of a view whose seat is to move
    (``parse_view`` fields): the legal move codes in generation order, the
    state bytes (STATE_FEATURES,) and the action bytes (moves, ACTION_FEATURES).
    Built from the view's public state and the seat's own hand only."""
    cdef GameStateC st
    cdef uint16_t moves[MAX_MOVES]
    cdef int counts[NN_SEATS]
    cdef int n, i, seat = view_state(fields, &st, counts)
    n = generate_moves(&st, &rules.c, moves)
    state = np.empty(STATE_FEATURES, dtype=np.uint8)
    actions = np.empty((n, ACTION_FEATURES), dtype=np.uint8)
    cdef uint8_t[::1] sv = state
    cdef uint8_t[:, ::1] av = actions
    cdef ExposureC ctx
    encode_state(&st, &rules.c, seat, counts, &sv[0], NULL)
    exposure_context(&st, &rules.c, &ctx)
    for i in range(n):
        encode_action(&st, &rules.c, &ctx, moves[i], &av[i, 0])
    return [moves[i] for i in range(n)], state, actions
