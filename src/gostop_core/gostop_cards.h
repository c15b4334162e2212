/* Card bit layout shared by every Cython module of the core.
 * Card index = (month - 1) * 4 + slot, slot order as in the rules matrix
 * (e.g. month 1: 1B 1R 1J1 1J2); X2 = 48, X3 = 49.  A card set is one uint64. */
#ifndef GOSTOP_CARDS_H
#define GOSTOP_CARDS_H
#include <stdint.h>

#define GS_BIT(i) (((uint64_t)1) << (i))

#define GS_NUM_CARDS 50
#define GS_NUM_MONTH_CARDS 48
#define GS_CARD_X2 48
#define GS_CARD_X3 49
#define GS_NO_CARD 63

#define GS_MASK_ALL ((((uint64_t)1) << 50) - 1)
#define GS_MASK_MONTH_CARDS ((((uint64_t)1) << 48) - 1)
#define GS_MASK_BONUS (GS_BIT(48) | GS_BIT(49))

#define GS_MASK_BRIGHT (GS_BIT(0) | GS_BIT(8) | GS_BIT(28) | GS_BIT(40) | GS_BIT(44))
#define GS_MASK_RAIN_BRIGHT GS_BIT(44)
#define GS_MASK_ANIMAL (GS_BIT(4) | GS_BIT(12) | GS_BIT(16) | GS_BIT(20) | GS_BIT(24) | \
                        GS_BIT(29) | GS_BIT(32) | GS_BIT(36) | GS_BIT(45))
#define GS_MASK_RIBBON (GS_BIT(1) | GS_BIT(5) | GS_BIT(9) | GS_BIT(13) | GS_BIT(17) | \
                        GS_BIT(21) | GS_BIT(25) | GS_BIT(33) | GS_BIT(37) | GS_BIT(46))
#define GS_MASK_DOUBLE_JUNK (GS_BIT(41) | GS_BIT(47))
#define GS_MASK_SINGLE_JUNK (GS_BIT(2) | GS_BIT(3) | GS_BIT(6) | GS_BIT(7) | GS_BIT(10) | \
                             GS_BIT(11) | GS_BIT(14) | GS_BIT(15) | GS_BIT(18) | GS_BIT(19) | \
                             GS_BIT(22) | GS_BIT(23) | GS_BIT(26) | GS_BIT(27) | GS_BIT(30) | \
                             GS_BIT(31) | GS_BIT(34) | GS_BIT(35) | GS_BIT(38) | GS_BIT(39) | \
                             GS_BIT(42) | GS_BIT(43))
#define GS_MASK_JUNK (GS_MASK_SINGLE_JUNK | GS_MASK_DOUBLE_JUNK)

#define GS_MASK_HONGDAN (GS_BIT(1) | GS_BIT(5) | GS_BIT(9))
#define GS_MASK_CHEONGDAN (GS_BIT(21) | GS_BIT(33) | GS_BIT(37))
#define GS_MASK_CHODAN (GS_BIT(13) | GS_BIT(17) | GS_BIT(25))
#define GS_MASK_RAIN_RIBBON GS_BIT(46)
#define GS_MASK_GODORI (GS_BIT(4) | GS_BIT(12) | GS_BIT(29))
#define GS_MASK_SAKE_CUP GS_BIT(32)
#define GS_MASK_BRIDGE GS_BIT(16)

/* All four cards of month m (1..12). */
#define GS_MONTH_MASK(m) (((uint64_t)0xF) << (((m) - 1) * 4))

/* Population count.  Without a popcnt instruction enabled at compile time
   (plain x86-64 builds), __builtin_popcountll is a call into libgcc's table
   loop (__popcountdi2); the inline bit-slice count below is several times
   faster there.  With the instruction (-mpopcnt, -march=native, ARM) the
   builtin is one instruction. */
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
static inline int gs_popcount(uint64_t x) { return __builtin_popcountll(x); }
#else
static inline int gs_popcount(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif
static inline int gs_lowest(uint64_t x) { return __builtin_ctzll(x); }

#endif
