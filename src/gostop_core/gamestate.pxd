# The game state's C types, enums and inline helpers: declarations only (no .pyx),
# below every compiled module that works on a state (settlement, movegen, state,
# sampling, the searches).  movegen.pxd re-exports them.
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int16_t, int32_t
from gostop_core.rules cimport RulesC, Rules
from gostop_core.cards cimport gs_mod_small, GS_MASK_MONTH_CARDS, GS_BIT, GS_NO_CARD

cdef enum:
    MAX_PLAYERS = 4
    MAX_MOVES = 128       # bound on decisions at one node (proof in generate_moves)
    # Bound on the events one decision can cause: its turn and the forced
    # flip-only turns it chains into (movegen.pyx, apply_move and run_forced).
    # - A chain goes on only through forced flip-only turns, each using one owed.
    #   The parser keeps flip_only + 3 per bomb still possible <= MAX_FLIP_ONLY
    #   = 40 per seat (notation.py) and every move keeps it (a bomb takes three
    #   hand cards, adds bomb_flip_only_turns <= 3): <= MAX_PLAYERS * 40 = 160.
    # - A turn logs <= 26: its opener (played, bomb, flip_only, go...) 1; a stack
    #   taken by the play (stack, captured, a steal from each of 3 opponents) 5;
    #   the flip's month card (flipped, stack, captured, 3 stolen) 6;
    #   resolve_turn 13 (the waiting pair's capture, sseul, 3 steals x 3
    #   opponents, 2 chip payments); turn_end 1.  A forced turn that flips
    #   nothing (empty stock) logs 2: flip_only, turn_end (no card, no flags).
    # - A turn that flips takes a card of the stock (<= 50): with the decision's
    #   own, <= 51 turns of 26, and <= 160 of 2.
    # - Once: each of the 2 bonus cards (flipped, bonus) 4; the hand's end
    #   (chips and three_ppeok, stop, or draw/hand_end) 2.
    # 51 * 26 + 160 * 2 + 4 + 2 = 1652 (a deal logs <= 12).  A state no parser
    # accepts (restore, from_fields: flip_only up to 127) may need more: log_event
    # drops what is past the bound.  An EventLog is only a local at the Python
    # boundary (state.pyx, gameloop.pyx): 26 KB of C stack, never in a search.
    MAX_EVENTS = 1652

cdef enum Phase:
    PHASE_PLAY = 0         # the player to move plays a hand card, a bomb, a bonus card, a shake...
    PHASE_FLIP_CHOICE = 1  # the flipped card matches two field cards: pick one
    PHASE_GO_STOP = 2      # the player reached the threshold: Go or Stop
    PHASE_OVER = 3
    PHASE_SHOWDOWN = 4     # showdown asked: the player to move receives it (accept) or not (refuse)

cdef enum MoveKind:
    MOVE_PLAY = 1    # card, target (GS_NO_CARD when the play has no choice)
    MOVE_BONUS = 2   # card X2/X3 banked from the hand
    MOVE_BOMB = 3    # card = month 1..12
    MOVE_FLIP = 4    # target: the field card the flipped card takes
    MOVE_GO = 5
    MOVE_STOP = 6
    MOVE_SHAKE = 7   # card = month 1..12: show three of the month (doubles a win)
    MOVE_FLIP_ONLY = 8  # use an optional flip-only turn owed after a bomb
    MOVE_SHOWDOWN = 9   # card: an opponent's win-card in the hand; ask for a showdown (003)
    MOVE_ACCEPT = 10    # receive the showdown
    MOVE_REFUSE = 11    # refuse it: the asker must lay the win-card down

