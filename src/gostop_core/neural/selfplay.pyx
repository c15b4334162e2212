"""The batched self-play actor, in C.

:class:`SelfPlay` steps thousands of games in one C array: :meth:`prepare`
plays every forced move and every move of a greedy seat (the C twin of
GreedyBot) until each game waits on a decision of the network with a choice,
and returns the first hidden layer of every (game, legal move) pair (the
network's inputs and first layer: inputs.pyx); :meth:`advance` takes the
network's values, chooses epsilon-greedy, records (state, action) samples and,
when a hand ends, gives each of its samples the seat's final result
(Monte-Carlo), or with ``td_lambda`` below 1 the lambda-return over the values
the network gave the seat's own later choices in the hand (G_t = (1 - lambda)
Q_{t+1} + lambda G_{t+1}, the last one's G the result): less noise in the
targets, at the price of leaning on the network's own values.  The rest of the
network is two dense products done by numpy on the whole batch.
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int32_t, int64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcpy

cimport numpy as cnp
import numpy as np

from gostop_core.rules cimport RulesC, Rules, PAY_SCORE_ONCE
from gostop_core.cards cimport gs_popcount
from gostop_core.movegen cimport (
    GameStateC, MAX_MOVES, generate_moves, apply_move, deal_cards, splitmix64, bounded,
    PHASE_OVER,
)
from gostop_core.bots.search cimport policy_move
from gostop_core.neural.inputs cimport (
    NN_SEATS, NN_MAX_HIDDEN, STATE_FEATURES, ACTION_FEATURES, decision_inputs, fold_state_rows,
)
# the input sizes and a view's inputs, where bot authors have always found them
from gostop_core.neural.inputs import (  # noqa: F401
    NUM_ACTION_FEATURES, NUM_LEGACY_ACTION_FEATURES, NUM_STATE_FEATURES, view_inputs,
)

cnp.import_array()

cdef enum:
    PENDING = 64             # samples kept per hand of a game (a hand has fewer decisions)
    MAX_VOID_DEALS = 1000


cdef inline float seat_result(const GameStateC* s, const RulesC* r, int q) noexcept nogil:
    if r.payment != PAY_SCORE_ONCE:
        return s.chips[q]
    if s.winner < 0 or q == s.sitter:
        return 0
    return s.points if q == s.winner else -s.points


def _as_floats(a, shape, what):
    out = np.ascontiguousarray(a, dtype=np.float32)
    if out.shape != shape:
        raise ValueError(f"{what}: expected shape {shape}, got {out.shape}")
    return out


cdef class SelfPlay:
    """``num_games`` hands played side by side in C by one network.

    ``greedy_seats`` (a mode for evaluation): in game i the network plays seat
    ``i % players`` and the greedy policy every other seat, each game playing
    the deal ``seed + i // players`` once (duplicate deals: every deal is
    played from every seat); without it every seat is the network and each
    finished hand is dealt again from the game's seed stream.

    ``greedy_share`` (training, 0 to 1): that share of the games, spread evenly
    (game i when ``floor((i + 1) * share) > floor(i * share)``), seats the
    network at ``i % players``
    and the greedy policy at every other seat, dealt again and again like the
    others; only the network's decisions are recorded.  A run with a share
    learns the returns of its moves against greedy play as well as against
    itself (docs/strength.md, round 8).

    The loop: ``h1 = prepare()`` (rows: the legal moves of the games waiting,
    ``row_game`` says whose), the rest of the network on ``h1``, then
    ``advance(q, epsilon)``.  With ``record``, every decision with a choice is
    kept, and :meth:`drain` returns the finished hands' samples
    ``(states, actions, returns)``."""

    cdef GameStateC* states
    cdef Rules _rules
    cdef readonly int num_games
    cdef readonly int players
    cdef readonly int hidden
    cdef readonly bint greedy_mode
    cdef readonly double greedy_share
    cdef uint8_t* greedy_game    # 1: the other seats of game i play the greedy policy
    cdef readonly bint record
    cdef uint64_t* streams
    cdef uint64_t rng
    cdef uint64_t base_seed
    cdef uint8_t* done
    cdef uint16_t* moves
    cdef int* nmoves
    cdef int* first_row
    cdef uint8_t* s_rows       # STATE_FEATURES per waiting game
    cdef uint8_t* a_rows       # ACTION_FEATURES per row
    cdef int32_t* row_game_p
    cdef int nrows
    cdef float* h1_p
    cdef float* w1s
    cdef float* w1a
    cdef float* b1
    cdef float* folded         # fold_state_rows: the state rows and bias with the unseen plane folded in
    cdef float* folded_bias
    cdef uint8_t* pend_s
    cdef uint8_t* pend_a
    cdef int8_t* pend_seat
    cdef float* pend_q         # the value the network gave the move chosen (points)
    cdef readonly double td_lambda
    cdef int* pend_n
    cdef int capacity
    cdef int nout
    cdef uint8_t* out_s
    cdef uint8_t* out_a
    cdef float* out_r
    cdef readonly object h1
    cdef readonly object row_game
    cdef readonly object results      # greedy mode: the network seat's result per game
    cdef float* results_p
    cdef readonly long long hands
    cdef readonly long long decisions
    cdef readonly long long dropped

    def __cinit__(self):
        self.states = NULL

    def __init__(self, int num_games, rules="casual", int players=2, seed=0, weights=None,
                 bint greedy_seats=False, bint record=True, int capacity=1 << 17,
                 double greedy_share=0.0, double td_lambda=1.0):
        cdef Rules r = rules if isinstance(rules, Rules) else Rules(rules)
        cdef int i
        cdef uint64_t x
        r.check_players(players)
        r.check_engine_support()
        if players > NN_SEATS:
            raise ValueError(f"the network's encoding has room for {NN_SEATS} seats, not {players}")
        if not 1 <= num_games <= 1 << 20:
            raise ValueError(f"num_games must be 1..{1 << 20}, got {num_games}")
        if not PENDING <= capacity <= 1 << 26:
            raise ValueError(f"capacity must be {PENDING}..{1 << 26} samples, got {capacity}")
        if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 64:
            raise ValueError(f"seed must be an integer 0 <= seed < 2**64, got {seed!r}")
        if weights is None:
            raise ValueError("weights are needed: w1 (rows STATE_FEATURES + ACTION_FEATURES), b1")
        if not 0.0 <= greedy_share <= 1.0:
            raise ValueError(f"greedy_share must be in [0, 1], got {greedy_share}")
        if not 0.0 <= td_lambda <= 1.0:
            raise ValueError(f"td_lambda must be in [0, 1], got {td_lambda}")
        self.td_lambda = td_lambda
        self._rules = r
        self.num_games = num_games
        self.players = players
        self.greedy_mode = greedy_seats
        self.greedy_share = 1.0 if greedy_seats else greedy_share
        self.record = record and not greedy_seats
        self.capacity = capacity
        self.base_seed = <uint64_t>int(seed)
        self.rng = self.base_seed ^ <uint64_t>0x9E3779B97F4A7C15
        w1 = np.asarray(weights["w1"])
        if w1.ndim != 2 or w1.shape[0] != STATE_FEATURES + ACTION_FEATURES \
                or not 1 <= w1.shape[1] <= NN_MAX_HIDDEN:
            raise ValueError(f"w1: expected shape ({STATE_FEATURES + ACTION_FEATURES}, H), "
                             f"got {w1.shape}")
        self.hidden = w1.shape[1]
        self.states = <GameStateC*>calloc(num_games, sizeof(GameStateC))
        self.streams = <uint64_t*>calloc(num_games, sizeof(uint64_t))
        self.done = <uint8_t*>calloc(num_games, 1)
        self.greedy_game = <uint8_t*>calloc(num_games, 1)
        self.moves = <uint16_t*>calloc(num_games * MAX_MOVES, sizeof(uint16_t))
        self.nmoves = <int*>calloc(num_games, sizeof(int))
        self.first_row = <int*>calloc(num_games + 1, sizeof(int))
        self.s_rows = <uint8_t*>calloc(num_games, STATE_FEATURES)
        self.a_rows = <uint8_t*>calloc(<size_t>num_games * MAX_MOVES, ACTION_FEATURES)
        self.w1s = <float*>malloc(STATE_FEATURES * self.hidden * sizeof(float))
        self.w1a = <float*>malloc(ACTION_FEATURES * self.hidden * sizeof(float))
        self.b1 = <float*>malloc(self.hidden * sizeof(float))
        self.folded = <float*>malloc(STATE_FEATURES * self.hidden * sizeof(float))
        self.folded_bias = <float*>malloc(2 * self.hidden * sizeof(float))
        self.pend_s = <uint8_t*>malloc(<size_t>num_games * PENDING * STATE_FEATURES) if self.record else NULL
        self.pend_a = <uint8_t*>malloc(<size_t>num_games * PENDING * ACTION_FEATURES) if self.record else NULL
        self.pend_seat = <int8_t*>calloc(num_games * PENDING, 1)
        self.pend_q = <float*>calloc(num_games * PENDING, sizeof(float))
        self.pend_n = <int*>calloc(num_games, sizeof(int))
        self.out_s = <uint8_t*>malloc(<size_t>capacity * STATE_FEATURES) if self.record else NULL
        self.out_a = <uint8_t*>malloc(<size_t>capacity * ACTION_FEATURES) if self.record else NULL
        self.out_r = <float*>malloc(capacity * sizeof(float))
        if (self.states == NULL or self.streams == NULL or self.done == NULL or self.moves == NULL
                or self.greedy_game == NULL
                or self.nmoves == NULL or self.first_row == NULL or self.s_rows == NULL
                or self.a_rows == NULL or self.w1s == NULL or self.w1a == NULL or self.b1 == NULL
                or self.folded == NULL or self.folded_bias == NULL
                or self.pend_seat == NULL or self.pend_q == NULL or self.pend_n == NULL
                or self.out_r == NULL
                or (self.record and (self.pend_s == NULL or self.pend_a == NULL
                                     or self.out_s == NULL or self.out_a == NULL))):
            raise MemoryError()
        self.h1 = np.zeros((num_games * MAX_MOVES, self.hidden), dtype=np.float32)
        self.h1_p = <float*>cnp.PyArray_DATA(<cnp.ndarray>self.h1)
        self.row_game = np.zeros(num_games * MAX_MOVES, dtype=np.int32)
        self.row_game_p = <int32_t*>cnp.PyArray_DATA(<cnp.ndarray>self.row_game)
        self.results = np.zeros(num_games, dtype=np.float32)
        self.results_p = <float*>cnp.PyArray_DATA(<cnp.ndarray>self.results)
        self.set_weights(weights)
        for i in range(num_games):
            self.greedy_game[i] = 1 if greedy_seats or \
                <long long>((i + 1) * greedy_share) > <long long>(i * greedy_share) else 0
            x = self.base_seed ^ (<uint64_t>i * <uint64_t>0xD1B54A32D192ED03)
            self.streams[i] = splitmix64(&x)
            self._deal(i)

    def __dealloc__(self):
        free(self.states); free(self.streams); free(self.done); free(self.moves)
        free(self.greedy_game)
        free(self.nmoves); free(self.first_row); free(self.s_rows); free(self.a_rows)
        free(self.w1s); free(self.w1a); free(self.b1); free(self.folded); free(self.folded_bias)
        free(self.pend_s); free(self.pend_a)
        free(self.pend_seat); free(self.pend_q); free(self.pend_n); free(self.out_s); free(self.out_a)
        free(self.out_r)

    def set_weights(self, weights):
        """Take the first layer of ``weights`` (``w1``, ``b1``; the input scale
        already folded into ``w1``)."""
        w1 = _as_floats(weights["w1"], (STATE_FEATURES + ACTION_FEATURES, self.hidden), "w1")
        b1 = _as_floats(weights["b1"], (self.hidden,), "b1")
        cdef float[:, ::1] w = w1
        cdef float[::1] b = b1
        memcpy(self.w1s, &w[0, 0], STATE_FEATURES * self.hidden * sizeof(float))
        memcpy(self.w1a, &w[STATE_FEATURES, 0], ACTION_FEATURES * self.hidden * sizeof(float))
        memcpy(self.b1, &b[0], self.hidden * sizeof(float))
        fold_state_rows(self.w1s, self.b1, self.hidden, self.folded, self.folded_bias)

    cdef void _deal(self, int i) noexcept nogil:
        cdef GameStateC* s = &self.states[i]
        cdef uint64_t seed
        cdef int tries
        self.pend_n[i] = 0
        if self.greedy_mode:
            seed = self.base_seed + <uint64_t>(i // self.players)
            deal_cards(s, &self._rules.c, self.players, seed, 0, 0, NULL)
            if s.phase == PHASE_OVER:     # a deal that ends at once: its result stands
                self.results_p[i] = seat_result(s, &self._rules.c, i % self.players)
                self.done[i] = 1
            return
        for tries in range(MAX_VOID_DEALS):
            seed = splitmix64(&self.streams[i])
            deal_cards(s, &self._rules.c, self.players, seed, 0, 0, NULL)
            if s.phase != PHASE_OVER:
                break

    cdef void _finish(self, int i) noexcept nogil:
        # the hand of game i is over: its samples get each seat's result
        cdef GameStateC* s = &self.states[i]
        cdef int k, at, q
        cdef float target[PENDING]
        cdef float follow[NN_SEATS]   # the target of each seat's previous sample
        cdef float lam = <float>self.td_lambda
        self.hands += 1
        if self.greedy_mode:
            self.results_p[i] = seat_result(s, &self._rules.c, i % self.players)
            self.done[i] = 1
            return
        if self.record:
            for q in range(s.nplayers):
                follow[q] = seat_result(s, &self._rules.c, q)
            for k in range(self.pend_n[i] - 1, -1, -1):
                at = i * PENDING + k
                q = self.pend_seat[at]
                target[k] = follow[q]
                if lam < 1.0:
                    follow[q] = (1.0 - lam) * self.pend_q[at] + lam * target[k]
            for k in range(self.pend_n[i]):
                if self.nout >= self.capacity:
                    self.dropped += self.pend_n[i] - k
                    break
                at = i * PENDING + k
                memcpy(self.out_s + <int64_t>self.nout * STATE_FEATURES,
                       self.pend_s + <int64_t>at * STATE_FEATURES, STATE_FEATURES)
                memcpy(self.out_a + <int64_t>self.nout * ACTION_FEATURES,
                       self.pend_a + <int64_t>at * ACTION_FEATURES, ACTION_FEATURES)
                self.out_r[self.nout] = target[k]
                self.nout += 1
        self._deal(i)

    cdef bint _net_turn(self, int i) noexcept nogil:
        # advance game i to a decision of the network with a choice; False when done
        cdef GameStateC* s = &self.states[i]
        cdef uint16_t* mv = self.moves + i * MAX_MOVES
        cdef int n, pick
        while not self.done[i]:
            if s.phase == PHASE_OVER:
                self._finish(i)
                continue
            n = generate_moves(s, &self._rules.c, mv)
            if n > 1 and not (self.greedy_game[i] and s.to_move != i % self.players):
                self.nmoves[i] = n
                return True
            if n > 1:  # a greedy seat's decision
                pick = policy_move(s, &self._rules.c, mv, n)
            else:
                pick = 0
            apply_move(s, &self._rules.c, mv[pick], NULL)
        return False

    def prepare(self):
        """Advance every game to the network's next decision; returns the
        first hidden layer (after ReLU) of every legal move of those decisions
        as a view of shape (rows, hidden); :attr:`row_game` gives each row's game.
        No rows: every game is done (evaluation mode)."""
        cdef int i, j, row = 0, n
        cdef GameStateC* s
        with nogil:
            for i in range(self.num_games):
                self.first_row[i] = row
                if not self._net_turn(i):
                    self.nmoves[i] = 0
                    continue
                s = &self.states[i]
                n = self.nmoves[i]
                decision_inputs(s, &self._rules.c, self.moves + i * MAX_MOVES, n, self.w1s,
                                self.w1a, self.b1, self.folded, self.folded_bias, self.hidden,
                                self.s_rows + <int64_t>i * STATE_FEATURES,
                                self.a_rows + (<int64_t>row) * ACTION_FEATURES,
                                self.h1_p + <int64_t>row * self.hidden)
                for j in range(n):
                    self.row_game_p[row] = i
                    row += 1
            self.first_row[self.num_games] = row
        self.nrows = row
        return self.h1[:row]

    def inputs(self):
        """``(states, actions)``: copies of the input bytes of every row of
        the last :meth:`prepare`, a state per row (uint8 (rows, STATE_FEATURES)
        and (rows, ACTION_FEATURES)): what its first layer was computed from."""
        games = np.empty((self.num_games, STATE_FEATURES), dtype=np.uint8)
        actions = np.empty((self.nrows, ACTION_FEATURES), dtype=np.uint8)
        memcpy(cnp.PyArray_DATA(<cnp.ndarray>games), self.s_rows,
               <size_t>self.num_games * STATE_FEATURES)
        memcpy(cnp.PyArray_DATA(<cnp.ndarray>actions), self.a_rows,
               <size_t>self.nrows * ACTION_FEATURES)
        return games[self.row_game[:self.nrows]], actions

    def advance(self, q, double epsilon=0.0):
        """Play in every waiting game the move of the highest ``q`` (one value
        per row of the last :meth:`prepare`), or with probability ``epsilon`` a
        legal move drawn uniformly."""
        cdef cnp.ndarray qa = np.ascontiguousarray(q, dtype=np.float32)
        cdef float* qp
        cdef int i, j, n, best, at, k, first
        cdef GameStateC* s
        if qa.ndim != 1 or qa.shape[0] != self.nrows:
            raise ValueError(f"expected {self.nrows} values, one per row, got shape {np.shape(q)}")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon}")
        qp = <float*>cnp.PyArray_DATA(qa)
        cdef uint32_t eps_scaled = <uint32_t>(epsilon * 4294967295.0)
        with nogil:
            for i in range(self.num_games):
                n = self.nmoves[i]
                if n == 0:
                    continue
                first = self.first_row[i]
                if eps_scaled and <uint32_t>(splitmix64(&self.rng) >> 32) < eps_scaled:
                    best = bounded(&self.rng, n)
                else:
                    best = 0
                    for j in range(1, n):
                        if qp[first + j] > qp[first + best]:
                            best = j
                s = &self.states[i]
                self.decisions += 1
                if self.record:
                    k = self.pend_n[i]
                    if k < PENDING:
                        at = i * PENDING + k
                        memcpy(self.pend_s + <int64_t>at * STATE_FEATURES,
                               self.s_rows + <int64_t>i * STATE_FEATURES, STATE_FEATURES)
                        memcpy(self.pend_a + <int64_t>at * ACTION_FEATURES,
                               self.a_rows + <int64_t>(first + best) * ACTION_FEATURES,
                               ACTION_FEATURES)
                        self.pend_seat[at] = s.to_move
                        self.pend_q[at] = qp[first + best]
                        self.pend_n[i] = k + 1
                apply_move(s, &self._rules.c, self.moves[i * MAX_MOVES + best], NULL)
                self.nmoves[i] = 0
        self.nrows = 0

    @property
    def pending_samples(self) -> int:
        """Finished samples waiting for :meth:`drain`."""
        return self.nout

    def drain(self):
        """``(states, actions, returns)`` of the finished hands' samples
        (copies: uint8 (n, STATE_FEATURES), uint8 (n, ACTION_FEATURES),
        float32 (n,)), and the buffer emptied."""
        cdef int n = self.nout
        states = np.empty((n, STATE_FEATURES), dtype=np.uint8)
        actions = np.empty((n, ACTION_FEATURES), dtype=np.uint8)
        returns = np.empty(n, dtype=np.float32)
        if n and self.record:
            memcpy(cnp.PyArray_DATA(<cnp.ndarray>states), self.out_s, <size_t>n * STATE_FEATURES)
            memcpy(cnp.PyArray_DATA(<cnp.ndarray>actions), self.out_a, <size_t>n * ACTION_FEATURES)
            memcpy(cnp.PyArray_DATA(<cnp.ndarray>returns), self.out_r, <size_t>n * sizeof(float))
        self.nout = 0
        return states, actions, returns
