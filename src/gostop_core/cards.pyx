"""Cards and card sets.

Every one of the 50 cards is a bit of a ``uint64`` (see ``gostop_cards.h``):
card index = (month - 1) * 4 + slot, then ``X2`` = 48 and ``X3`` = 49.
A :class:`CardSet` wraps such a mask with Python set operations.
"""
from libc.stdint cimport uint64_t

from gostop_core.errors import CardCodeError, CardTypeError
from gostop_core.korean import KIND_NAMES_KO as _KIND_KO, MONTH_NAMES_KO as _MONTH_KO, card_name_ko

# Codes in bit order.  Slot order inside a month follows the rules matrix.
CARD_CODES = (
    "1B", "1R", "1J1", "1J2",
    "2A", "2R", "2J1", "2J2",
    "3B", "3R", "3J1", "3J2",
    "4A", "4R", "4J1", "4J2",
    "5A", "5R", "5J1", "5J2",
    "6A", "6R", "6J1", "6J2",
    "7A", "7R", "7J1", "7J2",
    "8B", "8A", "8J1", "8J2",
    "9A", "9R", "9J1", "9J2",
    "10A", "10R", "10J1", "10J2",
    "11B", "11D", "11J1", "11J2",
    "12B", "12A", "12R", "12D",
    "X2", "X3",
)
NUM_CARDS = 50
X2 = 48
X3 = 49

# The Korean halves of these names come from the one table of Korean names,
# gostop_core.korean (the terminal, the web page and the SVG titles use it too).
MONTH_NAMES = (None,) + tuple(
    (en, _MONTH_KO[m]) for m, en in enumerate((
        "pine", "plum", "cherry", "wisteria",
        "iris", "peony", "bush clover", "pampas",
        "chrysanthemum", "maple", "paulownia", "rain"), start=1))

KIND_NAMES = {kind: (en, _KIND_KO[kind]) for kind, en in (
    ("B", "bright"), ("A", "animal"), ("R", "ribbon"), ("J", "junk"), ("D", "double junk"),
    ("X", "bonus"))}

# Full English names of the cards with a name of their own, in bit order.
_SPECIAL_NAMES = {
    "1B": "pine crane bright",
    "1R": "pine red poem ribbon",
    "2A": "plum bush warbler (godori)",
    "2R": "plum red poem ribbon",
    "3B": "cherry curtain bright",
    "3R": "cherry red poem ribbon",
    "4A": "wisteria cuckoo (godori)",
    "4R": "wisteria plain ribbon",
    "5A": "iris bridge",
    "5R": "iris plain ribbon",
    "6A": "peony butterflies",
    "6R": "peony blue ribbon",
    "7A": "bush clover boar",
    "7R": "bush clover plain ribbon",
    "8B": "pampas full moon bright",
    "8A": "pampas geese (godori)",
    "9A": "chrysanthemum sake cup",
    "9R": "chrysanthemum blue ribbon",
    "10A": "maple deer",
    "10R": "maple blue ribbon",
    "11B": "paulownia phoenix bright",
    "11D": "paulownia double junk",
    "12B": "rain bright",
    "12A": "rain swallow",
    "12R": "rain ribbon",
    "12D": "rain double junk",
    "X2": "bonus card, two junk",
    "X3": "bonus card, three junk",
}


def _build_names():
    english = []
    for code in CARD_CODES:
        if code in _SPECIAL_NAMES:
            english.append(_SPECIAL_NAMES[code])
        else:  # plain junk: "1J1" -> "pine junk 1"
            month = int(code.split("J")[0])
            english.append(f"{MONTH_NAMES[month][0]} junk {code[-1]}")
    return tuple(english), tuple(card_name_ko(code) for code in CARD_CODES)


CARD_NAMES_EN, CARD_NAMES_KO = _build_names()
_CODE_TO_INDEX = {code: i for i, code in enumerate(CARD_CODES)}

