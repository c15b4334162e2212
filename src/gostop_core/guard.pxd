# Debug assertions, payment caps and the Ctrl-C poll of the C loops (gostop_guard.h).
from libc.stdint cimport int32_t, int64_t

cdef extern from "gostop_guard.h":
    const int GS_PAY_CAP
    const int GS_CHIPS_CAP
    const int GS_SHIFT_CAP
    const int GS_DEBUG_BUILD
    void GS_ASSERT(bint cond) noexcept nogil
    int32_t gs_clamp(int64_t x, int64_t cap) noexcept nogil
    void gs_poll_begin(int main_thread) noexcept
    bint gs_interrupted() noexcept nogil
    int gs_raise_if_interrupted() except -1
    void gs_set_stop(int on) noexcept nogil
    bint gs_stop_asked() noexcept nogil
    bint gs_stop_wanted(const int* token) noexcept nogil
