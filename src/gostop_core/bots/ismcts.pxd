# Information-set Monte Carlo tree search from a player's view (see ismcts.pyx).
from libc.stdint cimport int32_t, uint32_t

cdef enum:
    ISMCTS_MAX_PATH = 512     # tree edges one iteration may descend (then it plays out)

ctypedef struct IsNode:
    int32_t child             # first child in the pool, -1 for none
    int32_t sibling           # next child of the same parent, -1 for none
    int32_t label             # the edge from the parent: seat << 16 | move, or CHANCE << 16 | card
    uint32_t visits           # iterations through this node
    uint32_t avail            # decision children: iterations in which the move was legal
    double total              # sum of the searching seat's payoffs through this node
