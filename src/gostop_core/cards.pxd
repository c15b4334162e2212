# Card bit layout and mask constants (values live in gostop_cards.h so that every
# module's C kernels see the same compile-time constants).
from libc.stdint cimport uint64_t, uint32_t

cdef extern from "gostop_cards.h":
    const int GS_NUM_CARDS
    const int GS_NUM_MONTH_CARDS
    const int GS_CARD_X2
    const int GS_CARD_X3
    const int GS_NO_CARD
    const uint64_t GS_MASK_ALL
    const uint64_t GS_MASK_MONTH_CARDS
    const uint64_t GS_MASK_BONUS
    const uint64_t GS_MASK_BRIGHT
    const uint64_t GS_MASK_RAIN_BRIGHT
    const uint64_t GS_MASK_ANIMAL
    const uint64_t GS_MASK_RIBBON
    const uint64_t GS_MASK_DOUBLE_JUNK
    const uint64_t GS_MASK_SINGLE_JUNK
    const uint64_t GS_MASK_JUNK
    const uint64_t GS_MASK_HONGDAN
    const uint64_t GS_MASK_CHEONGDAN
    const uint64_t GS_MASK_CHODAN
    const uint64_t GS_MASK_RAIN_RIBBON
    const uint64_t GS_MASK_GODORI
    const uint64_t GS_MASK_SAKE_CUP
    const uint64_t GS_MASK_BRIDGE
    uint64_t GS_BIT(int i) noexcept nogil
    uint64_t GS_MONTH_MASK(int m) noexcept nogil
    int gs_popcount(uint64_t x) noexcept nogil
    int gs_lowest(uint64_t x) noexcept nogil
    uint32_t gs_mod_small(uint64_t x, uint32_t d) noexcept nogil


cdef inline int card_month(int card) noexcept nogil:
    """Month 1..12 of a card index, 0 for the bonus cards."""
    if card >= GS_NUM_MONTH_CARDS:
        return 0
    return card // 4 + 1


cdef inline uint64_t same_month(int card) noexcept nogil:
    """Mask of the four cards sharing the card's month (empty for bonus cards)."""
    if card >= GS_NUM_MONTH_CARDS:
        return 0
    return GS_MONTH_MASK(card // 4 + 1)


cpdef uint64_t parse_mask(object cards) except? 0

cdef class CardSet:
    cdef readonly uint64_t mask
