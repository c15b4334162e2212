# This file stays one module, by design: dealing, move generation, apply and the
# forced steps of a turn call one another at every perft node and every playout
# step, and Cython inlines calls only within a module (across modules each call
# goes through a function-pointer table).  Sections: events, deal, moves, apply,
# perft and playouts.  The payment of a finished hand is in settlement.pyx, the
# Python wrapper (CoreState) in state.pyx.
"""The game state in C: seeded deal, legal moves, apply, perft and playouts.

Undo is copy-make: the state is a small plain struct (about 150 bytes), so a
search copies it before applying a move and the Python layer keeps snapshots.
Only decisions are moves; forced steps (the flip, steals, flip-only turns,
turn ends) run inside :c:func:`apply_move` until the next decision.
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int16_t, int32_t, int64_t
from libc.string cimport memset, memcpy
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE

from gostop_core.cards cimport (
    GS_BIT, GS_MONTH_MASK, GS_NO_CARD, GS_CARD_X2, GS_CARD_X3, GS_MASK_BONUS,
    GS_MASK_SINGLE_JUNK, GS_MASK_DOUBLE_JUNK, GS_NUM_MONTH_CARDS, GS_MASK_MONTH_CARDS,
    GS_MASK_BRIGHT, GS_MASK_SAKE_CUP, GS_MASK_BRIDGE,
    gs_popcount, gs_lowest, same_month,
)
from gostop_core.rules cimport (
    RulesC, Rules, rules_threshold, rules_hand_size, rules_field_size,
    BONUS_HAND_NONE, GO_CASUAL, GO_TRADITIONAL, GO_STANDARD, GO_MULTIPLY,
    PPEOK_FLIP_STAYS, FLIPPED_BONUS_FLIP_AGAIN, BONUS_EFFECT_DOUBLE_PAYMENT, BONUS_EFFECT_JUNK,
    BONUS_EFFECT_BRIGHT_PROTECTION, PAY_SCORE_ONCE, PAY_EACH_OPPONENT, PAY_FAMILY_BALANCE,
    GWANG_BAK_DOUBLE, GWANG_BAK_PLUS_TWO,
)
from gostop_core.scoring cimport ScoreC, score_total, score_pile, score_assignment, max_junk_value
from gostop_core.settlement cimport settle
from gostop_core.guard cimport (
    GS_ASSERT, GS_PAY_CAP, GS_CHIPS_CAP, GS_SHIFT_CAP, GS_DEBUG_BUILD, gs_clamp, gs_poll_begin, gs_interrupted,
    gs_raise_if_interrupted,
)

import threading

from gostop_core.errors import IllegalMoveError, GameOverError, RulesError

# Python-visible copies of the C enums.
PLAY, FLIP_CHOICE, GO_STOP, OVER, SHOWDOWN = (
    PHASE_PLAY, PHASE_FLIP_CHOICE, PHASE_GO_STOP, PHASE_OVER, PHASE_SHOWDOWN)
PHASE_NAMES = ("play", "flip", "gostop", "over", "showdown")
KIND_PLAY, KIND_BONUS, KIND_BOMB, KIND_FLIP, KIND_GO, KIND_STOP, KIND_SHAKE, KIND_FLIP_ONLY = (
    MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_GO, MOVE_STOP, MOVE_SHAKE, MOVE_FLIP_ONLY)
KIND_SHOWDOWN, KIND_ACCEPT, KIND_REFUSE = MOVE_SHOWDOWN, MOVE_ACCEPT, MOVE_REFUSE
NO_CARD = GS_NO_CARD
EVENT_NAMES = {
    EV_DEALT_BONUS: "dealt_bonus", EV_PLAYED: "played", EV_FLIPPED: "flipped",
    EV_CAPTURED: "captured", EV_STOLEN: "stolen", EV_BONUS: "bonus", EV_DRAWN: "drawn",
    EV_BOMB: "bomb", EV_FLIP_ONLY: "flip_only", EV_GO: "go", EV_STOP: "stop",
    EV_DRAW_GAME: "draw", EV_TURN_END: "turn_end", EV_PPEOK: "ppeok", EV_TTADAK: "ttadak",
    EV_JJOK: "jjok", EV_STACK: "stack", EV_SSEUL: "sseul", EV_SHAKE: "shake",
    EV_CHONGTONG: "chongtong", EV_REDEAL: "redeal", EV_CHIPS: "chips",
    EV_THREE_PPEOK: "three_ppeok", EV_HAND_END: "hand_end", EV_SHOWDOWN: "showdown",
    EV_SHOWDOWN_ANSWER: "showdown_answer",
}
END_REASON_NAMES = ("", "stop", "last_turn_stop", "draw", "chongtong", "three_ppeok", "family")
CHIP_REASON_NAMES = {CHIPS_FIRST_TURN_PPEOK: "first_turn_ppeok",
                     CHIPS_FIRST_TURN_CAPTURE: "first_turn_capture",
                     CHIPS_THREE_PPEOK: "three_ppeok", CHIPS_CHONGTONG: "chongtong",
                     CHIPS_GWANGPALLI: "gwangpalli"}
SETTLE_REASON_NAMES = {
    SETTLE_SHAKE: "shake", SETTLE_BOMB: "bomb", SETTLE_NAGARI: "nagari",
    SETTLE_JOKER_DOUBLE: "double_joker", SETTLE_GWANG_BAK: "gwang_bak",
    SETTLE_GWANG_BAK_PLUS_TWO: "gwang_bak_plus_two", SETTLE_PI_BAK: "pi_bak",
    SETTLE_MONG_BAK: "mong_bak", SETTLE_GO_BAK: "go_bak", SETTLE_PAYS_THIRD: "pays_third",
    SETTLE_COVERED: "covered_by_go_caller",
}
STATE_SIZE = sizeof(GameStateC)
#: Room in the event log of one decision (MAX_EVENTS: its proof in gamestate.pxd).
EVENT_LOG_SIZE = MAX_EVENTS
#: A payment (and a winner's points) saturates here; the chips of one hand at +-CHIPS_CAP.
PAY_CAP = GS_PAY_CAP
CHIPS_CAP = GS_CHIPS_CAP
#: Doublings of a payment (shakes, bombs, nagari stake, jokers) counted at most.
SHIFT_CAP = GS_SHIFT_CAP
#: Whether the core was built with its assertions (GOSTOP_DEBUG or GOSTOP_SANITIZE).
DEBUG_BUILD = bool(GS_DEBUG_BUILD)


# ---------------------------------------------------------------- events
cdef inline void log_event(EventLog* log, int kind, int player, int card, int other,
                           uint64_t cards) noexcept nogil:
    if log == NULL or log.n >= MAX_EVENTS:
        return
    log.ev[log.n].kind = kind
    log.ev[log.n].player = player
    log.ev[log.n].card = card
    log.ev[log.n].other = other
    log.ev[log.n].cards = cards
    log.n += 1


# Flags of the turn in progress (GameStateC.turn_flags).
cdef enum:
    TF_PPEOK = 1
    TF_TTADAK = 2
    TF_JJOK = 4
    TF_STACK = 8
    TF_SSEUL = 16
    TF_CAPTURED = 32
    TF_TWO_APART = 64   # the turn began with exactly two field cards, of different months


# ---------------------------------------------------------------- deal
cdef inline int next_active(const GameStateC* s, int p) noexcept nogil:
    """The next seat in play after ``p``."""
    # wrapped by a compare, not %: a division per turn is slow on its own
    cdef int q = p + 1 if p + 1 < s.nplayers else 0
    if q == s.sitter:
        q = q + 1 if q + 1 < s.nplayers else 0
    return q


cdef inline int month_with_four(uint64_t cards) noexcept nogil:
    """The first month with all four cards in ``cards``, else 0."""
    cdef int m
    for m in range(1, 13):
        if cards & GS_MONTH_MASK(m) == GS_MONTH_MASK(m):
            return m
    return 0


cdef void deal_once(GameStateC* s, const RulesC* r, int nplayers, int size_players,
                    uint64_t* rng, int dealer, EventLog* log) noexcept nogil:
    # Shuffle the pack and deal seat by seat, then the field; the rest is the stock.
    cdef uint8_t deck[50]
    cdef int n = 0, i, j, p, hand_size, field_size, pos, card
    cdef uint8_t tmp
    for i in range(48):
        deck[n] = i
        n += 1
    if r.bonus_cards:
        deck[n] = GS_CARD_X2
        deck[n + 1] = GS_CARD_X3
        n += 2
    for i in range(n - 1, 0, -1):
        j = bounded(rng, i + 1)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    hand_size = rules_hand_size(r, size_players)
    field_size = rules_field_size(r, size_players)
    pos = 0
    for p in range(nplayers):
        s.hand[p] = 0
        for i in range(hand_size):
            s.hand[p] |= GS_BIT(deck[pos])
            pos += 1
    s.field = 0
    for i in range(field_size):
        s.field |= GS_BIT(deck[pos])
        pos += 1
    s.stock_len = n - pos
    for i in range(s.stock_len):
        s.stock[i] = deck[pos + i]
    s.stock_pos = 0
    # bonus cards cannot be matched: the dealer takes them, the field is topped up
    # (bonus_to_dealer; without it a bonus card stays on the field, where nothing matches it)
    while r.bonus_to_dealer and s.field & GS_MASK_BONUS and s.stock_pos < s.stock_len:
        card = gs_lowest(s.field & GS_MASK_BONUS)
        s.field &= ~GS_BIT(card)
        s.captured[dealer] |= GS_BIT(card)
        log_event(log, EV_DEALT_BONUS, dealer, card, 0, GS_BIT(card))
        s.field |= GS_BIT(s.stock[s.stock_pos])
        s.stock_pos += 1


cdef void clear_state(GameStateC* s) noexcept nogil:
    """All zero, and every "none" field at its sentinel (no seat -1, no card GS_NO_CARD)."""
    memset(s, 0, sizeof(GameStateC))
    s.winner = -1
    s.sitter = -1
    s.showdown_caller = -1
    s.showdown_card = GS_NO_CARD
    s.forced_card = GS_NO_CARD
    s.flip_card = GS_NO_CARD
    s.played_card = GS_NO_CARD
    s.played_target = GS_NO_CARD


cdef int deal_cards(GameStateC* s, const RulesC* r, int nplayers, uint64_t seed, int dealer,
                    int stake_doublings, EventLog* log) noexcept nogil:
    """Shuffle with ``seed`` and deal.  Four of a month on the field voids the deal
    where the rules say so (the same dealer deals again, the shuffle continuing
    from the same random stream); chongtong ends the hand at once.  Returns the
    number of redeals."""
    cdef uint64_t rng = seed
    cdef int redeals = 0, p, q, m, holders = 0, amount, first = -1, i, size_players = nplayers
    cdef int everyone
    clear_state(s)
    if r.gwangpalli and nplayers == 4:
        # gwangpalli: the seat before the dealer sits out; three play the 3-player deal
        s.sitter = (dealer + 3) % 4
        size_players = 3
    s.nplayers = nplayers
    s.dealer = dealer
    s.to_move = dealer
    s.phase = PHASE_PLAY
    s.stake_doublings = stake_doublings
    while True:
        for p in range(MAX_PLAYERS):
            s.captured[p] = 0
        if log != NULL:
            log.n = 0
        deal_once(s, r, nplayers, size_players, &rng, dealer, log)
        if r.four_on_field_redeal and month_with_four(s.field & GS_MASK_MONTH_CARDS):
            redeals += 1
            continue
        break
    if redeals:
        log_event(log, EV_REDEAL, dealer, GS_NO_CARD, redeals, 0)
    if s.sitter >= 0 and r.gwangpalli_chips:
        amount = r.gwangpalli_chips * gs_popcount(s.hand[s.sitter] & GS_MASK_BRIGHT)
        if amount:
            collect_chips(s, s.sitter, amount, CHIPS_GWANGPALLI, log)
    everyone = 0
    for p in range(nplayers):
        if p != s.sitter:
            everyone |= 1 << p
    if r.chongtong:
        for i in range(nplayers):
            p = (dealer + i) % nplayers
            if p == s.sitter:
                continue
            m = month_with_four(s.hand[p] & GS_MASK_MONTH_CARDS)
            if m:
                holders |= 1 << p
                log_event(log, EV_CHONGTONG, p, m, 0, GS_MONTH_MASK(m))
                if first < 0:
                    first = p
        if holders:
            amount = r.chongtong_chips if r.chongtong_chips else rules_threshold(r, active_players(s))
            s.phase = PHASE_OVER
            s.end_reason = END_CHONGTONG
            if holders == everyone:
                s.winner = -1  # every player holds a quad: the payments cancel
            else:
                s.winner = first
                s.points = amount
                for p in range(nplayers):
                    if not holders & (1 << p):
                        continue
                    for q in range(nplayers):
                        if (everyone & (1 << q)) and not holders & (1 << q):
                            s.chips[q] = gs_clamp(<int64_t>s.chips[q] - amount, GS_CHIPS_CAP)
                            s.chips[p] = gs_clamp(<int64_t>s.chips[p] + amount, GS_CHIPS_CAP)
                    log_event(log, EV_CHIPS, p, GS_NO_CARD, amount, CHIPS_CHONGTONG)
    return redeals


# ---------------------------------------------------------------- moves
cdef inline int play_moves(const GameStateC* s, const RulesC* r, int card, uint16_t* out,
                           int n, uint64_t field_counts) noexcept nogil:
    """Append the plays of one hand card (one per field card to choose from);
    ``field_counts`` is ``month_counts(s.field)``."""
    cdef uint64_t matches
    cdef int k, target
    if card >= GS_NUM_MONTH_CARDS:
        matches = 0
        k = 0
    else:
        # a month's four cards are the nibble at 4 * (month - 1) = card & ~3
        k = <int>((field_counts >> (card & ~3)) & 0xF)
        matches = s.field & (<uint64_t>0xF << (card & ~3))
    if k <= 1 or (k == 3 and r.field_stacks):
        out[n] = make_move(MOVE_PLAY, card, GS_NO_CARD)
        return n + 1
    while matches:
        target = gs_lowest(matches)
        matches &= matches - 1
        out[n] = make_move(MOVE_PLAY, card, target)
        n += 1
    return n


cdef bint is_win_card(const GameStateC* s, const RulesC* r, int p, int card) noexcept nogil:
    """Whether ``card`` in p's hand is another player's win-card (003): with it
    that player's score would rise to the threshold where it may stop."""
    cdef int q
    cdef int32_t now, with_card, thr = rules_threshold(r, active_players(s))
    for q in range(s.nplayers):
        if q == p or q == s.sitter:
            continue
        now = score_total(s.captured[q], r)
        with_card = score_total(s.captured[q] | GS_BIT(card), r)
        if with_card > now and with_card >= thr and (s.go_count[q] == 0 or with_card > s.last_go_score[q]):
            return True
    return False


