# What a finished hand pays (see settlement.pyx).
from libc.stdint cimport int32_t
from gostop_core.rules cimport RulesC
from gostop_core.gamestate cimport GameStateC, SettlementC

cdef int32_t go_points(int32_t score, int gos, const RulesC* r) noexcept nogil
cdef void settle(const GameStateC* s, const RulesC* r, int winner, SettlementC* out) noexcept nogil