# Named masks, as Python ints (built once from the C header constants).
MASK_ALL = GS_MASK_ALL
MASK_MONTH_CARDS = GS_MASK_MONTH_CARDS
MASK_BONUS = GS_MASK_BONUS
MASK_BRIGHT = GS_MASK_BRIGHT
MASK_RAIN_BRIGHT = GS_MASK_RAIN_BRIGHT
MASK_ANIMAL = GS_MASK_ANIMAL
MASK_RIBBON = GS_MASK_RIBBON
MASK_SINGLE_JUNK = GS_MASK_SINGLE_JUNK
MASK_DOUBLE_JUNK = GS_MASK_DOUBLE_JUNK
MASK_JUNK = GS_MASK_JUNK
MASK_HONGDAN = GS_MASK_HONGDAN
MASK_CHEONGDAN = GS_MASK_CHEONGDAN
MASK_CHODAN = GS_MASK_CHODAN
MASK_RAIN_RIBBON = GS_MASK_RAIN_RIBBON
MASK_GODORI = GS_MASK_GODORI
MASK_SAKE_CUP = GS_MASK_SAKE_CUP
MASK_BRIDGE = GS_MASK_BRIDGE
MONTH_MASKS = (0,) + tuple(GS_MONTH_MASK(m) for m in range(1, 13))


def card_index(code):
    """Index (0..49) of a card code such as ``"1B"``, ``"11d"`` or ``"X3"``.

    Raises :class:`CardCodeError` with the reason for a bad code.
    """
    if isinstance(code, int) and not isinstance(code, bool):
        if 0 <= code < NUM_CARDS:
            return code
        raise CardCodeError(f"card index {code} out of range 0..49")
    if not isinstance(code, str):
        raise CardTypeError(f"expected a card code string, got {type(code).__name__}")
    text = code.strip().upper()
    found = _CODE_TO_INDEX.get(text)
    if found is not None:
        return found
    raise CardCodeError(_explain_bad_code(code, text))


def _quoted(code):
    """A bad code as the message quotes it, cut short: a message never carries
    a hostile string's megabytes."""
    text = repr(code)
    return text if len(text) <= 40 else text[:40] + "..."


def _explain_bad_code(original, text):
    if not text:
        return "empty card code"
    if text.startswith("X"):
        return f"unknown card code {_quoted(original)}: the bonus cards are X2 and X3"
    digits = ""
    for ch in text:
        if ch in "0123456789":  # ASCII only: str.isdigit() also accepts "²", which int() refuses
            digits += ch
        else:
            break
    if not digits:
        return f"unknown card code {_quoted(original)}: a code starts with a month 1-12 (e.g. 1B, 9A, 11D, 12R) or is X2/X3"
    run = len(digits)
    digits = digits.lstrip("0") or "0"  # int() refuses more than 4300 digits, zeros too
    if len(digits) > 6:
        return f"unknown card code {_quoted(original)}: month {digits[:6]}... is not 1-12"
    month = int(digits)
    if not 1 <= month <= 12:
        return f"unknown card code {_quoted(original)}: month {month} is not 1-12"
    valid = [c for c in CARD_CODES[(month - 1) * 4:month * 4]]
    rest = text[run:]
    if rest == "J":
        return f"unknown card code {_quoted(original)}: month {month} junk needs a number ({', '.join(c for c in valid if 'J' in c)})"
    return f"unknown card code {_quoted(original)}: month {month} holds {', '.join(valid)}"


def card_code(int card):
    """Canonical code of a card index."""
    if not 0 <= card < GS_NUM_CARDS:
        raise CardCodeError(f"card index {card} out of range 0..49")
    return CARD_CODES[card]


def card_name(card, korean=False):
    """English (or Korean) name of a card given by index or code."""
    i = card_index(card)
    return CARD_NAMES_KO[i] if korean else CARD_NAMES_EN[i]


def card_kind(card):
    """Kind letter of a card: ``B``, ``A``, ``R``, ``J``, ``D`` or ``X`` (bonus)."""
    code = CARD_CODES[card_index(card)]
    if code[0] == "X":
        return "X"
    return code.rstrip("0123456789")[-1]


def card_month(card):
    """Month 1..12 of a card, 0 for the bonus cards."""
    i = card_index(card)
    return 0 if i >= GS_NUM_MONTH_CARDS else i // 4 + 1


cpdef uint64_t parse_mask(object cards) except? 0:
    """Mask of a card collection: a string of codes separated by spaces or commas
    (``"-"`` or ``""`` for none), an iterable of codes or indices, or a CardSet.
    A card named twice is an error."""
    cdef uint64_t mask = 0
    cdef uint64_t bit
    cdef int i
    if isinstance(cards, CardSet):
        return (<CardSet>cards).mask
    if isinstance(cards, str):
        text = cards.replace(",", " ").strip()
        items = [] if text in ("", "-") else text.split()
    else:
        if isinstance(cards, (bytes, bytearray, memoryview)):
            # iterating bytes gives small ints, which would be taken for card indices
            raise CardTypeError(f"expected card codes as a str, got {type(cards).__name__}")
        try:
            items = list(cards)
        except TypeError:
            raise CardTypeError(f"expected card codes, got {type(cards).__name__}") from None
    for item in items:
        i = card_index(item)
        bit = GS_BIT(i)
        if mask & bit:
            raise CardCodeError(f"card {CARD_CODES[i]} named twice")
        mask |= bit
    return mask


