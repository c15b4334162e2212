"""The game state in C: seeded deal, legal moves, apply, perft and random playouts.

Undo is copy-make: the state is a small plain struct (about 150 bytes), so a
search copies it before applying a move and the Python layer keeps snapshots.
Only decisions are moves; forced steps (the flip, steals, flip-only turns,
turn ends) run inside :c:func:`apply_move` until the next decision.
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int16_t, int32_t
from libc.string cimport memset, memcpy
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE

from gostop_core.cards cimport (
    GS_BIT, GS_MONTH_MASK, GS_NO_CARD, GS_CARD_X2, GS_CARD_X3, GS_MASK_BONUS,
    GS_MASK_SINGLE_JUNK, GS_MASK_DOUBLE_JUNK, GS_NUM_MONTH_CARDS,
    gs_popcount, gs_lowest, same_month,
)
from gostop_core.rules cimport (
    RulesC, Rules, rules_threshold, rules_hand_size, rules_field_size,
    BONUS_HAND_NONE, GO_CASUAL, GO_TRADITIONAL, GO_STANDARD, GO_MULTIPLY,
)
from gostop_core.scoring cimport score_total

from gostop_core.errors import IllegalMoveError, GameOverError, RulesError

# Python-visible copies of the C enums.
PLAY, FLIP_CHOICE, GO_STOP, OVER = PHASE_PLAY, PHASE_FLIP_CHOICE, PHASE_GO_STOP, PHASE_OVER
PHASE_NAMES = ("play", "flip", "gostop", "over")
KIND_PLAY, KIND_BONUS, KIND_BOMB, KIND_FLIP, KIND_GO, KIND_STOP = (
    MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_GO, MOVE_STOP)
NO_CARD = GS_NO_CARD
EVENT_NAMES = {
    EV_DEALT_BONUS: "dealt_bonus", EV_PLAYED: "played", EV_FLIPPED: "flipped",
    EV_CAPTURED: "captured", EV_STOLEN: "stolen", EV_BONUS: "bonus", EV_DRAWN: "drawn",
    EV_BOMB: "bomb", EV_FLIP_ONLY: "flip_only", EV_GO: "go", EV_STOP: "stop",
    EV_DRAW_GAME: "draw", EV_TURN_END: "turn_end",
}
STATE_SIZE = sizeof(GameStateC)


# ---------------------------------------------------------------- random numbers
# splitmix64: tiny, fast and identical on every platform (the deal must be).
cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    cdef uint64_t z
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint32_t bounded(uint64_t* state, uint32_t bound) noexcept nogil:
    # Unbiased: reject the low values that would make the modulo uneven.
    cdef uint64_t threshold = (<uint64_t>0 - bound) % bound
    cdef uint64_t x = splitmix64(state)
    while x < threshold:
        x = splitmix64(state)
    return <uint32_t>(x % bound)


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


# ---------------------------------------------------------------- deal
cdef int deal_cards(GameStateC* s, const RulesC* r, int nplayers, uint64_t seed, int dealer,
                    EventLog* log) noexcept nogil:
    """Shuffle with ``seed`` and deal.  Hands are dealt seat by seat, then the
    field, the rest is the stock (top first).  A bonus card on the field goes to
    the dealer and the field is topped up from the stock.  Returns 0."""
    cdef uint8_t deck[50]
    cdef int n = 0, i, j, p, hand_size, field_size, pos
    cdef uint8_t tmp
    cdef uint64_t rng = seed
    cdef int card
    memset(s, 0, sizeof(GameStateC))
    for i in range(48):
        deck[n] = i
        n += 1
    if r.bonus_cards:
        deck[n] = GS_CARD_X2
        deck[n + 1] = GS_CARD_X3
        n += 2
    for i in range(n - 1, 0, -1):
        j = bounded(&rng, i + 1)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    hand_size = rules_hand_size(r, nplayers)
    field_size = rules_field_size(r, nplayers)
    pos = 0
    for p in range(nplayers):
        for i in range(hand_size):
            s.hand[p] |= GS_BIT(deck[pos])
            pos += 1
    for i in range(field_size):
        s.field |= GS_BIT(deck[pos])
        pos += 1
    s.stock_len = n - pos
    for i in range(s.stock_len):
        s.stock[i] = deck[pos + i]
    s.stock_pos = 0
    s.nplayers = nplayers
    s.dealer = dealer
    s.to_move = dealer
    s.phase = PHASE_PLAY
    s.flip_card = GS_NO_CARD
    s.winner = -1
    # bonus cards cannot be matched: the dealer takes them, the field is topped up
    while s.field & GS_MASK_BONUS and s.stock_pos < s.stock_len:
        card = gs_lowest(s.field & GS_MASK_BONUS)
        s.field &= ~GS_BIT(card)
        s.captured[dealer] |= GS_BIT(card)
        log_event(log, EV_DEALT_BONUS, dealer, card, 0, GS_BIT(card))
        s.field |= GS_BIT(s.stock[s.stock_pos])
        s.stock_pos += 1
    return 0


# ---------------------------------------------------------------- moves
cdef int generate_moves(const GameStateC* s, const RulesC* r, uint16_t* out) noexcept nogil:
    """Write the legal decisions to ``out``; return how many.

    At most 12 months x 4 (hand card, field card) pairs + 12 bombs + 2 bonus
    cards = 62 < MAX_MOVES."""
    cdef int n = 0, p = s.to_move, card, target, month
    cdef uint64_t hand, matches, rest, month_mask
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
        while rest:
            card = gs_lowest(rest)
            rest &= rest - 1
            matches = s.field & same_month(card)
            if gs_popcount(matches) <= 1:
                out[n] = make_move(MOVE_PLAY, card, GS_NO_CARD)
                n += 1
            else:
                while matches:
                    target = gs_lowest(matches)
                    matches &= matches - 1
                    out[n] = make_move(MOVE_PLAY, card, target)
                    n += 1
        if r.bomb:
            for month in range(1, 13):
                month_mask = GS_MONTH_MASK(month)
                if gs_popcount(hand & month_mask) == 3 and gs_popcount(s.field & month_mask) == 1:
                    out[n] = make_move(MOVE_BOMB, month, GS_NO_CARD)
                    n += 1
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
    log_event(log, EV_CAPTURED, p, GS_NO_CARD, 0, cards)


cdef void steal_junk(GameStateC* s, int p, EventLog* log) noexcept nogil:
    """Take one junk from every opponent: its least valuable (a single junk, else a
    double junk, else a bonus card X2 then X3).  An opponent with none gives nothing."""
    cdef int q, card
    cdef uint64_t pile, pick
    for q in range(s.nplayers):
        if q == p:
            continue
        pile = s.captured[q]
        pick = pile & GS_MASK_SINGLE_JUNK
        if not pick:
            pick = pile & GS_MASK_DOUBLE_JUNK
        if not pick:
            pick = pile & GS_MASK_BONUS
        if not pick:
            continue
        card = gs_lowest(pick)
        s.captured[q] &= ~GS_BIT(card)
        s.captured[p] |= GS_BIT(card)
        log_event(log, EV_STOLEN, p, card, q, GS_BIT(card))


cdef inline bint no_turns_left(const GameStateC* s) noexcept nogil:
    """True when nobody has a turn left: every hand is empty (a bonus card left in
    a hand is still a turn) and no flip-only turn could still flip a card."""
    cdef int q
    cdef bint stock_left = s.stock_pos < s.stock_len
    for q in range(s.nplayers):
        if s.hand[q] or (s.flip_only[q] and stock_left):
            return False
    return True


cdef int32_t go_points(int32_t score, int gos, const RulesC* r) noexcept nogil:
    """The winner's points for ``score`` after ``gos`` Goes (points-based schemes)."""
    cdef int32_t total, i
    if r.go_scheme == GO_CASUAL:
        total = score + gos
        for i in range(3, gos):
            total *= 2
        return total
    if r.go_scheme == GO_STANDARD:
        total = score + gos
        if gos == 3:
            total *= 2
        elif gos > 3:
            total *= (gos - 1)
        return total
    if r.go_scheme == GO_TRADITIONAL:
        total = score + (gos if gos < 3 else 2)
        for i in range(2, gos):
            total *= 2
        return total
    # GO_MULTIPLY
    if gos <= 1:
        return score + gos
    return score * gos


