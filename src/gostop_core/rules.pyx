"""The rules object.

:class:`Rules` is one C struct (``RulesC`` in ``rules.pxd``) with a documented field
for every parameter of the rules matrix.  A preset is only a set of field values:

>>> Rules("traditional").pi_bak_threshold
5
>>> Rules("casual", threshold_2p=5).threshold_2p
5
"""
from gostop_core.errors import RulesError, RulesTypeError, UnsupportedRuleError

# name: (lowest, highest, section, description).  Booleans are 0/1.
FIELDS = {
    # players and deal
    "allow_2p": (0, 1, "deal", "two players may play"),
    "allow_3p": (0, 1, "deal", "three players may play"),
    "allow_4p": (0, 1, "deal", "four players may play"),
    "hand_2p": (1, 24, "deal", "cards dealt to each hand, 2 players"),
    "field_2p": (0, 24, "deal", "cards dealt face up to the field, 2 players"),
    "hand_3p": (1, 16, "deal", "cards dealt to each hand, 3 players"),
    "field_3p": (0, 24, "deal", "cards dealt face up to the field, 3 players"),
    "hand_4p": (1, 12, "deal", "cards dealt to each hand, 4 players"),
    "field_4p": (0, 24, "deal", "cards dealt face up to the field, 4 players"),
    "bonus_cards": (0, 1, "deal", "the bonus cards X2 and X3 are in the pack (50 cards)"),
    "bonus_x2_junk": (0, 3, "scoring", "junk value of X2"),
    "bonus_x3_junk": (0, 3, "scoring", "junk value of X3"),
    "bonus_x2_effect": (0, 2, "scoring", "X2's effect: 0 junk, 1 double payment joker, 2 bright protection joker (001)"),
    "bonus_x3_effect": (0, 2, "scoring", "X3's effect: 0 junk, 1 double payment joker, 2 bright protection joker (001)"),
    "bonus_to_dealer": (0, 1, "deal", "a bonus card dealt to the field goes to the dealer and the field is topped up"),
    "field_stacks": (0, 1, "deal", "three of a month on the field form a stack captured whole by the fourth"),
    "four_on_field_redeal": (0, 1, "deal", "four of a month dealt to the field voids the deal; the same dealer redeals"),
    "chongtong": (0, 1, "deal", "four of a month in a dealt hand wins the hand at once (chongtong)"),
    "chongtong_chips": (0, 100, "payment", "chips each opponent pays for chongtong (0: the hand's usual payment)"),
    "dealer_rule": (0, 2, "deal", "0 fixed dealer, 1 first dealer by draw (highest month) then the winner deals, 2 night/day draw then the winner"),
    "gwangpalli": (0, 1, "deal", "four-handed gwangpalli: the seat before the dealer sits out each hand and is paid for the brights in its hand; the other three play the 3-player deal"),
    "gwangpalli_chips": (0, 100, "payment", "gwangpalli: chips each playing seat pays the seat sitting out for each bright in its hand"),
    "showdown": (0, 1, "turn", "showdown (003): a player holding another player's win-card may ask the others to receive a showdown: all receive, a nagari; one refuses, the asker lays the card down"),
    # scoring
    "bright3": (0, 100, "scoring", "points for 3 brights without the rain bright 12B"),
    "bright3_rain": (0, 100, "scoring", "points for 3 brights including 12B"),
    "bright4": (0, 100, "scoring", "points for 4 brights without 12B"),
    "bright4_rain": (0, 100, "scoring", "points for 4 brights including 12B"),
    "bright5": (0, 100, "scoring", "points for all 5 brights"),
    "ribbon_min": (1, 10, "scoring", "ribbons needed for 1 point; +1 for each beyond"),
    "ribbon_set": (0, 100, "scoring", "points for each ribbon set (hongdan, cheongdan, chodan)"),
    "rain_ribbon_counts": (0, 1, "scoring", "12R counts toward the ribbon count"),
    "animal_min": (1, 9, "scoring", "animals needed for 1 point; +1 for each beyond"),
    "godori": (0, 100, "scoring", "points for the three godori birds 2A 4A 8A"),
    "junk_min": (1, 30, "scoring", "junk needed for 1 point; +1 for each beyond"),
    "sake_cup_junk": (0, 2, "scoring", "9A may count as this many junk instead of an animal (0: always an animal)"),
    "bridge_junk": (0, 2, "scoring", "5A may count as this many junk instead of an animal (0: always an animal)"),
    "family_scoring": (0, 1, "scoring", "family variant: card points (bright/ribbon/animal) against 240 / players"),
    "family_bright": (0, 100, "scoring", "family card points for a bright"),
    "family_ribbon": (0, 100, "scoring", "family card points for a ribbon"),
    "family_animal": (0, 100, "scoring", "family card points for an animal"),
    "family_ribbon_set": (0, 100, "scoring", "family bonus for hongdan or cheongdan, paid by each other player"),
    "family_month_set": (0, 100, "scoring", "family bonus for all four of May, October or December, paid by each other player"),
    "family_november_set": (0, 100, "scoring", "family bonus for all four of November, paid by each other player"),
    # a turn
    "capture_at_play": (0, 1, "turn", "a played card that matches one field card captures the pair at once (casual); 0: the pair waits for the flip"),
    "stack_steal": (0, 1, "turn", "capturing a stack of three with the fourth steals one junk from each opponent"),
    "ppeok": (0, 2, "turn", "ppeok (flip matches the pair just made): 0 none, 1 all three stay as a stack, 2 the pair is captured and the flip stays"),
    "ppeok_keeps_bonus": (0, 1, "turn", "a bonus card flipped in a ppeok stays with the stack"),
    "jjok_steal": (0, 1, "turn", "jjok/chok (the flip matches your own unmatched played card) steals one junk"),
    "ttadak_steal": (0, 1, "turn", "ttadak (played onto two, the flip is the fourth) steals one junk"),
    "sseul_steal": (0, 1, "turn", "sseul (two field cards of different months, both captured, the field left empty) steals one junk"),
    "last_turn_no_steal": (0, 1, "turn", "on the last player's last turn sseul, ttadak and chok steal nothing"),
    "first_turn_ppeok_chips": (0, 100, "payment", "chips each opponent pays for a ppeok on the first turn"),
    "three_ppeok_chips": (0, 100, "payment", "a third ppeok in a hand ends play; each opponent pays this many chips"),
    "first_turn_capture_chips": (0, 100, "payment", "chips each opponent pays for a first-turn ttadak, stack capture or chok (001 option)"),
    "bomb": (0, 1, "turn", "the bomb: three of a month in hand and the fourth on the field"),
    "bomb_steal": (0, 1, "turn", "a bomb takes one junk from each opponent"),
    "bomb_flip_only_turns": (0, 3, "turn", "flip-only turns that follow a bomb"),
    "bomb_flip_only_optional": (0, 1, "turn", "the player may choose whether to use each flip-only turn (standard)"),
    "bomb_counts_as_shake": (0, 1, "payment", "a bomb doubles the payment like a shake (one double per month shown: a shaken month bombed later doubles once)"),
    "shaking": (0, 1, "turn", "shaking: show three of a month; each shake doubles the payment if that player wins"),
    "shake_timing": (0, 1, "turn", "when a player may shake: 0 at any of its turns while it holds the three, 1 only before its first play of the hand (001)"),
    "bonus_in_hand": (0, 2, "turn", "a bonus card in hand: 0 not dealt, 1 played as a free action with a replacement draw, 2 banked at the start of a turn with a replacement draw"),
    "flipped_bonus": (0, 1, "turn", "a flipped bonus card: 0 banked at once and the stock flipped again, 1 banked with the turn's captures"),
    # go, stop and payment
    "threshold_2p": (1, 100, "go", "points needed to call Go or Stop, 2 players"),
    "threshold_3p": (1, 100, "go", "points needed to call Go or Stop, 3 players"),
    "threshold_4p": (1, 100, "go", "points needed to call Go or Stop, 4 players"),
    "go_stop": (0, 1, "go", "Go/Stop is played (0: play until the stock is gone, family)"),
    "go_scheme": (0, 3, "go", "Go value: 0 casual, 1 traditional chips, 2 standard, 3 x(Goes) from the second Go"),
    "payment": (0, 2, "payment", "0 the winner's score once, 1 each opponent pays, 2 family balances"),
    "nagari_doubling": (0, 1, "payment", "a drawn hand (nagari) doubles the next payment"),
    "gwang_bak": (0, 2, "payment", "gwang-bak: 0 off, 1 x2, 2 +2 chips"),
    "pi_bak_threshold": (0, 10, "payment", "pi-bak when a loser holds fewer junk than this (0: off)"),
    "pi_bak_threshold_2p": (0, 10, "payment", "the pi-bak threshold with 2 players"),
    "mong_bak_animals": (0, 9, "payment", "mong-bak when the winner holds this many animals (0: off)"),
    "go_bak": (0, 1, "payment", "a loser who called Go pays double"),
    "go_bak_pays_third": (0, 1, "payment", "with 3 players the Go caller also pays the third player's share"),
    "match_play": (0, 1, "payment", "hands are played as a match: the winner deals next"),
}

