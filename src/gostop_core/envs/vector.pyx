"""Many games stepped in one call, in C: the batched learning environment.

:class:`VectorGame` keeps ``num_games`` game states in one C array and steps
them all with one call from numpy: no Python runs per game or per step, and the
GIL is released while the games are played.  Observations, masks, rewards and
flags are written into arrays allocated once; every call returns the same
arrays (copy them to keep a step's values).

Its observation of a game is :meth:`gostop_core.PlayerView.to_array` of the seat
to move (as ``uint8``: every entry is a small whole number) and its actions are
the indices of :mod:`gostop_core.envs.actions`; a test replays random action
sequences through both this class and :class:`gostop_core.Game`.
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int32_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset, memcpy

cimport numpy as cnp
import numpy as np

from gostop_core.cards cimport (
    GS_BIT, GS_MONTH_MASK, GS_NO_CARD, GS_MASK_MONTH_CARDS, GS_MASK_BONUS, GS_CARD_X2, gs_popcount, gs_lowest,
)
from gostop_core.rules cimport RulesC, Rules, PAY_SCORE_ONCE, BONUS_HAND_NONE
from gostop_core.movegen cimport (
    GameStateC, MAX_MOVES, generate_moves, apply_move, deal_cards, splitmix64,
    move_kind, move_card, move_target, make_move, month_counts, months_with_three,
    PHASE_OVER, PHASE_PLAY, PHASE_GO_STOP, PHASE_FLIP_CHOICE,
    MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_GO, MOVE_STOP, MOVE_SHAKE,
    MOVE_FLIP_ONLY, MOVE_SHOWDOWN, MOVE_ACCEPT, MOVE_REFUSE, seen_by,
)
from gostop_core.state cimport CoreState
from gostop_core.errors import IllegalMoveError, RulesError

cnp.import_array()

#: Python copies of the layout constants (checked against envs.actions).
VECTOR_NUM_ACTIONS = NUM_ACTIONS
VECTOR_OBS_SIZE = OBS_SIZE
_LAYOUT = dict(PLAY=ACT_PLAY, FLIP=ACT_FLIP, BONUS=ACT_BONUS, BOMB=ACT_BOMB, SHAKE=ACT_SHAKE,
               GO=ACT_GO, STOP=ACT_STOP, FLIP_ONLY=ACT_FLIP_ONLY, SHOWDOWN=ACT_SHOWDOWN,
               ACCEPT=ACT_ACCEPT, REFUSE=ACT_REFUSE, NUM_ACTIONS=NUM_ACTIONS,
               HAND_SLOTS=ACT_HAND_SLOTS, CHOICES=ACT_CHOICES)

# A deal that ends the hand at once (chongtong) offers no decision: it is
# redealt with the game's next seed, at most this many times in a row.
cdef enum:
    MAX_VOID_DEALS = 1000
    PLANE_SCALARS = 400


cdef inline int rank_in_month(uint64_t cards, int card) noexcept nogil:
    """How many cards of ``card``'s month in ``cards`` come before it."""
    return gs_popcount(cards & (<uint64_t>0xF << (card & ~3)) & (GS_BIT(card) - 1))


cdef int move_action(const GameStateC* s, uint16_t move) noexcept nogil:
    """The action index of a legal move of the seat to move."""
    cdef int kind = move_kind(move), card = move_card(move), target = move_target(move)
    cdef uint64_t hand_months = s.hand[s.to_move] & GS_MASK_MONTH_CARDS
    if kind == MOVE_PLAY:
        return (ACT_PLAY + ACT_CHOICES * gs_popcount(hand_months & (GS_BIT(card) - 1))
                + (0 if target == GS_NO_CARD else rank_in_month(s.field, target)))
    if kind == MOVE_FLIP:
        return ACT_FLIP + rank_in_month(s.field, target)
    if kind == MOVE_BONUS:
        return ACT_BONUS + card - GS_CARD_X2
    if kind == MOVE_BOMB:
        return ACT_BOMB + card - 1
    if kind == MOVE_SHAKE:
        return ACT_SHAKE + card - 1
    if kind == MOVE_GO:
        return ACT_GO
    if kind == MOVE_STOP:
        return ACT_STOP
    if kind == MOVE_FLIP_ONLY:
        return ACT_FLIP_ONLY
    if kind == MOVE_SHOWDOWN:
        return ACT_SHOWDOWN + gs_popcount(hand_months & (GS_BIT(card) - 1))
    if kind == MOVE_ACCEPT:
        return ACT_ACCEPT
    return ACT_REFUSE


