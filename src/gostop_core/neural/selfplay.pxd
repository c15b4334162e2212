# The network's encoding, its first layer and the batched self-play actor (selfplay.pyx).
from libc.stdint cimport uint64_t, uint16_t, uint8_t
from gostop_core.rules cimport RulesC
from gostop_core.movegen cimport GameStateC

cdef enum:
    NN_SEATS = 3             # seats the encoding has room for (2 and 3 players)
    STATE_FEATURES = 416     # encode_state: 7 card planes of 50, 16 per seat, the globals
    ACTION_FEATURES = 168    # encode_action: kind, card, target, taken planes, gains
    NN_MAX_HIDDEN = 1024

cdef void encode_state(const GameStateC* s, const RulesC* r, int seat, const int* hand_counts,
                       uint8_t* out) noexcept nogil
cdef void encode_action(const GameStateC* s, const RulesC* r, uint16_t move, uint8_t* out) noexcept nogil
cdef int view_state(dict fields, GameStateC* st, int* counts) except -1
cdef void first_layer(const uint8_t* x, int n, const float* w, int hidden, float* out) noexcept nogil