_BASE = dict(
    allow_2p=1, allow_3p=1, allow_4p=0,
    hand_2p=10, field_2p=8, hand_3p=7, field_3p=6, hand_4p=7, field_4p=6,
    bonus_cards=1, bonus_x2_junk=2, bonus_x3_junk=3, bonus_x2_effect=0, bonus_x3_effect=0,
    bonus_to_dealer=1, field_stacks=1, four_on_field_redeal=1, chongtong=1, chongtong_chips=0,
    dealer_rule=1, gwangpalli=0, gwangpalli_chips=1, showdown=0,
    bright3=3, bright3_rain=2, bright4=4, bright4_rain=4, bright5=15,
    ribbon_min=5, ribbon_set=3, rain_ribbon_counts=1,
    animal_min=5, godori=5, junk_min=10, sake_cup_junk=2, bridge_junk=0,
    family_scoring=0, family_bright=20, family_ribbon=5, family_animal=10,
    family_ribbon_set=30, family_month_set=20, family_november_set=40,
    capture_at_play=0, stack_steal=1, ppeok=1, ppeok_keeps_bonus=0,
    jjok_steal=1, ttadak_steal=1, sseul_steal=0, last_turn_no_steal=1,
    first_turn_ppeok_chips=0, three_ppeok_chips=0, first_turn_capture_chips=0,
    bomb=1, bomb_steal=1, bomb_flip_only_turns=2, bomb_flip_only_optional=1, bomb_counts_as_shake=0,
    shaking=1, shake_timing=0, bonus_in_hand=2, flipped_bonus=1,
    threshold_2p=7, threshold_3p=3, threshold_4p=3, go_stop=1, go_scheme=2,
    payment=1, nagari_doubling=1, gwang_bak=1, pi_bak_threshold=6, pi_bak_threshold_2p=6,
    mong_bak_animals=0, go_bak=1, go_bak_pays_third=0, match_play=1,
)

