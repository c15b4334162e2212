# Included by search.pyx (one compilation unit): the leaf values, the
# terminal value, playouts and the seat's own Go/Stop planned inside them.

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
