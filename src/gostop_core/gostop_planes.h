/* Card sets written out as byte planes (one byte 0/1 per card), for the
   batched environment's observations and masks.

   A plane of n entries is byte i = bit i of a 64-bit set, i < n <= 64.  The
   portable version writes eight entries per table load; on x86-64 processors
   with AVX2 (found once, when the module is loaded: the wheels are built for
   the plain x86-64 baseline) 32 entries are made with one byte shuffle and a
   compare.  Both write exactly n bytes, never past them. */
#ifndef GOSTOP_PLANES_H
#define GOSTOP_PLANES_H

#include <stdint.h>
#include <string.h>

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(GS_PORTABLE)
#define GS_PLANES_X86 1
#include <immintrin.h>
#endif

/* gs_expand[b]: the 8 bytes whose byte i is bit i of b (byte order free). */
static uint64_t gs_expand[256];
static int gs_planes_avx2 = 0;

static void gs_planes_init(void) {
    int b, i;
    uint8_t bytes8[8];
    for (b = 0; b < 256; b++) {
        for (i = 0; i < 8; i++)
            bytes8[i] = (uint8_t)((b >> i) & 1);
        memcpy(&gs_expand[b], bytes8, 8);
    }
#ifdef GS_PLANES_X86
    __builtin_cpu_init();
    gs_planes_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
#endif
}

/* Portable: n entries (n <= 64) from bits, eight at a time, the last few
   byte by byte out of one table entry. */
static inline void gs_plane_table(uint8_t* out, uint64_t bits, int n) {
    int j = 0;
    for (; j + 8 <= n; j += 8)
        memcpy(out + j, &gs_expand[(bits >> j) & 0xFF], 8);
    if (j < n)
        memcpy(out + j, &gs_expand[(bits >> j) & 0xFF], (size_t)(n - j));
}

#ifdef GS_PLANES_X86
/* 32 entries from the 4 bytes of bits at byte offset 0 (half 0) or 4 (half 1). */
__attribute__((target("avx2")))
static inline __m256i gs_plane32_avx2(uint64_t bits, int half) {
    const __m256i pick = half
        ? _mm256_setr_epi8(4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5,
                           6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7)
        : _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                           2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201ULL);
    /* every 128-bit lane holds the 8 bytes of bits twice, so the in-lane
       shuffle can reach each of them */
    __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi64x((long long)bits), pick);
    v = _mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit);
    return _mm256_and_si256(v, _mm256_set1_epi8(1));
}

/* count planes of 50 entries, back to back. */
__attribute__((target("avx2")))
static void gs_planes50_avx2(uint8_t* out, const uint64_t* sets, int count) {
    int k;
    uint16_t tail;
    __m256i high;
    for (k = 0; k < count; k++, out += 50) {
        _mm256_storeu_si256((__m256i*)out, gs_plane32_avx2(sets[k], 0));
        high = gs_plane32_avx2(sets[k], 1);
        _mm_storeu_si128((__m128i*)(out + 32), _mm256_castsi256_si128(high));
        tail = (uint16_t)_mm256_extract_epi16(high, 8);
        memcpy(out + 48, &tail, 2);
    }
}

/* The 74 entries of a 74-bit set held in two words. */
__attribute__((target("avx2")))
static void gs_plane74_avx2(uint8_t* out, uint64_t low, uint64_t high) {
    _mm256_storeu_si256((__m256i*)out, gs_plane32_avx2(low, 0));
    _mm256_storeu_si256((__m256i*)(out + 32), gs_plane32_avx2(low, 1));
    gs_plane_table(out + 64, high, 10);
}
#endif

/* count planes of 50 entries (the cards and the two bonus cards), back to back. */
static inline void gs_planes50(uint8_t* out, const uint64_t* sets, int count) {
    int k;
#ifdef GS_PLANES_X86
    if (gs_planes_avx2) {
        gs_planes50_avx2(out, sets, count);
        return;
    }
#endif
    for (k = 0; k < count; k++)
        gs_plane_table(out + 50 * k, sets[k], 50);
}

/* The 74 entries of a 74-bit set: bits 0-63 in low, 64-73 in high. */
static inline void gs_plane74(uint8_t* out, uint64_t low, uint64_t high) {
#ifdef GS_PLANES_X86
    if (gs_planes_avx2) {
        gs_plane74_avx2(out, low, high);
        return;
    }
#endif
    gs_plane_table(out, low, 64);
    gs_plane_table(out + 64, high, 10);
}

/* The byte values base, base + 1, base + 2 (and a spare fourth byte) as the
   uint32_t whose bytes lie in memory in that order, and the step that adds 3
   to each: a play slot's three list entries in one 4-byte store. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define GS_THREE(base) (((uint32_t)(base) << 24) | ((uint32_t)((base) + 1) << 16) \
    | ((uint32_t)((base) + 2) << 8))
#define GS_THREE_STEP 0x03030300u
#else
#define GS_THREE(base) ((uint32_t)(base) | ((uint32_t)((base) + 1) << 8) \
    | ((uint32_t)((base) + 2) << 16))
#define GS_THREE_STEP 0x00030303u
#endif

#endif