#: Presets: plain field values, each resolved from the rules matrix.
PRESETS = {
    # seed 000, the screen version: single hand, capture at play, bomb, bonus cards.
    "casual": dict(
        _BASE, allow_4p=1, field_stacks=0, four_on_field_redeal=0, chongtong=0,
        dealer_rule=0, capture_at_play=1, stack_steal=0, ppeok=0,
        jjok_steal=0, ttadak_steal=0, last_turn_no_steal=0,
        bomb_flip_only_optional=0, shaking=0, bonus_in_hand=1, flipped_bonus=0,
        go_scheme=0, payment=0, nagari_doubling=0, gwang_bak=0,
        pi_bak_threshold=0, pi_bak_threshold_2p=0, go_bak=0, match_play=0,
    ),
    # seed 001, the classic English write-up: no bonus cards, chips, sseul, ppeok payments.
    "traditional": dict(
        _BASE, bonus_cards=0, bonus_to_dealer=0, bonus_in_hand=0, chongtong_chips=5,
        sake_cup_junk=1, sseul_steal=1, first_turn_ppeok_chips=3, three_ppeok_chips=5,
        bomb_counts_as_shake=1, shake_timing=1, go_scheme=1, pi_bak_threshold=5, pi_bak_threshold_2p=5,
        mong_bak_animals=7, go_bak_pays_third=1,
    ),
    # seeds 002-004, Korean standard rules.
    "standard": dict(
        _BASE, rain_ribbon_counts=0, bridge_junk=2, ppeok_keeps_bonus=1, dealer_rule=2,
    ),
    # the point-counting family variant at the end of 004 ("the setup is identical":
    # four of a month dealt to the field is redealt, so every card can be won).
    "family": dict(
        _BASE, allow_4p=1, hand_4p=5, field_4p=8, bonus_cards=0, bonus_to_dealer=0,
        chongtong=0, dealer_rule=0, family_scoring=1,
        stack_steal=0, ppeok=2, jjok_steal=0, ttadak_steal=0, last_turn_no_steal=0,
        bomb=0, bomb_steal=0, bomb_flip_only_turns=0, shaking=0, bonus_in_hand=0,
        go_stop=0, payment=2, nagari_doubling=0, gwang_bak=0, pi_bak_threshold=0,
        pi_bak_threshold_2p=0, go_bak=0, match_play=0,
    ),
}
DEFAULT_PRESET = "casual"

