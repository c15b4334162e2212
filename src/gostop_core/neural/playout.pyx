"""The whole Q network in C, and the network as the search's playout model.

:class:`NeuralPlayout` holds every layer of a trained network
(:class:`gostop_core.neural.network.Network`) in C arrays and runs the forward
pass with no Python object in the loop: the split sparse first layer of
:mod:`gostop_core.neural.selfplay`, then two dense layers (gostop_nn.h).  Its
:meth:`~NeuralPlayout.capsule` is a ``PlayoutModel`` for the expectimax search
(:func:`gostop_core.bots.search.search_fields`, ``model=``):

* **pick**: the move of the highest Q for the seat to move, from that seat's
  view of the sampled world (the inputs read only what the seat can see);
* **value** (a playout cut after ``cutoff`` turns): the network plays on until
  the searching seat has a decision with a choice, whose best Q is the value;
  a hand that ends first gives its result.  Q has no win bonus in it: the
  search's ``win_bonus`` applies only to hands played to the end.

The model is read-only while a search runs, so one instance may serve any
number of searches at once.
"""
from libc.stdint cimport uint64_t, uint16_t, uint8_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from libc.math cimport exp

import numpy as np

from gostop_core.cards cimport gs_popcount
from gostop_core.rules cimport Rules, RulesC, PAY_SCORE_ONCE
from gostop_core.sampling cimport fill_public
from gostop_core.movegen cimport (
    GameStateC, MAX_MOVES, generate_moves, apply_move, PHASE_OVER,
)
from gostop_core.bots.search cimport PlayoutModel, model_capsule
from gostop_core.bots.policy cimport (
    Observation, IMPOSSIBLE_LOGP, softmax_logp, check_observation, fill_observation,
)
from gostop_core.neural.inputs cimport (
    NN_SEATS, NN_MAX_HIDDEN, STATE_FEATURES, ACTION_FEATURES, EXPOSURE_FEATURES, ExposureC,
    encode_state, encode_action, exposure_context, exposure_base, move_first_layer,
    state_first_layer, fold_state_rows, view_state, VISIBLE_PLANES,
)

cdef extern from "gostop_nn.h":
    void gs_nn_dense_layer(const float* x, int n, const float* w, int width,
                           float* out) noexcept nogil

#: Turns the value's own playout may take before it gives up (a hand has fewer).
cdef enum:
    VALUE_TURN_LIMIT = 200


cdef void nn_q_values(const NeuralNetC* m, const GameStateC* s, const RulesC* r,
                      const int* counts, const uint16_t* moves, int n, float* out) noexcept nogil:
    """Q in points of each of the ``n`` legal ``moves`` of the seat to move in
    ``s``, whose seats hold ``counts`` cards in hand."""
    cdef uint8_t sbytes[STATE_FEATURES]
    cdef uint8_t abytes[ACTION_FEATURES]
    cdef uint8_t ebytes[EXPOSURE_FEATURES]
    cdef float base[NN_MAX_HIDDEN]
    cdef float h1[NN_MAX_HIDDEN]
    cdef float h2[NN_MAX_HIDDEN]
    cdef int j, k
    cdef float v
    cdef bint partition
    cdef uint64_t planes[VISIBLE_PLANES]
    cdef ExposureC ctx
    partition = encode_state(s, r, s.to_move, counts, sbytes, planes)
    exposure_context(s, r, &ctx)
    state_first_layer(r, sbytes, planes, partition, m.w1s, m.b1, m.folded, m.folded_bias, m.h1, base)
    exposure_base(s, r, &ctx, m.w1a, m.h1, ebytes, base)
    for j in range(n):
        encode_action(s, r, &ctx, moves[j], abytes)
        move_first_layer(base, abytes, ebytes, m.w1a, m.h1, h1)
        memcpy(h2, m.b2, m.h2 * sizeof(float))
        gs_nn_dense_layer(h1, m.h1, m.w2, m.h2, h2)
        v = m.b3
        for k in range(m.h2):
            if h2[k] > 0:
                v += h2[k] * m.w3[k]
        out[j] = v * m.scale


cdef int nn_best(const NeuralNetC* m, const GameStateC* s, const RulesC* r,
                 const uint16_t* moves, int n, float* best_q) noexcept nogil:
    """Index of the move of the highest Q (ties: the first in generation order)."""
    cdef float q[MAX_MOVES]
    cdef int counts[NN_SEATS]
    cdef int j, best = 0
    for j in range(s.nplayers):
        counts[j] = gs_popcount(s.hand[j])     # a sampled world holds every hand
    nn_q_values(m, s, r, counts, moves, n, q)
    for j in range(1, n):
        if q[j] > q[best]:
            best = j
    if best_q != NULL:
        best_q[0] = q[best]
    return best