cdef void finish(GameStateC* s, const RulesC* r, int p, bint automatic, EventLog* log) noexcept nogil:
    s.winner = p
    s.points = go_points(player_score(s, r, p), s.go_count[p], r)
    s.phase = PHASE_OVER
    log_event(log, EV_STOP, p, GS_NO_CARD, 1 if automatic else 0, 0)


# Stages of the forced sequence that follows a decision.
cdef enum:
    STAGE_FLIP = 0
    STAGE_END_TURN = 1
    STAGE_ADVANCE = 2


cdef void run_forced(GameStateC* s, const RulesC* r, int stage, EventLog* log) noexcept nogil:
    """Run flips, turn ends and flip-only turns until a decision is due or the hand ends."""
    cdef int p, card, q, i
    cdef uint64_t matches
    cdef int32_t sc
    while True:
        p = s.to_move
        if stage == STAGE_FLIP:
            stage = STAGE_END_TURN
            while s.stock_pos < s.stock_len:
                card = s.stock[s.stock_pos]
                s.stock_pos += 1
                log_event(log, EV_FLIPPED, p, card, 0, GS_BIT(card))
                if GS_BIT(card) & GS_MASK_BONUS:
                    s.captured[p] |= GS_BIT(card)
                    log_event(log, EV_BONUS, p, card, 0, GS_BIT(card))
                    continue  # banked; flip again
                matches = s.field & same_month(card)
                if matches == 0:
                    s.field |= GS_BIT(card)
                elif gs_popcount(matches) == 1:
                    capture(s, p, matches | GS_BIT(card), log)
                else:
                    s.flip_card = card
                    s.phase = PHASE_FLIP_CHOICE
                    return
                break
        if stage == STAGE_END_TURN:
            stage = STAGE_ADVANCE
            sc = player_score(s, r, p)
            if sc >= rules_threshold(r, s.nplayers) and (s.go_count[p] == 0 or sc > s.last_go_score[p]):
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
            s.phase = PHASE_OVER
            s.winner = -1
            s.points = 0
            log_event(log, EV_DRAW_GAME, p, GS_NO_CARD, 0, 0)
            return
        q = p
        for i in range(s.nplayers):
            q = (q + 1) % s.nplayers
            # the same test as no_turns_left: an empty hand with nothing left to
            # flip has no turn (no empty flip-only turn)
            if s.hand[q] or (s.flip_only[q] and s.stock_pos < s.stock_len):
                break
        s.to_move = q
        if s.flip_only[q] > 0:
            s.flip_only[q] -= 1
            log_event(log, EV_FLIP_ONLY, q, GS_NO_CARD, 0, 0)
            stage = STAGE_FLIP
            continue
        return