cdef extern from "gostop_planes.h":
    int gs_planes_avx2
    void gs_planes_init() noexcept nogil
    void gs_planes50(uint8_t* out, const uint64_t* sets, int count) noexcept nogil
    void gs_plane74(uint8_t* out, uint64_t low, uint64_t high) noexcept nogil
    uint32_t GS_THREE(int base) noexcept nogil
    const uint32_t GS_THREE_STEP


# the byte-plane writers' table, and whether this processor has AVX2
gs_planes_init()
assert NUM_ACTIONS == 74 and OBS_SIZE == 8 * 50 + 20, "gs_plane74 and the planes' layout"


cdef inline bint direct_actions(const GameStateC* s, const RulesC* r) noexcept nogil:
    """Whether write_direct can list the seat to move's actions: a Go/Stop, a
    flip choice, or a play phase with no forced card under rules without
    showdowns (plays, bonus cards, bombs, shakes and a flip-only turn).  The
    others (showdowns) go through the move list and the table (write_actions)."""
    if s.phase == PHASE_GO_STOP or s.phase == PHASE_FLIP_CHOICE:
        return True
    return (s.phase == PHASE_PLAY and s.forced_card == GS_NO_CARD
            and not (r.showdown and r.go_stop))


cdef inline int play_choices(uint64_t field_counts, int card, bint stacks) noexcept nogil:
    """How many plays a hand card has (play_moves' rule): one, unless 2 or 3
    field cards of its month (3 without field stacks) leave a choice of target."""
    cdef int k = <int>((field_counts >> (card & ~3)) & 0xF)
    if k <= 1 or (k == 3 and stacks):
        return 1
    return k


cdef inline bint may_shake(const GameStateC* s, const RulesC* r, int month) noexcept nogil:
    cdef int p = s.to_move
    return (r.shaking and not (s.shaken[p] & (1 << month))
            and (not r.shake_timing or s.turns_played[p] == 0))