cdef inline double seat_result(const GameStateC* s, const RulesC* r, int seat) noexcept nogil:
    if r.payment != PAY_SCORE_ONCE:
        return s.chips[seat]
    if s.winner < 0 or seat == s.sitter:
        return 0
    return s.points if s.winner == seat else -s.points


cdef int neural_pick(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                     const void* data) noexcept nogil:
    if n <= 1:
        return 0
    return nn_best(<const NeuralNetC*>data, s, r, moves, n, NULL)


cdef double neural_value(const GameStateC* s, const RulesC* r, int seat,
                         const void* data) noexcept nogil:
    cdef const NeuralNetC* m = <const NeuralNetC*>data
    cdef GameStateC w = s[0]
    cdef uint16_t moves[MAX_MOVES]
    cdef int n, t
    cdef float best
    for t in range(VALUE_TURN_LIMIT):
        if w.phase == PHASE_OVER:
            break
        n = generate_moves(&w, r, moves)
        if n == 0:
            break
        if n > 1 and w.to_move == seat:
            nn_best(m, &w, r, moves, n, &best)
            return best
        apply_move(&w, r, moves[nn_best(m, &w, r, moves, n, NULL) if n > 1 else 0], NULL)
    return seat_result(&w, r, seat)


def _layer(params, name, shape):
    a = np.ascontiguousarray(params[name], dtype=np.float32)
    if a.shape != shape:
        raise ValueError(f"{name}: expected shape {shape}, got {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"{name}: not every weight is a finite number")
    return a


cdef float* _copy(object a) except NULL:
    cdef float[::1] flat = np.ascontiguousarray(a, dtype=np.float32).ravel()
    cdef float* out = <float*>malloc(max(1, flat.shape[0]) * sizeof(float))
    if out == NULL:
        raise MemoryError()
    if flat.shape[0]:
        memcpy(out, &flat[0], flat.shape[0] * sizeof(float))
    return out


cdef class NeuralPlayout:
    """A network's layers in C (see the module docstring); ``network`` is a
    :class:`~gostop_core.neural.network.Network`."""

    def __cinit__(self):
        self.m.w1s = NULL
        self.m.w1a = NULL
        self.m.b1 = NULL
        self.m.folded = NULL
        self.m.folded_bias = NULL
        self.m.w2 = NULL
        self.m.b2 = NULL
        self.m.w3 = NULL
        self.hooks.pick = neural_pick
        self.hooks.value = neural_value
        self.hooks.weight = NULL
        self.hooks.data = &self.m

    def __init__(self, network):
        h1, h2 = network.hidden
        if not (1 <= h1 <= NN_MAX_HIDDEN and 1 <= h2 <= NN_MAX_HIDDEN):
            raise ValueError(f"hidden layers must be 1..{NN_MAX_HIDDEN} wide, got {h1}, {h2}")
        play = network.play_weights()           # the input scale folded into w1
        w1 = _layer(play, "w1", (STATE_FEATURES + ACTION_FEATURES, h1))
        b1 = _layer(play, "b1", (h1,))
        w2 = _layer(network.params, "w2", (h1, h2))
        b2 = _layer(network.params, "b2", (h2,))
        w3 = _layer(network.params, "w3", (h2,))
        b3 = _layer(network.params, "b3", (1,))
        self.m.h1 = h1
        self.m.h2 = h2
        self.m.w1s = _copy(w1[:STATE_FEATURES])
        self.m.w1a = _copy(w1[STATE_FEATURES:])
        self.m.b1 = _copy(b1)
        self.m.folded = <float*>malloc(STATE_FEATURES * h1 * sizeof(float))
        self.m.folded_bias = <float*>malloc(2 * h1 * sizeof(float))
        if self.m.folded == NULL or self.m.folded_bias == NULL:
            raise MemoryError()
        fold_state_rows(self.m.w1s, self.m.b1, h1, self.m.folded, self.m.folded_bias)
        self.m.w2 = _copy(w2)
        self.m.b2 = _copy(b2)
        self.m.w3 = _copy(w3)
        self.m.b3 = float(b3[0])
        self.m.scale = float(network.return_scale)
        self.network = network

    def __dealloc__(self):
        free(self.m.w1s); free(self.m.w1a); free(self.m.b1)
        free(self.m.folded); free(self.m.folded_bias)
        free(self.m.w2); free(self.m.b2); free(self.m.w3)

    def capsule(self):
        """The ``PlayoutModel`` the search takes (``search_fields(model=...)``);
        the capsule keeps this object alive."""
        return model_capsule(&self.hooks, self)

    def view_q_values(self, Rules rules, dict fields):
        """``(codes, q)``: the legal move codes of a view whose seat is to move
        (``parse_view`` fields) and their Q in points, by the C forward pass."""
        cdef GameStateC st
        cdef uint16_t moves[MAX_MOVES]
        cdef float q[MAX_MOVES]
        cdef int counts[NN_SEATS]
        cdef int n, i
        view_state(fields, &st, counts)
        n = generate_moves(&st, &rules.c, moves)
        nn_q_values(&self.m, &st, &rules.c, counts, moves, n, q)
        return [moves[i] for i in range(n)], np.array([q[i] for i in range(n)], dtype=np.float32)


# ---------------------------------------------------------------- opponent model
# The network as a model of the other seats: a sampled deal is weighed by how
# likely the opponents' observed decisions were, had they held its cards and
# played the network's softmax over Q (docs/search.md, ``worlds``).

cdef double neural_world_weight(const GameStateC* world, const RulesC* r,
                                const void* data) noexcept nogil:
    """exp of the summed log-probabilities of every observed decision, each
    seat's hand then being its hand in ``world`` and the cards it laid down
    since; a move that hand could not have made counts as very unlikely."""
    cdef const NeuralOpponentC* m = <const NeuralOpponentC*>data
    cdef const Observation* o
    cdef GameStateC st
    cdef uint16_t moves[MAX_MOVES]
    cdef float q[MAX_MOVES]
    cdef double scores[MAX_MOVES]
    cdef int k, i, n, found
    cdef double logp = 0.0
    for k in range(m.nobs):
        o = &m.obs[k].obs
        st = o.state
        st.hand[o.seat] = world.hand[o.seat] | o.since
        n = generate_moves(&st, r, moves)
        found = -1
        for i in range(n):
            if moves[i] == o.move:
                found = i
        if found < 0:
            logp += IMPOSSIBLE_LOGP
            continue
        if n == 1:
            continue
        nn_q_values(m.net, &st, r, m.obs[k].counts, moves, n, q)
        for i in range(n):
            scores[i] = q[i]
        logp += softmax_logp(scores, n, found, m.temperature)
    return exp(logp)


cdef int opponent_pick(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                       const void* data) noexcept nogil:
    return neural_pick(s, r, moves, n, (<const NeuralOpponentC*>data).net)


cdef double opponent_value(const GameStateC* s, const RulesC* r, int seat,
                           const void* data) noexcept nogil:
    return neural_value(s, r, seat, (<const NeuralOpponentC*>data).net)


cdef class NeuralOpponentModel:
    """A network (:class:`NeuralPlayout`, shared) as the search's playout model
    with an opponent model: the search's ``worlds`` draws each sampled deal
    among several by the likelihood of the opponents' decisions given to
    :meth:`set_observations`, under a softmax of the network's Q at
    ``temperature`` points.  One per bot: the observations are its own."""

    def __cinit__(self):
        self.m.nobs = 0
        self.m.net = NULL
        self.hooks.pick = opponent_pick
        self.hooks.value = opponent_value
        self.hooks.weight = neural_world_weight
        self.hooks.data = &self.m

    def __init__(self, NeuralPlayout playout, double temperature=1.0):
        if not temperature > 0.0:
            raise ValueError(f"temperature must be a positive number of points, got {temperature}")
        self.playout = playout
        self.m.net = &playout.m
        self.m.temperature = temperature

    @property
    def temperature(self) -> float:
        return self.m.temperature

    @property
    def observations(self) -> int:
        return self.m.nobs

    def capsule(self):
        """The ``PlayoutModel`` the search takes (``search_fields(model=...,
        worlds=W)``); the capsule keeps this object (and its network) alive."""
        return model_capsule(&self.hooks, self)

    def set_observations(self, Rules rules, observations) -> None:
        """The opponents' decisions the next searches weigh their deals by, as
        :meth:`gostop_core.bots.policy.LearnedPolicy.set_observations` takes
        them: ``(fields, move, since)``, ``fields`` the searching seat's view
        when another seat was to move.  The last NN_MAX_OBSERVATIONS are kept."""
        cdef int k = 0, q
        items = list(observations)[-NN_MAX_OBSERVATIONS:]
        for fields, move, since in items:   # all first: a bad one changes nothing
            check_observation(fields, move, since)
            if fields["nplayers"] > NN_SEATS:
                raise ValueError(f"the network's encoding has room for {NN_SEATS} seats")
        for fields, move, since in items:
            fill_observation(&self.m.obs[k].obs, fields, move, since)
            for q in range(NN_SEATS):
                self.m.obs[k].counts[q] = fields["hand_counts"][q] if q < fields["nplayers"] else 0
            k += 1
        self.m.nobs = k

    def clear_observations(self) -> None:
        self.m.nobs = 0

    def weight(self, Rules rules, dict fields, hands) -> float:
        """The opponent model's weight of a deal, as
        :meth:`gostop_core.bots.policy.LearnedPolicy.weight` gives it: ``hands``
        maps each other seat to the mask of its hand now (over the view ``fields``)."""
        cdef GameStateC world
        fill_public(&world, fields, fields["seat"])
        for q, mask in hands.items():
            world.hand[q] = mask
        return neural_world_weight(&world, &rules.c, &self.m)
