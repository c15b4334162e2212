"""Information-set Monte Carlo tree search (single observer) from one player's view.

The expectimax search (:mod:`gostop_core.bots.search`) plans one own decision and
then plays greedily; this search grows a tree over the searching seat's later
decisions too, and never looks at a hidden card (docs/search.md has the long
form):

* **Iterations.**  Each iteration deals the cards the seat cannot see at random
  (the expectimax search's sampler, :c:func:`determinize`: every deal
  consistent with the view equally likely) and descends the tree with that
  deal.
* **The tree is keyed by what the searching seat knows.**  An edge is a move of
  a seat (``seat << 16 | move``: every move is public) or a card turned from the
  stock (``CHANCE_SEAT << 16 | card``); a card another seat draws after banking
  a bonus card is not shown, so it is no edge.  Two deals that agree on
  everything the seat has seen reach the same node (its information set).  With
  ``open_loop`` only decisions are edges (the flips and the greedy opponents'
  moves are left out: one node per line of decisions, whatever came between).
* **The seat's own decisions** choose by UCB among the moves legal in the deal:
  ``mean + c * scale * sqrt(ln(available) / visits)``, where ``available``
  counts the iterations in which the move was legal (the information-set MCTS
  way: a move legal in few deals is not starved) and ``scale`` is the standard
  deviation of the payoffs seen so far (so ``c`` has no unit).  A legal move
  without a node is expanded first: the greedy policy's move, then the others
  in random order (so that a node's first visits follow the playout policy).
  With ``prior`` (progressive bias), the greedy policy's move also gets
  ``prior / (visits + 1)`` points more in the UCB value: a node follows the
  playout policy until its statistics say otherwise.  With ``widen`` W
  (progressive widening), a node that has v visits and k children legal in the
  deal expands a new move only while k < 1 + v / W (the greedy policy's move
  first): a node visited a few times follows the greedy policy.
* **Other seats** play the greedy policy (:c:func:`policy_move`) by default;
  with ``opp_tree`` they choose by UCB too, on the negated payoff of the
  searching seat.
* **One node is added per iteration**, then the hand is played out by the greedy
  policy for every seat and the searching seat's payoff (the expectimax
  search's terminal value: net points, plus the win bonus for a won hand, minus
  it for a lost one) is added to every node of the path.
* **Budgets.**  ``iterations``, ``time_ms`` (the clock is read after every
  iteration) and ``nodes``: the tree lives in one array of that many nodes;
  once it is full the tree stops growing and the iterations go on in it.
* **The answer** is the root move with the most visits (ties: the better mean,
  then generation order).
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int32_t
from libc.math cimport log, sqrt
from libc.stdlib cimport malloc, free

from gostop_core.rules cimport Rules, rules_threshold
from gostop_core.movegen cimport (
    GameStateC, generate_moves, apply_move, MAX_MOVES, MAX_PLAYERS, PHASE_OVER, MOVE_BONUS,
    move_kind, bounded,
)
from gostop_core.bots.search cimport (
    SearchCtx, PlayoutModel, PV_CHANCE_SEAT, rollout_value, terminal_value,
    playout_pick, now_ms, StopToken,
)
from cpython.pycapsule cimport PyCapsule_GetPointer
from gostop_core.sampling cimport determinize, view_base
from gostop_core.guard cimport (
    gs_poll_begin, gs_interrupted, gs_raise_if_interrupted, gs_set_stop, gs_stop_asked,
    gs_stop_wanted,
)
from gostop_core.movegen import _in_main_thread
import warnings
from gostop_core.bots.search import DEFAULT_WIN_BONUS as _WIN_BONUS, LEAF_WEIGHTS as _LEAF_WEIGHTS
from gostop_core.bots.search import MAX_CUT as _MAX_CUT

# the name of the search's PlayoutModel capsules (gostop_core.bots.search.model_capsule)
cdef const char* _MODEL_NAME = "gostop_core.PlayoutModel"

#: Iterations per decision by default: about two thirds of the CPU time of the
#: expectimax bot's 256 samples on 2-player casual positions (docs/search.md).
DEFAULT_ITERATIONS = 20000
#: The exploration constant (times the payoffs' standard deviation).
DEFAULT_C = 0.7
#: Size of the node pool by default, and its bounds: the root and one child per
#: root move always fit (MIN_NODES); MAX_NODES nodes take 400 MB.
DEFAULT_NODES = 1 << 18
MIN_NODES = 1 + MAX_MOVES
MAX_NODES = 1 << 24
#: Bound of ``iterations``.
MAX_ITERATIONS = 1 << 24

ctypedef struct Tree:
    IsNode* pool
    int32_t used              # nodes of the pool in use
    int32_t size              # nodes of the pool
    uint64_t rng              # expansion order (the deals have their own stream)
    int root                  # the searching seat
    double c                  # exploration constant
    double prior              # progressive bias toward the greedy policy's move (points)
    double widen              # progressive widening: visits per legal child beyond the first
    bint opp_tree             # other seats choose by UCB (else: the greedy policy)
    bint open_loop            # only decisions are edges
    double sum                # payoffs seen: sum, sum of squares, count (the UCB scale)
    double sumsq
    double count


cdef inline int32_t edge(int seat, int code) noexcept nogil:
    return (seat << 16) | code


cdef int32_t find_child(const Tree* t, int32_t parent, int32_t label) noexcept nogil:
    """The child of ``parent`` along ``label``, -1 when there is none."""
    cdef int32_t k = t.pool[parent].child
    while k >= 0:
        if t.pool[k].label == label:
            return k
        k = t.pool[k].sibling
    return -1


cdef inline void init_node(IsNode* node, int32_t sibling, int32_t label) noexcept nogil:
    node.child = -1
    node.sibling = sibling
    node.label = label
    node.visits = 0
    node.avail = 0
    node.total = 0.0


cdef int32_t add_child(Tree* t, int32_t parent, int32_t label) noexcept nogil:
    """A new child of ``parent`` along ``label``; -1 when the pool is full."""
    cdef int32_t k = t.used
    if k >= t.size:
        return -1
    t.used += 1
    init_node(&t.pool[k], t.pool[parent].child, label)
    t.pool[parent].child = k
    return k


cdef int32_t select_child(Tree* t, int32_t parent, int seat, const uint16_t* moves, int n,
                          int greedy, int* chosen, bint* expanded) noexcept nogil:
    """The child chosen at a decision of ``seat`` (legal ``moves`` of the deal):
    a legal move without a node first (expanded, ``expanded`` set): the greedy
    policy's move (index ``greedy``) if it has none, else a random one; else
    the best UCB value.  Sets ``chosen`` to the move's index; returns -1 (move
    by the greedy policy) when no legal move has a node and the pool is full."""
    cdef int32_t kids[MAX_MOVES]
    cdef int untried[MAX_MOVES]
    cdef int i, nu = 0, nk = 0, best_i = -1
    cdef double sign = 1.0 if seat == t.root else -1.0, scale, v, best_v = -1e300, mean
    cdef IsNode* k
    for i in range(n):
        kids[i] = find_child(t, parent, edge(seat, moves[i]))
        if kids[i] < 0:
            untried[nu] = i
            nu += 1
        else:
            t.pool[kids[i]].avail += 1
            nk += 1
    if nu > 0 and t.used < t.size and (
            nk == 0 or t.widen == 0.0 or nk < 1 + t.pool[parent].visits / t.widen):
        # the greedy policy's move first, the others in random order
        i = greedy
        if kids[i] >= 0:
            i = untried[bounded(&t.rng, nu)]
        kids[i] = add_child(t, parent, edge(seat, moves[i]))
        t.pool[kids[i]].avail = 1
        chosen[0] = i
        expanded[0] = True
        return kids[i]
    mean = t.sum / t.count if t.count > 0 else 0.0
    scale = sqrt(t.sumsq / t.count - mean * mean) if t.count > 1 else 1.0
    if not scale >= 1.0:
        scale = 1.0  # at least a point: no exploration collapse on equal payoffs
    for i in range(n):
        if kids[i] < 0:
            continue
        k = &t.pool[kids[i]]
        if k.visits == 0:
            v = 1e300
        else:
            v = sign * k.total / k.visits + t.c * scale * sqrt(log(<double>k.avail) / k.visits)
            if i == greedy:
                v += t.prior / (k.visits + 1.0)
        if v > best_v:
            best_v = v
            best_i = i
    if best_i < 0:
        chosen[0] = greedy
        return -1
    chosen[0] = best_i
    return kids[best_i]


cdef double iterate(Tree* t, SearchCtx* ctx, GameStateC* w, int32_t* path) noexcept nogil:
    """One iteration on the deal ``w``: descend, add a node, play out, back up.
    Returns the payoff."""
    cdef uint16_t moves[MAX_MOVES]
    cdef int n, i, seat, pos, plen = 1
    cdef int32_t node = 0, kid
    cdef bint expanded = False, leaf = False
    cdef double payoff
    path[0] = 0
    while w.phase != PHASE_OVER and not expanded and not leaf and plen < ISMCTS_MAX_PATH - 8:
        n = generate_moves(w, ctx.r, moves)
        if n == 0 or gs_interrupted():
            break
        seat = w.to_move
        if n == 1:
            i = 0
        else:
            i = playout_pick(w, ctx, moves, n)
        if seat == t.root or t.opp_tree:
            kid = select_child(t, node, seat, moves, n, i, &i, &expanded)
        else:
            kid = node
            if not t.open_loop:
                kid = find_child(t, node, edge(seat, moves[i]))
                if kid < 0:
                    kid = add_child(t, node, edge(seat, moves[i]))
                    expanded = True
        pos = w.stock_pos
        apply_move(w, ctx.r, moves[i], NULL)
        if kid < 0:
            break  # the pool is full: play out from here
        if kid != node:
            path[plen] = kid
            plen += 1
            node = kid
        if expanded or t.open_loop or (move_kind(moves[i]) == MOVE_BONUS and seat != t.root):
            continue  # (another seat's bonus replacement card is not shown)
        while pos < w.stock_pos:
            if plen >= ISMCTS_MAX_PATH:
                leaf = True  # (bound of path: never reached by a hand's length)
                break
            kid = find_child(t, node, edge(PV_CHANCE_SEAT, w.stock[pos]))
            if kid < 0:
                kid = add_child(t, node, edge(PV_CHANCE_SEAT, w.stock[pos]))
                if kid < 0:
                    leaf = True
                    break
                expanded = True
            path[plen] = kid
            plen += 1
            node = kid
            pos += 1
            if expanded:
                break
    if w.phase == PHASE_OVER:
        payoff = terminal_value(w, ctx)
    else:
        payoff = rollout_value(w, ctx, NULL, NULL)
    for i in range(plen):
        t.pool[path[i]].visits += 1
        t.pool[path[i]].total += payoff
    t.sum += payoff
    t.sumsq += payoff * payoff
    t.count += 1.0
    return payoff


def request_stop(bint on=True):
    """Deprecated: ask every IS-MCTS search in the whole process to stop
    (``on=False`` clears it); give each search a
    :class:`gostop_core.bots.search.StopToken` instead."""
    warnings.warn("request_stop stops every search in the process: pass a StopToken "
                  "(stop=..., bot.stop_token) instead", DeprecationWarning, stacklevel=2)
    gs_set_stop(on)


def stop_requested():
    """Whether the deprecated process-wide stop (:func:`request_stop`) is set."""
    return bool(gs_stop_asked())


def ismcts_fields(Rules rules, dict fields, int iterations=DEFAULT_ITERATIONS, double c=DEFAULT_C,
                  seed=0, double time_ms=0.0, double win_bonus=_WIN_BONUS,
                  bint opp_tree=False, bint open_loop=False, int nodes=DEFAULT_NODES,
                  double prior=0.0, double widen=0.0, StopToken stop=None, model=None,
                  bint model_own=True, bint model_others=True, int cutoff=0):
    """Information-set MCTS from a player's view (``parse_view`` fields; the
    seat must be the one to move), ``iterations`` deals (or fewer when
    ``time_ms`` > 0 runs out first; at least one), exploration ``c``, a tree of
    at most ``nodes`` nodes, the other seats greedy or, with ``opp_tree``, in
    the tree; ``open_loop`` keys the tree by decisions only; ``prior`` (points)
    is added to the UCB value of the greedy policy's move, divided by its
    visits + 1; ``widen`` (> 0) lets a decision node try one more move every
    ``widen`` visits (module docstring); ``stop`` (a
    :class:`~gostop_core.bots.search.StopToken`) ends the iterations once set.
    ``model`` (a ``PlayoutModel`` capsule, as the expectimax search takes it)
    is the playout policy instead of the greedy one, for the searching seat's
    moves (``model_own``: the playouts, the move a new node tries first and the
    one ``prior`` favours) and the other seats' (``model_others``: in the tree
    and the playouts); ``cutoff`` (> 0) ends a playout after that many turns
    with the model's value.
    Returns ``{"moves": [(code, visits, value)], "iterations", "nodes",
    "stopped"}``: every root move in generation order with the iterations that
    chose it and its mean payoff (nan for none), the tree's size, and why the
    search ended (``"iterations"`` or ``"time"``)."""
    cdef GameStateC base, work
    cdef SearchCtx ctx
    cdef Tree t
    cdef uint16_t moves[MAX_MOVES]
    cdef int32_t kids[MAX_MOVES]
    cdef int32_t path[ISMCTS_MAX_PATH]
    cdef uint8_t pool[50]
    cdef int need[MAX_PLAYERS]
    cdef int n, i, npool, seat = fields["seat"], done = 0, reason = 0
    cdef uint64_t rng
    cdef double started
    cdef const int* stop_flag = NULL if stop is None else &stop.asked
    if iterations < 1 or iterations > MAX_ITERATIONS:
        raise ValueError(f"iterations must be 1..{MAX_ITERATIONS}")
    if nodes < MIN_NODES or nodes > MAX_NODES:
        raise ValueError(f"nodes must be {MIN_NODES}..{MAX_NODES}")
    if not (c >= 0.0 and c < 1e6):
        raise ValueError("c must be a number from 0 (no exploration) up")
    if not (prior >= 0.0 and prior < 1e6):
        raise ValueError("prior must be a number from 0 (none) up")
    if not (widen >= 0.0 and widen < 1e6):
        raise ValueError("widen must be a number from 0 (none) up")
    if not (time_ms >= 0.0 and time_ms < 1e12):
        raise ValueError("time_ms must be 0 (no limit) or more")
    if not (-1e6 < win_bonus < 1e6):
        raise ValueError("win_bonus must be a finite number")
    npool = view_base(rules, fields, &base, pool, need)
    n = generate_moves(&base, &rules.c, moves)
    if n == 0:
        raise ValueError(f"seat {seat} has no legal move in this view")
    ctx.r = &rules.c
    ctx.root = seat
    ctx.active = base.nplayers - (1 if base.sitter >= 0 else 0)
    ctx.threshold = rules_threshold(&rules.c, ctx.active)
    ctx.beta = 0.0
    ctx.reach_per_card = -1.0
    for i in range(16):
        ctx.w[i] = _LEAF_WEIGHTS[i]
    ctx.rollout = 1
    ctx.win_bonus = win_bonus
    ctx.nodes = 0
    ctx.pv_end = NULL
    ctx.plan = 0
    ctx.planning = 0
    ctx.plan_rng = 0
    ctx.model = NULL
    ctx.model_own = model_own
    ctx.model_others = model_others
    ctx.cut = 0
    if model is not None:
        if cutoff < 0 or cutoff > _MAX_CUT:
            raise ValueError(f"cutoff must be 0..{_MAX_CUT}")
        ctx.model = <const PlayoutModel*>PyCapsule_GetPointer(model, _MODEL_NAME)
        ctx.cut = cutoff
    elif cutoff != 0:
        raise ValueError("cutoff needs a model")
    ctx.worlds = 1
    ctx.sampled_flips = 0
    ctx.trie = NULL  # no table of information sets: ismcts keys its own tree
    ctx.follow = 0
    # every iteration adds at most one node: a pool larger than that is never used
    if <long long>nodes > <long long>iterations + MIN_NODES:
        nodes = iterations + MIN_NODES
    t.size = nodes
    t.pool = <IsNode*>malloc(<size_t>nodes * sizeof(IsNode))
    if t.pool == NULL:
        raise MemoryError()
    t.used = 1
    init_node(&t.pool[0], -1, -1)
    t.root = seat
    t.c = c
    t.prior = prior
    t.widen = widen
    t.opp_tree = opp_tree
    t.open_loop = open_loop
    t.sum = 0.0
    t.sumsq = 0.0
    t.count = 0.0
    rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    t.rng = rng ^ <uint64_t>0x5851F42D4C957F2D
    # the root's children, one per move (n <= MAX_MOVES < MIN_NODES: they fit)
    for i in range(n):
        kids[i] = add_child(&t, 0, edge(seat, moves[i]))
    gs_poll_begin(_in_main_thread())
    with nogil:
        started = now_ms()
        while done < iterations:
            determinize(&base, &work, pool, npool, need, seat, &rng)
            iterate(&t, &ctx, &work, path)
            done += 1
            if gs_interrupted():
                break
            if gs_stop_wanted(stop_flag):
                reason = 2
                break
            if time_ms > 0.0 and now_ms() - started >= time_ms:
                reason = 1
                break
    out = []
    for i in range(n):
        v = t.pool[kids[i]].visits
        out.append((moves[i], v, t.pool[kids[i]].total / v if v else float("nan")))
    used = t.used
    free(t.pool)
    gs_raise_if_interrupted()
    return {"moves": out, "iterations": done, "nodes": used,
            "stopped": ("iterations", "time", "stop")[reason]}