cdef inline int write_direct(const GameStateC* s, const RulesC* r, uint8_t* mask,
                      uint8_t* legal, uint16_t* slot_cards) noexcept nogil:
    """write_actions when direct_actions: the actions straight from the card
    sets, in ascending order, with no move list and no move table
    (decode_direct gives the move of an action, with the hand card of each
    play slot kept in ``slot_cards``).  The same actions as
    generate_moves' moves (a test compares both on random games)."""
    cdef uint64_t hand, rest, triples, low = 0, month_mask
    cdef uint64_t field_counts
    cdef int j = 0, base = ACT_PLAY, k, card, month, a, p, slot = 0
    # the three list entries of a slot as one 4-byte store (the list has room)
    cdef uint32_t three = GS_THREE(ACT_PLAY)
    cdef bint stacks = r.field_stacks != 0
    if s.phase == PHASE_GO_STOP:
        legal[0] = ACT_GO
        legal[1] = ACT_STOP
        gs_plane74(mask, GS_BIT(ACT_GO) | GS_BIT(ACT_STOP), 0)
        return 2
    if s.phase == PHASE_FLIP_CHOICE:
        k = gs_popcount(s.field & (<uint64_t>0xF << (s.flip_card & ~3)))
        legal[0] = ACT_FLIP
        legal[1] = ACT_FLIP + 1
        legal[2] = ACT_FLIP + 2
        gs_plane74(mask, ((<uint64_t>1 << k) - 1) << ACT_FLIP, 0)
        return k
    p = s.to_move
    hand = s.hand[p]
    rest = hand & GS_MASK_MONTH_CARDS
    field_counts = month_counts(s.field)
    while rest:
        card = gs_lowest(rest)
        rest &= rest - 1
        k = play_choices(field_counts, card, stacks)
        # three entries always, the count moves by k
        memcpy(legal + j, &three, 4)
        j += k
        low |= ((<uint64_t>1 << k) - 1) << base
        base += ACT_CHOICES
        three += GS_THREE_STEP
        slot_cards[slot] = card
        slot += 1
    if r.bonus_in_hand != BONUS_HAND_NONE and hand & GS_MASK_BONUS:
        rest = hand & GS_MASK_BONUS
        while rest:
            a = ACT_BONUS + gs_lowest(rest) - GS_CARD_X2
            rest &= rest - 1
            legal[j] = a
            low |= GS_BIT(a)
            j += 1
    if r.bomb or r.shaking:
        triples = months_with_three(hand)
        if triples:
            # bombs (35-46) then shakes (47-58), each by month: ascending
            rest = triples
            while r.bomb and rest:
                month = (gs_lowest(rest) >> 2) + 1
                rest &= rest - 1
                month_mask = GS_MONTH_MASK(month)
                if gs_popcount(hand & month_mask) == 3 and gs_popcount(s.field & month_mask) == 1:
                    legal[j] = ACT_BOMB + month - 1
                    low |= GS_BIT(ACT_BOMB + month - 1)
                    j += 1
            rest = triples
            while rest:
                month = (gs_lowest(rest) >> 2) + 1
                rest &= rest - 1
                if may_shake(s, r, month):
                    legal[j] = ACT_SHAKE + month - 1
                    low |= GS_BIT(ACT_SHAKE + month - 1)   # at most 58: the low word
                    j += 1
    if r.bomb_flip_only_optional and s.flip_only[p] > 0 and s.stock_pos < s.stock_len:
        legal[j] = ACT_FLIP_ONLY
        low |= GS_BIT(ACT_FLIP_ONLY)
        j += 1
    gs_plane74(mask, low, 0)
    return j


cdef inline int select_bit(uint64_t x, int i) noexcept nogil:
    """The index of the i-th lowest set bit of x (x has more than i)."""
    while i > 0:
        x &= x - 1
        i -= 1
    return gs_lowest(x)


cdef inline uint16_t decode_direct(const GameStateC* s, const RulesC* r, int a,
                            const uint16_t* slot_cards) noexcept nogil:
    """The move of a legal action written by write_direct."""
    cdef int slot, card
    if a < ACT_FLIP:
        slot = (a - ACT_PLAY) // ACT_CHOICES
        card = slot_cards[slot]
        if play_choices(month_counts(s.field), card, r.field_stacks != 0) == 1:
            return make_move(MOVE_PLAY, card, GS_NO_CARD)
        return make_move(MOVE_PLAY, card, select_bit(s.field & (<uint64_t>0xF << (card & ~3)),
                                                     (a - ACT_PLAY) % ACT_CHOICES))
    if a < ACT_BONUS:
        return make_move(MOVE_FLIP, GS_NO_CARD,
                         select_bit(s.field & (<uint64_t>0xF << (s.flip_card & ~3)), a - ACT_FLIP))
    if a < ACT_BOMB:
        return make_move(MOVE_BONUS, GS_CARD_X2 + a - ACT_BONUS, GS_NO_CARD)
    if a < ACT_SHAKE:
        return make_move(MOVE_BOMB, a - ACT_BOMB + 1, GS_NO_CARD)
    if a < ACT_GO:
        return make_move(MOVE_SHAKE, a - ACT_SHAKE + 1, GS_NO_CARD)
    if a == ACT_GO:
        return make_move(MOVE_GO, GS_NO_CARD, GS_NO_CARD)
    if a == ACT_STOP:
        return make_move(MOVE_STOP, GS_NO_CARD, GS_NO_CARD)
    return make_move(MOVE_FLIP_ONLY, GS_NO_CARD, GS_NO_CARD)


