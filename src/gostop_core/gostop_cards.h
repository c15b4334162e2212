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

/* Bit counting, portable.  GCC and Clang get their builtins; MSVC (which
   defines neither __GNUC__ nor __x86_64__) gets its intrinsics; any other
   compiler, or a build with GS_PORTABLE defined, gets the plain C versions.

   Population count: without a popcnt instruction enabled at compile time
   (plain x86-64 builds, the wheels' baseline), __builtin_popcountll is a call
   into libgcc's table loop (__popcountdi2); the inline bit-slice count below is
   several times faster there.  With the instruction (-mpopcnt, ARM) the
   builtin is one instruction.  MSVC's __popcnt64 always emits the instruction,
   so it is used only where /arch:AVX (which implies it) is on. */
#if defined(_MSC_VER) && !defined(__cplusplus)
#define GS_INLINE static __inline
#else
#define GS_INLINE static inline
#endif

GS_INLINE int gs_popcount_portable(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* Index of the lowest set bit (x != 0): isolate it, then a de Bruijn lookup. */
static const unsigned char GS_DEBRUIJN_INDEX[64] = {
     0,  1, 48,  2, 57, 49, 28,  3, 61, 58, 50, 42, 38, 29, 17,  4,
    62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12,  5,
    63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
    46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19,  9, 13,  8,  7,  6,
};
GS_INLINE int gs_lowest_portable(uint64_t x) {
    return GS_DEBRUIJN_INDEX[((x & (0 - x)) * 0x03F79D71B4CB0A89ULL) >> 58];
}

#if defined(GS_PORTABLE)
GS_INLINE int gs_popcount(uint64_t x) { return gs_popcount_portable(x); }
GS_INLINE int gs_lowest(uint64_t x) { return gs_lowest_portable(x); }
#elif defined(__GNUC__) || defined(__clang__)
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
GS_INLINE int gs_popcount(uint64_t x) { return __builtin_popcountll(x); }
#elif defined(__x86_64__)
/* Baseline x86-64 build: the popcnt instruction is used when the processor
   has it (every x86-64 processor since 2008), found once per module when it
   is loaded; the branch on the flag is always predicted, and a loop over it
   is unswitched by the compiler.  Constants still fold. */
#include <cpuid.h>
static int gs_cpu_has_popcnt = 0;
__attribute__((constructor, used)) static void gs_detect_popcnt(void) {
    unsigned int a, b, c, d;
    if (__get_cpuid(1, &a, &b, &c, &d))
        gs_cpu_has_popcnt = (int)((c >> 23) & 1);  /* CPUID.1:ECX.POPCNT */
}
GS_INLINE int gs_popcount(uint64_t x) {
    uint64_t r;
    if (__builtin_constant_p(x)) return __builtin_popcountll(x);
    if (__builtin_expect(gs_cpu_has_popcnt, 1)) {
        __asm__("popcntq %1, %0" : "=r"(r) : "rm"(x) : "cc");
        return (int)r;
    }
    return gs_popcount_portable(x);
}
#else
GS_INLINE int gs_popcount(uint64_t x) { return gs_popcount_portable(x); }
#endif
GS_INLINE int gs_lowest(uint64_t x) { return __builtin_ctzll(x); }
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
#include <intrin.h>
#if defined(_M_X64) && defined(__AVX__)
GS_INLINE int gs_popcount(uint64_t x) { return (int)__popcnt64(x); }
#else
GS_INLINE int gs_popcount(uint64_t x) { return gs_popcount_portable(x); }
#endif
GS_INLINE int gs_lowest(uint64_t x) {
    unsigned long index;
    _BitScanForward64(&index, x);
    return (int)index;
}
#else
GS_INLINE int gs_popcount(uint64_t x) { return gs_popcount_portable(x); }
GS_INLINE int gs_lowest(uint64_t x) { return gs_lowest_portable(x); }
#endif

/* x mod d for the small bounds of shuffles and playouts (2 <= d <= 64) without
   a division instruction: the quotient by multiplication with a per-divisor
   constant (Granlund and Montgomery, "Division by invariant integers using
   multiplication", 1994, Figure 4.1: with l = ceil(log2 d) and
   m = floor(2^64 (2^l - d) / d) + 1, q = (t + ((x - t) >> 1)) >> (l - 1) where
   t = the high word of m x, exact for every 64-bit x), then x - q d.  The
   same result as x % d, so the same deals; compilers without a 128-bit
   integer use the division. */
#if defined(__SIZEOF_INT128__) && !defined(GS_PORTABLE)
#define GS_CEIL_LOG2(d) ((d) <= 2 ? 1 : (d) <= 4 ? 2 : (d) <= 8 ? 3 : (d) <= 16 ? 4 \
    : (d) <= 32 ? 5 : (d) <= 64 ? 6 : 7)
#define GS_DIVMAGIC_ROW(d) {(uint64_t)((((unsigned __int128)((1ULL << GS_CEIL_LOG2(d)) - (d))) << 64) \
    / (d) + 1), GS_CEIL_LOG2(d) - 1}
#define GS_DIVMAGIC_8(d) GS_DIVMAGIC_ROW(d), GS_DIVMAGIC_ROW(d + 1), GS_DIVMAGIC_ROW(d + 2), \
    GS_DIVMAGIC_ROW(d + 3), GS_DIVMAGIC_ROW(d + 4), GS_DIVMAGIC_ROW(d + 5), \
    GS_DIVMAGIC_ROW(d + 6), GS_DIVMAGIC_ROW(d + 7)
/* row d - 2: the multiplier and the final shift for d = 2..65 (65 is never used) */
static const uint64_t GS_DIVMAGIC_TABLE[64][2] = {
    GS_DIVMAGIC_8(2), GS_DIVMAGIC_8(10), GS_DIVMAGIC_8(18), GS_DIVMAGIC_8(26),
    GS_DIVMAGIC_8(34), GS_DIVMAGIC_8(42), GS_DIVMAGIC_8(50), GS_DIVMAGIC_8(58),
};
GS_INLINE uint32_t gs_mod_small(uint64_t x, uint32_t d) {
    uint64_t t, q;
    if (d < 2 || d > 64) return d ? (uint32_t)(x % d) : 0;
    t = (uint64_t)(((unsigned __int128)GS_DIVMAGIC_TABLE[d - 2][0] * x) >> 64);
    q = (t + ((x - t) >> 1)) >> GS_DIVMAGIC_TABLE[d - 2][1];
    return (uint32_t)(x - q * d);
}
#else
GS_INLINE uint32_t gs_mod_small(uint64_t x, uint32_t d) { return d ? (uint32_t)(x % d) : 0; }
#endif

#endif
