# Scoring of a captured pile: C kernel over a uint64 mask.
from libc.stdint cimport uint64_t, int32_t
from gostop_core.rules cimport RulesC

ctypedef struct ScoreC:
    int32_t total            # points (family rules: card points)
    int32_t brights          # bright cards held
    int32_t bright_points
    int32_t ribbons          # ribbons counted toward the ribbon score
    int32_t ribbon_points
    int32_t hongdan_points
    int32_t cheongdan_points
    int32_t chodan_points
    int32_t animals          # animals counted (flexible cards as chosen)
    int32_t animal_points
    int32_t godori_points
    int32_t junk             # junk value: single 1, double 2, bonus cards, flexible cards as chosen
    int32_t junk_points
    int32_t sake_cup_as_junk  # 1 when 9A was counted as junk
    int32_t bridge_as_junk    # 1 when 5A was counted as junk
    int32_t family_set_bonus  # family rules: set bonuses this pile earns from each other player

cdef int32_t score_pile(uint64_t pile, const RulesC* r, ScoreC* out) noexcept nogil
cdef int32_t score_total(uint64_t pile, const RulesC* r) noexcept nogil
cdef int32_t junk_value(uint64_t pile, const RulesC* r) noexcept nogil
cdef void score_assignment(uint64_t pile, const RulesC* r, int sake_junk, int bridge_junk,
                           ScoreC* s) noexcept nogil
cdef int32_t max_junk_value(uint64_t pile, const RulesC* r) noexcept nogil