cdef enum EventKind:
    EV_DEALT_BONUS = 1  # a bonus card dealt to the field went to the dealer
    EV_PLAYED = 2       # card played from the hand onto the field
    EV_FLIPPED = 3      # card turned up from the stock
    EV_CAPTURED = 4     # cards (mask) moved to the player's pile
    EV_STOLEN = 5       # card taken from player `other`
    EV_BONUS = 6        # a bonus card banked (from the hand or the flip)
    EV_DRAWN = 7        # replacement card drawn into the hand (private)
    EV_BOMB = 8         # bomb of month `card`
    EV_FLIP_ONLY = 9    # a flip-only turn began
    EV_GO = 10          # `other` = Go count now
    EV_STOP = 11        # `other` = 1 when the stop was automatic (the last turn)
    EV_DRAW_GAME = 12   # every hand played out, nobody stopped (nagari)
    EV_TURN_END = 13    # the player's turn ended (after its Go, if any)
    EV_PPEOK = 14       # the flip matched the pair just made: a stack of month `card` stays
    EV_TTADAK = 15      # played onto two, the flip was the fourth
    EV_JJOK = 16        # the flip took the card just played alone (jjok/chok)
    EV_STACK = 17       # a stack of three of month `card` captured with the fourth
    EV_SSEUL = 18       # the field was emptied
    EV_SHAKE = 19       # three of month `card` shown
    EV_CHONGTONG = 20   # four of month `card` in a dealt hand
    EV_REDEAL = 21      # four of a month on the field: the same dealer deals again
    EV_CHIPS = 22       # `player` receives `other` chips from each opponent (cards field: reason code)
    EV_THREE_PPEOK = 23 # a third ppeok ends the hand
    EV_HAND_END = 24    # family rules: the stock is gone, the hand is scored
    EV_SHOWDOWN = 25    # `player` asks for a showdown holding win-card `card`
    EV_SHOWDOWN_ANSWER = 26  # `other` = 1 received, 0 refused

cdef enum EndReason:
    END_NONE = 0
    END_STOP = 1
    END_LAST_TURN_STOP = 2
    END_DRAW = 3          # nagari
    END_CHONGTONG = 4
    END_THREE_PPEOK = 5
    END_FAMILY = 6        # family rules: played out and scored by balances

# Reasons carried by EV_CHIPS (in the event's `cards` field).
cdef enum ChipReason:
    CHIPS_FIRST_TURN_PPEOK = 1
    CHIPS_FIRST_TURN_CAPTURE = 2
    CHIPS_THREE_PPEOK = 3
    CHIPS_CHONGTONG = 4
    CHIPS_GWANGPALLI = 5

# splitmix64: tiny, fast and identical on every platform (the deal must be);
# shared by the deal, the playouts and the search's sampling.
cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    cdef uint64_t z
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint32_t bounded(uint64_t* state, uint32_t bound) noexcept nogil:
    # Unbiased: reject the low values that would make the modulo uneven.  The
    # threshold (2**64 mod bound) is below bound, so a draw of at least bound is
    # never rejected: the threshold's division is only done for the rare others
    # (the same draws and results, one division instead of two per shuffled card).
    cdef uint64_t threshold
    cdef uint64_t x = splitmix64(state)
    if x < bound:
        threshold = (<uint64_t>0 - bound) % bound
        while x < threshold:
            x = splitmix64(state)
    return gs_mod_small(x, bound)  # x % bound, without a division for small bounds


cdef inline uint64_t month_counts(uint64_t cards) noexcept nogil:
    """Each month's card count (0-4) in its own nibble: month m in bits 4(m-1)..4m-1."""
    cdef uint64_t x = cards & GS_MASK_MONTH_CARDS
    x = x - ((x >> 1) & <uint64_t>0x5555555555555555)
    return (x & <uint64_t>0x3333333333333333) + ((x >> 2) & <uint64_t>0x3333333333333333)