cdef int write_actions(const GameStateC* s, const RulesC* r, uint16_t* table,
                       uint8_t* mask, uint8_t* legal) noexcept nogil:
    """Write the legal-action mask (``NUM_ACTIONS`` bytes), for each legal action
    its move code into ``table`` and, unless ``legal`` is NULL, the legal actions
    in ascending order into ``legal``; returns the number of legal actions.

    The actions are first gathered as a 74-bit set (two words): the mask is then
    written from it as a byte plane (gostop_planes.h) and the ascending list
    read off the set's bits, with no clearing pass and no sort."""
    cdef uint16_t moves[MAX_MOVES]
    cdef uint16_t m
    cdef int n = 0, i, j, a, card, target, last = -1, slot = 0
    cdef uint64_t hand_months = s.hand[s.to_move] & GS_MASK_MONTH_CARDS
    cdef uint64_t low = 0, high = 0, below
    if s.phase != PHASE_OVER:
        n = generate_moves(s, r, moves)
    for i in range(n):
        m = moves[i]
        if move_kind(m) == MOVE_PLAY:
            # the plays come card by card in ascending order, and every month card
            # of the hand has one at least: the hand slot counts up from the first
            # (a forced card is the only card: its slot is counted out)
            card = move_card(m)
            if card != last:
                slot = gs_popcount(hand_months & (GS_BIT(card) - 1)) if last < 0 else slot + 1
                last = card
            a = ACT_PLAY + ACT_CHOICES * slot
            target = move_target(m)
            if target != GS_NO_CARD:
                # the target's rank among the field cards of its month (0-3 below it)
                below = (s.field >> (target & ~3)) & ((1 << (target & 3)) - 1)
                a += <int>((below & 1) + ((below >> 1) & 1) + ((below >> 2) & 1))
        else:
            a = move_action(s, m)
        table[a] = m
        # bit a of the 74-bit set, without a branch on which word
        low |= (<uint64_t>(a < 64)) << (a & 63)
        high |= (<uint64_t>(a >= 64)) << (a & 63)
    gs_plane74(mask, low, high)
    if legal != NULL:
        j = 0
        while low:
            legal[j] = gs_lowest(low)
            low &= low - 1
            j += 1
        while high:
            legal[j] = 64 + gs_lowest(high)
            high &= high - 1
            j += 1
    return n


cdef inline void write_observation(const GameStateC* s, const RulesC* r, int seat,
                            uint8_t* out) noexcept nogil:
    """``PlayerView(seat).to_array()`` of the state, as bytes (see docs/envs.md):
    the 8 card sets are gathered first and written as planes in one call."""
    cdef int n = s.nplayers, k, q
    cdef uint64_t sets[8]
    cdef uint64_t visible = seen_by(s, seat)
    cdef uint64_t pack = (GS_BIT(50) if r.bonus_cards else GS_BIT(48)) - 1
    cdef uint8_t* scalars = out + PLANE_SCALARS
    memset(scalars, 0, OBS_SIZE - PLANE_SCALARS)
    sets[0] = s.hand[seat]
    sets[1] = s.field
    sets[2] = 0
    if s.flip_card != GS_NO_CARD:
        sets[2] = GS_BIT(s.flip_card)
    q = seat
    for k in range(4):
        if k < n:
            sets[3 + k] = s.captured[q]
            scalars[k] = gs_popcount(s.hand[q])
            scalars[4 + k] = s.go_count[q]
            scalars[8 + k] = s.flip_only[q]
            q = q + 1 if q + 1 < n else 0
        else:
            sets[3 + k] = 0
    sets[7] = pack & ~visible
    gs_planes50(out, sets, 8)
    scalars[12] = s.stock_len - s.stock_pos
    scalars[13] = 1 if s.to_move == seat else 0
    scalars[14] = 1 if s.dealer == seat else 0
    scalars[15 + s.phase] = 1


cdef void write_rewards(const GameStateC* s, const RulesC* r, float* out) noexcept nogil:
    """Each seat's reward for a finished hand (see gostop_core.envs.rewards)."""
    cdef int q
    for q in range(s.nplayers):
        if r.payment != PAY_SCORE_ONCE:
            out[q] = s.chips[q]
        elif s.winner < 0 or q == s.sitter:
            out[q] = 0
        elif q == s.winner:
            out[q] = s.points
        else:
            out[q] = -s.points


