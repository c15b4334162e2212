"""What a finished hand pays: the winner's points after Go (:c:func:`go_points`)
and every opponent's payment with its doublings and baks (:c:func:`settle`).
Called once per hand, when it ends (``movegen``'s finish) or when a Stop is
valued (``CoreState.settlement``, the searches)."""
from libc.stdint cimport uint64_t, uint32_t, int32_t, int64_t
from libc.string cimport memset

from gostop_core.cards cimport (
    GS_BIT, GS_CARD_X2, GS_CARD_X3, GS_MASK_BRIGHT, GS_MASK_SAKE_CUP, GS_MASK_BRIDGE, gs_popcount,
)
from gostop_core.rules cimport (
    RulesC, GO_CASUAL, GO_TRADITIONAL, GO_STANDARD, GO_MULTIPLY, BONUS_EFFECT_DOUBLE_PAYMENT,
    BONUS_EFFECT_BRIGHT_PROTECTION, PAY_EACH_OPPONENT, GWANG_BAK_DOUBLE,
)
from gostop_core.scoring cimport ScoreC, score_assignment, max_junk_value
from gostop_core.guard cimport GS_PAY_CAP, GS_SHIFT_CAP, gs_clamp
from gostop_core.gamestate cimport (
    GameStateC, SettlementC, MAX_PLAYERS, active_players,
    SETTLE_SHAKE, SETTLE_BOMB, SETTLE_NAGARI, SETTLE_JOKER_DOUBLE, SETTLE_GWANG_BAK,
    SETTLE_GWANG_BAK_PLUS_TWO, SETTLE_PI_BAK, SETTLE_MONG_BAK, SETTLE_GO_BAK, SETTLE_PAYS_THIRD,
    SETTLE_COVERED,
)


cdef int32_t go_points(int32_t score, int gos, const RulesC* r) noexcept nogil:
    """The winner's points for ``score`` after ``gos`` Goes: the basic payment,
    saturated at GS_PAY_CAP."""
    cdef int64_t total
    cdef int i
    if r.go_scheme == GO_CASUAL:
        # +1 per Go; from the 4th Go on the total doubles at each Go (000)
        total = <int64_t>score + gos
        for i in range(3, gos):
            total = gs_clamp(total * 2, GS_PAY_CAP)
        return gs_clamp(total, GS_PAY_CAP)
    if r.go_scheme == GO_STANDARD:
        # +1, +2; the third Go doubles; beyond, x(Goes - 1) (002-004)
        total = <int64_t>score + gos
        if gos == 3:
            total *= 2
        elif gos > 3:
            total *= gos - 1
        return gs_clamp(total, GS_PAY_CAP)
    if r.go_scheme == GO_TRADITIONAL:
        # +1 / +2 chips for one / two Goes; three Goes pay double, x2 again per Go beyond (001)
        if gos < 3:
            return gs_clamp(<int64_t>score + gos, GS_PAY_CAP)
        total = score
        for i in range(2, gos):
            total = gs_clamp(total * 2, GS_PAY_CAP)
        return gs_clamp(total, GS_PAY_CAP)
    # GO_MULTIPLY (001 variant): one chip for one Go, then x(Goes)
    if gos <= 1:
        return gs_clamp(<int64_t>score + gos, GS_PAY_CAP)
    return gs_clamp(<int64_t>score * gos, GS_PAY_CAP)


cdef inline int holds_effect(uint64_t pile, const RulesC* r, int effect) noexcept nogil:
    """How many of the pile's bonus cards (jokers) have ``effect``."""
    return ((1 if (pile & GS_BIT(GS_CARD_X2)) and r.bonus_x2_effect == effect else 0) +
            (1 if (pile & GS_BIT(GS_CARD_X3)) and r.bonus_x3_effect == effect else 0))


