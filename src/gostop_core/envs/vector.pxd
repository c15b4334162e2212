# The batched environment's C kernels: the action table and the observation.
from libc.stdint cimport uint8_t, uint16_t
from gostop_core.movegen cimport GameStateC
from gostop_core.rules cimport RulesC

cdef enum:
    # must agree with gostop_core/envs/actions.py (tests/test_envs_vector.py checks)
    ACT_HAND_SLOTS = 10
    ACT_CHOICES = 3
    ACT_PLAY = 0
    ACT_FLIP = 30
    ACT_BONUS = 33
    ACT_BOMB = 35
    ACT_SHAKE = 47
    ACT_GO = 59
    ACT_STOP = 60
    ACT_FLIP_ONLY = 61
    ACT_SHOWDOWN = 62
    ACT_ACCEPT = 72
    ACT_REFUSE = 73
    NUM_ACTIONS = 74
    OBS_SIZE = 420        # PlayerView.to_array(): 8 card planes of 50, 20 scalars

cdef int move_action(const GameStateC* s, uint16_t move) noexcept nogil
cdef int write_actions(const GameStateC* s, const RulesC* r, uint16_t* table,
                       uint8_t* mask, uint8_t* legal) noexcept nogil
cdef void write_observation(const GameStateC* s, const RulesC* r, int seat,
                            uint8_t* out) noexcept nogil
