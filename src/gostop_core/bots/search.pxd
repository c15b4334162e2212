# Expectimax search from a player's view: C kernels over GameStateC (see search.pyx).
from libc.stdint cimport uint64_t, uint16_t, int32_t, uint8_t
from gostop_core.rules cimport RulesC
from gostop_core.movegen cimport GameStateC

cdef enum:
    SEARCH_MAX_PV = 32        # principal-line entries kept per node
    SEARCH_MAX_SAMPLES = 1024  # determinizations per search
    PV_CHANCE_SEAT = 7        # seat field of a principal-line entry that is a flipped card
    ROLLOUT_PV_TURNS = 2      # turns of a playout shown in the principal line

# The table of the searching seat's information sets (search.pyx, ``consistent``):
# node k stands for what the seat has seen since the root (its own moves, the
# cards it saw turned or drew, the other seats' moves); its own decisions are
# resolved on the sums over every sample that reaches a node, never per sample.
ctypedef struct InfoNode:
    int32_t parent            # -1 for the root
    int32_t edge              # pv_entry(seat, move) or pv_entry(PV_CHANCE_SEAT, card)
    double leaf               # committed sum of weighted leaf values ending here
    uint8_t is_move           # the edge is a move of the searching seat (max), else seen (sum)
    uint8_t live              # a committed sample reached the node

ctypedef struct InfoTrie:
    InfoNode* nodes
    int32_t count
    int32_t capacity
    int32_t limit             # the most nodes allowed (the table is full past it)
    int32_t* table            # open addressing: node index + 1, 0 for an empty slot
    uint64_t table_mask
    int32_t* log_node         # the current sample's leaf values, committed when it completes
    double* log_value
    int32_t log_count
    int32_t log_capacity
    double* val               # resolved values (info_resolve)
    int full                  # a node or log entry could not be added: values fall back

# A learned playout policy and value (gostop_core.bots.policy), reached through
# function pointers so that the search needs no Python object in its loops.
ctypedef int (*PlayoutPickFn)(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                              const void* data) noexcept nogil
ctypedef double (*PlayoutValueFn)(const GameStateC* s, const RulesC* r, int seat,
                                  const void* data) noexcept nogil
ctypedef double (*WorldWeightFn)(const GameStateC* world, const RulesC* r,
                                 const void* data) noexcept nogil
ctypedef struct PlayoutModel:
    PlayoutPickFn pick        # index of the move to play
    PlayoutValueFn value      # estimated terminal value for a seat
    WorldWeightFn weight      # likelihood of the opponents' observed moves in a sampled deal
    const void* data

ctypedef struct SearchCtx:
    const RulesC* r
    int root                  # the seat searching
    int threshold             # Go/Stop threshold of the hand
    int active                # seats in play
    double beta               # leaf model: steepness of the win chances
    double reach_per_card     # leaf model: points a hand card is expected to bring
    double w[16]               # leaf model weights (see LEAF_WEIGHTS in search.pyx)
    int rollout               # leaf: 0 the fitted estimate, 1 a policy playout to the end
    double win_bonus          # added to a won hand's value (taken from a lost one's)
    uint64_t nodes            # decision and chance nodes visited
    int32_t* pv_end           # the last usable slot of the principal line being filled
    int plan                  # playouts per Go at the root seat's Go/Stop inside a playout (0: greedy rule)
    int planning              # 1 while such a nested playout runs (no nesting deeper)
    uint64_t plan_rng         # the nested playouts' re-deal of the unseen cards
    InfoTrie* trie            # consistent own decisions (NULL: the best move per sample)
    int follow                # 1: own decisions follow the resolved table, nothing added
    const PlayoutModel* model # learned playout policy/value, NULL for the greedy policy
    int model_own             # the model plays the searching seat's moves below the root
    int model_others          # the model plays the other seats' moves
    int cut                   # with a model: playout turns before its value (0: to the end)
    int worlds                # candidate deals per sample, one drawn by world weight (<= 1: off)
    int sampled_flips         # 1: a flip turns the sample's own stock card only (no chance node)

# A stop asked of one search (search.pyx): its flag is read by the C loops.
cdef class StopToken:
    cdef int asked

cdef double leaf_value(const GameStateC* s, SearchCtx* c) noexcept nogil
cdef double rollout_value(const GameStateC* s, SearchCtx* c, int32_t* pv, int* pvlen) noexcept nogil
cdef int plan_go_stop(const GameStateC* s, SearchCtx* c, const uint16_t* moves, int n) noexcept nogil
cdef double terminal_value(const GameStateC* s, SearchCtx* c) noexcept nogil
cdef int policy_move(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n) noexcept nogil


# The playout policy's move: the learned model's where the search asked for it
# for the seat to move (model_own, model_others), else the greedy policy's.
# Inline here so that the expectimax and the tree search share it at no cost.
cdef inline int playout_pick(const GameStateC* w, const SearchCtx* c, const uint16_t* moves,
                             int n) noexcept nogil:
    if c.model != NULL and (c.model_own if w.to_move == c.root else c.model_others):
        return c.model.pick(w, c.r, moves, n, c.model.data)
    return policy_move(w, c.r, moves, n)
cdef void greedy_values(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                        double* out) noexcept nogil
cdef double card_worth(int c) noexcept nogil
cdef double node_value(const GameStateC* s, SearchCtx* c, int depth, int32_t* pv, int* pvlen,
                       int32_t tn, double weight) noexcept nogil
cdef double move_value(const GameStateC* s, SearchCtx* c, uint16_t move, int depth,
                       int32_t* pv, int* pvlen, int32_t tn, double weight) noexcept nogil

cdef double now_ms() noexcept nogil
cdef object model_capsule(const PlayoutModel* hooks, object owner)
