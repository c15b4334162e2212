# One compilation unit, by design: the greedy policy, the leaf model, playouts
# and the tree search call one another in the innermost loop of every search,
# and Cython inlines those calls only within a module.  So the parts are
# ``include``d .pxi files (search_greedy, search_leaf, search_infosets,
# search_roots), not modules of their own.  The sampling of the hidden cards
# lives below it, in gostop_core/sampling.pyx.
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
from libc.math cimport exp, fabs, sqrt, NAN
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
    move_kind, move_card, move_target, splitmix64, bounded, seen_by,
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
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_New, PyCapsule_GetContext, PyCapsule_SetContext
from cpython.ref cimport PyObject, Py_INCREF, Py_XDECREF

#: Name of the capsule that carries a ``PlayoutModel`` (gostop_core.bots.policy).
PLAYOUT_MODEL_CAPSULE = b"gostop_core.PlayoutModel"
cdef const char* PLAYOUT_MODEL_NAME = "gostop_core.PlayoutModel"


cdef void _release_model_owner(object capsule) noexcept:
    Py_XDECREF(<PyObject*>PyCapsule_GetContext(capsule))


cdef object model_capsule(const PlayoutModel* hooks, object owner):
    """A ``PlayoutModel`` capsule of ``hooks``, which live in ``owner``: the
    capsule holds a reference to ``owner``, so the model outlives every capsule
    of it (a search handed a capsule of an object already dropped would read
    freed weights)."""
    capsule = PyCapsule_New(<void*>hooks, PLAYOUT_MODEL_NAME, _release_model_owner)
    Py_INCREF(owner)
    PyCapsule_SetContext(capsule, <void*>owner)
    return capsule


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


include "search_greedy.pxi"


include "search_leaf.pxi"


include "search_infosets.pxi"


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
    if c.sampled_flips:
        # the sample's own stock card only: one child, as a flat Monte-Carlo
        # search would play it (for playouts too dear to run once per card)
        tn = seen_cards(c, tn, &child, pos) if c.trie != NULL else -1
        if pv == NULL:
            return node_value(&child, c, depth - (child.turns - s.turns), NULL, NULL, tn, weight)
        pv[0] = pv_entry(PV_CHANCE_SEAT, s.stock[pos])
        mean = node_value(&child, c, depth - (child.turns - s.turns), pv + 1, pvlen, tn, weight)
        pvlen[0] += 1
        return mean
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


include "search_roots.pxi"


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
                  StopToken stop=None, bint sampled_flips=False):
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
    ends the sampling once set, from any thread.  ``sampled_flips`` turns only
    each sample's own stock card at a flip instead of every card the stock may
    hold (one child, not one per card: for playouts too dear to run per card).
    Returns ``{"moves": [(code, value, line)], "nodes", "samples", "depth",
    "counts", "stopped", "consistent"}`` with moves in generation order, ``counts`` the samples each
    move's value averages (``samples``: the most of them), ``spreads`` each
    move's standard error over them and ``relative_spreads`` that of its value
    less the mean of the moves valued in the same sample (nan below two
    samples; ``root_spreads``; with ``consistent``, those of the per-sample
    values, whose spread the resolved values share), ``stopped`` why the
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
    cdef double spreads[MAX_MOVES]
    cdef double relative[MAX_MOVES]
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
    ctx.sampled_flips = sampled_flips
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
    root_spreads(per, counts, n, spreads, relative)
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
            "spreads": [spreads[i] for i in range(n)],
            "relative_spreads": [relative[i] for i in range(n)],
            "stopped": ("samples", "time", "decided", "stop")[reason], "consistent": use_trie}


def chance_distribution(Rules rules, dict fields, int samples=1, seed=0):
    """The probabilities the search gives to the next card turned from the stock:
    ``{card: probability}`` averaged over ``samples`` determinizations (each
    stock card 1 / stock size), from the search's own start (``view_base``:
    the view of the seat to move, else ValueError).  For tests: they sum to 1."""
    cdef GameStateC base, work
    cdef uint8_t pool[50]
    cdef int need[MAX_PLAYERS]
    cdef int npool, d, i
    cdef uint64_t rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    npool = view_base(rules, fields, &base, pool, need)  # the search's own start
    probs = {}
    if base.stock_len == 0:
        return probs
    for d in range(samples):
        determinize(&base, &work, pool, npool, need, fields["seat"], &rng)
        for i in range(work.stock_len):
            probs[work.stock[i]] = probs.get(work.stock[i], 0.0) + 1.0 / work.stock_len / samples
    return probs
