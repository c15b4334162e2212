# Legal-move generation, apply (copy-make undo), perft and playouts (see movegen.pyx).
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int16_t, int32_t
from gostop_core.rules cimport RulesC, Rules
# the state's types, enums and inline helpers, re-exported for every cimporter of movegen
from gostop_core.gamestate cimport (
    MAX_PLAYERS, MAX_MOVES, MAX_EVENTS, PHASE_PLAY, PHASE_FLIP_CHOICE, PHASE_GO_STOP,
    PHASE_OVER, PHASE_SHOWDOWN, MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_GO,
    MOVE_STOP, MOVE_SHAKE, MOVE_FLIP_ONLY, MOVE_SHOWDOWN, MOVE_ACCEPT, MOVE_REFUSE,
    EV_DEALT_BONUS, EV_PLAYED, EV_FLIPPED, EV_CAPTURED, EV_STOLEN, EV_BONUS, EV_DRAWN,
    EV_BOMB, EV_FLIP_ONLY, EV_GO, EV_STOP, EV_DRAW_GAME, EV_TURN_END, EV_PPEOK, EV_TTADAK,
    EV_JJOK, EV_STACK, EV_SSEUL, EV_SHAKE, EV_CHONGTONG, EV_REDEAL, EV_CHIPS,
    EV_THREE_PPEOK, EV_HAND_END, EV_SHOWDOWN, EV_SHOWDOWN_ANSWER, END_NONE, END_STOP,
    END_LAST_TURN_STOP, END_DRAW, END_CHONGTONG, END_THREE_PPEOK, END_FAMILY,
    CHIPS_FIRST_TURN_PPEOK, CHIPS_FIRST_TURN_CAPTURE, CHIPS_THREE_PPEOK, CHIPS_CHONGTONG,
    CHIPS_GWANGPALLI, SETTLE_SHAKE, SETTLE_BOMB, SETTLE_NAGARI, SETTLE_JOKER_DOUBLE,
    SETTLE_GWANG_BAK, SETTLE_GWANG_BAK_PLUS_TWO, SETTLE_PI_BAK, SETTLE_MONG_BAK,
    SETTLE_GO_BAK, SETTLE_PAYS_THIRD, SETTLE_COVERED, splitmix64, bounded, month_counts,
    months_with_three, make_move, move_kind, move_card, move_target, active_players, seen_by,
    EventC, EventLog, GameStateC, SettlementC, Phase, MoveKind, EventKind, EndReason,
    ChipReason, SettleReason,
)

cdef int generate_moves(const GameStateC* s, const RulesC* r, uint16_t* out) noexcept nogil
cdef bint is_legal(const GameStateC* s, const RulesC* r, uint16_t move) noexcept nogil
cdef void apply_move(GameStateC* s, const RulesC* r, uint16_t move, EventLog* log) noexcept nogil
cdef void movegen_poll_begin(int main_thread) noexcept
cdef int movegen_raise_if_interrupted() except -1
cdef uint64_t perft_count(const GameStateC* s, const RulesC* r, int depth, bint bulk) noexcept nogil
cdef int deal_cards(GameStateC* s, const RulesC* r, int nplayers, uint64_t seed, int dealer, int stake_doublings, EventLog* log) noexcept nogil
cdef int32_t player_score(const GameStateC* s, const RulesC* r, int player) noexcept nogil
cdef void clear_state(GameStateC* s) noexcept nogil
cdef bint state_in_range(const GameStateC* s) noexcept nogil
cdef int32_t random_playout(GameStateC* s, const RulesC* r, uint64_t* rng) noexcept nogil