cdef void apply_move(GameStateC* s, const RulesC* r, uint16_t move, EventLog* log) noexcept nogil:
    """Apply a legal decision (the caller checks legality) and everything it forces."""
    cdef int kind = move_kind(move), card = move_card(move), target = move_target(move)
    cdef int p = s.to_move, month
    cdef uint64_t bit, matches, month_mask
    if kind == MOVE_PLAY:
        bit = GS_BIT(card)
        s.hand[p] &= ~bit
        log_event(log, EV_PLAYED, p, card, 0, bit)
        matches = s.field & same_month(card)
        if matches == 0:
            s.field |= bit
        elif target == GS_NO_CARD:
            capture(s, p, matches | bit, log)
        else:
            capture(s, p, GS_BIT(target) | bit, log)
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
            run_forced(s, r, STAGE_END_TURN, log)  # empty stock: the banking is the turn
    elif kind == MOVE_BOMB:
        month = card
        month_mask = GS_MONTH_MASK(month)
        log_event(log, EV_BOMB, p, month, 0, s.hand[p] & month_mask)
        s.hand[p] &= ~month_mask
        capture(s, p, month_mask, log)
        if r.bomb_steal:
            steal_junk(s, p, log)
        s.flip_only[p] += r.bomb_flip_only_turns
        run_forced(s, r, STAGE_FLIP, log)
    elif kind == MOVE_FLIP:
        capture(s, p, GS_BIT(target) | GS_BIT(s.flip_card), log)
        s.flip_card = GS_NO_CARD
        s.phase = PHASE_PLAY
        run_forced(s, r, STAGE_END_TURN, log)
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
cdef uint64_t perft_count(const GameStateC* s, const RulesC* r, int depth, bint bulk) noexcept nogil:
    """Leaves at exactly ``depth`` decisions; a hand that ends earlier counts nothing."""
    cdef uint16_t moves[MAX_MOVES]
    cdef GameStateC child
    cdef int n, i
    cdef uint64_t total = 0
    if depth == 0:
        return 1
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
        apply_move(s, r, moves[bounded(rng, n)], NULL)
    return s.winner


