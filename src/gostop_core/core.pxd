# The public C interface of gostop, for other people's Cython (docs/cython.md).
#
#     from gostop_core cimport core
#     core.import_gostop()          # once, at module level: checks the interface version
#
# Everything declared or re-exported here is public and stable for a given
# GOSTOP_CAPI_VERSION; every other .pxd of the package is private and may change
# at any release.  Kernels are `noexcept nogil` and never raise; the boundary
# functions (the ones that take Python objects) hold the GIL and raise.
#
# Ownership: the caller owns every struct (allocate them on the stack or in your
# own arrays); no function keeps a pointer it was given.  A RulesC is filled
# once from a Rules object or a preset name and read by every call; a
# GameStateC is a plain value, copied with state_copy or `a = b`.  Thread
# safety: functions touch only what they are passed, so one state (and one rng)
# per thread is enough; a RulesC may be shared read-only.

from libc.stdint cimport uint64_t, uint32_t, uint16_t, int32_t

from gostop_core.cards cimport GS_NO_CARD, GS_NUM_CARDS
from gostop_core.rules cimport RulesC
from gostop_core.scoring cimport ScoreC
from gostop_core.movegen cimport (
    GameStateC, MAX_PLAYERS, MAX_MOVES,
    PHASE_PLAY, PHASE_FLIP_CHOICE, PHASE_GO_STOP, PHASE_OVER, PHASE_SHOWDOWN,
    MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_GO, MOVE_STOP, MOVE_SHAKE,
    MOVE_FLIP_ONLY, MOVE_SHOWDOWN, MOVE_ACCEPT, MOVE_REFUSE,
    END_NONE, END_STOP, END_LAST_TURN_STOP, END_DRAW, END_CHONGTONG, END_THREE_PPEOK,
    END_FAMILY,
    # move encoding, inline (compiled into the caller): a move is one uint16,
    # kind << 12 | card << 6 | target
    make_move as encode_move, move_kind, move_card, move_target,
)

# The version of this interface: bumped whenever a declaration here or the
# layout of a struct it exposes changes.  import_gostop() compares it with the
# installed package's.
cdef enum:
    GOSTOP_CAPI_VERSION = 1
    MOVE_TEXT_SIZE = 16      # room for the longest move text and its NUL

# What one seat may see, and the public state behind it (for sampling the rest).
ctypedef struct ViewC:
    int32_t seat
    int32_t nplayers
    int32_t dealer
    int32_t to_move
    int32_t phase
    int32_t flip_card              # the flipped card awaiting a choice, else GS_NO_CARD
    uint64_t hand                  # the seat's own hand
    uint64_t field
    uint64_t captured[MAX_PLAYERS]
    int32_t hand_count[MAX_PLAYERS]
    int32_t go_count[MAX_PLAYERS]
    int32_t stock_count
    uint64_t unseen                # cards in no visible place: the other hands and the stock
    GameStateC known               # the public state: hidden hands and the stock left empty

# A finished hand.
ctypedef struct OutcomeC:
    int32_t winner                 # -1: nobody won (a drawn hand)
    int32_t points                 # the winner's points (the basic payment)
    int32_t end_reason             # END_*
    int32_t score[MAX_PLAYERS]     # each seat's card score at the end
    int32_t go_count[MAX_PLAYERS]
    int32_t chips[MAX_PLAYERS]     # chips won (+) or paid (-) in this hand


# ---- kernels: no Python, no exceptions, no GIL
cdef void state_copy(GameStateC* dst, const GameStateC* src) noexcept nogil
cdef int deal(GameStateC* s, const RulesC* r, int nplayers, uint64_t seed, int dealer) noexcept nogil
cdef int generate_moves(const GameStateC* s, const RulesC* r, uint16_t* out) noexcept nogil
cdef bint is_legal(const GameStateC* s, const RulesC* r, uint16_t move) noexcept nogil
cdef void apply_move(GameStateC* s, const RulesC* r, uint16_t move) noexcept nogil
cdef int to_move(const GameStateC* s) noexcept nogil
cdef int phase(const GameStateC* s) noexcept nogil
cdef int num_players(const GameStateC* s) noexcept nogil
cdef bint is_terminal(const GameStateC* s) noexcept nogil
cdef int winner(const GameStateC* s) noexcept nogil
cdef int outcome(const GameStateC* s, const RulesC* r, OutcomeC* out) noexcept nogil
cdef int32_t score_pile(uint64_t pile, const RulesC* r, ScoreC* out) noexcept nogil
cdef int32_t player_score(const GameStateC* s, const RulesC* r, int seat) noexcept nogil
cdef void view_of(const GameStateC* s, const RulesC* r, int seat, ViewC* out) noexcept nogil
cdef int sample_state(const ViewC* v, const RulesC* r, uint64_t* rng, GameStateC* out) noexcept nogil
cdef int move_text(uint16_t move, char* buf, int size) noexcept nogil
cdef uint32_t random_below(uint64_t* rng, uint32_t bound) noexcept nogil

# ---- the boundary with Python objects (hold the GIL, raise on bad input)
cdef int rules_from(object rules, RulesC* out) except -1
cdef int state_from_game(object game, GameStateC* s, RulesC* r) except -1
cdef int state_from_position(str text, GameStateC* s, RulesC* r) except -1
cdef int view_from_python(object view, ViewC* v, RulesC* r) except -1
cdef object game_from_state(const GameStateC* s, object rules)


cdef inline int import_gostop() except -1:
    """Check that the installed gostop has the C interface this module was
    compiled against; raises ImportError naming both versions otherwise.  Call
    it once at module level, before any other function of this interface."""
    installed = __import__("gostop_core.core", fromlist=["CAPI_VERSION"])
    if installed.CAPI_VERSION != GOSTOP_CAPI_VERSION:
        raise ImportError(
            f"gostop C interface version {installed.CAPI_VERSION} is installed, but this "
            f"extension was compiled against version {GOSTOP_CAPI_VERSION}: rebuild it "
            "against the installed gostop")
    if installed.STATE_SIZE != sizeof(GameStateC):
        raise ImportError(
            f"gostop's state struct is {installed.STATE_SIZE} bytes in the installed "
            f"package but {sizeof(GameStateC)} in this extension's build: rebuild it "
            "against the installed gostop")
    return 0
