# The rules object: one C struct of int32 fields, one field per parameter of the
# rules matrix.  The field list here and FIELDS in rules.pyx must agree (checked
# at import).
from libc.stdint cimport int32_t

cdef enum DealerRule:
    DEALER_FIXED = 0          # one dealer for the whole session (casual)
    DEALER_DRAW_THEN_WINNER = 1  # first dealer by draw (highest month), then the winner
    DEALER_NIGHT_DAY = 2      # first dealer by the night/day draw, then the winner

cdef enum PpeokRule:
    PPEOK_NONE = 0            # no ppeok (casual: the pair was already taken at play)
    PPEOK_STACK = 1           # the three cards stay on the field as a stack
    PPEOK_FLIP_STAYS = 2      # the pair is captured, the flipped card stays (family)

cdef enum BonusInHandRule:
    BONUS_HAND_NONE = 0
    BONUS_HAND_PLAY = 1       # play it: banked, replacement drawn, still play a card
    BONUS_HAND_BANK_AT_START = 2  # bank at the start of any turn, draw a replacement

cdef enum FlippedBonusRule:
    FLIPPED_BONUS_FLIP_AGAIN = 0      # banked at once, flip again
    FLIPPED_BONUS_WITH_CAPTURES = 1   # banked with the turn's captures (stays with a ppeok)

cdef enum BonusEffect:
    BONUS_EFFECT_JUNK = 0
    BONUS_EFFECT_DOUBLE_PAYMENT = 1
    BONUS_EFFECT_BRIGHT_PROTECTION = 2

cdef enum GoScheme:
    GO_CASUAL = 0        # +1 per Go; from the 4th Go the total doubles at each Go
    GO_TRADITIONAL = 1   # +1/+2 chips; 3 Goes x2; x2 again each Go beyond 3
    GO_STANDARD = 2      # +1, +2; 3rd Go x2; beyond: x(Goes - 1)
    GO_MULTIPLY = 3      # 1 chip for one Go, then payment x(Goes) from the second

cdef enum PaymentRule:
    PAY_SCORE_ONCE = 0        # the winner scores its points once (casual)
    PAY_EACH_OPPONENT = 1     # every opponent pays the multiplied score in chips
    PAY_FAMILY_BALANCE = 2    # card points against 240 / players (family)

cdef enum GwangBakRule:
    GWANG_BAK_OFF = 0
    GWANG_BAK_DOUBLE = 1
    GWANG_BAK_PLUS_TWO = 2

ctypedef struct RulesC:
    # players and deal
    int32_t allow_2p
    int32_t allow_3p
    int32_t allow_4p
    int32_t hand_2p
    int32_t field_2p
    int32_t hand_3p
    int32_t field_3p
    int32_t hand_4p
    int32_t field_4p
    int32_t bonus_cards
    int32_t bonus_x2_junk
    int32_t bonus_x3_junk
    int32_t bonus_x2_effect
    int32_t bonus_x3_effect
    int32_t bonus_to_dealer
    int32_t field_stacks
    int32_t four_on_field_redeal
    int32_t chongtong
    int32_t chongtong_chips
    int32_t dealer_rule
    int32_t gwangpalli
    int32_t gwangpalli_chips
    int32_t showdown
    # scoring
    int32_t bright3
    int32_t bright3_rain
    int32_t bright4
    int32_t bright4_rain
    int32_t bright5
    int32_t ribbon_min
    int32_t ribbon_set
    int32_t rain_ribbon_counts
    int32_t animal_min
    int32_t godori
    int32_t junk_min
    int32_t sake_cup_junk
    int32_t bridge_junk
    int32_t family_scoring
    int32_t family_bright
    int32_t family_ribbon
    int32_t family_animal
    int32_t family_ribbon_set
    int32_t family_month_set
    int32_t family_november_set
    # a turn
    int32_t capture_at_play
    int32_t stack_steal
    int32_t ppeok
    int32_t ppeok_keeps_bonus
    int32_t jjok_steal
    int32_t ttadak_steal
    int32_t sseul_steal
    int32_t last_turn_no_steal
    int32_t first_turn_ppeok_chips
    int32_t three_ppeok_chips
    int32_t first_turn_capture_chips
    int32_t bomb
    int32_t bomb_steal
    int32_t bomb_flip_only_turns
    int32_t bomb_flip_only_optional
    int32_t bomb_counts_as_shake
    int32_t shaking
    int32_t shake_timing
    int32_t bonus_in_hand
    int32_t flipped_bonus
    # go, stop and payment
    int32_t threshold_2p
    int32_t threshold_3p
    int32_t threshold_4p
    int32_t go_stop
    int32_t go_scheme
    int32_t payment
    int32_t nagari_doubling
    int32_t gwang_bak
    int32_t pi_bak_threshold
    int32_t pi_bak_threshold_2p
    int32_t mong_bak_animals
    int32_t go_bak
    int32_t go_bak_pays_third
    int32_t match_play


cdef inline int32_t rules_threshold(const RulesC* r, int nplayers) noexcept nogil:
    if nplayers == 2:
        return r.threshold_2p
    if nplayers == 3:
        return r.threshold_3p
    return r.threshold_4p


cdef inline int32_t rules_hand_size(const RulesC* r, int nplayers) noexcept nogil:
    if nplayers == 2:
        return r.hand_2p
    if nplayers == 3:
        return r.hand_3p
    return r.hand_4p


cdef inline int32_t rules_field_size(const RulesC* r, int nplayers) noexcept nogil:
    if nplayers == 2:
        return r.field_2p
    if nplayers == 3:
        return r.field_3p
    return r.field_4p


cdef class Rules:
    cdef RulesC c
    cdef readonly str preset
