/* Guards of the C core: debug assertions, saturating payments, and a poll for a
 * pending signal (Ctrl-C) that the long C loops (perft, playouts, the search)
 * call once per node.
 *
 * GS_ASSERT(cond) aborts with the condition's text when the core is built with
 * the GOSTOP_DEBUG macro (GOSTOP_DEBUG=1 or GOSTOP_SANITIZE=1 at build time, see
 * setup.py); it compiles to nothing otherwise.
 *
 * Caps (docs/notation.md): a payment or a winner's points saturate at
 * GS_PAY_CAP, the chips a seat won or paid in one hand at +-GS_CHIPS_CAP, so every
 * value fits an int32 and the position parser accepts every value the engine
 * prints. */
#ifndef GOSTOP_GUARD_H
#define GOSTOP_GUARD_H
#include <Python.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef GOSTOP_DEBUG
static void gs_assert_fail(const char* what, const char* file, int line) {
    fprintf(stderr, "gostop core: assertion failed: %s (%s:%d)\n", what, file, line);
    abort();
}
#define GS_ASSERT(cond) ((cond) ? (void)0 : gs_assert_fail(#cond, __FILE__, __LINE__))
#define GS_DEBUG_BUILD 1
#else
#define GS_ASSERT(cond) ((void)0)
#define GS_DEBUG_BUILD 0
#endif

#define GS_PAY_CAP 100000000      /* 10**8: one payment, one winner's points */
#define GS_CHIPS_CAP 1000000000   /* 10**9: chips won (+) or paid (-) in one hand */
#define GS_SHIFT_CAP 24           /* doublings of a payment beyond which it saturates */

/* x clamped to [-cap, cap]. */
static inline int32_t gs_clamp(int64_t x, int64_t cap) {
    return (int32_t)(x > cap ? cap : (x < -cap ? -cap : x));
}

/* Ctrl-C inside a C loop.  Each thread keeps its own counter and flag; a loop
 * calls gs_interrupted() once per node, and every GS_POLL_INTERVAL calls the
 * main thread takes the GIL and runs Python's signal handlers
 * (PyErr_CheckSignals): a KeyboardInterrupt (or whatever the handler raises)
 * stays set in the thread state and the flag makes every loop unwind at once.
 * The Python wrapper then calls gs_raise_if_interrupted() with the GIL, which
 * returns -1 so Cython raises the pending exception. */
#define GS_POLL_INTERVAL 2048
static __thread int gs_poll_enabled = 0;
static __thread int gs_poll_count = 0;
static __thread int gs_stop_flag = 0;

/* Before a loop (with the GIL): poll only in the main thread (signals are
 * handled there only). */
static inline void gs_poll_begin(int main_thread) {
    gs_poll_enabled = main_thread;
    gs_poll_count = 0;
    gs_stop_flag = 0;
}

static inline int gs_interrupted(void) {
    PyGILState_STATE st;
    if (gs_stop_flag)
        return 1;
    if (!gs_poll_enabled || ++gs_poll_count < GS_POLL_INTERVAL)
        return 0;
    gs_poll_count = 0;
    st = PyGILState_Ensure();
    if (PyErr_CheckSignals() < 0)
        gs_stop_flag = 1;
    PyGILState_Release(st);
    return gs_stop_flag;
}

/* A stop asked from another thread (`gostop engine`'s stop): one flag per
 * extension module including this header, shared by its threads.  The
 * searches read it between samples (iterations) and return what they have,
 * like a time limit; it is no interruption (nothing is raised). */
static volatile int gs_stop_requested = 0;
static inline void gs_set_stop(int on) { gs_stop_requested = on; }
static inline int gs_stop_asked(void) { return gs_stop_requested; }

/* A stop asked of one search: its StopToken's flag (NULL: none), set from any
 * thread; the loops read it, with the deprecated module-wide request, between
 * samples.  A token belongs to one search, so two searches in one process
 * (the web table's workers, an embedding application) never stop each other. */
static inline int gs_stop_wanted(const int* token) {
    return gs_stop_requested || (token != NULL && *(const volatile int*)token);
}

/* After a loop (with the GIL): -1 with the exception set when it was stopped. */
static inline int gs_raise_if_interrupted(void) {
    int stopped = gs_stop_flag;
    gs_poll_enabled = 0;
    gs_stop_flag = 0;
    if (!stopped)
        return 0;
    if (!PyErr_Occurred())
        PyErr_SetNone(PyExc_KeyboardInterrupt);
    return -1;
}
#endif
