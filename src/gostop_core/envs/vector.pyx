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
from libc.stdint cimport uint64_t, uint16_t, uint8_t, int8_t, int32_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset, memcpy

cimport numpy as cnp
import numpy as np

from gostop_core.cards cimport (
    GS_BIT, GS_NO_CARD, GS_MASK_MONTH_CARDS, GS_CARD_X2, gs_popcount, gs_lowest,
)
from gostop_core.rules cimport RulesC, Rules, PAY_SCORE_ONCE
from gostop_core.movegen cimport (
    GameStateC, CoreState, MAX_MOVES, generate_moves, apply_move, deal_cards, splitmix64,
    move_kind, move_card, move_target, PHASE_OVER,
    MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_GO, MOVE_STOP, MOVE_SHAKE,
    MOVE_FLIP_ONLY, MOVE_SHOWDOWN, MOVE_ACCEPT, MOVE_REFUSE,
)
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


# EXPAND[b]: the 8 bytes whose byte i is bit i of b, so one table load and one
# 8-byte store write 8 entries of a card plane (filled at import, byte order free).
cdef uint64_t EXPAND[256]


cdef void _fill_expand():
    cdef uint8_t bytes8[8]
    cdef int b, i
    for b in range(256):
        for i in range(8):
            bytes8[i] = (b >> i) & 1
        memcpy(&EXPAND[b], bytes8, 8)


_fill_expand()


cdef int write_actions(const GameStateC* s, const RulesC* r, uint16_t* table,
                       uint8_t* mask, uint8_t* legal) noexcept nogil:
    """Write the legal-action mask (``NUM_ACTIONS`` bytes), for each legal action
    its move code into ``table`` and, unless ``legal`` is NULL, the legal actions
    in ascending order into ``legal``; returns the number of legal actions.

    The actions are first gathered as a 74-bit set (two words): the mask is then
    written eight entries at a time from :data:`EXPAND` and the ascending list
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
        if a < 64:
            low |= GS_BIT(a)
        else:
            high |= GS_BIT(a - 64)
    for j in range(8):
        memcpy(mask + 8 * j, &EXPAND[(low >> (8 * j)) & 0xFF], 8)
    memcpy(mask + 64, &EXPAND[high & 0xFF], 8)
    memcpy(mask + 72, &EXPAND[(high >> 8) & 3], NUM_ACTIONS - 72)
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


cdef inline void put_plane(uint8_t* plane, uint64_t cards) noexcept nogil:
    """Write the 50 entries of one card plane: 1 where the card is in ``cards``
    (three 16-byte stores of two table entries each, and the last two entries)."""
    cdef uint64_t pair[2]
    cdef int j
    for j in range(3):
        pair[0] = EXPAND[(cards >> (16 * j)) & 0xFF]
        pair[1] = EXPAND[(cards >> (16 * j + 8)) & 0xFF]
        memcpy(plane + 16 * j, pair, 16)
    memcpy(plane + 48, &EXPAND[(cards >> 48) & 3], 2)


cdef void write_observation(const GameStateC* s, const RulesC* r, int seat,
                            uint8_t* out) noexcept nogil:
    """``PlayerView(seat).to_array()`` of the state, as bytes (see docs/envs.md)."""
    cdef int n = s.nplayers, k, q
    cdef uint64_t visible = s.field | s.hand[seat]
    cdef uint64_t pack = (GS_BIT(50) if r.bonus_cards else GS_BIT(48)) - 1
    cdef uint8_t* scalars = out + PLANE_SCALARS
    memset(scalars, 0, OBS_SIZE - PLANE_SCALARS)
    put_plane(out, s.hand[seat])
    put_plane(out + 50, s.field)
    if s.flip_card != GS_NO_CARD:
        put_plane(out + 100, GS_BIT(s.flip_card))
        visible |= GS_BIT(s.flip_card)
    else:
        put_plane(out + 100, 0)
    q = seat
    for k in range(4):
        if k < n:
            visible |= s.captured[q]
            put_plane(out + 150 + 50 * k, s.captured[q])
            scalars[k] = gs_popcount(s.hand[q])
            scalars[4 + k] = s.go_count[q]
            scalars[8 + k] = s.flip_only[q]
            q = q + 1 if q + 1 < n else 0
        else:
            put_plane(out + 150 + 50 * k, 0)
    put_plane(out + 350, pack & ~visible)
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
        if self.states == NULL or self.tables == NULL or self.streams == NULL:
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
                apply_move(s, &self._rules.c, self.tables[<int64_t>i * NUM_ACTIONS + ap[i]], NULL)
                if s.phase == PHASE_OVER:
                    write_rewards(s, &self._rules.c, rewards + <int64_t>i * self.players)
                    term[i] = 1
                    self._deal(i)
                else:
                    for q in range(self.players):
                        rewards[<int64_t>i * self.players + q] = 0
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