cdef class VectorGame:
    """``num_games`` hands of Go-Stop played side by side in C.

    >>> import numpy as np
    >>> vg = VectorGame(64, rules="casual", players=2, seed=1)
    >>> obs, mask = vg.reset()
    >>> rng = np.random.default_rng(0)
    >>> actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    >>> obs, rewards, terminated, mask = vg.step(actions)

    ``obs`` is ``(num_games, 420)`` ``uint8``, the seat to move's
    :meth:`~gostop_core.PlayerView.to_array`; ``mask`` is ``(num_games, 74)``
    ``bool``, the legal actions of :mod:`gostop_core.envs.actions`; ``rewards``
    is ``(num_games, players)`` ``float32``, each seat's result for the hands
    that ended on this step (else 0); ``terminated`` is ``(num_games,)`` bool.
    A finished hand is dealt again at once (auto-reset): ``obs`` and ``mask``
    then show the new hand.  :attr:`seats` holds the seat to move in each game
    and :attr:`deal_seeds` the seed of each game's current deal (the same hand
    as ``Game(rules, players, seed=deal_seed)``).  Every call returns the same
    arrays, overwritten by the next call."""

    cdef GameStateC* states
    cdef uint16_t* tables
    cdef uint8_t* direct_p   # 1 where write_direct listed the game's actions (no table)
    cdef uint64_t* streams
    cdef Rules _rules
    # raw pointers into the numpy arrays below (allocated once, never resized)
    cdef uint8_t* obs_p
    cdef uint8_t* mask_p
    cdef uint8_t* term_p
    cdef float* rewards_p
    cdef int8_t* seats_p
    cdef uint64_t* seeds_p
    cdef uint8_t* legal_p
    cdef uint8_t* count_p
    cdef readonly int num_games
    cdef readonly int players
    cdef readonly object obs
    cdef readonly object mask
    cdef readonly object rewards
    cdef readonly object terminated
    cdef readonly object seats
    cdef readonly object deal_seeds
    cdef readonly object legal
    cdef readonly object legal_count

    def __cinit__(self):
        self.states = NULL
        self.tables = NULL
        self.direct_p = NULL
        self.streams = NULL

    def __init__(self, int num_games, rules="casual", int players=2, seed=0):
        cdef Rules r = rules if isinstance(rules, Rules) else Rules(rules)
        r.check_players(players)
        r.check_engine_support()
        if r.hand_size(players) > ACT_HAND_SLOTS:
            raise RulesError(f"the action table has {ACT_HAND_SLOTS} hand slots: hands of "
                             f"{r.hand_size(players)} cards do not fit")
        if num_games < 1:
            raise ValueError(f"num_games must be at least 1, got {num_games}")
        self._rules = r
        self.num_games = num_games
        self.players = players
        self.states = <GameStateC*>malloc(num_games * sizeof(GameStateC))
        self.tables = <uint16_t*>malloc(num_games * NUM_ACTIONS * sizeof(uint16_t))
        self.streams = <uint64_t*>malloc(num_games * sizeof(uint64_t))
        self.direct_p = <uint8_t*>malloc(num_games * sizeof(uint8_t))
        if (self.states == NULL or self.tables == NULL or self.streams == NULL
                or self.direct_p == NULL):
            raise MemoryError()
        self.obs = np.zeros((num_games, OBS_SIZE), dtype=np.uint8)
        self.mask = np.zeros((num_games, NUM_ACTIONS), dtype=np.bool_)
        self.rewards = np.zeros((num_games, players), dtype=np.float32)
        self.terminated = np.zeros(num_games, dtype=np.bool_)
        self.seats = np.zeros(num_games, dtype=np.int8)
        self.deal_seeds = np.zeros(num_games, dtype=np.uint64)
        self.legal = np.zeros((num_games, NUM_ACTIONS), dtype=np.uint8)
        self.legal_count = np.zeros(num_games, dtype=np.uint8)
        self.legal_p = <uint8_t*>cnp.PyArray_DATA(<cnp.ndarray>self.legal)
        self.count_p = <uint8_t*>cnp.PyArray_DATA(<cnp.ndarray>self.legal_count)
        self.obs_p = <uint8_t*>cnp.PyArray_DATA(<cnp.ndarray>self.obs)
        self.mask_p = <uint8_t*>cnp.PyArray_DATA(<cnp.ndarray>self.mask)
        self.term_p = <uint8_t*>cnp.PyArray_DATA(<cnp.ndarray>self.terminated)
        self.rewards_p = <float*>cnp.PyArray_DATA(<cnp.ndarray>self.rewards)
        self.seats_p = <int8_t*>cnp.PyArray_DATA(<cnp.ndarray>self.seats)
        self.seeds_p = <uint64_t*>cnp.PyArray_DATA(<cnp.ndarray>self.deal_seeds)
        self.reset(seed)

    def __dealloc__(self):
        free(self.states)
        free(self.tables)
        free(self.direct_p)
        free(self.streams)

    @property
    def rules(self):
        """The :class:`~gostop_core.Rules` every game plays."""
        return self._rules

    @property
    def num_actions(self):
        return NUM_ACTIONS

    cdef void _deal(self, int i) noexcept nogil:
        # deal game i with its next seed, skipping deals that end the hand at once
        cdef GameStateC* s = &self.states[i]
        cdef uint64_t seed = 0
        cdef int tries
        for tries in range(MAX_VOID_DEALS):
            seed = splitmix64(&self.streams[i])
            deal_cards(s, &self._rules.c, self.players, seed, 0, 0, NULL)
            if s.phase != PHASE_OVER:
                break
        self.seeds_p[i] = seed

    cdef void _show(self, int i) noexcept nogil:
        cdef GameStateC* s = &self.states[i]
        self.seats_p[i] = s.to_move
        write_observation(s, &self._rules.c, s.to_move, self.obs_p + <int64_t>i * OBS_SIZE)
        if direct_actions(s, &self._rules.c):
            self.direct_p[i] = 1
            # the move table is free here: it keeps the hand card of each slot
            self.count_p[i] = write_direct(s, &self._rules.c, self.mask_p + <int64_t>i * NUM_ACTIONS,
                                           self.legal_p + <int64_t>i * NUM_ACTIONS,
                                           self.tables + <int64_t>i * NUM_ACTIONS)
        else:
            self.direct_p[i] = 0
            self.count_p[i] = write_actions(
                s, &self._rules.c, self.tables + <int64_t>i * NUM_ACTIONS,
                self.mask_p + <int64_t>i * NUM_ACTIONS, self.legal_p + <int64_t>i * NUM_ACTIONS)

    def reset(self, seed=None):
        """Deal every game afresh; returns ``(obs, mask)``.  With ``seed`` (an
        integer 0 <= seed < 2**64) the games' deal seeds restart from it; without,
        the games continue their seed streams."""
        cdef int i
        cdef uint64_t base, x
        if seed is not None:
            if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 64:
                raise ValueError(f"seed must be an integer 0 <= seed < 2**64, got {seed!r}")
            base = <uint64_t>int(seed)
            for i in range(self.num_games):
                # each game its own stream, started at a mixed point of the sequence
                x = base ^ (<uint64_t>i * <uint64_t>0xD1B54A32D192ED03)
                self.streams[i] = splitmix64(&x)
        with nogil:
            for i in range(self.num_games):
                self._deal(i)
                self._show(i)
        self.rewards[...] = 0
        self.terminated[...] = False
        return self.obs, self.mask

    def step(self, actions):
        """Play one action in every game; returns ``(obs, rewards, terminated,
        mask)``.  ``actions`` holds one action index per game; an action the
        mask forbids raises :class:`~gostop_core.IllegalMoveError` and no game
        moves."""
        cdef cnp.ndarray acts
        cdef int64_t* ap
        cdef int64_t a
        cdef int i, bad = -1, q
        cdef uint8_t* mask = self.mask_p
        cdef uint8_t* term = self.term_p
        cdef float* rewards = self.rewards_p
        cdef float* row
        cdef uint16_t move
        cdef GameStateC* s
        given = np.asarray(actions)
        if given.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, got {given.dtype}")
        acts = np.ascontiguousarray(given, dtype=np.int64)
        if acts.ndim != 1 or acts.shape[0] != self.num_games:
            raise ValueError(f"expected {self.num_games} actions, one per game, "
                             f"got shape {np.shape(actions)}")
        ap = <int64_t*>cnp.PyArray_DATA(acts)
        with nogil:
            for i in range(self.num_games):
                a = ap[i]
                if a < 0 or a >= NUM_ACTIONS or not mask[<int64_t>i * NUM_ACTIONS + a]:
                    bad = i
                    break
        if bad >= 0:
            raise IllegalMoveError(f"game {bad}: action {ap[bad]} is not legal there")
        with nogil:
            for i in range(self.num_games):
                s = &self.states[i]
                if self.direct_p[i]:
                    move = decode_direct(s, &self._rules.c, <int>ap[i],
                                         self.tables + <int64_t>i * NUM_ACTIONS)
                else:
                    move = self.tables[<int64_t>i * NUM_ACTIONS + ap[i]]
                apply_move(s, &self._rules.c, move, NULL)
                if s.phase == PHASE_OVER:
                    write_rewards(s, &self._rules.c, rewards + <int64_t>i * self.players)
                    term[i] = 1
                    self._deal(i)
                else:
                    # the row's 2-4 entries by hand: a loop here became a memset call
                    row = rewards + <int64_t>i * self.players
                    row[0] = 0
                    row[1] = 0
                    if self.players > 2:
                        row[2] = 0
                        if self.players > 3:
                            row[3] = 0
                    term[i] = 0
                self._show(i)
        return self.obs, self.rewards, self.terminated, self.mask


