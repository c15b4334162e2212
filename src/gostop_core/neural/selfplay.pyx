"""The network's inputs, its first layer and the batched self-play actor, in C.

One network scores every legal move: Q(state, action), the expected net points
of the seat to move.  :c:func:`encode_state` writes the seat's view (its hand,
the field, every seat's pile, the unseen cards, each seat's scoring counts, Go
counts, shakes and bombs, the stock, the phase, the threshold) and
:c:func:`encode_action` one legal move (its kind, the card played, the field
card it names, the cards it takes at once and the points they bring, and what
it leaves open on the field to the next seat and to its own next play); both read
only what the seat can see, so a view's public state with the seat's own hand
gives the same bytes as the full game.  Every entry is a small whole number.

The first layer is split (:c:func:`first_layer`): the state part is computed
once per decision, the action part once per legal move, each as a sum of the
weight rows of its non-zero entries (the inputs are sparse); the rest of the
network is two dense products done by numpy on the whole batch.

:class:`SelfPlay` steps thousands of games in one C array: :meth:`prepare`
plays every forced move and every move of a greedy seat (the C twin of
GreedyBot) until each game waits on a decision of the network with a choice,
and returns the first hidden layer of every (game, legal move) pair;
:meth:`advance` takes the network's values, chooses epsilon-greedy, records
(state, action) samples and, when a hand ends, gives each of its samples the
seat's final result (Monte-Carlo), or with ``td_lambda`` below 1 the lambda-return
over the values the network gave the seat's own later choices in the hand
(G_t = (1 - lambda) Q_{t+1} + lambda G_{t+1}, the last one's G the result): less
noise in the targets, at the price of leaning on the network's own values.
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int32_t, int64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcpy

cimport numpy as cnp
import numpy as np

from gostop_core.cards cimport GS_BIT, GS_NO_CARD, GS_MONTH_MASK, gs_popcount, gs_lowest
from gostop_core.rules cimport RulesC, Rules, rules_threshold, PAY_SCORE_ONCE
from gostop_core.scoring cimport ScoreC, score_pile, score_total, junk_value
from gostop_core.movegen cimport (
    GameStateC, MAX_MOVES, generate_moves, apply_move, deal_cards, splitmix64, bounded,
    move_kind, move_card, move_target, PHASE_OVER, PHASE_GO_STOP,
    MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_SHAKE, MOVE_SHOWDOWN,
)
from gostop_core.sampling cimport fill_public
from gostop_core.bots.policy cimport taken_by
from gostop_core.bots.search cimport policy_move

cnp.import_array()

#: Python copies of the input sizes.
NUM_STATE_FEATURES = STATE_FEATURES
NUM_ACTION_FEATURES = ACTION_FEATURES
NUM_LEGACY_ACTION_FEATURES = LEGACY_ACTION_FEATURES

cdef enum:
    PLANES = 350             # 7 card planes of 50
    PER_SEAT = 16
    GLOBALS = PLANES + NN_SEATS * PER_SEAT   # 398
    A_KIND = 0
    A_CARD = 12
    A_TARGET = 62
    A_TAKEN = 112
    A_GAINS = 162
    PENDING = 64             # samples kept per hand of a game (a hand has fewer decisions)
    MAX_VOID_DEALS = 1000


cdef inline uint8_t clip8(int32_t v) noexcept nogil:
    return <uint8_t>(0 if v < 0 else (255 if v > 255 else v))


cdef inline void plane(uint8_t* out, uint64_t cards) noexcept nogil:
    # out is zeroed by the caller: only the set bits are written (a few a plane)
    cards &= (GS_BIT(50) - 1)
    while cards:
        out[gs_lowest(cards)] = 1
        cards &= cards - 1


cdef void encode_state(const GameStateC* s, const RulesC* r, int seat, const int* hand_counts,
                       uint8_t* out) noexcept nogil:
    """The view of ``seat`` as STATE_FEATURES bytes; ``hand_counts[q]`` is how
    many cards seat q holds (the only thing read of another seat's hand)."""
    cdef int n = s.nplayers, k, q
    cdef uint64_t shown = 0, visible
    cdef uint64_t pack = (GS_BIT(50) if r.bonus_cards else GS_BIT(48)) - 1
    cdef ScoreC sc
    cdef uint8_t* f
    memset(out, 0, STATE_FEATURES)
    if s.flip_card != GS_NO_CARD:
        shown |= GS_BIT(s.flip_card)
    if s.played_card != GS_NO_CARD:
        shown |= GS_BIT(s.played_card)
    visible = s.hand[seat] | s.field | shown | s.turn_bonus
    plane(out, s.hand[seat])
    plane(out + 50, s.field)
    plane(out + 100, shown | s.turn_bonus)
    q = seat
    for k in range(NN_SEATS):
        if k >= n:
            break
        visible |= s.captured[q]
        plane(out + 150 + 50 * k, s.captured[q])
        f = out + PLANES + PER_SEAT * k
        score_pile(s.captured[q], r, &sc)
        f[0] = 1
        f[1] = clip8(hand_counts[q])
        f[2] = clip8(sc.total)
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
    plane(out + 300, pack & ~visible)
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


cdef void encode_action(const GameStateC* s, const RulesC* r, const ExposureC* ctx, uint16_t move,
                        uint8_t* out) noexcept nogil:
    """One legal move of the seat to move as ACTION_FEATURES bytes; ``ctx`` is
    :c:func:`exposure_context` of the same state (computed once a decision)."""
    cdef int kind = move_kind(move), card = move_card(move), target = move_target(move)
    cdef int p = s.to_move
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
    void gs_nn_action_row(const float* state, const uint8_t* x, int n, const float* w,
                          int hidden, float* out) noexcept nogil
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


cdef void first_layer(const uint8_t* x, int n, const float* w, int hidden, float* out) noexcept nogil:
    """``out += x @ w`` for bytes ``x`` (n entries) and ``w`` (n rows of ``hidden``):
    only the rows of non-zero entries are read (gostop_nn.h)."""
    gs_nn_sparse_layer(x, n, w, hidden, out)


cdef inline void hand_counts_of(const GameStateC* s, int* out) noexcept nogil:
    cdef int q
    for q in range(s.nplayers):
        out[q] = gs_popcount(s.hand[q])


cdef inline float seat_result(const GameStateC* s, const RulesC* r, int q) noexcept nogil:
    if r.payment != PAY_SCORE_ONCE:
        return s.chips[q]
    if s.winner < 0 or q == s.sitter:
        return 0
    return s.points if q == s.winner else -s.points


def _as_floats(a, shape, what):
    out = np.ascontiguousarray(a, dtype=np.float32)
    if out.shape != shape:
        raise ValueError(f"{what}: expected shape {shape}, got {out.shape}")
    return out


cdef class SelfPlay:
    """``num_games`` hands played side by side in C by one network.

    ``greedy_seats`` (a mode for evaluation): in game i the network plays seat
    ``i % players`` and the greedy policy every other seat, each game playing
    the deal ``seed + i // players`` once (duplicate deals: every deal is
    played from every seat); without it every seat is the network and each
    finished hand is dealt again from the game's seed stream.

    ``greedy_share`` (training, 0 to 1): that share of the games, spread evenly
    (game i when ``floor((i + 1) * share) > floor(i * share)``), seats the
    network at ``i % players``
    and the greedy policy at every other seat, dealt again and again like the
    others; only the network's decisions are recorded.  A run with a share
    learns the returns of its moves against greedy play as well as against
    itself (docs/strength.md, round 8).

    The loop: ``h1 = prepare()`` (rows: the legal moves of the games waiting,
    ``row_game`` says whose), the rest of the network on ``h1``, then
    ``advance(q, epsilon)``.  With ``record``, every decision with a choice is
    kept, and :meth:`drain` returns the finished hands' samples
    ``(states, actions, returns)``."""

    cdef GameStateC* states
    cdef Rules _rules
    cdef readonly int num_games
    cdef readonly int players
    cdef readonly int hidden
    cdef readonly bint greedy_mode
    cdef readonly double greedy_share
    cdef uint8_t* greedy_game    # 1: the other seats of game i play the greedy policy
    cdef readonly bint record
    cdef uint64_t* streams
    cdef uint64_t rng
    cdef uint64_t base_seed
    cdef uint8_t* done
    cdef uint16_t* moves
    cdef int* nmoves
    cdef int* first_row
    cdef uint8_t* s_rows       # STATE_FEATURES per waiting game
    cdef uint8_t* a_rows       # ACTION_FEATURES per row
    cdef int32_t* row_game_p
    cdef int nrows
    cdef float* h1_p
    cdef float* w1s
    cdef float* w1a
    cdef float* b1
    cdef uint8_t* pend_s
    cdef uint8_t* pend_a
    cdef int8_t* pend_seat
    cdef float* pend_q         # the value the network gave the move chosen (points)
    cdef readonly double td_lambda
    cdef int* pend_n
    cdef int capacity
    cdef int nout
    cdef uint8_t* out_s
    cdef uint8_t* out_a
    cdef float* out_r
    cdef readonly object h1
    cdef readonly object row_game
    cdef readonly object results      # greedy mode: the network seat's result per game
    cdef float* results_p
    cdef readonly long long hands
    cdef readonly long long decisions
    cdef readonly long long dropped

    def __cinit__(self):
        self.states = NULL

    def __init__(self, int num_games, rules="casual", int players=2, seed=0, weights=None,
                 bint greedy_seats=False, bint record=True, int capacity=1 << 17,
                 double greedy_share=0.0, double td_lambda=1.0):
        cdef Rules r = rules if isinstance(rules, Rules) else Rules(rules)
        cdef int i
        cdef uint64_t x
        r.check_players(players)
        r.check_engine_support()
        if players > NN_SEATS:
            raise ValueError(f"the network's encoding has room for {NN_SEATS} seats, not {players}")
        if not 1 <= num_games <= 1 << 20:
            raise ValueError(f"num_games must be 1..{1 << 20}, got {num_games}")
        if not PENDING <= capacity <= 1 << 26:
            raise ValueError(f"capacity must be {PENDING}..{1 << 26} samples, got {capacity}")
        if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 64:
            raise ValueError(f"seed must be an integer 0 <= seed < 2**64, got {seed!r}")
        if weights is None:
            raise ValueError("weights are needed: w1 (rows STATE_FEATURES + ACTION_FEATURES), b1")
        if not 0.0 <= greedy_share <= 1.0:
            raise ValueError(f"greedy_share must be in [0, 1], got {greedy_share}")
        if not 0.0 <= td_lambda <= 1.0:
            raise ValueError(f"td_lambda must be in [0, 1], got {td_lambda}")
        self.td_lambda = td_lambda
        self._rules = r
        self.num_games = num_games
        self.players = players
        self.greedy_mode = greedy_seats
        self.greedy_share = 1.0 if greedy_seats else greedy_share
        self.record = record and not greedy_seats
        self.capacity = capacity
        self.base_seed = <uint64_t>int(seed)
        self.rng = self.base_seed ^ <uint64_t>0x9E3779B97F4A7C15
        w1 = np.asarray(weights["w1"])
        if w1.ndim != 2 or w1.shape[0] != STATE_FEATURES + ACTION_FEATURES \
                or not 1 <= w1.shape[1] <= NN_MAX_HIDDEN:
            raise ValueError(f"w1: expected shape ({STATE_FEATURES + ACTION_FEATURES}, H), "
                             f"got {w1.shape}")
        self.hidden = w1.shape[1]
        self.states = <GameStateC*>calloc(num_games, sizeof(GameStateC))
        self.streams = <uint64_t*>calloc(num_games, sizeof(uint64_t))
        self.done = <uint8_t*>calloc(num_games, 1)
        self.greedy_game = <uint8_t*>calloc(num_games, 1)
        self.moves = <uint16_t*>calloc(num_games * MAX_MOVES, sizeof(uint16_t))
        self.nmoves = <int*>calloc(num_games, sizeof(int))
        self.first_row = <int*>calloc(num_games + 1, sizeof(int))
        self.s_rows = <uint8_t*>calloc(num_games, STATE_FEATURES)
        self.a_rows = <uint8_t*>calloc(<size_t>num_games * MAX_MOVES, ACTION_FEATURES)
        self.w1s = <float*>malloc(STATE_FEATURES * self.hidden * sizeof(float))
        self.w1a = <float*>malloc(ACTION_FEATURES * self.hidden * sizeof(float))
        self.b1 = <float*>malloc(self.hidden * sizeof(float))
        self.pend_s = <uint8_t*>malloc(<size_t>num_games * PENDING * STATE_FEATURES) if self.record else NULL
        self.pend_a = <uint8_t*>malloc(<size_t>num_games * PENDING * ACTION_FEATURES) if self.record else NULL
        self.pend_seat = <int8_t*>calloc(num_games * PENDING, 1)
        self.pend_q = <float*>calloc(num_games * PENDING, sizeof(float))
        self.pend_n = <int*>calloc(num_games, sizeof(int))
        self.out_s = <uint8_t*>malloc(<size_t>capacity * STATE_FEATURES) if self.record else NULL
        self.out_a = <uint8_t*>malloc(<size_t>capacity * ACTION_FEATURES) if self.record else NULL
        self.out_r = <float*>malloc(capacity * sizeof(float))
        if (self.states == NULL or self.streams == NULL or self.done == NULL or self.moves == NULL
                or self.greedy_game == NULL
                or self.nmoves == NULL or self.first_row == NULL or self.s_rows == NULL
                or self.a_rows == NULL or self.w1s == NULL or self.w1a == NULL or self.b1 == NULL
                or self.pend_seat == NULL or self.pend_q == NULL or self.pend_n == NULL
                or self.out_r == NULL
                or (self.record and (self.pend_s == NULL or self.pend_a == NULL
                                     or self.out_s == NULL or self.out_a == NULL))):
            raise MemoryError()
        self.h1 = np.zeros((num_games * MAX_MOVES, self.hidden), dtype=np.float32)
        self.h1_p = <float*>cnp.PyArray_DATA(<cnp.ndarray>self.h1)
        self.row_game = np.zeros(num_games * MAX_MOVES, dtype=np.int32)
        self.row_game_p = <int32_t*>cnp.PyArray_DATA(<cnp.ndarray>self.row_game)
        self.results = np.zeros(num_games, dtype=np.float32)
        self.results_p = <float*>cnp.PyArray_DATA(<cnp.ndarray>self.results)
        self.set_weights(weights)
        for i in range(num_games):
            self.greedy_game[i] = 1 if greedy_seats or \
                <long long>((i + 1) * greedy_share) > <long long>(i * greedy_share) else 0
            x = self.base_seed ^ (<uint64_t>i * <uint64_t>0xD1B54A32D192ED03)
            self.streams[i] = splitmix64(&x)
            self._deal(i)

    def __dealloc__(self):
        free(self.states); free(self.streams); free(self.done); free(self.moves)
        free(self.greedy_game)
        free(self.nmoves); free(self.first_row); free(self.s_rows); free(self.a_rows)
        free(self.w1s); free(self.w1a); free(self.b1); free(self.pend_s); free(self.pend_a)
        free(self.pend_seat); free(self.pend_q); free(self.pend_n); free(self.out_s); free(self.out_a)
        free(self.out_r)

    def set_weights(self, weights):
        """Take the first layer of ``weights`` (``w1``, ``b1``; the input scale
        already folded into ``w1``)."""
        w1 = _as_floats(weights["w1"], (STATE_FEATURES + ACTION_FEATURES, self.hidden), "w1")
        b1 = _as_floats(weights["b1"], (self.hidden,), "b1")
        cdef float[:, ::1] w = w1
        cdef float[::1] b = b1
        memcpy(self.w1s, &w[0, 0], STATE_FEATURES * self.hidden * sizeof(float))
        memcpy(self.w1a, &w[STATE_FEATURES, 0], ACTION_FEATURES * self.hidden * sizeof(float))
        memcpy(self.b1, &b[0], self.hidden * sizeof(float))

    cdef void _deal(self, int i) noexcept nogil:
        cdef GameStateC* s = &self.states[i]
        cdef uint64_t seed
        cdef int tries
        self.pend_n[i] = 0
        if self.greedy_mode:
            seed = self.base_seed + <uint64_t>(i // self.players)
            deal_cards(s, &self._rules.c, self.players, seed, 0, 0, NULL)
            if s.phase == PHASE_OVER:     # a deal that ends at once: its result stands
                self.results_p[i] = seat_result(s, &self._rules.c, i % self.players)
                self.done[i] = 1
            return
        for tries in range(MAX_VOID_DEALS):
            seed = splitmix64(&self.streams[i])
            deal_cards(s, &self._rules.c, self.players, seed, 0, 0, NULL)
            if s.phase != PHASE_OVER:
                break

    cdef void _finish(self, int i) noexcept nogil:
        # the hand of game i is over: its samples get each seat's result
        cdef GameStateC* s = &self.states[i]
        cdef int k, at, q
        cdef float target[PENDING]
        cdef float follow[NN_SEATS]   # the target of each seat's previous sample
        cdef float lam = <float>self.td_lambda
        self.hands += 1
        if self.greedy_mode:
            self.results_p[i] = seat_result(s, &self._rules.c, i % self.players)
            self.done[i] = 1
            return
        if self.record:
            for q in range(s.nplayers):
                follow[q] = seat_result(s, &self._rules.c, q)
            for k in range(self.pend_n[i] - 1, -1, -1):
                at = i * PENDING + k
                q = self.pend_seat[at]
                target[k] = follow[q]
                if lam < 1.0:
                    follow[q] = (1.0 - lam) * self.pend_q[at] + lam * target[k]
            for k in range(self.pend_n[i]):
                if self.nout >= self.capacity:
                    self.dropped += self.pend_n[i] - k
                    break
                at = i * PENDING + k
                memcpy(self.out_s + <int64_t>self.nout * STATE_FEATURES,
                       self.pend_s + <int64_t>at * STATE_FEATURES, STATE_FEATURES)
                memcpy(self.out_a + <int64_t>self.nout * ACTION_FEATURES,
                       self.pend_a + <int64_t>at * ACTION_FEATURES, ACTION_FEATURES)
                self.out_r[self.nout] = target[k]
                self.nout += 1
        self._deal(i)

    cdef bint _net_turn(self, int i) noexcept nogil:
        # advance game i to a decision of the network with a choice; False when done
        cdef GameStateC* s = &self.states[i]
        cdef uint16_t* mv = self.moves + i * MAX_MOVES
        cdef int n, pick
        while not self.done[i]:
            if s.phase == PHASE_OVER:
                self._finish(i)
                continue
            n = generate_moves(s, &self._rules.c, mv)
            if n > 1 and not (self.greedy_game[i] and s.to_move != i % self.players):
                self.nmoves[i] = n
                return True
            if n > 1:  # a greedy seat's decision
                pick = policy_move(s, &self._rules.c, mv, n)
            else:
                pick = 0
            apply_move(s, &self._rules.c, mv[pick], NULL)
        return False

    def prepare(self):
        """Advance every game to the network's next decision; returns the
        first hidden layer (after ReLU) of every legal move of those decisions
        as a view of shape (rows, hidden); :attr:`row_game` gives each row's game.
        No rows: every game is done (evaluation mode)."""
        cdef int i, j, row = 0, n
        cdef int counts[NN_SEATS]
        cdef GameStateC* s
        cdef float sbuf[NN_MAX_HIDDEN]
        cdef ExposureC ctx
        cdef uint8_t base[EXPOSURE_FEATURES]
        with nogil:
            for i in range(self.num_games):
                self.first_row[i] = row
                if not self._net_turn(i):
                    self.nmoves[i] = 0
                    continue
                s = &self.states[i]
                n = self.nmoves[i]
                hand_counts_of(s, counts)
                encode_state(s, &self._rules.c, s.to_move, counts,
                             self.s_rows + <int64_t>i * STATE_FEATURES)
                memcpy(sbuf, self.b1, self.hidden * sizeof(float))
                first_layer(self.s_rows + <int64_t>i * STATE_FEATURES, STATE_FEATURES, self.w1s,
                            self.hidden, sbuf)
                exposure_context(s, &self._rules.c, &ctx)
                exposure_base(s, &self._rules.c, &ctx, self.w1a, self.hidden, base, sbuf)
                for j in range(n):
                    encode_action(s, &self._rules.c, &ctx, self.moves[i * MAX_MOVES + j],
                                  self.a_rows + (<int64_t>row) * ACTION_FEATURES)
                    move_first_layer(sbuf, self.a_rows + (<int64_t>row) * ACTION_FEATURES, base,
                                     self.w1a, self.hidden, self.h1_p + <int64_t>row * self.hidden)
                    self.row_game_p[row] = i
                    row += 1
            self.first_row[self.num_games] = row
        self.nrows = row
        return self.h1[:row]

    def inputs(self):
        """``(states, actions)``: copies of the input bytes of every row of
        the last :meth:`prepare`, a state per row (uint8 (rows, STATE_FEATURES)
        and (rows, ACTION_FEATURES)): what its first layer was computed from."""
        cdef int row
        states = np.empty((self.nrows, STATE_FEATURES), dtype=np.uint8)
        actions = np.empty((self.nrows, ACTION_FEATURES), dtype=np.uint8)
        if self.nrows:
            memcpy(cnp.PyArray_DATA(<cnp.ndarray>actions), self.a_rows,
                   <size_t>self.nrows * ACTION_FEATURES)
            for row in range(self.nrows):
                states[row] = np.frombuffer(
                    (self.s_rows + <int64_t>self.row_game_p[row] * STATE_FEATURES)[:STATE_FEATURES],
                    dtype=np.uint8)
        return states, actions

    def advance(self, q, double epsilon=0.0):
        """Play in every waiting game the move of the highest ``q`` (one value
        per row of the last :meth:`prepare`), or with probability ``epsilon`` a
        legal move drawn uniformly."""
        cdef cnp.ndarray qa = np.ascontiguousarray(q, dtype=np.float32)
        cdef float* qp
        cdef int i, j, n, best, at, k, first
        cdef GameStateC* s
        if qa.ndim != 1 or qa.shape[0] != self.nrows:
            raise ValueError(f"expected {self.nrows} values, one per row, got shape {np.shape(q)}")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon}")
        qp = <float*>cnp.PyArray_DATA(qa)
        cdef uint32_t eps_scaled = <uint32_t>(epsilon * 4294967295.0)
        with nogil:
            for i in range(self.num_games):
                n = self.nmoves[i]
                if n == 0:
                    continue
                first = self.first_row[i]
                if eps_scaled and <uint32_t>(splitmix64(&self.rng) >> 32) < eps_scaled:
                    best = bounded(&self.rng, n)
                else:
                    best = 0
                    for j in range(1, n):
                        if qp[first + j] > qp[first + best]:
                            best = j
                s = &self.states[i]
                self.decisions += 1
                if self.record:
                    k = self.pend_n[i]
                    if k < PENDING:
                        at = i * PENDING + k
                        memcpy(self.pend_s + <int64_t>at * STATE_FEATURES,
                               self.s_rows + <int64_t>i * STATE_FEATURES, STATE_FEATURES)
                        memcpy(self.pend_a + <int64_t>at * ACTION_FEATURES,
                               self.a_rows + <int64_t>(first + best) * ACTION_FEATURES,
                               ACTION_FEATURES)
                        self.pend_seat[at] = s.to_move
                        self.pend_q[at] = qp[first + best]
                        self.pend_n[i] = k + 1
                apply_move(s, &self._rules.c, self.moves[i * MAX_MOVES + best], NULL)
                self.nmoves[i] = 0
        self.nrows = 0

    @property
    def pending_samples(self) -> int:
        """Finished samples waiting for :meth:`drain`."""
        return self.nout

    def drain(self):
        """``(states, actions, returns)`` of the finished hands' samples
        (copies: uint8 (n, STATE_FEATURES), uint8 (n, ACTION_FEATURES),
        float32 (n,)), and the buffer emptied."""
        cdef int n = self.nout
        states = np.empty((n, STATE_FEATURES), dtype=np.uint8)
        actions = np.empty((n, ACTION_FEATURES), dtype=np.uint8)
        returns = np.empty(n, dtype=np.float32)
        if n and self.record:
            memcpy(cnp.PyArray_DATA(<cnp.ndarray>states), self.out_s, <size_t>n * STATE_FEATURES)
            memcpy(cnp.PyArray_DATA(<cnp.ndarray>actions), self.out_a, <size_t>n * ACTION_FEATURES)
            memcpy(cnp.PyArray_DATA(<cnp.ndarray>returns), self.out_r, <size_t>n * sizeof(float))
        self.nout = 0
        return states, actions, returns


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
    encode_state(&st, &rules.c, seat, counts, &sv[0])
    exposure_context(&st, &rules.c, &ctx)
    for i in range(n):
        encode_action(&st, &rules.c, &ctx, moves[i], &av[i, 0])
    return [moves[i] for i in range(n)], state, actions