cdef int generate_moves(const GameStateC* s, const RulesC* r, uint16_t* out) noexcept nogil:
    """Write the legal decisions to ``out``; return how many.

    Bound, for any hand (even all 50 cards): a month with h cards in the hand and
    f <= 4 - h on the field gives h * max(1, f) <= 4 plays, a bomb (h = 3), a shake
    (h >= 3) and h showdowns: at most 9 (h = 4: 4 + 1 + 4).  So at most 12 x 9 +
    2 bonus cards + 1 flip-only turn = 111 <= MAX_MOVES; the other phases give at
    most 3 (a flip choice, a forced card's plays) or 2."""
    cdef int n = 0, p = s.to_move, card, target, month, k
    cdef uint64_t hand, matches, rest, month_mask, triples, field_counts
    if s.phase == PHASE_PLAY and s.forced_card != GS_NO_CARD:
        # a refused showdown: the asker lays its win-card down
        return play_moves(s, r, s.forced_card, out, 0, month_counts(s.field))
    if s.phase == PHASE_PLAY:
        hand = s.hand[p]
        if r.bonus_in_hand != BONUS_HAND_NONE:
            rest = hand & GS_MASK_BONUS
            while rest:
                card = gs_lowest(rest)
                rest &= rest - 1
                out[n] = make_move(MOVE_BONUS, card, GS_NO_CARD)
                n += 1
        rest = hand & ~GS_MASK_BONUS
        field_counts = month_counts(s.field)
        while rest:
            card = gs_lowest(rest)
            rest &= rest - 1
            n = play_moves(s, r, card, out, n, field_counts)
        if r.bomb or r.shaking:
            triples = months_with_three(hand)
            while triples:
                # bit 4 * (month - 1) + 2 is set for each month with 3+ cards in hand
                month = (gs_lowest(triples) >> 2) + 1
                triples &= triples - 1
                month_mask = GS_MONTH_MASK(month)
                k = gs_popcount(hand & month_mask)
                if r.bomb and k == 3 and gs_popcount(s.field & month_mask) == 1:
                    out[n] = make_move(MOVE_BOMB, month, GS_NO_CARD)
                    n += 1
                if r.shaking and not (s.shaken[p] & (1 << month)) \
                        and (not r.shake_timing or s.turns_played[p] == 0):
                    # shake_timing=1 (001): only before the player's first play
                    out[n] = make_move(MOVE_SHAKE, month, GS_NO_CARD)
                    n += 1
        if r.bomb_flip_only_optional and s.flip_only[p] > 0 and s.stock_pos < s.stock_len:
            out[n] = make_move(MOVE_FLIP_ONLY, GS_NO_CARD, GS_NO_CARD)
            n += 1
        if r.showdown and r.go_stop:  # without Go/Stop nobody may stop: no win-cards
            rest = hand & GS_MASK_MONTH_CARDS
            while rest:
                card = gs_lowest(rest)
                rest &= rest - 1
                if is_win_card(s, r, p, card):
                    out[n] = make_move(MOVE_SHOWDOWN, card, GS_NO_CARD)
                    n += 1
    elif s.phase == PHASE_SHOWDOWN:
        out[0] = make_move(MOVE_ACCEPT, GS_NO_CARD, GS_NO_CARD)
        out[1] = make_move(MOVE_REFUSE, GS_NO_CARD, GS_NO_CARD)
        n = 2
    elif s.phase == PHASE_FLIP_CHOICE:
        matches = s.field & same_month(s.flip_card)
        while matches:
            target = gs_lowest(matches)
            matches &= matches - 1
            out[n] = make_move(MOVE_FLIP, GS_NO_CARD, target)
            n += 1
    elif s.phase == PHASE_GO_STOP:
        out[0] = make_move(MOVE_GO, GS_NO_CARD, GS_NO_CARD)
        out[1] = make_move(MOVE_STOP, GS_NO_CARD, GS_NO_CARD)
        n = 2
    GS_ASSERT(n <= MAX_MOVES)
    return n