cdef void settle_assignment(const GameStateC* s, const RulesC* r, int w, int sake, int bridge,
                            SettlementC* out) noexcept nogil:
    cdef ScoreC sc
    cdef int q, n = s.nplayers, caller = -1, callers = 0, other = -1, thr, shift, jokers
    cdef int32_t mult, plus
    cdef uint32_t why
    memset(out, 0, sizeof(SettlementC))
    for q in range(n):
        out.multiplier[q] = 1    # a seat that pays nothing (the winner, a gwangpalli sitter) is x1
    score_assignment(s.captured[w], r, sake, bridge, &sc)
    out.winner = w
    out.score = sc.total
    out.base = go_points(sc.total, s.go_count[w], r)
    out.sake_as_junk = sc.sake_cup_as_junk
    out.bridge_as_junk = sc.bridge_as_junk
    if r.payment != PAY_EACH_OPPONENT:
        return
    thr = r.pi_bak_threshold_2p if active_players(s) == 2 else r.pi_bak_threshold
    for q in range(n):
        if q == w or q == s.sitter:
            continue
        mult = 1
        plus = 0
        why = 0
        # one double per set shown, counted by month: a bomb that counts as a shake
        # marks its month in `shaken`, so a month shaken and later bombed is one set
        shift = gs_popcount(s.shaken[w])
        if r.bomb_counts_as_shake and s.bombs[w] and shift:
            why |= SETTLE_BOMB
            if shift > s.bombs[w]:
                why |= SETTLE_SHAKE
        elif shift:
            why |= SETTLE_SHAKE
        if s.stake_doublings:
            shift += s.stake_doublings
            why |= SETTLE_NAGARI
        # each double-payment joker the winner holds doubles once (doubles are cumulative)
        jokers = holds_effect(s.captured[w], r, BONUS_EFFECT_DOUBLE_PAYMENT)
        if jokers:
            shift += jokers
            why |= SETTLE_JOKER_DOUBLE
        # every doubling past GS_SHIFT_CAP is dropped (the payment saturates anyway)
        mult <<= (shift if shift < GS_SHIFT_CAP else GS_SHIFT_CAP)
        if r.gwang_bak and sc.bright_points > 0 and not (s.captured[q] & GS_MASK_BRIGHT) \
                and not holds_effect(s.captured[q], r, BONUS_EFFECT_BRIGHT_PROTECTION):
            if r.gwang_bak == GWANG_BAK_DOUBLE:
                mult *= 2
                why |= SETTLE_GWANG_BAK
            else:
                plus += 2
                why |= SETTLE_GWANG_BAK_PLUS_TWO
        if thr and sc.junk_points > 0 and max_junk_value(s.captured[q], r) < thr:
            mult *= 2
            why |= SETTLE_PI_BAK
        if r.mong_bak_animals and sc.animals >= r.mong_bak_animals:
            mult *= 2
            why |= SETTLE_MONG_BAK
        if r.go_bak and s.go_count[q] > 0:
            mult *= 2
            why |= SETTLE_GO_BAK
            callers += 1
            caller = q
        else:
            other = q
        out.multiplier[q] = mult
        out.pay[q] = gs_clamp(<int64_t>out.base * mult + plus, GS_PAY_CAP)
        out.reasons[q] = why
    if r.go_bak_pays_third and active_players(s) == 3 and callers == 1 and other >= 0:
        # 001: the Go caller pays its own losses and the third player's too
        out.pay[caller] = gs_clamp(<int64_t>out.pay[caller] + out.pay[other], GS_PAY_CAP)
        out.pay[other] = 0
        out.reasons[caller] |= SETTLE_PAYS_THIRD
        out.reasons[other] |= SETTLE_COVERED


cdef void settle(const GameStateC* s, const RulesC* r, int w, SettlementC* out) noexcept nogil:
    """What every opponent pays winner ``w``.  The winner's flexible cards (9A, 5A)
    are counted the way that brings in the most; a loser's count as junk where
    that avoids pi-bak."""
    cdef SettlementC trial
    cdef int sake, bridge, sake_options, bridge_options, q
    cdef int32_t best = -1, best_base = -1, total
    sake_options = 2 if (r.sake_cup_junk and (s.captured[w] & GS_MASK_SAKE_CUP)) else 1
    bridge_options = 2 if (r.bridge_junk and (s.captured[w] & GS_MASK_BRIDGE)) else 1
    for sake in range(sake_options):
        for bridge in range(bridge_options):
            settle_assignment(s, r, w, sake, bridge, &trial)
            # what the winner receives: the opponents' payments, or its points
            # where nobody pays; equal receipts keep the higher points
            total = 0
            for q in range(s.nplayers):
                total += trial.pay[q]
            if r.payment != PAY_EACH_OPPONENT:
                total = trial.base
            if total > best or (total == best and trial.base > best_base):
                best = total
                best_base = trial.base
                out[0] = trial