def stock_to_position(CoreState core, int offset, int card):
    """Put ``card``, a card still in ``core``'s stock at or below ``offset`` cards
    from the top, at ``offset`` from the top (swapping places with the card
    there).  The OpenSpiel adapter fixes the stock this way, one chance outcome
    at a time, just before the flips that read it."""
    cdef GameStateC* s = &core.s
    cdef int i, at = s.stock_pos + offset
    if offset < 0 or at >= s.stock_len:
        raise ValueError(f"no stock position {offset} from the top")
    for i in range(at, s.stock_len):
        if s.stock[i] == card:
            s.stock[i] = s.stock[at]
            s.stock[at] = card
            return
    raise ValueError(f"card {card} is not in the stock below position {offset}")


def legal_action_codes(CoreState core):
    """``{action: move code}`` for the seat to move in ``core`` (the C twin of
    :func:`gostop_core.envs.actions.legal_actions`, for adapters that step one
    game at a time)."""
    cdef uint16_t table[NUM_ACTIONS]
    cdef uint8_t mask[NUM_ACTIONS]
    cdef int a
    write_actions(&core.s, &core.rules.c, table, mask, NULL)
    return {a: table[a] for a in range(NUM_ACTIONS) if mask[a]}


def _direct_action_codes(CoreState core):
    """``{action: move code}`` by the direct path (write_direct, then
    decode_direct), or None where the step takes the move table instead: a
    test compares it with :func:`legal_action_codes` at every decision."""
    cdef uint8_t mask[NUM_ACTIONS]
    cdef uint8_t legal[NUM_ACTIONS]
    cdef uint16_t slot_cards[NUM_ACTIONS]
    cdef int n, j, a
    if core.s.phase == PHASE_OVER or not direct_actions(&core.s, &core.rules.c):
        return None
    n = write_direct(&core.s, &core.rules.c, mask, legal, slot_cards)
    out = {}
    for j in range(n):
        a = legal[j]
        out[a] = decode_direct(&core.s, &core.rules.c, a, slot_cards)
    if sorted(out) != [a for a in range(NUM_ACTIONS) if mask[a]]:
        raise AssertionError("the direct mask and list disagree")
    return out


def _planes_by_avx2(on=None):
    """Whether the byte planes are written by AVX2 (this processor has it);
    with ``on``, switch (AVX2 only where the processor has it) and return the
    previous setting.  For the tests of both paths."""
    global gs_planes_avx2
    cdef int before = gs_planes_avx2
    if on is not None:
        if on:
            gs_planes_init()   # AVX2 again if the processor has it
        else:
            gs_planes_avx2 = 0
    return bool(before)