# Values the core's turn flow implements today; anything else is refused with a
# clear UnsupportedRuleError instead of being played wrongly.
_ENGINE_SUPPORTS: dict = {}


cdef class Rules:
    """Every rules parameter of the matrix as one C struct; see :data:`FIELDS`.

    ``Rules(preset="casual", **overrides)``.  Instances are immutable; use
    :meth:`replace` for a variant.  Unknown presets or fields and out-of-range
    values raise :class:`RulesError`.
    """

    def __init__(self, preset=DEFAULT_PRESET, **overrides):
        if isinstance(preset, Rules):
            values = (<Rules>preset).as_dict()
            name = (<Rules>preset).preset
        else:
            if not isinstance(preset, str):
                raise RulesTypeError(
                    f"rules preset must be a preset name ({', '.join(PRESETS)}) or a Rules, "
                    f"got {type(preset).__name__} {preset!r}")
            if preset not in PRESETS:
                raise RulesError(
                    f"unknown rules preset {preset!r}; choose one of {', '.join(PRESETS)}")
            values = dict(PRESETS[preset])
            name = preset
        for key, value in overrides.items():
            if key not in FIELDS:
                raise RulesError(f"unknown rules field {key!r}; see gostop_core.rules.FIELDS")
            values[key] = value
        _validate(values)
        self.c = values
        self.preset = name if not overrides else name + "+" + ",".join(
            f"{k}={v}" for k, v in sorted(overrides.items()))

    def as_dict(self):
        """All fields as a plain ``dict``."""
        cdef dict d = self.c
        return {name: d[name] for name in FIELDS}

    def replace(self, **changes):
        """A copy with some fields changed."""
        return Rules(self, **changes)

    def __getattr__(self, name):
        if name in FIELDS:
            return (<dict>self.c)[name]
        raise AttributeError(f"Rules has no field {name!r}")

    def threshold(self, int nplayers):
        """Points needed to call Go or Stop with ``nplayers`` players."""
        self.check_players(nplayers)
        return rules_threshold(&self.c, nplayers)

    def hand_size(self, int nplayers):
        self.check_players(nplayers)
        return rules_hand_size(&self.c, nplayers)

    def field_size(self, int nplayers):
        self.check_players(nplayers)
        return rules_field_size(&self.c, nplayers)

    def allowed_players(self):
        """Player counts this rules object allows, e.g. ``(2, 3)``."""
        return tuple(n for n, ok in ((2, self.c.allow_2p), (3, self.c.allow_3p), (4, self.c.allow_4p)) if ok)

    def check_players(self, nplayers):
        """Raise :class:`RulesError` unless ``nplayers`` may play under these rules."""
        if type(nplayers) is int and (  # the fast path of every deal: no tuple built
                (nplayers == 2 and self.c.allow_2p) or (nplayers == 3 and self.c.allow_3p)
                or (nplayers == 4 and self.c.allow_4p)):
            return
        allowed = self.allowed_players()
        if nplayers not in allowed:
            raise RulesError(
                f"{nplayers} players are not allowed under the {self.preset} rules "
                f"(allowed: {', '.join(map(str, allowed))})")

    def check_engine_support(self):
        """Raise :class:`UnsupportedRuleError` if a field has a value the turn flow
        does not implement yet (scoring supports every value)."""
        if not _ENGINE_SUPPORTS:  # every value is implemented: no dict to build per deal
            return
        values = self.as_dict()
        bad = [f"{k}={values[k]}" for k, ok in _ENGINE_SUPPORTS.items() if values[k] not in ok]
        if bad:
            raise UnsupportedRuleError(
                f"the {self.preset} rules need turn-flow features not implemented yet: "
                + ", ".join(bad))

    def differences(self, other="casual"):
        """Fields whose values differ from another preset or Rules: {name: (self, other)}."""
        mine = self.as_dict()
        theirs = Rules(other).as_dict() if not isinstance(other, Rules) else other.as_dict()
        return {k: (mine[k], theirs[k]) for k in FIELDS if mine[k] != theirs[k]}

    def __eq__(self, other):
        if not isinstance(other, Rules):
            return NotImplemented
        return self.as_dict() == (<Rules>other).as_dict()

    def __hash__(self):
        return hash(tuple(self.as_dict().values()))

    def __repr__(self):
        return f"Rules({self.preset!r})"

    def __reduce__(self):
        base = self.preset.split("+")[0]
        return (_rebuild, (base, self.differences(base)))