# ---------------------------------------------------------------- Python wrapper
cdef class CoreState:
    """The C game state with its rules: the thin boundary the Python API wraps.

    Moves are ``int`` codes here (see :mod:`gostop_core.moves` for objects)."""

    cdef GameStateC s
    cdef readonly Rules rules

    def __cinit__(self):
        memset(&self.s, 0, sizeof(GameStateC))
        self.s.winner = -1
        self.s.flip_card = GS_NO_CARD

    @staticmethod
    def deal(Rules rules, int nplayers, seed, int dealer=0):
        """A freshly dealt state and the deal's events."""
        cdef CoreState st = CoreState()
        cdef EventLog log
        cdef uint64_t seed64
        rules.check_players(nplayers)
        rules.check_engine_support()
        if not 0 <= dealer < nplayers:
            raise RulesError(f"dealer {dealer} is not a seat of a {nplayers}-player game")
        if not isinstance(seed, int) or seed < 0 or seed >= 2 ** 64:
            raise ValueError(f"seed must be an integer 0 <= seed < 2**64, got {seed!r}")
        seed64 = seed
        log.n = 0
        st.rules = rules
        deal_cards(&st.s, &rules.c, nplayers, seed64, dealer, &log)
        return st, _events(&log)

    def copy(self):
        cdef CoreState st = CoreState()
        st.s = self.s
        st.rules = self.rules
        return st

    def snapshot(self):
        """The state as bytes (for undo stacks)."""
        return PyBytes_FromStringAndSize(<char*>&self.s, sizeof(GameStateC))

    def restore(self, bytes data):
        if PyBytes_GET_SIZE(data) != sizeof(GameStateC):
            raise ValueError("snapshot of the wrong size")
        memcpy(&self.s, PyBytes_AS_STRING(data), sizeof(GameStateC))

    def legal_moves(self):
        """Legal move codes in generation order."""
        cdef uint16_t moves[MAX_MOVES]
        cdef int n = generate_moves(&self.s, &self.rules.c, moves), i
        return [moves[i] for i in range(n)]

    def count_moves(self):
        cdef uint16_t moves[MAX_MOVES]
        return generate_moves(&self.s, &self.rules.c, moves)

    def is_legal(self, int move):
        if move < 0 or move > 0xFFFF:
            return False
        return is_legal(&self.s, &self.rules.c, <uint16_t>move)

    def apply(self, int move):
        """Apply a legal move code; returns its events.  An illegal move raises
        :class:`IllegalMoveError` and changes nothing."""
        cdef EventLog log
        if self.s.phase == PHASE_OVER:
            raise GameOverError("the hand is over: no more moves")
        if move < 0 or move > 0xFFFF or not is_legal(&self.s, &self.rules.c, <uint16_t>move):
            raise IllegalMoveError(f"illegal move code {move:#06x}")
        log.n = 0
        apply_move(&self.s, &self.rules.c, <uint16_t>move, &log)
        return _events(&log)

    def apply_unchecked(self, int move):
        """Apply without the legality check or events (for trusted loops)."""
        apply_move(&self.s, &self.rules.c, <uint16_t>move, NULL)

    def perft(self, int depth, bint bulk=True):
        cdef uint64_t n
        if depth < 0:
            raise ValueError("depth must be >= 0")
        with nogil:
            n = perft_count(&self.s, &self.rules.c, depth, bulk)
        return n

    def divide(self, int depth, bint bulk=True):
        """``[(move_code, leaves)]`` for each legal move (depth >= 1)."""
        cdef uint16_t moves[MAX_MOVES]
        cdef GameStateC child
        cdef int n, i
        cdef uint64_t c
        if depth < 1:
            raise ValueError("divide needs depth >= 1")
        n = generate_moves(&self.s, &self.rules.c, moves)
        out = []
        for i in range(n):
            child = self.s
            apply_move(&child, &self.rules.c, moves[i], NULL)
            with nogil:
                c = perft_count(&child, &self.rules.c, depth - 1, bulk)
            out.append((moves[i], c))
        return out

    def random_playouts(self, int games, seed=0):
        """Play ``games`` random games from this state in C; returns
        ``(wins_per_seat, draws)``."""
        cdef GameStateC work
        cdef uint64_t rng = seed
        cdef int g, w
        cdef long wins[MAX_PLAYERS]
        cdef long draws = 0
        memset(wins, 0, sizeof(wins))
        with nogil:
            for g in range(games):
                work = self.s
                w = random_playout(&work, &self.rules.c, &rng)
                if w < 0:
                    draws += 1
                else:
                    wins[w] += 1
        return [wins[i] for i in range(self.s.nplayers)], draws

    def score(self, int player):
        return player_score(&self.s, &self.rules.c, player)

    # ---- read access (all masks as Python ints)
    @property
    def nplayers(self): return self.s.nplayers
    @property
    def dealer(self): return self.s.dealer
    @property
    def to_move(self): return self.s.to_move
    @property
    def phase(self): return self.s.phase
    @property
    def field(self): return self.s.field
    @property
    def flip_card(self): return None if self.s.flip_card == GS_NO_CARD else self.s.flip_card
    @property
    def winner(self): return None if self.s.winner < 0 else self.s.winner
    @property
    def points(self): return self.s.points
    @property
    def turns(self): return self.s.turns
    @property
    def stock_pos(self): return self.s.stock_pos

    def hand(self, int p): return self.s.hand[self._seat(p)]
    def captured(self, int p): return self.s.captured[self._seat(p)]
    def go_count(self, int p): return self.s.go_count[self._seat(p)]
    def last_go_score(self, int p): return self.s.last_go_score[self._seat(p)]
    def flip_only(self, int p): return self.s.flip_only[self._seat(p)]

    def stock(self):
        """Cards still in the stock, top first."""
        return [self.s.stock[i] for i in range(self.s.stock_pos, self.s.stock_len)]

    cdef int _seat(self, int p) except -1:
        if not 0 <= p < self.s.nplayers:
            raise IndexError(f"no seat {p} in a {self.s.nplayers}-player game")
        return p

    def to_fields(self):
        """Every field of the state as plain Python data."""
        n = self.s.nplayers
        return dict(
            nplayers=n, dealer=self.s.dealer, to_move=self.s.to_move, phase=self.s.phase,
            flip_card=self.flip_card, winner=self.winner, points=self.s.points,
            turns=self.s.turns, field=self.s.field,
            hands=[self.s.hand[p] for p in range(n)],
            captured=[self.s.captured[p] for p in range(n)],
            stock=self.stock(),
            go_counts=[self.s.go_count[p] for p in range(n)],
            last_go_scores=[self.s.last_go_score[p] for p in range(n)],
            flip_only=[self.s.flip_only[p] for p in range(n)],
        )

    @staticmethod
    def from_fields(Rules rules, dict f):
        """Build a state from :meth:`to_fields` data.  The caller (the notation
        parser) validates card placement; this checks only the C ranges."""
        cdef CoreState st = CoreState()
        cdef int p, n = f["nplayers"], i
        rules.check_engine_support()
        st.rules = rules
        st.s.nplayers = n
        st.s.dealer = f["dealer"]
        st.s.to_move = f["to_move"]
        st.s.phase = f["phase"]
        st.s.flip_card = GS_NO_CARD if f["flip_card"] is None else f["flip_card"]
        st.s.winner = -1 if f["winner"] is None else f["winner"]
        st.s.points = f["points"]
        st.s.turns = f["turns"]
        st.s.field = f["field"]
        stock = f["stock"]
        if len(stock) > 50:
            raise ValueError("stock longer than the pack")
        st.s.stock_len = len(stock)
        st.s.stock_pos = 0
        for i in range(len(stock)):
            st.s.stock[i] = stock[i]
        for p in range(n):
            st.s.hand[p] = f["hands"][p]
            st.s.captured[p] = f["captured"][p]
            st.s.go_count[p] = f["go_counts"][p]
            st.s.last_go_score[p] = f["last_go_scores"][p]
            st.s.flip_only[p] = f["flip_only"][p]
        return st

    def __eq__(self, other):
        if not isinstance(other, CoreState):
            return NotImplemented
        return self.to_fields() == (<CoreState>other).to_fields() and self.rules == (<CoreState>other).rules

    def __hash__(self):
        f = self.to_fields()
        return hash(tuple(tuple(v) if isinstance(v, list) else v for v in f.values()))


def move_parts(int move):
    """``(kind, card, target)`` of a move code."""
    return move >> 12, (move >> 6) & 63, move & 63


def encode_move(int kind, int card, int target):
    return make_move(kind, card, target)


cdef list _events(EventLog* log):
    cdef int i
    return [(log.ev[i].kind, log.ev[i].player, log.ev[i].card, log.ev[i].other, log.ev[i].cards)
            for i in range(log.n)]
