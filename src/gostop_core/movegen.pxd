# Game state, legal-move generation, apply (copy-make undo), perft and playouts.
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int16_t, int32_t
from gostop_core.rules cimport RulesC, Rules

cdef enum:
    MAX_PLAYERS = 4
    MAX_MOVES = 80        # bound on decisions at one node (see generate_moves)
    MAX_EVENTS = 96       # bound on events one decision can cause (a turn chain)

cdef enum Phase:
    PHASE_PLAY = 0         # the player to move plays a hand card, a bomb or a bonus card
    PHASE_FLIP_CHOICE = 1  # the flipped card matches two or three field cards: pick one
    PHASE_GO_STOP = 2      # the player reached the threshold: Go or Stop
    PHASE_OVER = 3

cdef enum MoveKind:
    MOVE_PLAY = 1    # card, target (GS_NO_CARD when the play has no choice)
    MOVE_BONUS = 2   # card X2/X3 banked from the hand
    MOVE_BOMB = 3    # card = month 1..12
    MOVE_FLIP = 4    # target: the field card the flipped card takes
    MOVE_GO = 5
    MOVE_STOP = 6

cdef enum EventKind:
    EV_DEALT_BONUS = 1  # a bonus card dealt to the field went to the dealer
    EV_PLAYED = 2       # card played from the hand onto the field
    EV_FLIPPED = 3      # card turned up from the stock
    EV_CAPTURED = 4     # cards (mask) moved to the player's pile
    EV_STOLEN = 5       # card taken from player `other`
    EV_BONUS = 6        # a bonus card banked (from the hand or the flip)
    EV_DRAWN = 7        # replacement card drawn into the hand (private)
    EV_BOMB = 8         # bomb of month `card`
    EV_FLIP_ONLY = 9    # a forced flip-only turn began
    EV_GO = 10          # `other` = Go count now
    EV_STOP = 11        # `other` = 1 when the stop was automatic (the last turn)
    EV_DRAW_GAME = 12   # every hand played out, nobody stopped
    EV_TURN_END = 13    # the player's turn ended (after its Go, if any)

# A move is one uint16: kind << 12 | card << 6 | target.
cdef inline uint16_t make_move(int kind, int card, int target) noexcept nogil:
    return <uint16_t>((kind << 12) | (card << 6) | target)

cdef inline int move_kind(uint16_t m) noexcept nogil:
    return m >> 12

cdef inline int move_card(uint16_t m) noexcept nogil:
    return (m >> 6) & 63

cdef inline int move_target(uint16_t m) noexcept nogil:
    return m & 63

ctypedef struct EventC:
    uint8_t kind
    uint8_t player
    uint8_t card
    uint8_t other
    uint64_t cards

ctypedef struct EventLog:
    int32_t n
    EventC ev[MAX_EVENTS]

ctypedef struct GameStateC:
    uint64_t hand[MAX_PLAYERS]
    uint64_t captured[MAX_PLAYERS]
    uint64_t field
    uint8_t stock[50]        # stock[stock_pos] is the top card
    int8_t stock_len
    int8_t stock_pos
    int8_t nplayers
    int8_t dealer
    int8_t to_move
    int8_t phase
    int8_t flip_card         # the flipped card awaiting PHASE_FLIP_CHOICE, else GS_NO_CARD
    int8_t winner            # -1 while playing or after a drawn hand
    int8_t go_count[MAX_PLAYERS]
    int8_t flip_only[MAX_PLAYERS]   # forced flip-only turns still owed (after a bomb)
    int16_t last_go_score[MAX_PLAYERS]
    int16_t turns            # completed turns
    int32_t points           # the winner's points

cdef int generate_moves(const GameStateC* s, const RulesC* r, uint16_t* out) noexcept nogil
cdef bint is_legal(const GameStateC* s, const RulesC* r, uint16_t move) noexcept nogil
cdef void apply_move(GameStateC* s, const RulesC* r, uint16_t move, EventLog* log) noexcept nogil
cdef uint64_t perft_count(const GameStateC* s, const RulesC* r, int depth, bint bulk) noexcept nogil
cdef int deal_cards(GameStateC* s, const RulesC* r, int nplayers, uint64_t seed, int dealer, EventLog* log) noexcept nogil
cdef int32_t player_score(const GameStateC* s, const RulesC* r, int player) noexcept nogil