def _rebuild(base, diffs):
    return Rules(base, **{k: v[0] for k, v in diffs.items()})


def _short(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


def _validate(dict values):
    for key, value in values.items():
        lo, hi, _section, _doc = FIELDS[key]
        if isinstance(value, bool):
            # True/False for an on/off field; a count (hand_2p=True) is no flag
            if hi != 1:
                raise RulesTypeError(f"rules field {key} is a number {lo}..{hi}, not a flag: "
                                     f"got {value!r}")
            value = int(value)
            values[key] = value
        if not isinstance(value, int):
            raise RulesTypeError(f"rules field {key} must be an integer, got {_short(value)}")
        if not lo <= value <= hi:
            raise RulesError(f"rules field {key}={value} is out of range {lo}..{hi}")
    # a capture never lowers a score: one more bright never pays less
    for fewer, more in (("bright3", "bright4"), ("bright3", "bright4_rain"),
                        ("bright3_rain", "bright4_rain"), ("bright4", "bright5"),
                        ("bright4_rain", "bright5")):
        if values[fewer] > values[more]:
            raise RulesError(
                f"rules field {fewer}={values[fewer]} is more than {more}={values[more]}: "
                "one more bright would lower the score")
    if not (values["allow_2p"] or values["allow_3p"] or values["allow_4p"]):
        raise RulesError("rules allow no player count at all")
    pack = 48 + (2 if values["bonus_cards"] else 0)
    for n in (2, 3, 4):
        if values[f"allow_{n}p"]:
            dealt = n * values[f"hand_{n}p"] + values[f"field_{n}p"]
            if dealt > pack:
                raise RulesError(
                    f"{n} players x {values[f'hand_{n}p']} cards + {values[f'field_{n}p']} on the "
                    f"field = {dealt} cards, more than the {pack}-card pack")
    if values["payment"] == 2:
        # family balances share out every card's points: the hands must outlast the
        # stock (each turn flips one card), or cards stay in the stock unwon
        for n in (2, 3, 4):
            if values[f"allow_{n}p"]:
                dealt = n * values[f"hand_{n}p"] + values[f"field_{n}p"]
                if pack - dealt > n * values[f"hand_{n}p"]:
                    raise RulesError(
                        f"family balances (payment=2) with {n} players x {values[f'hand_{n}p']} "
                        f"cards + {values[f'field_{n}p']} on the field leave "
                        f"{pack - dealt - n * values[f'hand_{n}p']} cards in the stock when the "
                        f"hands are played out: deal at least "
                        f"{-(-(pack - values[f'field_{n}p']) // (2 * n))} cards a hand")
    if values["payment"] == 2:
        # family balances share out the pack's 240 points, so every card must end in a
        # pile: a hand played to its end, where a card only lies alone on the field
        # once its month has been captured (stacks, no four dealt to the field), and a
        # bomb's three hand cards made up by flip-only turns; otherwise a card is won
        # by nobody and the balances do not sum to zero (nor the winner's stay >= 0)
        for key, ok, why in (
                ("go_stop", values["go_stop"] == 0, "a Stop would end the hand with cards unwon"),
                ("chongtong", values["chongtong"] == 0, "it ends the hand at the deal"),
                ("three_ppeok_chips", values["three_ppeok_chips"] == 0,
                 "a third ppeok would end the hand with cards unwon"),
                ("field_stacks", values["field_stacks"] == 1,
                 "without stacks two cards of a month can be left on the field"),
                ("four_on_field_redeal", values["four_on_field_redeal"] == 1,
                 "four of a month dealt to the field could never be taken"),
                ("bomb_flip_only_turns", not values["bomb"] or values["bomb_flip_only_turns"] >= 2,
                 "a bomb plays three hand cards for one flip: the stock would outlast the hands")):
            if not ok:
                raise RulesError(f"family balances (payment=2) with {key}={values[key]}: {why}")
    if values["ppeok_keeps_bonus"] and not values["field_stacks"]:
        raise RulesError("ppeok_keeps_bonus=1 needs field_stacks=1: without stacks the three "
                         "cards of a ppeok are taken one at a time and the bonus card would "
                         "be left with no stack")
    if values["gwangpalli"] and not values["allow_4p"]:
        raise RulesError("gwangpalli is four-handed play: it needs allow_4p=1")
    if values["gwangpalli"] and not values["go_stop"]:
        raise RulesError("gwangpalli needs Go/Stop play (go_stop=1): a seat out of play would leave card points unwon")
    if values["gwangpalli"] and 4 * values["hand_3p"] + values["field_3p"] > pack:
        raise RulesError("gwangpalli deals four 3-player hands and the 3-player field: more than the pack")
    if values["bonus_in_hand"] and not values["bonus_cards"]:
        raise RulesError("bonus_in_hand needs bonus_cards=1")
    if not values["capture_at_play"] and not values["ppeok"]:
        raise RulesError("capture_at_play=0 (the pair waits for the flip) needs a ppeok rule (ppeok=1 or 2)")
    if (values["payment"] == 2) != bool(values["family_scoring"]):
        raise RulesError("family balances (payment=2) and family card points (family_scoring=1) go together")
    if values["bonus_cards"] and not values["bonus_in_hand"]:
        raise RulesError("with bonus_cards=1 a bonus card can be dealt to a hand: set bonus_in_hand to 1 or 2")


def preset_names():
    """Names of the presets, the default first."""
    return tuple(PRESETS)


def unchanged_preset(rules):
    """The name of the preset ``rules`` are when they are that preset with no rule
    changed, else None (what a table's shipped network and ``best`` key on)."""
    preset = getattr(rules, "preset", None)
    if isinstance(preset, str) and preset in PRESETS and rules == Rules(preset):
        return preset
    return None
