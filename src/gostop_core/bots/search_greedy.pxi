# Included by search.pyx (one compilation unit, so that Cython inlines these
# calls in the search's loops): card values and the greedy policy, the C twin
# of bots.GreedyBot that every playout and opponent follows.

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
    visible = seen_by(s, g.p)
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