cdef bint is_legal(const GameStateC* s, const RulesC* r, uint16_t move) noexcept nogil:
    cdef uint16_t moves[MAX_MOVES]
    cdef int n = generate_moves(s, r, moves), i
    for i in range(n):
        if moves[i] == move:
            return True
    return False


cdef int32_t player_score(const GameStateC* s, const RulesC* r, int player) noexcept nogil:
    return score_total(s.captured[player], r)


cdef inline void capture(GameStateC* s, int p, uint64_t cards, EventLog* log) noexcept nogil:
    s.field &= ~cards
    s.captured[p] |= cards
    s.turn_flags |= TF_CAPTURED
    log_event(log, EV_CAPTURED, p, GS_NO_CARD, 0, cards)


cdef void steal_junk(GameStateC* s, const RulesC* r, int p, EventLog* log) noexcept nogil:
    """Take one junk from every opponent: its least valuable (a single junk, else a
    double junk, else a bonus card X2 then X3).  An opponent with none gives nothing."""
    cdef int q, card
    cdef uint64_t pile, pick, junk_bonus = 0
    if r.bonus_x2_effect == BONUS_EFFECT_JUNK:
        junk_bonus |= GS_BIT(GS_CARD_X2)
    if r.bonus_x3_effect == BONUS_EFFECT_JUNK:
        junk_bonus |= GS_BIT(GS_CARD_X3)
    for q in range(s.nplayers):
        if q == p or q == s.sitter:
            continue
        pile = s.captured[q]
        pick = pile & GS_MASK_SINGLE_JUNK
        if not pick:
            pick = pile & GS_MASK_DOUBLE_JUNK
        if not pick:
            pick = pile & junk_bonus  # a joker with another effect is no junk to give
        if not pick:
            continue
        card = gs_lowest(pick)
        s.captured[q] &= ~GS_BIT(card)
        s.captured[p] |= GS_BIT(card)
        log_event(log, EV_STOLEN, p, card, q, GS_BIT(card))


