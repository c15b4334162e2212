# The learned playout policy and value (see policy.pyx): C scoring over masks.
from libc.stdint cimport uint64_t, uint16_t
from gostop_core.rules cimport RulesC
from gostop_core.movegen cimport GameStateC

cdef enum:
    POLICY_FEATURES = 24     # features of one legal move (move_features)
    VALUE_FEATURES = 16      # features of a state from one seat (value_features)
    MAX_OBSERVATIONS = 48    # opponents' decisions kept for the opponent model
    IMPOSSIBLE_LOGP = -30    # log-probability of an observed move the hand could not make

ctypedef struct Observation:
    GameStateC state         # the public state at an opponent's decision (no hidden card)
    uint64_t since           # cards that seat laid down from its hand from then on (this move's too)
    int seat                 # the opponent who decided
    uint16_t move            # what it played

ctypedef struct LearnedModel:
    double policy[POLICY_FEATURES]
    double value[VALUE_FEATURES]
    double temperature       # of the opponent model's softmax (score units)
    int nobs
    Observation obs[MAX_OBSERVATIONS]

cdef void move_features(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                        double* out) noexcept nogil
cdef void value_features(const GameStateC* s, const RulesC* r, int seat, double* out) noexcept nogil
cdef int learned_move(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                      const void* model) noexcept nogil
cdef double learned_value(const GameStateC* s, const RulesC* r, int seat, const void* model) noexcept nogil
cdef double world_weight(const GameStateC* world, const RulesC* r, const void* model) noexcept nogil
cdef uint64_t taken_by(const GameStateC* s, const RulesC* r, uint16_t move) noexcept nogil
cdef double softmax_logp(const double* scores, int n, int found,
                         double temperature) noexcept nogil
cdef int check_observation(dict fields, move, since) except -1
cdef void fill_observation(Observation* o, dict fields, move, since)