def format_mask(uint64_t mask, str sep=" "):
    """Codes of a mask in bit order, joined by ``sep``; ``"-"`` when empty."""
    if mask == 0:
        return "-"
    return sep.join(CARD_CODES[i] for i in range(GS_NUM_CARDS) if mask & GS_BIT(i))


cdef class CardSet:
    """An immutable set of cards backed by one ``uint64`` bitmask.

    >>> CardSet("1B 3B 8B") | CardSet(["12B"])
    CardSet('1B 3B 8B 12B')
    """

    def __cinit__(self, cards=0):
        if isinstance(cards, int) and not isinstance(cards, bool):
            if cards < 0 or cards & ~GS_MASK_ALL:
                raise CardCodeError(f"mask {cards:#x} has bits outside the 50 cards")
            self.mask = cards
        else:
            self.mask = parse_mask(cards)

    @classmethod
    def from_str(cls, text):
        """Parse codes separated by spaces or commas (``"-"`` for the empty set)."""
        return cls(parse_mask(text))

    @staticmethod
    def month(int m):
        """The four cards of month ``m`` (1..12)."""
        if not 1 <= m <= 12:
            raise CardCodeError(f"month {m} is not 1-12")
        return CardSet(GS_MONTH_MASK(m))

    def __len__(self):
        return gs_popcount(self.mask)

    def __bool__(self):
        return self.mask != 0

    def __iter__(self):
        cdef uint64_t m = self.mask
        while m:
            yield gs_lowest(m)
            m &= m - 1

    def codes(self):
        """The card codes in bit order."""
        return [CARD_CODES[i] for i in self]

    def __contains__(self, card):
        try:
            i = card_index(card)
        except CardCodeError:
            return False
        return bool(self.mask & GS_BIT(i))

    def __or__(self, other):
        return CardSet(self.mask | parse_mask(other))

    def __and__(self, other):
        return CardSet(self.mask & parse_mask(other))

    def __sub__(self, other):
        return CardSet(self.mask & ~parse_mask(other))

    def __xor__(self, other):
        return CardSet(self.mask ^ parse_mask(other))

    def __invert__(self):
        return CardSet(GS_MASK_ALL & ~self.mask)

    def issubset(self, other):
        return self.mask & ~parse_mask(other) == 0

    def issuperset(self, other):
        return parse_mask(other) & ~self.mask == 0

    def isdisjoint(self, other):
        return self.mask & parse_mask(other) == 0

    def __eq__(self, other):
        if isinstance(other, CardSet):
            return self.mask == (<CardSet>other).mask
        return NotImplemented

    def __hash__(self):
        return hash(self.mask)

    def __int__(self):
        return self.mask

    def __index__(self):
        return self.mask

    def __str__(self):
        return format_mask(self.mask)

    def __repr__(self):
        return f"CardSet({format_mask(self.mask)!r})" if self.mask else "CardSet()"

    def __reduce__(self):
        return (CardSet, (int(self.mask),))


# CardSet constants for the named masks.
ALL = CardSet(GS_MASK_ALL)
BRIGHTS = CardSet(GS_MASK_BRIGHT)
ANIMALS = CardSet(GS_MASK_ANIMAL)
RIBBONS = CardSet(GS_MASK_RIBBON)
JUNK = CardSet(GS_MASK_JUNK)
DOUBLE_JUNK = CardSet(GS_MASK_DOUBLE_JUNK)
BONUS = CardSet(GS_MASK_BONUS)
HONGDAN = CardSet(GS_MASK_HONGDAN)
CHEONGDAN = CardSet(GS_MASK_CHEONGDAN)
CHODAN = CardSet(GS_MASK_CHODAN)
GODORI = CardSet(GS_MASK_GODORI)


def _mod_small(uint64_t x, uint32_t d):
    """``gs_mod_small(x, d)``, the shuffle's division-free remainder (for the tests)."""
    return gs_mod_small(x, d)


def _popcount(uint64_t x):
    """``gs_popcount(x)`` as the C kernels count (for the tests)."""
    return gs_popcount(x)
