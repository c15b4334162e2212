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

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(_WIN32) \
    && !defined(GS_PORTABLE) && !defined(__SANITIZE_ADDRESS__)
#define GS_NN_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GS_NN_CLONES
#endif

/* out += x @ w over the rows of x's non-zero bytes: inlined into each clone
   below, so that it is vectorised for that clone's instruction set. */
static inline void gs_nn_add_rows(const uint8_t* restrict x, int n, const float* restrict w,
                                  int hidden, float* restrict out) {
    int i, j;
    for (i = 0; i < n; i++) {
        if (x[i]) {
            const float v = (float)x[i];
            const float* restrict row = w + (int64_t)i * hidden;
            for (j = 0; j < hidden; j++)
                out[j] += v * row[j];
        }
    }
}

GS_NN_CLONES
static void gs_nn_sparse_layer(const uint8_t* restrict x, int n, const float* restrict w,
                               int hidden, float* restrict out) {
    gs_nn_add_rows(x, n, w, hidden, out);
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

/* out += (x - base) @ w over the rows where x and base differ (signed). */
static inline void gs_nn_add_delta_rows(const uint8_t* restrict x, const uint8_t* restrict base,
                                        int n, const float* restrict w, int hidden,
                                        float* restrict out) {
    int i, j;
    for (i = 0; i < n; i++) {
        const int d = (int)x[i] - (int)base[i];
        if (d) {
            const float v = (float)d;
            const float* restrict row = w + (int64_t)i * hidden;
            for (j = 0; j < hidden; j++)
                out[j] += v * row[j];
        }
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