cdef inline uint64_t months_with_three(uint64_t cards) noexcept nogil:
    """Bit 4 * (m - 1) + 2 set for each month m with at least three cards in
    ``cards``: the cards of a month count up in their own nibble, and a count of
    3 or 4 plus one sets the nibble's bit 2 (no carry: a nibble never passes 5)."""
    return (month_counts(cards) + <uint64_t>0x111111111111) & <uint64_t>0x444444444444


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
    uint64_t turn_bonus      # flipped bonus cards waiting for the turn's captures
    uint8_t stock[50]        # stock[stock_pos] is the top card
    int8_t stock_len
    int8_t stock_pos
    int8_t nplayers
    int8_t dealer
    int8_t to_move
    int8_t phase
    int8_t flip_card         # the flipped card awaiting PHASE_FLIP_CHOICE, else GS_NO_CARD
    int8_t winner            # -1 while playing or after a drawn hand
    int8_t played_card       # this turn's played card still on the field, else GS_NO_CARD
    int8_t played_target     # the field card it was placed on (a waiting pair), else GS_NO_CARD
    int8_t end_reason
    int8_t sitter            # gwangpalli: the seat sitting out this hand, else -1
    int8_t showdown_caller   # the seat that asked for a showdown, else -1
    int8_t showdown_card     # its win-card, else GS_NO_CARD
    int8_t forced_card       # a refused showdown: the asker must play this card, else GS_NO_CARD
    int8_t stake_doublings   # nagari doublings carried into this hand
    uint8_t turn_flags       # ppeok/ttadak/jjok/stack of the turn in progress
    int8_t stack_bonus_month[2]  # the stack month X2 / X3 sits with on the field (0: none)
    int8_t go_count[MAX_PLAYERS]
    int8_t flip_only[MAX_PLAYERS]   # flip-only turns still owed (after a bomb)
    int8_t bombs[MAX_PLAYERS]
    int8_t ppeoks[MAX_PLAYERS]
    int8_t turns_played[MAX_PLAYERS]
    uint16_t shaken[MAX_PLAYERS]    # bit m: month m shown by a shake
    int16_t last_go_score[MAX_PLAYERS]
    int16_t turns            # completed turns
    int32_t points           # the winner's points (the basic payment)
    int32_t chips[MAX_PLAYERS]   # chips won (+) or paid (-) in this hand; family: balances

ctypedef struct SettlementC:
    int32_t winner
    int32_t base             # the winner's points after Go: the basic payment
    int32_t score            # the winner's card score
    int32_t pay[MAX_PLAYERS]       # what each opponent pays the winner
    int32_t multiplier[MAX_PLAYERS]
    uint32_t reasons[MAX_PLAYERS]  # SETTLE_* bits applied to each opponent
    int32_t sake_as_junk     # the winner's flexible-card assignment used
    int32_t bridge_as_junk

cdef enum SettleReason:
    SETTLE_SHAKE = 1
    SETTLE_BOMB = 2
    SETTLE_NAGARI = 4
    SETTLE_JOKER_DOUBLE = 8
    SETTLE_GWANG_BAK = 16
    SETTLE_GWANG_BAK_PLUS_TWO = 32
    SETTLE_PI_BAK = 64
    SETTLE_MONG_BAK = 128
    SETTLE_GO_BAK = 256
    SETTLE_PAYS_THIRD = 512   # this Go caller also pays the third player's share
    SETTLE_COVERED = 1024     # the Go caller pays this player's share


cdef inline int active_players(const GameStateC* s) noexcept nogil:
    """Seats in play (gwangpalli: all but the one sitting out)."""
    return s.nplayers - (1 if s.sitter >= 0 else 0)


cdef inline uint64_t seen_by(const GameStateC* s, int seat) noexcept nogil:
    """The cards ``seat`` sees: the field, its own hand, every captured pile,
    the card flipped waiting for a choice and the bonus cards flipped waiting
    for the turn's captures.  The one definition every view, sample and
    observation of the core starts from; its Python twin is
    ``gostop_core.notation.visible_mask`` (tests/test_visible_cards.py checks
    both against the reference engine)."""
    cdef uint64_t seen = s.field | s.hand[seat] | s.turn_bonus
    cdef int q
    for q in range(s.nplayers):
        seen |= s.captured[q]
    if s.flip_card != GS_NO_CARD:
        seen |= GS_BIT(s.flip_card)
    return seen
