# The Python wrapper of the C game state (see state.pyx).
from gostop_core.rules cimport Rules
from gostop_core.movegen cimport GameStateC

cdef class CoreState:
    cdef GameStateC s
    cdef readonly Rules rules
    cdef int _seat(self, int p) except -1