cdef void collect_chips(GameStateC* s, int p, int amount, int reason, EventLog* log) noexcept nogil:
    """Each opponent pays ``amount`` chips to ``p`` at once (special events)."""
    cdef int q
    for q in range(s.nplayers):
        if q != p and q != s.sitter:
            s.chips[q] = gs_clamp(<int64_t>s.chips[q] - amount, GS_CHIPS_CAP)
            s.chips[p] = gs_clamp(<int64_t>s.chips[p] + amount, GS_CHIPS_CAP)
    log_event(log, EV_CHIPS, p, GS_NO_CARD, amount, reason)


cdef void capture_stack(GameStateC* s, const RulesC* r, int p, int month, uint64_t extra,
                        EventLog* log) noexcept nogil:
    """The fourth card (``extra``) takes a stack of three, with any bonus card
    that sits with the stack; steals where the rules say so."""
    cdef uint64_t cards = (s.field & GS_MONTH_MASK(month)) | extra
    cdef int b
    for b in range(2):
        if s.stack_bonus_month[b] == month:
            cards |= GS_BIT(GS_CARD_X2 + b)
            s.stack_bonus_month[b] = 0
    log_event(log, EV_STACK, p, month, 0, cards)
    capture(s, p, cards, log)
    s.turn_flags |= TF_STACK
    if r.stack_steal:
        steal_junk(s, r, p, log)


