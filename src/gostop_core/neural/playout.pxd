# The whole Q network in C and the network as the search's playout model (playout.pyx).
from libc.stdint cimport uint16_t
from gostop_core.rules cimport RulesC
from gostop_core.movegen cimport GameStateC
from gostop_core.bots.search cimport PlayoutModel
from gostop_core.bots.policy cimport Observation

ctypedef struct NeuralNetC:
    int h1                    # first hidden layer's width
    int h2                    # second hidden layer's width
    float* w1s                # (STATE_FEATURES, h1), the input scale folded in
    float* w1a                # (ACTION_FEATURES, h1)
    float* b1
    float* folded             # fold_state_rows: w1s and b1 with the unseen plane folded in
    float* folded_bias        # (2, h1)
    float* w2                 # (h1, h2)
    float* b2
    float* w3                 # (h2,)
    float b3
    float scale               # points per unit of the output (RETURN_SCALE)

cdef void nn_q_values(const NeuralNetC* m, const GameStateC* s, const RulesC* r,
                      const int* counts, const uint16_t* moves, int n, float* out) noexcept nogil
cdef int nn_best(const NeuralNetC* m, const GameStateC* s, const RulesC* r,
                 const uint16_t* moves, int n, float* best_q) noexcept nogil

cdef class NeuralPlayout:
    cdef NeuralNetC m
    cdef PlayoutModel hooks
    cdef readonly object network

cdef enum:
    NN_MAX_OBSERVATIONS = 16  # opponents' decisions the network's opponent model weighs

ctypedef struct NeuralObservation:
    Observation obs           # the decision, as the learned policy's opponent model keeps it
    int counts[3]             # every seat's hand size then (the network's inputs read them)

ctypedef struct NeuralOpponentC:
    const NeuralNetC* net
    double temperature        # of the softmax over the opponent's Q (points)
    int nobs
    NeuralObservation obs[NN_MAX_OBSERVATIONS]

cdef class NeuralOpponentModel:
    cdef NeuralOpponentC m
    cdef PlayoutModel hooks
    cdef readonly NeuralPlayout playout
