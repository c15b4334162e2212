"""Expectimax search from one player's view (the hidden cards stay unknown).

The model (docs/search.md has the long form):

* **Determinization of the opponents' hands.**  The searching seat sees its own
  hand, the field, the captured piles and the counts of the other hands and the
  stock.  The unseen cards (the pack minus everything visible) are dealt at
  random to the other hands (their counts) and the stock, ``samples`` times,
  with a seeded shuffle: every deal consistent with the view is equally likely.
  A card whose place is public (a refused showdown's forced card, a showdown
  card) goes to its owner.  The values of the root moves are averaged over the
  samples.
* **Max nodes** for every decision of the searching seat (plays, flip choices,
  Go/Stop, bonus cards, shakes, bombs ...).
* **Chance nodes** for every flip: when a move turns a card from the stock,
  each card still in the stock of the sample is, in turn, put on top, with
  probability 1 / stock size.  A second card turned by the same move (after a
  flipped bonus card, or a forced flip-only turn) and the replacement card drawn
  after banking a bonus card are the next cards of the sample's shuffled stock
  (sampled, not enumerated).
* **Opponents** play a fixed policy, greedy by immediate capture
  (:c:func:`policy_move`): bonus cards and shakes first, then the play or flip
  choice that takes the most (card values + 4 x score gain), a discard costing
  0.6 of the card's value; Go/Stop as the greedy bot: Stop when another seat is
  within 2 points of the threshold (1 with a threshold below 5) or with 2 cards
  or fewer left.
* **Depth** counts turns (a turn is a play with its flip, Go/Stop and flip
  choices).  Depth 2 (the default) is the seat's own turn and the next seat's.
* **Leaf value** (:c:func:`leaf_value`): an estimate of the net points the
  searching seat will book.  Each seat in play has a reach = score + progress of
  its piles (fractions of the next point in junk, animals, ribbons, brights,
  godori and ribbon sets that are still open) + 0.45 x cards in hand; its chance
  to win is exp(beta (reach - threshold)) against a draw weight of 1; a win pays
  its Go value (the score, at least the threshold, with its Goes).  The value is
  the sum of the chances times +win for the searching seat, -loss for the others
  (chip rules: times each paying seat's multiplier as a win now would bring it,
  plus the chips already booked; family rules: the balance as the hand would be
  scored now).  The hand term is scaled by threshold / 7 (it was fitted with 7).  A Go is thus weighed against the
  chance that an opponent reaches the threshold first.
* **Terminal value**: the net points of the hand (casual: +points to the winner,
  -points to the others, 0 for a draw; chip and family rules: the seat's chips).
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int32_t
from libc.math cimport exp, fabs
from libc.string cimport memcpy, memset

from gostop_core.cards cimport (
    GS_BIT, GS_MONTH_MASK, GS_NO_CARD, GS_CARD_X2, GS_CARD_X3, GS_MASK_BONUS,
    GS_MASK_BRIGHT, GS_MASK_ANIMAL, GS_MASK_RIBBON, GS_MASK_GODORI, GS_MASK_HONGDAN,
    GS_MASK_CHEONGDAN, GS_MASK_CHODAN, GS_MASK_RAIN_RIBBON, GS_NUM_MONTH_CARDS,
    gs_popcount, gs_lowest, same_month,
)
from gostop_core.rules cimport RulesC, Rules, rules_threshold, PAY_EACH_OPPONENT, PAY_FAMILY_BALANCE
from gostop_core.scoring cimport ScoreC, score_total, score_pile, junk_value
from gostop_core.movegen cimport (
    GameStateC, SettlementC, generate_moves, apply_move, settle, MAX_MOVES, MAX_PLAYERS,
    PHASE_PLAY, PHASE_FLIP_CHOICE, PHASE_GO_STOP, PHASE_OVER, PHASE_SHOWDOWN,
    MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_GO, MOVE_STOP, MOVE_SHAKE,
    MOVE_FLIP_ONLY, MOVE_SHOWDOWN, MOVE_ACCEPT, MOVE_REFUSE,
    move_kind, move_card, move_target, splitmix64, bounded,
)

DEFAULT_DEPTH = 2
DEFAULT_SAMPLES = 8
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


cdef inline int active_count(const GameStateC* s) noexcept nogil:
    return s.nplayers - (1 if s.sitter >= 0 else 0)


# ---------------------------------------------------------------- opponents' policy
cdef int policy_move(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n) noexcept nogil:
    """The index of the move an opponent plays in the search: greedy by immediate
    capture (see the module docstring)."""
    cdef int p = s.to_move, i, best = 0, kind, card, target, k, q, margin, thr
    cdef double v, best_v = -1e18
    cdef uint64_t matches, bit
    cdef bint stop
    if s.phase == PHASE_GO_STOP:
        thr = rules_threshold(r, active_count(s))
        margin = 2 if thr >= 5 else 1
        if r.go_bak:
            margin += 1
        stop = gs_popcount(s.hand[p]) <= 2
        for q in range(s.nplayers):
            if q != p and q != s.sitter and score_total(s.captured[q], r) >= thr - margin:
                stop = True
        for i in range(n):
            if move_kind(moves[i]) == (MOVE_STOP if stop else MOVE_GO):
                return i
        return 0
    for i in range(n):
        kind = move_kind(moves[i])
        card = move_card(moves[i])
        target = move_target(moves[i])
        if kind == MOVE_PLAY:
            bit = GS_BIT(card)
            matches = s.field & same_month(card)
            k = gs_popcount(matches)
            if k == 0:
                v = -0.6 * card_worth(card)
            elif k == 3 and r.field_stacks:
                v = capture_gain(s, r, p, matches | bit) + (1.2 if r.stack_steal else 0.0)
            else:
                if target == GS_NO_CARD:
                    target = gs_lowest(matches)
                v = capture_gain(s, r, p, bit | GS_BIT(target))
        elif kind == MOVE_BONUS:
            v = 1000.0
        elif kind == MOVE_SHAKE:
            v = 900.0
        elif kind == MOVE_BOMB:
            v = capture_gain(s, r, p, GS_MONTH_MASK(card)) + (1.2 if r.bomb_steal else 0.0)
        elif kind == MOVE_FLIP_ONLY:
            v = 0.5
        elif kind == MOVE_FLIP:
            v = capture_gain(s, r, p, GS_BIT(target) | GS_BIT(s.flip_card))
        elif kind == MOVE_SHOWDOWN:
            v = -1000.0
        elif kind == MOVE_ACCEPT:
            v = 1.0
        else:
            v = 0.0
        if v > best_v:
            best_v = v
            best = i
    return best


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
    if c.r.payment == PAY_EACH_OPPONENT or c.r.payment == PAY_FAMILY_BALANCE:
        return s.chips[c.root]
    if s.winner < 0:
        return s.chips[c.root]
    if s.winner == c.root:
        return s.points
    return -s.points + s.chips[c.root]


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


# ---------------------------------------------------------------- the search
cdef inline int32_t pv_entry(int seat, int code) noexcept nogil:
    return (seat << 16) | code


cdef double node_value(const GameStateC* s, SearchCtx* c, int depth, int32_t* pv, int* pvlen) noexcept nogil:
    """Value of a decision node; fills the principal line when ``pv`` is given."""
    cdef uint16_t moves[MAX_MOVES]
    cdef int n, i, best_i = 0
    cdef double v, best = -1e300
    c.nodes += 1
    if pv != NULL:
        pvlen[0] = 0
        if pv >= c.pv_end:
            pv = NULL  # the line is full: values only from here
    if s.phase == PHASE_OVER:
        return terminal_value(s, c)
    if depth <= 0:
        return leaf_value(s, c)
    n = generate_moves(s, c.r, moves)
    if n == 0:
        return leaf_value(s, c)
    if s.to_move != c.root:
        best_i = policy_move(s, c.r, moves, n)
        if pv != NULL:
            pv[0] = pv_entry(s.to_move, moves[best_i])
            v = move_value(s, c, moves[best_i], depth, pv + 1, pvlen)
            pvlen[0] += 1
            return v
        return move_value(s, c, moves[best_i], depth, NULL, NULL)
    for i in range(n):
        v = move_value(s, c, moves[i], depth, NULL, NULL)
        if v > best:
            best = v
            best_i = i
    if pv != NULL:
        pv[0] = pv_entry(s.to_move, moves[best_i])
        move_value(s, c, moves[best_i], depth, pv + 1, pvlen)
        pvlen[0] += 1
    return best


cdef double move_value(const GameStateC* s, SearchCtx* c, uint16_t move, int depth,
                       int32_t* pv, int* pvlen) noexcept nogil:
    """Value of a move: a chance node over the card it turns or draws from the
    stock (each remaining stock card equally likely), else its single child."""
    cdef GameStateC child
    cdef int count, i, pos = s.stock_pos, best_j = 0
    cdef double values[50]
    cdef double total = 0.0, mean, d, best_d = 1e300
    cdef uint8_t tmp
    child = s[0]
    apply_move(&child, c.r, move, NULL)
    if child.stock_pos == pos or move_kind(move) == MOVE_BONUS:
        # nothing turned from the stock (a bonus card's replacement is the
        # sample's top card: a draw into a hand, not a flip)
        return node_value(&child, c, depth - (child.turns - s.turns), pv, pvlen)
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
        values[i] = node_value(&child, c, depth - (child.turns - s.turns), NULL, NULL)
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
        node_value(&child, c, depth - (child.turns - s.turns), pv + 1, pvlen)
        pvlen[0] += 1
    return mean


# ---------------------------------------------------------------- from a view
cdef void fill_public(GameStateC* st, dict f, int seat):
    """The public part of a search state from parse_view fields."""
    cdef int p, n = f["nplayers"]
    memset(st, 0, sizeof(GameStateC))
    st.nplayers = n
    st.dealer = f["dealer"]
    st.to_move = f["to_move"]
    st.phase = f["phase"]
    st.flip_card = GS_NO_CARD if f["flip_card"] is None else f["flip_card"]
    st.winner = -1 if f.get("winner") is None else f["winner"]
    st.points = f.get("points", 0)
    st.turns = f["turns"]
    st.field = f["field"]
    for p in range(n):
        st.hand[p] = f["hand"] if p == seat else 0
        st.captured[p] = f["captured"][p]
        st.go_count[p] = f["go_counts"][p]
        st.last_go_score[p] = f["last_go_scores"][p]
        st.flip_only[p] = f["flip_only"][p]
        st.shaken[p] = f["shaken"][p]
        st.bombs[p] = f["bombs"][p]
        st.ppeoks[p] = f["ppeoks"][p]
        st.turns_played[p] = f["turns_played"][p]
        st.chips[p] = f["chips"][p]
    st.played_card = GS_NO_CARD if f["played_card"] is None else f["played_card"]
    st.played_target = GS_NO_CARD if f["played_target"] is None else f["played_target"]
    st.turn_bonus = f["turn_bonus"]
    st.turn_flags = f["turn_flags"]
    st.stack_bonus_month[0] = f["stack_bonus"][0]
    st.stack_bonus_month[1] = f["stack_bonus"][1]
    st.end_reason = f.get("end_reason", 0)
    st.sitter = -1 if f.get("sitter") is None else f["sitter"]
    st.showdown_caller = -1 if f.get("showdown_caller") is None else f["showdown_caller"]
    st.showdown_card = GS_NO_CARD if f.get("showdown_card") is None else f["showdown_card"]
    st.forced_card = GS_NO_CARD if f.get("forced_card") is None else f["forced_card"]
    st.stake_doublings = f.get("stake_doublings", 0)
    st.stock_len = f["stock_count"]
    st.stock_pos = 0


cdef void determinize(const GameStateC* base, GameStateC* out, const uint8_t* pool, int npool,
                      const int* need, int seat, uint64_t* rng) noexcept nogil:
    """Deal the unseen ``pool`` at random: ``need[q]`` cards to each other hand,
    the rest to the stock."""
    cdef uint8_t cards[50]
    cdef int i, j, q, k = 0
    cdef uint8_t tmp
    out[0] = base[0]
    for i in range(npool):
        cards[i] = pool[i]
    for i in range(npool - 1, 0, -1):
        j = bounded(rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
    for q in range(base.nplayers):
        if q == seat:
            continue
        for i in range(need[q]):
            out.hand[q] |= GS_BIT(cards[k])
            k += 1
    for i in range(base.stock_len):
        out.stock[i] = cards[k]
        k += 1


def search_fields(Rules rules, dict fields, int depth=DEFAULT_DEPTH, int samples=DEFAULT_SAMPLES,
                  seed=0, double beta=DEFAULT_BETA, double reach=-1.0, weights=None):
    """Expectimax from a player's view (``parse_view`` fields; the seat must be
    the one to move).  Returns ``{"moves": [(code, value, line)], "nodes",
    "samples", "depth"}`` with moves in generation order; ``line`` is the
    principal line of the first sample as ``(seat, code)`` pairs, seat
    ``CHANCE_SEAT`` for a card turned or drawn from the stock (code = card)."""
    cdef GameStateC base, work
    cdef SearchCtx ctx
    cdef uint16_t moves[MAX_MOVES]
    cdef double values[MAX_MOVES]
    cdef int32_t pvs[MAX_MOVES][SEARCH_MAX_PV]
    cdef int pvlens[MAX_MOVES]
    cdef uint8_t pool[50]
    cdef int need[MAX_PLAYERS]
    cdef int n, i, d, q, npool = 0, seat = fields["seat"], card, owner
    cdef uint64_t rng, unseen, visible
    cdef int32_t* pvp
    cdef int* lenp
    if depth < 1 or depth > 8:
        raise ValueError("depth must be 1..8")
    if samples < 1 or samples > SEARCH_MAX_SAMPLES:
        raise ValueError(f"samples must be 1..{SEARCH_MAX_SAMPLES}")
    if fields["phase"] == PHASE_OVER:
        raise ValueError("the hand is over: nothing to search")
    if fields["to_move"] != seat:
        raise ValueError(f"seat {seat} is not the one to move (seat {fields['to_move']} is)")
    fill_public(&base, fields, seat)
    n = base.nplayers
    visible = base.field | base.hand[seat] | base.turn_bonus
    for q in range(n):
        visible |= base.captured[q]
    if base.flip_card != GS_NO_CARD:
        visible |= GS_BIT(base.flip_card)
    unseen = ((<uint64_t>1 << (50 if rules.c.bonus_cards else 48)) - 1) & ~visible
    for q in range(n):
        need[q] = 0 if q == seat else fields["hand_counts"][q]
    # cards whose place is public: they go to their owner
    for card, owner in ((base.forced_card, base.to_move), (base.showdown_card, base.showdown_caller)):
        if card != GS_NO_CARD and owner >= 0 and owner != seat and unseen & GS_BIT(card):
            unseen &= ~GS_BIT(card)
            base.hand[owner] |= GS_BIT(card)
            need[owner] -= 1
    while unseen:
        pool[npool] = gs_lowest(unseen)
        npool += 1
        unseen &= unseen - 1
    ctx.r = &rules.c
    ctx.root = seat
    ctx.active = n - (1 if base.sitter >= 0 else 0)
    ctx.threshold = rules_threshold(&rules.c, ctx.active)
    ctx.beta = beta
    ctx.reach_per_card = reach
    ctx.nodes = 0
    weights = LEAF_WEIGHTS if weights is None else tuple(weights)
    if len(weights) != 16:
        raise ValueError("weights: 16 numbers")
    for i in range(16):
        ctx.w[i] = weights[i]
    if reach >= 0.0:
        ctx.w[11] = reach  # points expected per card in hand
    n = generate_moves(&base, &rules.c, moves)
    for i in range(n):
        values[i] = 0.0
        pvlens[i] = 0
    rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    with nogil:
        for d in range(samples):
            determinize(&base, &work, pool, npool, need, seat, &rng)
            for i in range(n):
                if d == 0:
                    pvs[i][0] = pv_entry(seat, moves[i])
                    pvp = &pvs[i][1]
                    lenp = &pvlens[i]
                    ctx.pv_end = &pvs[i][SEARCH_MAX_PV - 1]
                else:
                    pvp = NULL
                    lenp = NULL
                values[i] += move_value(&work, &ctx, moves[i], depth, pvp, lenp)
    out = []
    for i in range(n):
        line = [(pvs[i][k] >> 16, pvs[i][k] & 0xFFFF) for k in range(min(pvlens[i] + 1, SEARCH_MAX_PV))]
        out.append((moves[i], values[i] / samples, line))
    return {"moves": out, "nodes": ctx.nodes, "samples": samples, "depth": depth}


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
    probs = {}
    if base.stock_len == 0:
        return probs
    for d in range(samples):
        determinize(&base, &work, pool, npool, need, seat, &rng)
        for i in range(work.stock_len):
            probs[work.stock[i]] = probs.get(work.stock[i], 0.0) + 1.0 / work.stock_len / samples
    return probs