cdef inline bint no_turns_left(const GameStateC* s) noexcept nogil:
    """True when nobody has a turn left: every hand is empty (a bonus card left in
    a hand is still a turn) and no flip-only turn could still flip a card."""
    cdef int q
    cdef bint stock_left = s.stock_pos < s.stock_len
    for q in range(s.nplayers):
        if q != s.sitter and (s.hand[q] or (s.flip_only[q] and stock_left)):
            return False
    return True


cdef void finish(GameStateC* s, const RulesC* r, int p, bint automatic, EventLog* log) noexcept nogil:
    cdef SettlementC st
    cdef int q
    settle(s, r, p, &st)
    s.winner = p
    s.points = st.base
    s.phase = PHASE_OVER
    s.end_reason = END_LAST_TURN_STOP if automatic else END_STOP
    if r.payment == PAY_EACH_OPPONENT:
        for q in range(s.nplayers):
            s.chips[q] = gs_clamp(<int64_t>s.chips[q] - st.pay[q], GS_CHIPS_CAP)
            s.chips[p] = gs_clamp(<int64_t>s.chips[p] + st.pay[q], GS_CHIPS_CAP)
    else:
        s.chips[p] = gs_clamp(<int64_t>s.chips[p] + st.base, GS_CHIPS_CAP)  # the score, once (casual)
    log_event(log, EV_STOP, p, GS_NO_CARD, 1 if automatic else 0, 0)


cdef void finish_played_out(GameStateC* s, const RulesC* r, int p, EventLog* log) noexcept nogil:
    """Every hand is played out.  With Go/Stop nobody stopped: a drawn hand
    (nagari).  Family rules: card points and set bonuses against 240 / players."""
    cdef ScoreC sc
    cdef int q, n = s.nplayers, best = -1, ties = 0
    cdef int32_t total[MAX_PLAYERS]
    cdef int32_t bonus[MAX_PLAYERS]
    cdef int32_t bonus_sum = 0, deck, target
    s.phase = PHASE_OVER
    s.winner = -1
    s.points = 0
    if r.payment != PAY_FAMILY_BALANCE:
        s.end_reason = END_DRAW
        log_event(log, EV_DRAW_GAME, p, GS_NO_CARD, 0, 0)
        return
    s.end_reason = END_FAMILY
    deck = 5 * r.family_bright + 10 * r.family_ribbon + 9 * r.family_animal
    target = deck // n
    for q in range(n):
        score_pile(s.captured[q], r, &sc)
        total[q] = sc.total
        bonus[q] = sc.family_set_bonus
        bonus_sum += bonus[q]
    for q in range(n):
        s.chips[q] = total[q] + bonus[q] * (n - 1) - (bonus_sum - bonus[q]) - target
        if best < 0 or s.chips[q] > s.chips[best]:
            best = q
            ties = 0
        elif s.chips[q] == s.chips[best]:
            ties += 1
    if not ties:
        s.winner = best
        s.points = s.chips[best]
    log_event(log, EV_HAND_END, p, GS_NO_CARD, 0, 0)


# Stages of the forced sequence that follows a decision.
cdef enum:
    STAGE_FLIP = 0
    STAGE_RESOLVE = 1
    STAGE_END_TURN = 2
    STAGE_ADVANCE = 3


cdef void resolve_turn(GameStateC* s, const RulesC* r, int p, EventLog* log) noexcept nogil:
    """After the flip: the waiting pair is captured, flipped bonus cards banked,
    and the turn's steals and chip payments made."""
    cdef int b, steals = 0, i
    cdef bint exempt
    cdef uint64_t rest
    if s.played_card != GS_NO_CARD:
        if s.played_target != GS_NO_CARD:
            capture(s, p, GS_BIT(s.played_card) | GS_BIT(s.played_target), log)
        s.played_card = GS_NO_CARD
        s.played_target = GS_NO_CARD
    if s.turn_bonus:
        rest = s.turn_bonus
        s.captured[p] |= s.turn_bonus
        s.turn_bonus = 0
        while rest:
            b = gs_lowest(rest)
            rest &= rest - 1
            log_event(log, EV_BONUS, p, b, 0, GS_BIT(b))
    if r.sseul_steal and (s.turn_flags & TF_TWO_APART) and not (s.field & GS_MASK_MONTH_CARDS):
        # 001: only two field cards, of different months, both captured: the field
        # is left empty (a ttadak on two of one month or a jjok on an empty field is no sseul)
        s.turn_flags |= TF_SSEUL
        log_event(log, EV_SSEUL, p, GS_NO_CARD, 0, 0)
    # the last player's last turn: sseul, ttadak and jjok steal nothing (001)
    exempt = r.last_turn_no_steal and no_turns_left(s)
    if not exempt:
        if (s.turn_flags & TF_TTADAK) and r.ttadak_steal:
            steals += 1
        if (s.turn_flags & TF_JJOK) and r.jjok_steal:
            steals += 1
        if s.turn_flags & TF_SSEUL:
            steals += 1
    for i in range(steals):
        steal_junk(s, r, p, log)
    if s.turns_played[p] == 0:
        if (s.turn_flags & TF_PPEOK) and r.first_turn_ppeok_chips:
            collect_chips(s, p, r.first_turn_ppeok_chips, CHIPS_FIRST_TURN_PPEOK, log)
        if (s.turn_flags & (TF_TTADAK | TF_STACK | TF_JJOK)) and r.first_turn_capture_chips:
            collect_chips(s, p, r.first_turn_capture_chips, CHIPS_FIRST_TURN_CAPTURE, log)
    if s.turn_flags & TF_PPEOK:
        s.ppeoks[p] += 1
    s.turns_played[p] += 1
    s.turn_flags = 0


