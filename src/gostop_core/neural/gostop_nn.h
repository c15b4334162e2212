/* The network's layers in C.  The sparse first layer: out += v * row over
   `hidden` floats, for each non-zero input byte; the dense layer: the same
   over float inputs, skipping the zeros a ReLU leaves (about half of them).  The pointers never alias (restrict), so the loop
   is vectorised; on x86-64 with GCC or Clang an AVX2+FMA copy is built beside
   the baseline one and chosen once at load time (the wheels target the plain
   x86-64 baseline).  Summation order is the same in both: each output adds
   its terms input by input. */
#ifndef GOSTOP_NN_H
#define GOSTOP_NN_H

#include <stdint.h>

#if (defined(__GNUC__) || defined(__clang__)) && defined(__SSE2__)
#include <emmintrin.h>
#define GS_NN_SSE2 1
#else
#define GS_NN_SSE2 0
#endif

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(_WIN32) \
    && !defined(GS_PORTABLE) && !defined(__SANITIZE_ADDRESS__)
#define GS_NN_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GS_NN_CLONES
#endif

/* Left to itself, GCC's unroll-and-jam fuses two rows of gs_nn_listed_rows
   into one scalar loop (twice as slow as the vectorised row). */
#if defined(__GNUC__) && !defined(__clang__)
#define GS_NN_NO_JAM __attribute__((optimize("no-loop-unroll-and-jam")))
#else
#define GS_NN_NO_JAM
#endif

/* Row i of w, times v, added to out (vectorised by the clone it is inlined into). */
static inline void gs_nn_add_row(float v, const float* restrict row, int hidden,
                                 float* restrict out) {
    int j;
    for (j = 0; j < hidden; j++)
        out[j] += v * row[j];
}

/* out += x @ w over the rows of x's non-zero bytes: inlined into each clone
   below, so that it is vectorised for that clone's instruction set.  With SSE2
   the non-zero bytes are found 16 at a time (a compare and a bit mask), so
   that the few of them cost a branch each rather than every byte one that is
   mispredicted at each non-zero; the rows are added in the same order. */
static inline void gs_nn_add_rows(const uint8_t* restrict x, int n, const float* restrict w,
                                  int hidden, float* restrict out) {
    int i = 0;
#if GS_NN_SSE2
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        unsigned mask = ~(unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(x + i)), zero)) & 0xFFFFu;
        while (mask) {
            const int k = i + __builtin_ctz(mask);
            mask &= mask - 1;
            gs_nn_add_row((float)x[k], w + (int64_t)k * hidden, hidden, out);
        }
    }
#endif
    for (; i < n; i++)
        if (x[i])
            gs_nn_add_row((float)x[i], w + (int64_t)i * hidden, hidden, out);
}

GS_NN_CLONES
static void gs_nn_sparse_layer(const uint8_t* restrict x, int n, const float* restrict w,
                               int hidden, float* restrict out) {
    gs_nn_add_rows(x, n, w, hidden, out);
}

/* out += the sum of the listed rows of w (inputs of value 1 whose places are
   known without reading the bytes: the cards of a plane, from its bit mask). */
GS_NN_CLONES GS_NN_NO_JAM
static void gs_nn_listed_rows(const int* restrict rows, int count, const float* restrict w,
                              int hidden, float* restrict out) {
    int k, j;
    for (k = 0; k < count; k++) {
        const float* restrict row = w + (int64_t)rows[k] * hidden;
        for (j = 0; j < hidden; j++)
            out[j] += row[j];
    }
}

GS_NN_CLONES
static void gs_nn_dense_layer(const float* restrict x, int n, const float* restrict w,
                              int width, float* restrict out) {
    int i, j;
    for (i = 0; i < n; i++) {
        const float v = x[i];
        if (v != 0.0f) {
            const float* restrict row = w + (int64_t)i * width;
            for (j = 0; j < width; j++)
                out[j] += v * row[j];
        }
    }
}

/* out += (x - base) @ w over the rows where x and base differ (signed); 16
   bytes at a time with SSE2, as gs_nn_add_rows. */
static inline void gs_nn_add_delta_rows(const uint8_t* restrict x, const uint8_t* restrict base,
                                        int n, const float* restrict w, int hidden,
                                        float* restrict out) {
    int i = 0;
#if GS_NN_SSE2
    for (; i + 16 <= n; i += 16) {
        unsigned mask = ~(unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(x + i)),
                           _mm_loadu_si128((const __m128i*)(base + i)))) & 0xFFFFu;
        while (mask) {
            const int k = i + __builtin_ctz(mask);
            mask &= mask - 1;
            gs_nn_add_row((float)((int)x[k] - (int)base[k]), w + (int64_t)k * hidden, hidden, out);
        }
    }
#endif
    for (; i < n; i++) {
        const int d = (int)x[i] - (int)base[i];
        if (d)
            gs_nn_add_row((float)d, w + (int64_t)i * hidden, hidden, out);
    }
}

/* One legal move's first hidden layer: out = relu(state + its action rows).
   `state` is the decision's state part (bias included) with the rows of the
   `base` bytes already in, shared by its moves; the row's first n bytes add
   their rows, its last n_delta bytes only where they differ from base (the
   exposure bytes: a move changes one or two months of the field).  The copy
   and the ReLU are vectorised here (a scalar ReLU written in Cython was a
   quarter of the actor's time). */
GS_NN_CLONES
static void gs_nn_action_row_delta(const float* restrict state, const uint8_t* restrict x, int n,
                                   const uint8_t* restrict base, int n_delta,
                                   const float* restrict w, int hidden, float* restrict out) {
    int j;
    for (j = 0; j < hidden; j++)
        out[j] = state[j];
    gs_nn_add_rows(x, n, w, hidden, out);
    gs_nn_add_delta_rows(x + n, base, n_delta, w + (int64_t)n * hidden, hidden, out);
    for (j = 0; j < hidden; j++)
        out[j] = out[j] > 0.0f ? out[j] : 0.0f;
}

#endif
