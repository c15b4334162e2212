# The network's inputs and its first layer (inputs.pyx): the actor and the playouts share them.
from libc.stdint cimport uint64_t, uint16_t, uint8_t, int32_t
from gostop_core.rules cimport RulesC
from gostop_core.movegen cimport GameStateC

cdef enum:
    NN_SEATS = 3             # seats the encoding has room for (2 and 3 players)
    STATE_FEATURES = 464     # encode_state: 7 card planes of 50, 16 per seat, the globals, threats
    S_THREATS = 416          # state bytes: 16 a seat, the sets it is one card from (round 12)
    THREATS_PER_SEAT = 16
    ACTION_FEATURES = 226    # encode_action: kind, card, target, taken planes, gains, exposure, denial
    A_OPEN = 168             # action bytes: the cards a move leaves open to an unseen match
    A_EXPOSURE = 218         # action bytes: counts of what it leaves open and sets up
    A_DENY = 224             # action bytes: what the field cards it takes were worth to the next seat
    EXPOSURE_FEATURES = 58   # A_OPEN to the end: the bytes a move changes from its decision's base
    NN_MAX_HIDDEN = 1024
    VISIBLE_PLANES = 6       # the card planes before the unseen one: hand, field, shown, three piles

cdef bint encode_state(const GameStateC* s, const RulesC* r, int seat, const int* hand_counts,
                       uint8_t* out, uint64_t* planes) noexcept nogil
cdef void fold_state_rows(const float* w1s, const float* b1, int hidden, float* folded,
                          float* folded_bias) noexcept nogil
cdef void state_first_layer(const RulesC* r, const uint8_t* s_row, const uint64_t* planes,
                            bint partition, const float* w1s, const float* b1, const float* folded,
                            const float* folded_bias, int hidden, float* out) noexcept nogil
cdef struct ExposureC:
    # what the moves of one decision share for encode_action's exposure rows
    uint64_t unseen, unseen_months, shown, opp_pile, own_pile
    uint64_t gain_months      # month_bits of the months whose gains below are worked out
    int32_t opp_base, opp_junk, own_base
    int32_t opp_gain[13], opp_junk_gain[13], own_gain[13]   # by month, the field as it is

cdef void exposure_context(const GameStateC* s, const RulesC* r, ExposureC* ctx) noexcept nogil
cdef void encode_action(const GameStateC* s, const RulesC* r, const ExposureC* ctx, uint16_t move,
                        uint8_t* out) noexcept nogil
cdef void exposure_base(const GameStateC* s, const RulesC* r, const ExposureC* ctx, const float* w1a,
                        int hidden, uint8_t* base, float* state) noexcept nogil
cdef void move_first_layer(const float* state, const uint8_t* row, const uint8_t* base,
                           const float* w1a, int hidden, float* out) noexcept nogil
cdef void encode_moves(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                       const float* w1a, int hidden, float* state, uint8_t* a_rows,
                       float* h1_rows) noexcept nogil
cdef void decision_inputs(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                          const float* w1s, const float* w1a, const float* b1,
                          const float* folded, const float* folded_bias, int hidden,
                          uint8_t* s_row, uint8_t* a_rows, float* h1_rows) noexcept nogil
cdef int view_state(dict fields, GameStateC* st, int* counts) except -1
cdef void first_layer(const uint8_t* x, int n, const float* w, int hidden, float* out) noexcept nogil