cdef void run_forced(GameStateC* s, const RulesC* r, int stage, EventLog* log) noexcept nogil:
    """Run flips, turn ends and forced flip-only turns until a decision is due or
    the hand ends."""
    cdef int p, card, q, i, month, b
    cdef uint64_t matches, fmask, fbit, rest
    cdef int32_t sc
    cdef int k
    while True:
        p = s.to_move
        if stage == STAGE_FLIP:
            stage = STAGE_RESOLVE
            while s.stock_pos < s.stock_len:
                GS_ASSERT(0 <= s.stock_pos < 50 and s.stock[s.stock_pos] < 50)
                card = s.stock[s.stock_pos]
                s.stock_pos += 1
                fbit = GS_BIT(card)
                log_event(log, EV_FLIPPED, p, card, 0, fbit)
                if fbit & GS_MASK_BONUS:
                    if r.flipped_bonus == FLIPPED_BONUS_FLIP_AGAIN:
                        s.captured[p] |= fbit
                        log_event(log, EV_BONUS, p, card, 0, fbit)
                    else:
                        s.turn_bonus |= fbit  # banked with the turn's captures
                    continue  # flip again
                fmask = same_month(card)
                month = card // 4 + 1
                matches = s.field & fmask
                k = gs_popcount(matches)
                if s.played_card != GS_NO_CARD and (fmask & GS_BIT(s.played_card)):
                    if s.played_target == GS_NO_CARD:
                        # jjok/chok: the flip takes the card just played, which stood alone
                        log_event(log, EV_JJOK, p, month, 0, matches | fbit)
                        capture(s, p, matches | fbit, log)
                        s.turn_flags |= TF_JJOK
                    elif k == 3:
                        # ttadak: played onto two, the flip is the fourth
                        log_event(log, EV_TTADAK, p, month, 0, matches | fbit)
                        capture(s, p, matches | fbit, log)
                        s.turn_flags |= TF_TTADAK
                    else:
                        # ppeok: the flip matches the pair just made
                        log_event(log, EV_PPEOK, p, month, 0, matches | fbit)
                        if r.ppeok == PPEOK_FLIP_STAYS:
                            capture(s, p, matches, log)
                            s.field |= fbit
                        else:
                            s.field |= fbit
                            s.turn_flags |= TF_PPEOK
                            if r.ppeok_keeps_bonus and s.turn_bonus:
                                GS_ASSERT(not (s.turn_bonus & ~GS_MASK_BONUS))
                                rest = s.turn_bonus & GS_MASK_BONUS  # only X2, X3 index the array
                                while rest:
                                    b = gs_lowest(rest)
                                    rest &= rest - 1
                                    s.stack_bonus_month[b - GS_CARD_X2] = month
                                s.field |= s.turn_bonus
                                s.turn_bonus = 0
                    s.played_card = GS_NO_CARD
                    s.played_target = GS_NO_CARD
                elif k == 0:
                    s.field |= fbit
                elif k == 3 and r.field_stacks:
                    capture_stack(s, r, p, month, fbit, log)
                elif k == 1:
                    capture(s, p, matches | fbit, log)
                else:
                    s.flip_card = card
                    s.phase = PHASE_FLIP_CHOICE
                    return
                break
        if stage == STAGE_RESOLVE:
            stage = STAGE_END_TURN
            resolve_turn(s, r, p, log)
            if r.three_ppeok_chips and s.ppeoks[p] >= 3:
                collect_chips(s, p, r.three_ppeok_chips, CHIPS_THREE_PPEOK, log)
                log_event(log, EV_THREE_PPEOK, p, GS_NO_CARD, 0, 0)
                s.turns += 1
                s.winner = p
                s.points = r.three_ppeok_chips
                s.phase = PHASE_OVER
                s.end_reason = END_THREE_PPEOK
                return
        if stage == STAGE_END_TURN:
            stage = STAGE_ADVANCE
            if r.go_stop:
                sc = player_score(s, r, p)
                if sc >= rules_threshold(r, active_players(s)) and (s.go_count[p] == 0 or sc > s.last_go_score[p]):
                    if no_turns_left(s):
                        # Go would only lead to a drawn hand: the last turn's Stop is automatic.
                        s.turns += 1
                        finish(s, r, p, True, log)
                        return
                    s.phase = PHASE_GO_STOP
                    return
        # STAGE_ADVANCE: the turn really ends (after a Go, if one was called)
        log_event(log, EV_TURN_END, p, GS_NO_CARD, 0, 0)
        s.turns += 1
        s.phase = PHASE_PLAY
        if no_turns_left(s):
            finish_played_out(s, r, p, log)
            return
        q = p
        for i in range(s.nplayers):
            q = q + 1 if q + 1 < s.nplayers else 0
            # the same test as no_turns_left: an empty hand with nothing left to
            # flip has no turn (no empty flip-only turn)
            if q != s.sitter and (s.hand[q] or (s.flip_only[q] and s.stock_pos < s.stock_len)):
                break
        s.to_move = q
        if s.flip_only[q] > 0 and s.stock_pos >= s.stock_len and r.bomb_flip_only_optional:
            # nothing left to flip: optional flip-only turns lapse and the player plays
            # from hand; forced ones (000) are still taken, flipping nothing, until the
            # hands are level
            s.flip_only[q] = 0
        if s.flip_only[q] > 0 and (not r.bomb_flip_only_optional or not s.hand[q]):
            # a forced flip-only turn (always in casual; optional ones only with an empty hand)
            s.flip_only[q] -= 1
            log_event(log, EV_FLIP_ONLY, q, GS_NO_CARD, 0, 0)
            stage = STAGE_FLIP
            continue
        return


