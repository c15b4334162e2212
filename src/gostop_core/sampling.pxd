# Sampling the hidden cards of a view (see sampling.pyx): shared by the searches
# (gostop_core.bots.search, gostop_core.bots.ismcts) and the public C interface.
from libc.stdint cimport uint64_t, uint8_t
from gostop_core.rules cimport Rules
from gostop_core.movegen cimport GameStateC, bounded

cdef inline void shuffle_cards(uint8_t* cards, int n, uint64_t* rng) noexcept nogil:
    """Fisher-Yates shuffle of ``cards[0:n]`` with the splitmix64 stream ``rng``."""
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n - 1, 0, -1):
        j = bounded(rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp

cdef void fill_public(GameStateC* st, dict f, int seat)
cdef void determinize(const GameStateC* base, GameStateC* out, const uint8_t* pool, int npool,
                      const int* need, int seat, uint64_t* rng) noexcept nogil
cdef int view_base(Rules rules, dict fields, GameStateC* base, uint8_t* pool, int* need) except -1
cdef int check_hidden(const GameStateC* base, const int* need, int npool, int seat) except -1