cdef inline uint8_t turn_start_flags(const GameStateC* s, const RulesC* r) noexcept nogil:
    """The flags a turn that plays from the hand starts with: TF_TWO_APART where a
    sseul is possible (the field holds exactly two cards, of different months)."""
    cdef uint64_t cards = s.field & GS_MASK_MONTH_CARDS
    cdef int first
    if not r.sseul_steal or gs_popcount(cards) != 2:
        return 0
    first = gs_lowest(cards)
    if cards & same_month(first) == cards:
        return 0
    return TF_TWO_APART


cdef void apply_move(GameStateC* s, const RulesC* r, uint16_t move, EventLog* log) noexcept nogil:
    """Apply a legal decision (the caller checks legality) and everything it forces."""
    cdef int kind = move_kind(move), card = move_card(move), target = move_target(move)
    cdef int p = s.to_move, month, k
    cdef uint64_t bit, matches, month_mask
    if kind == MOVE_PLAY:
        bit = GS_BIT(card)
        s.forced_card = GS_NO_CARD
        s.hand[p] &= ~bit
        s.turn_flags = turn_start_flags(s, r)
        log_event(log, EV_PLAYED, p, card, 0, bit)
        matches = s.field & same_month(card)
        k = gs_popcount(matches)
        if k == 0:
            s.field |= bit
            s.played_card = card
            s.played_target = GS_NO_CARD
        elif k == 3 and r.field_stacks:
            capture_stack(s, r, p, card // 4 + 1, bit, log)
        else:
            if target == GS_NO_CARD:
                target = gs_lowest(matches)
            if r.capture_at_play:
                capture(s, p, GS_BIT(target) | bit, log)
            else:
                s.field |= bit  # the pair waits for the flip
                s.played_card = card
                s.played_target = target
        run_forced(s, r, STAGE_FLIP, log)
    elif kind == MOVE_BONUS:
        bit = GS_BIT(card)
        s.hand[p] &= ~bit
        s.captured[p] |= bit
        log_event(log, EV_BONUS, p, card, 0, bit)
        if s.stock_pos < s.stock_len:
            card = s.stock[s.stock_pos]
            s.stock_pos += 1
            s.hand[p] |= GS_BIT(card)
            log_event(log, EV_DRAWN, p, card, 0, GS_BIT(card))
            # a free action: the same player still plays a card this turn
        else:
            run_forced(s, r, STAGE_RESOLVE, log)  # empty stock: the banking is the turn
    elif kind == MOVE_BOMB:
        month = card
        month_mask = GS_MONTH_MASK(month)
        s.turn_flags = turn_start_flags(s, r)
        log_event(log, EV_BOMB, p, month, 0, s.hand[p] & month_mask)
        s.hand[p] &= ~month_mask
        capture(s, p, month_mask, log)
        s.bombs[p] += 1
        if r.bomb_counts_as_shake:
            # the bomb shows the month's set (001 "Shake/Bomb"): one set per month
            s.shaken[p] |= 1 << month
        if r.bomb_steal:
            steal_junk(s, r, p, log)
        s.flip_only[p] += r.bomb_flip_only_turns
        run_forced(s, r, STAGE_FLIP, log)
    elif kind == MOVE_SHOWDOWN:
        s.showdown_caller = p
        s.showdown_card = card
        log_event(log, EV_SHOWDOWN, p, card, 0, GS_BIT(card))
        s.to_move = next_active(s, p)
        s.phase = PHASE_SHOWDOWN
    elif kind == MOVE_ACCEPT or kind == MOVE_REFUSE:
        log_event(log, EV_SHOWDOWN_ANSWER, p, s.showdown_card, 1 if kind == MOVE_ACCEPT else 0, 0)
        if kind == MOVE_REFUSE:
            # the asker must lay its win-card down as its play of the turn
            s.forced_card = s.showdown_card
            s.to_move = s.showdown_caller
            s.phase = PHASE_PLAY
            s.showdown_caller = -1
            s.showdown_card = GS_NO_CARD
        else:
            s.to_move = next_active(s, p)
            # (a caller out of play could never be reached again: the parsers refuse it,
            # and the hand still ends here rather than loop)
            GS_ASSERT(s.showdown_caller >= 0 and s.showdown_caller != s.sitter)
            if s.to_move == s.showdown_caller or s.showdown_caller == s.sitter or s.showdown_caller < 0:
                # everyone received the showdown: the hand is a nagari
                s.to_move = s.showdown_caller
                s.showdown_caller = -1
                s.showdown_card = GS_NO_CARD
                s.phase = PHASE_OVER
                s.winner = -1
                s.points = 0
                s.end_reason = END_DRAW
                log_event(log, EV_DRAW_GAME, p, GS_NO_CARD, 1, 0)  # 1: by a received showdown
    elif kind == MOVE_SHAKE:
        s.shaken[p] |= 1 << card
        log_event(log, EV_SHAKE, p, card, 0, s.hand[p] & GS_MONTH_MASK(card))
    elif kind == MOVE_FLIP_ONLY:
        s.flip_only[p] -= 1
        s.turn_flags = 0
        log_event(log, EV_FLIP_ONLY, p, GS_NO_CARD, 0, 0)
        run_forced(s, r, STAGE_FLIP, log)
    elif kind == MOVE_FLIP:
        capture(s, p, GS_BIT(target) | GS_BIT(s.flip_card), log)
        s.flip_card = GS_NO_CARD
        s.phase = PHASE_PLAY
        run_forced(s, r, STAGE_RESOLVE, log)
    elif kind == MOVE_GO:
        s.go_count[p] += 1
        s.last_go_score[p] = player_score(s, r, p)
        log_event(log, EV_GO, p, GS_NO_CARD, s.go_count[p], 0)
        s.phase = PHASE_PLAY
        run_forced(s, r, STAGE_ADVANCE, log)
    elif kind == MOVE_STOP:
        s.turns += 1
        finish(s, r, p, False, log)


# ---------------------------------------------------------------- perft
# The Ctrl-C poll state of gostop_guard.h is static: every compiled module has
# its own.  A caller in another module (state.pyx) starts and ends the poll of
# this module's loops through these two.
cdef void movegen_poll_begin(int main_thread) noexcept:
    gs_poll_begin(main_thread)


cdef int movegen_raise_if_interrupted() except -1:
    return gs_raise_if_interrupted()


cdef uint64_t perft_count(const GameStateC* s, const RulesC* r, int depth, bint bulk) noexcept nogil:
    """Leaves at exactly ``depth`` decisions; a hand that ends earlier counts nothing."""
    cdef uint16_t moves[MAX_MOVES]
    cdef GameStateC child
    cdef int n, i
    cdef uint64_t total = 0
    if depth == 0:
        return 1
    if gs_interrupted():
        return 0  # Ctrl-C: unwind (the wrapper raises)
    n = generate_moves(s, r, moves)
    if depth == 1 and bulk:
        return n
    for i in range(n):
        child = s[0]
        apply_move(&child, r, moves[i], NULL)
        total += perft_count(&child, r, depth - 1, bulk)
    return total


cdef int32_t random_playout(GameStateC* s, const RulesC* r, uint64_t* rng) noexcept nogil:
    """Play uniformly random decisions to the end; return the winner (-1: draw)."""
    cdef uint16_t moves[MAX_MOVES]
    cdef int n
    while s.phase != PHASE_OVER:
        n = generate_moves(s, r, moves)
        if n == 0 or gs_interrupted():
            return -1  # no move (a state changed under us) or Ctrl-C: no result
        apply_move(s, r, moves[bounded(rng, n)], NULL)
    return s.winner


cdef bint state_in_range(const GameStateC* s) noexcept nogil:
    """The ranges every array index and sentinel of the core relies on."""
    cdef int p, i
    cdef int cards[5]
    if not (2 <= s.nplayers <= MAX_PLAYERS and 0 <= s.to_move < s.nplayers
            and 0 <= s.dealer < s.nplayers and 0 <= s.phase <= PHASE_SHOWDOWN
            and 0 <= s.stock_pos <= s.stock_len <= 50 and -1 <= s.winner < s.nplayers
            and -1 <= s.sitter < s.nplayers and -1 <= s.showdown_caller < s.nplayers
            and 0 <= s.end_reason <= END_FAMILY and 0 <= s.stake_doublings <= 20):
        return False
    for i in range(s.stock_len):
        if s.stock[i] >= 50:
            return False
    cards[0] = s.flip_card
    cards[1] = s.played_card
    cards[2] = s.played_target
    cards[3] = s.showdown_card
    cards[4] = s.forced_card
    for i in range(5):
        if not (0 <= cards[i] < 50 or cards[i] == GS_NO_CARD):
            return False
    if s.turn_bonus & ~GS_MASK_BONUS:
        return False
    for i in range(2):
        if not 0 <= s.stack_bonus_month[i] <= 12:
            return False
    for p in range(MAX_PLAYERS):
        if s.go_count[p] < 0 or s.flip_only[p] < 0 or s.turns_played[p] < 0 or s.ppeoks[p] < 0:
            return False
    return s.turns >= 0


def _in_main_thread():
    """Whether the caller runs in the main thread (the only one Python's signal
    handlers run in: the C loops poll for Ctrl-C there)."""
    return threading.current_thread() is threading.main_thread()


def move_parts(int move):
    """``(kind, card, target)`` of a move code."""
    return move >> 12, (move >> 6) & 63, move & 63


def encode_move(int kind, int card, int target):
    return make_move(kind, card, target)
