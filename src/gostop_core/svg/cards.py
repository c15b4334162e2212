"""The hwatu cards as SVG symbols: every card's design, the card back, and the
functions that write them (:func:`card`, :func:`back`, :func:`card_defs`,
:func:`card_sheet`).  Re-exported by :mod:`gostop_core.svg`."""

from __future__ import annotations

import re
from html import escape as _xml_escape
from math import cos, isfinite, radians, sin

from gostop_core.cards import (
    CARD_CODES, CHEONGDAN, HONGDAN, KIND_NAMES, MONTH_NAMES, CardSet, card_kind, card_month,
)
from gostop_core.korean import card_name_ko
from gostop_core.errors import ArgumentTypeError, CardCodeError, CardTypeError, GoStopError

__all__ = [
    "CARD_WIDTH", "CARD_HEIGHT", "DEFAULT_COLORS", "BACK_ID", "card", "back", "card_defs",
    "card_symbol", "card_symbol_id", "card_sheet", "SvgArgumentError", "MAX_SIZE",
]

CARD_WIDTH = 60
CARD_HEIGHT = 92

#: Colours every drawing uses; pass ``colors={"back": "#225", ...}`` to change some.
DEFAULT_COLORS = {
    "card frame": "#3a2a20",
    "card face": "#fbf5e6",
    "back": "#b3202a",
    "back pattern": "#7d1118",
    "label": "#1c1c1c",
    "label face": "#ffffff",
    "table": "#2f6b45",
    "panel": "#245536",
    "panel active": "#3d7d52",
    "text": "#f4f1e8",
    "muted": "#bcd3c2",
    "highlight": "#ffd23f",
    "not counted": "#6d6d6d",
}

#: The id of the card back's symbol.
BACK_ID = "gostop-card-back"

_FONT = "font-family=\"DejaVu Sans, Arial, 'Noto Sans CJK KR', sans-serif\""


class SvgArgumentError(GoStopError, ValueError):
    """A size that is not a finite width from 1 to :data:`MAX_SIZE` pixels, or a
    colour that is not a CSS colour (``#rgb``, ``#rrggbb``, ``#rrggbbaa``, a colour
    name, ``rgb(...)``/``hsl(...)`` of numbers); nothing is drawn."""


#: The widest picture drawn, in pixels.
MAX_SIZE = 1_000_000

# Only these colour forms go into an attribute: none holds a quote, '&' or '<'.
_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,40}"
                     r"|(?:rgb|rgba|hsl|hsla)\([0-9.,%/ ]{1,60}\)")


def _size(size: object, name: str = "size") -> float:
    """A picture's width, checked (type, finite, 1 to MAX_SIZE)."""
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        raise ArgumentTypeError(f"{name} must be a number of pixels, not "
                                f"{type(size).__name__}")
    if not (isfinite(size) and 1 <= size <= MAX_SIZE):
        raise SvgArgumentError(f"{name} {size!r}: give a width from 1 to {MAX_SIZE:,} pixels")
    return float(size)


def _colors(colors: dict | None) -> dict:
    merged = dict(DEFAULT_COLORS)
    if colors is not None and not isinstance(colors, dict):
        raise ArgumentTypeError(f"colors must be a dict, not {type(colors).__name__}")
    if colors:
        unknown = {str(k) for k in colors} - set(DEFAULT_COLORS)
        if unknown:
            raise ValueError(f"unknown colour key(s): {', '.join(sorted(unknown))} "
                             f"(known: {', '.join(DEFAULT_COLORS)})")
        for key, value in colors.items():
            if not isinstance(value, str) or not _COLOUR.fullmatch(value):
                raise SvgArgumentError(f"colour {key!r} is {value!r:.40}, not a CSS colour "
                                       "(#rgb, #rrggbb, a name, rgb(...) or hsl(...))")
        merged.update(colors)
    return merged


# Characters XML 1.0 cannot hold (control characters, lone surrogates, U+FFFE/F)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _esc(text: object) -> str:
    return _xml_escape(_NOT_XML.sub("\ufffd", str(text)), quote=True)


def _code(card: object) -> str:
    """The code of a card given as a code (any case) or an index."""
    if isinstance(card, bool):
        raise CardTypeError(f"{card!r} is not a card (a code such as '1B' or an index "
                            f"0-{len(CARD_CODES) - 1})")
    if not isinstance(card, (str, int)) and hasattr(card, "__index__"):
        card = card.__index__()  # a numpy integer
    if isinstance(card, int):
        if not 0 <= card < len(CARD_CODES):
            raise CardCodeError(f"card index {card} is not 0-{len(CARD_CODES) - 1}")
        return CARD_CODES[card]
    if not isinstance(card, str):
        raise CardTypeError(f"{type(card).__name__} is not a card (a code such as '1B' or "
                            f"an index 0-{len(CARD_CODES) - 1})")
    code = card.upper()
    if code not in CARD_CODES:
        CardSet([code])  # raises CardCodeError with the reason
    return code


def card_symbol_id(code: object) -> str:
    """The id of a card's ``<symbol>`` in :func:`card_defs` (``gostop-card-1B``)."""
    return f"gostop-card-{_code(code)}"


# --- the card designs -------------------------------------------------------------

# Each month's plant, in its colours; drawn in the card's 60x92 box.

def _flowers(points, petal: str, centre: str, r: float = 2.6) -> str:
    out = []
    for x, y in points:
        for k in range(5):
            dx, dy = _ROSE[k]
            out.append(f'<circle cx="{x + dx * r:.1f}" cy="{y + dy * r:.1f}" r="{r:.1f}" '
                       f'fill="{petal}"/>')
        out.append(f'<circle cx="{x}" cy="{y}" r="{r * 0.6:.1f}" fill="{centre}"/>')
    return "".join(out)


_ROSE = ((0.0, -1.0), (0.95, -0.31), (0.59, 0.81), (-0.59, 0.81), (-0.95, -0.31))


def _plant(month: int) -> str:
    if month == 1:  # pine: a trunk and dark green tufts of needles
        tufts = "".join(
            f'<ellipse cx="{x}" cy="{y}" rx="11" ry="5.5" fill="#1e6b35" stroke="#0f3d1d" '
            f'stroke-width="1"/><path d="M{x - 8} {y} h16 M{x - 6} {y - 2.5} h12" '
            f'stroke="#5fa36f" stroke-width="0.8"/>'
            for x, y in ((20, 60), (41, 66), (27, 76), (46, 80)))
        return ('<path d="M10 88 C20 74 32 70 50 60" stroke="#6b4423" stroke-width="4" '
                'fill="none"/>' + tufts)
    if month == 2:  # plum: a dark branch with red blossoms
        return ('<path d="M6 86 C18 70 30 62 54 40 M30 62 C34 52 40 48 48 46" '
                'stroke="#4a2e1c" stroke-width="3" fill="none"/>'
                + _flowers(((16, 74), (28, 62), (44, 48), (52, 40), (38, 54)), "#c8102e",
                           "#ffd23f"))
    if month == 3:  # cherry: clouds of pink blossoms
        return ('<path d="M4 40 C20 46 34 44 56 30" stroke="#4a2e1c" stroke-width="2.5" '
                'fill="none"/>'
                + _flowers(((12, 42), (22, 46), (32, 42), (42, 38), (52, 32), (18, 34),
                            (38, 30)), "#f48fb1", "#c2185b", 3.0))
    if month == 4:  # wisteria: dark strands hanging from the top
        strands = []
        for i, x in enumerate((12, 22, 32, 42, 50)):
            length = 34 + (i % 2) * 10
            strands.append(f'<path d="M{x} 12 v{length}" stroke="#2b1d3a" stroke-width="1.2"/>')
            for k in range(0, length, 6):
                strands.append(f'<ellipse cx="{x}" cy="{14 + k}" rx="3.2" ry="2.2" '
                               f'fill="#3b2355"/>')
        return "".join(strands)
    if month == 5:  # iris: sword leaves and purple flowers
        leaves = "".join(
            f'<path d="M{x} 88 Q{x + lean} 66 {x + lean * 2} {top}" stroke="#2e7d32" '
            f'stroke-width="3" fill="none"/>'
            for x, lean, top in ((14, 2, 46), (24, -2, 40), (36, 3, 44), (46, -2, 50)))
        flowers = "".join(
            f'<path d="M{x} {y} q-7 -3 -5 -10 q4 3 5 6 q1 -3 5 -6 q2 7 -5 10 z" '
            f'fill="#6a3fb5" stroke="#3a1f6e" stroke-width="0.8"/>'
            for x, y in ((18, 46), (34, 42), (46, 52)))
        return leaves + flowers
    if month == 6:  # peony: a large red bloom with leaves
        return ('<ellipse cx="18" cy="70" rx="10" ry="5" fill="#2e7d32" '
                'transform="rotate(-30 18 70)"/>'
                '<ellipse cx="44" cy="72" rx="10" ry="5" fill="#2e7d32" '
                'transform="rotate(30 44 72)"/>'
                '<circle cx="30" cy="60" r="14" fill="#e0497a"/>'
                '<circle cx="30" cy="60" r="9" fill="#c2185b"/>'
                '<circle cx="30" cy="60" r="4" fill="#ffd23f"/>')
    if month == 7:  # bush clover: arching stems with small red leaves
        leaves = "".join(
            f'<ellipse cx="{x}" cy="{y}" rx="3.6" ry="2" fill="#b71c1c" '
            f'transform="rotate({angle} {x} {y})"/>'
            for x, y, angle in ((12, 30, 30), (18, 36, -20), (24, 34, 40), (30, 42, -30),
                                (38, 40, 20), (44, 48, -40), (48, 38, 35), (20, 48, 10),
                                (34, 54, -15), (50, 56, 25), (14, 56, -35), (40, 62, 15)))
        return ('<path d="M8 88 C12 50 30 30 54 30 M20 88 C24 60 40 46 56 50" '
                'stroke="#5d4037" stroke-width="1.5" fill="none"/>' + leaves)
    if month == 8:  # pampas: a dark hill with grass
        grass = "".join(f'<path d="M{x} 72 q{2 if x % 2 else -2} -12 {4 if x % 2 else -4} -20" '
                        f'stroke="#f4f1e8" stroke-width="0.8" fill="none"/>'
                        for x in range(8, 56, 5))
        return ('<path d="M3 89 L3 58 Q18 44 34 60 Q46 68 57 66 L57 89 Z" fill="#212121"/>'
                + grass)
    if month == 9:  # chrysanthemum: a yellow bloom of many petals
        petals = "".join(
            f'<ellipse cx="30" cy="54" rx="3" ry="10" fill="#f2b705" stroke="#b07d00" '
            f'stroke-width="0.5" transform="rotate({a} 30 64)"/>' for a in range(0, 360, 30))
        return ('<path d="M30 74 V88" stroke="#2e7d32" stroke-width="2.5"/>'
                '<ellipse cx="22" cy="82" rx="7" ry="3" fill="#2e7d32"/>' + petals
                + '<circle cx="30" cy="64" r="4" fill="#b07d00"/>')
    if month == 10:  # maple: red leaves
        return ('<path d="M6 20 C20 30 34 40 54 44" stroke="#5d4037" stroke-width="1.5" '
                'fill="none"/>'
                + "".join(_maple_leaf(x, y, s) for x, y, s in
                          ((14, 26, 1.0), (28, 34, 1.2), (44, 40, 1.0), (22, 50, 0.9),
                           (40, 56, 1.1))))
    if month == 11:  # paulownia: big dark leaves under purple flower spikes
        return ('<ellipse cx="18" cy="72" rx="12" ry="9" fill="#263238"/>'
                '<ellipse cx="42" cy="72" rx="12" ry="9" fill="#263238"/>'
                '<ellipse cx="30" cy="80" rx="13" ry="8" fill="#37474f"/>'
                '<path d="M18 72 h8 M42 72 h-8 M30 80 v-6" stroke="#90a4ae" stroke-width="0.8"/>'
                + "".join(f'<ellipse cx="{x}" cy="60" rx="3" ry="6" fill="#8e5bc7"/>'
                          for x in (22, 30, 38)))
    # 12, rain: willow strands and falling rain on a grey sky
    rain = "".join(f'<path d="M{x} {y} l-3 8" stroke="#90a4ae" stroke-width="0.9"/>'
                   for x, y in ((10, 14), (22, 20), (34, 12), (48, 18), (16, 36), (44, 34),
                                (28, 28), (52, 46)))
    willow = "".join(f'<path d="M{x} 10 C{x - 4} 30 {x + 4} 50 {x - 2} {62 + x % 7}" '
                     f'stroke="#558b2f" stroke-width="1.4" fill="none"/>' for x in (40, 46, 52))
    return ('<rect x="3" y="3" width="54" height="86" fill="#cfd8dc"/>' + rain + willow)


def _maple_leaf(x: float, y: float, s: float) -> str:
    pts = []
    for k in range(10):
        r = (8 if k % 2 == 0 else 3.5) * s  # five lobes
        a = radians(k * 36 - 90)
        pts.append(f"{x + r * cos(a):.1f},{y + r * sin(a):.1f}")
    return f'<polygon points="{" ".join(pts)}" fill="#e65100" stroke="#a63a00" stroke-width="0.6"/>'


def _subject(code: str) -> str:
    """The bright's, the animal's or the double junk's own picture, over the plant."""
    if code == "1B":  # crane under a red sun
        return ('<circle cx="40" cy="24" r="11" fill="#d62828"/>'
                '<ellipse cx="24" cy="40" rx="10" ry="6" fill="#ffffff" stroke="#333" '
                'stroke-width="0.8"/><path d="M30 38 Q36 30 32 20" stroke="#222" '
                'stroke-width="2" fill="none"/><circle cx="32" cy="19" r="2.4" fill="#d62828"/>'
                '<path d="M32 19 l6 2" stroke="#444" stroke-width="1.2"/>'
                '<path d="M20 46 l-2 10 M26 46 l1 10" stroke="#222" stroke-width="1"/>')
    if code == "2A":  # bush warbler on the branch
        return ('<ellipse cx="30" cy="30" rx="9" ry="6" fill="#9aa832" stroke="#5b6a12" '
                'stroke-width="0.8"/><circle cx="38" cy="25" r="4" fill="#9aa832" '
                'stroke="#5b6a12" stroke-width="0.8"/><path d="M42 25 l4 1 l-4 1 z" '
                'fill="#e65100"/><path d="M22 31 l-8 4 l2 -6 z" fill="#6b7a1a"/>'
                '<circle cx="39" cy="24" r="0.9" fill="#111"/>')
    if code == "3B":  # the curtain, red and white bands
        bands = "".join(f'<rect x="{6 + 8 * i}" y="56" width="8" height="22" '
                        f'fill="{"#d62828" if i % 2 == 0 else "#ffffff"}"/>' for i in range(6))
        return ('<path d="M4 54 H56" stroke="#5d4037" stroke-width="2.5"/>' + bands
                + '<path d="M6 78 H54" stroke="#7d1118" stroke-width="1"/>')
    if code == "4A":  # cuckoo in flight
        return ('<path d="M14 66 Q26 56 40 62 Q30 64 24 72 Z" fill="#37474f"/>'
                '<path d="M24 62 Q30 48 44 48 Q36 56 34 62 Z" fill="#546e7a"/>'
                '<circle cx="42" cy="62" r="3.4" fill="#37474f"/>'
                '<path d="M45 62 l4 1 l-4 1 z" fill="#d62828"/>'
                '<path d="M44 80 a8 8 0 1 0 8 -10 a6 6 0 1 1 -8 10" fill="#fff3c4"/>')
    if code == "5A":  # the plank bridge
        return ('<path d="M4 74 L22 64 L38 74 L56 64" stroke="#6d4c41" stroke-width="6" '
                'fill="none"/><path d="M4 74 L22 64 L38 74 L56 64" stroke="#a1887f" '
                'stroke-width="1.5" fill="none"/>')
    if code == "6A":  # two butterflies
        return "".join(
            f'<g transform="translate({x} {y})"><ellipse cx="-4" cy="-3" rx="4" ry="5" '
            f'fill="#ffca28"/><ellipse cx="4" cy="-3" rx="4" ry="5" fill="#ffca28"/>'
            f'<ellipse cx="-3" cy="4" rx="3" ry="3" fill="#1e88e5"/><ellipse cx="3" cy="4" '
            f'rx="3" ry="3" fill="#1e88e5"/><path d="M0 -6 V7" stroke="#222" '
            f'stroke-width="1.2"/></g>' for x, y in ((18, 26), (42, 36)))
    if code == "7A":  # the boar
        return ('<ellipse cx="30" cy="68" rx="15" ry="9" fill="#6d4c41"/>'
                '<path d="M42 62 L54 66 L44 72 Z" fill="#5d4037"/>'
                '<path d="M20 76 v8 M26 77 v8 M34 77 v8 M40 76 v8" stroke="#3e2723" '
                'stroke-width="2.5"/><circle cx="46" cy="65" r="1" fill="#fff"/>'
                '<path d="M16 64 q-4 -2 -3 -6" stroke="#3e2723" fill="none"/>')
    if code == "8B":  # the full moon in a red sky
        return ('<rect x="3" y="3" width="54" height="60" fill="#d62828"/>'
                '<circle cx="30" cy="34" r="17" fill="#fff8e1" stroke="#f2b705" '
                'stroke-width="1"/>'
                '<path d="M3 89 L3 64 Q30 44 57 64 L57 89 Z" fill="#212121"/>')
    if code == "8A":  # three geese across a pale sky
        geese = "".join(f'<path d="M{x - 6} {y - 3} L{x} {y} L{x + 6} {y - 3}" stroke="#111" '
                        f'stroke-width="2.2" fill="none"/>'
                        for x, y in ((16, 22), (30, 30), (44, 20)))
        return '<rect x="3" y="3" width="54" height="46" fill="#fff3c4"/>' + geese
    if code == "9A":  # the sake cup
        return ('<path d="M14 30 H46 L40 48 H20 Z" fill="#c62828" stroke="#7f0000" '
                'stroke-width="1"/><rect x="26" y="48" width="8" height="5" fill="#c62828"/>'
                '<circle cx="30" cy="38" r="5" fill="#ffd23f"/>')
    if code == "10A":  # the deer
        return ('<ellipse cx="28" cy="70" rx="13" ry="7" fill="#a0522d"/>'
                '<path d="M38 66 L44 54 L48 56 L42 68 Z" fill="#a0522d"/>'
                '<circle cx="46" cy="53" r="3.5" fill="#a0522d"/>'
                '<path d="M45 50 l-3 -8 m1.5 4 l-4 -2 M48 50 l3 -8 m-1.5 4 l4 -2" '
                'stroke="#5d4037" stroke-width="1.2" fill="none"/>'
                '<path d="M19 76 v10 M24 77 v10 M32 77 v10 M37 76 v10" stroke="#6d3a1c" '
                'stroke-width="2"/><circle cx="24" cy="68" r="1.2" fill="#fff"/>'
                '<circle cx="32" cy="71" r="1.2" fill="#fff"/>')
    if code == "11B":  # the phoenix
        return ('<path d="M30 44 C10 40 8 20 20 14 C22 26 30 30 34 34 Z" fill="#2e7d32"/>'
                '<path d="M30 44 C50 40 54 22 44 12 C40 26 34 30 30 34 Z" fill="#d62828"/>'
                '<circle cx="30" cy="30" r="5" fill="#ffd23f"/>'
                '<path d="M30 44 C28 52 20 56 12 52 M30 44 C34 52 42 56 50 52" '
                'stroke="#1565c0" stroke-width="2.5" fill="none"/>')
    if code == "11D":  # the double junk of paulownia: yellow leaves
        return ('<ellipse cx="18" cy="72" rx="12" ry="9" fill="#f2b705"/>'
                '<ellipse cx="42" cy="72" rx="12" ry="9" fill="#f2b705"/>')
    if code == "12B":  # the man with the umbrella (and the frog)
        return ('<path d="M10 40 A18 14 0 0 1 46 40 Z" fill="#f2b705" stroke="#b07d00" '
                'stroke-width="1"/><path d="M28 40 V52" stroke="#5d4037" stroke-width="1.5"/>'
                '<path d="M20 52 H36 L40 84 H16 Z" fill="#c62828"/>'
                '<circle cx="28" cy="46" r="4" fill="#ffe0b2"/>'
                '<ellipse cx="48" cy="82" rx="5" ry="3.5" fill="#558b2f"/>')
    if code == "12A":  # the swallow
        return ('<path d="M14 46 L30 40 L46 30 L36 44 L48 52 L32 48 L20 56 Z" fill="#111"/>'
                '<circle cx="42" cy="34" r="1.2" fill="#d62828"/>')
    if code == "12D":  # the lightning drum: a dark sky, a bolt and a red drum
        return ('<rect x="3" y="3" width="54" height="86" fill="#37474f"/>'
                '<circle cx="30" cy="58" r="13" fill="#c62828" stroke="#ffd23f" '
                'stroke-width="1.5"/><path d="M30 58 m-7 0 a7 7 0 0 1 14 0 a3.5 3.5 0 0 1 -7 0" '
                'stroke="#ffd23f" stroke-width="1.5" fill="none"/>'
                '<path d="M22 12 L34 12 L28 24 L38 24 L20 42 L26 28 L18 28 Z" fill="#ffd23f"/>')
    return ""


def _writing(x: float, y: float, colour: str) -> str:
    """Three short brush strokes: the poem written on a hongdan ribbon."""
    return "".join(f'<path d="M{x - 3} {y + dy} q3 -2 6 0 m-3 -1 v4" stroke="{colour}" '
                   f'stroke-width="1.3" fill="none"/>' for dy in (0, 10, 20))


def _ribbon(code: str) -> str:
    """The ribbon band: red with writing (hongdan), red plain (chodan), blue
    (cheongdan); the rain ribbon is red with black bands."""
    mask_bit = CardSet([code])
    if mask_bit.issubset(CHEONGDAN):
        fill, writing = "#1c4fa0", ""
    elif mask_bit.issubset(HONGDAN):
        fill, writing = "#d62828", _writing(30, 34, "#111111")
    else:
        fill, writing = "#d62828", ""
    band = (f'<g transform="rotate(-8 30 44)"><path d="M23 20 H37 V64 L30 60 L23 64 Z" '
            f'fill="{fill}" stroke="#4a1010" stroke-width="0.8"/>{writing}')
    if code == "12R":
        band += ('<rect x="23" y="32" width="14" height="3" fill="#111"/>'
                 '<rect x="23" y="46" width="14" height="3" fill="#111"/>')
    return band + "</g>"


def _badge(kind: str) -> str:
    if kind == "B":  # the bright's mark: 光 in a red disc
        return ('<g class="gostop-bright-mark">'
                '<circle cx="49" cy="12" r="7" fill="#d62828" stroke="#fff" stroke-width="1"/>'
                f'<text x="49" y="15.5" text-anchor="middle" font-size="9.5" fill="#fff" '
                f'{_FONT} font-weight="bold">光</text></g>')
    if kind == "D":  # double junk: a gold disc with 2
        return ('<g class="gostop-double-mark">'
                '<circle cx="49" cy="12" r="7" fill="#f2b705" stroke="#7a5600" '
                'stroke-width="1"/><text x="49" y="15.5" text-anchor="middle" font-size="10" '
                f'fill="#3a2a00" {_FONT} font-weight="bold">2</text></g>')
    return ""


def _bonus(code: str) -> str:
    value = code[1]
    discs = "".join(f'<circle cx="{30 + (i - (int(value) - 1) / 2) * 12:.1f}" cy="66" r="4.5" '
                    f'fill="#c62828" stroke="#7f0000" stroke-width="0.8"/>'
                    for i in range(int(value)))
    return ('<rect x="3" y="3" width="54" height="86" fill="#f6d77a"/>'
            '<path d="M30 16 L34 28 L46 28 L36 35 L40 47 L30 40 L20 47 L24 35 L14 28 L26 28 Z" '
            'fill="#e65100"/>'
            f'<text x="30" y="60" text-anchor="middle" font-size="11" fill="#5a3a00" {_FONT} '
            f'font-weight="bold">×{value}</text>' + discs)


def _label(code: str, colors: dict) -> str:
    """The month number (top left) and the card code (bottom left)."""
    month = card_month(code)
    top = str(month) if month else "+"
    return (f'<g class="gostop-label">'
            f'<circle cx="9.5" cy="10.5" r="6" fill="{colors["label face"]}" '
            f'stroke="{colors["label"]}" stroke-width="0.6"/>'
            f'<text x="9.5" y="13.4" text-anchor="middle" font-size="{8.5 if len(top) == 1 else 7}" '
            f'fill="{colors["label"]}" {_FONT} font-weight="bold">{top}</text>'
            f'<rect x="4" y="78" width="{6 + 5.6 * len(code):.1f}" height="10" rx="2" '
            f'fill="{colors["label face"]}" stroke="{colors["label"]}" stroke-width="0.5"/>'
            f'<text x="7" y="85.8" font-size="8" fill="{colors["label"]}" {_FONT} '
            f'font-weight="bold">{code}</text></g>')


def _card_body(code: str, colors: dict) -> str:
    kind = card_kind(code)
    frame = (f'<rect x="0.5" y="0.5" width="59" height="91" rx="4" fill="{colors["card frame"]}"/>'
             f'<rect x="3" y="3" width="54" height="86" rx="2" fill="{colors["card face"]}"/>')
    if kind == "X":
        art = _bonus(code)
    else:
        plant = _plant(card_month(code))
        if code.endswith("J2"):  # the two junk cards of a month face opposite ways
            plant = f'<g transform="translate(60 0) scale(-1 1)">{plant}</g>'
        art = plant + _subject(code)
        if kind == "R":
            art += _ribbon(code)
    clip = (f'<clipPath id="gostop-clip-{code}"><rect x="3" y="3" width="54" height="86" '
            f'rx="2"/></clipPath>')
    return (frame + clip + f'<g clip-path="url(#gostop-clip-{code})">{art}</g>'
            + _badge(kind) + _label(code, colors))


def card_symbol(code: object, colors: dict | None = None, korean: bool = False) -> str:
    """One card's ``<symbol>`` (id :func:`card_symbol_id`), to go inside ``<defs>``;
    its title names the card in Korean with ``korean`` (``1B: 송학 광``, from
    :mod:`gostop_core.korean`)."""
    code = _code(code)
    c = _colors(colors)
    names = MONTH_NAMES[card_month(code)]
    kind_name = KIND_NAMES[card_kind(code)][0]
    if korean:
        title = f"{code}: {card_name_ko(code)}"
    else:
        title = f"{code}: {names[0]} {kind_name}" if names else f"{code}: bonus card"
    return (f'<symbol id="{card_symbol_id(code)}" viewBox="0 0 {CARD_WIDTH} {CARD_HEIGHT}">'
            f'<title>{_esc(title)}</title>{_card_body(code, c)}</symbol>')


def _back_symbol(colors: dict) -> str:
    diamonds = "".join(
        f'<path d="M{x} {y - 6} L{x + 5} {y} L{x} {y + 6} L{x - 5} {y} Z" '
        f'fill="{colors["back pattern"]}"/>'
        for x in (15, 30, 45) for y in (16, 32, 48, 64, 80))
    return (f'<symbol id="{BACK_ID}" viewBox="0 0 {CARD_WIDTH} {CARD_HEIGHT}">'
            f'<title>a hidden card</title>'
            f'<rect x="0.5" y="0.5" width="59" height="91" rx="4" fill="{colors["card frame"]}"/>'
            f'<rect x="3" y="3" width="54" height="86" rx="2" fill="{colors["back"]}"/>'
            f'{diamonds}</symbol>')


def card_defs(codes=None, colors: dict | None = None, back: bool = True,
              korean: bool = False) -> str:
    """A ``<defs>`` element holding the symbols of ``codes`` (all 50 cards by default)
    and, with ``back=True``, the card back (id :data:`BACK_ID`); titles in Korean
    with ``korean``."""
    c = _colors(colors)
    chosen = CARD_CODES if codes is None else [_code(x) for x in codes]
    seen = []
    for code in chosen:
        if code not in seen:
            seen.append(code)
    inner = "".join(card_symbol(code, c, korean) for code in seen)
    if back:
        inner += _back_symbol(c)
    return f"<defs>{inner}</defs>"


def _svg(width: float, height: float, view_w: float, view_h: float, inner: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {view_w:g} {view_h:g}">{inner}</svg>')


def card(code: object, size: float = 60, colors: dict | None = None,
         korean: bool = False) -> str:
    """One card as a standalone SVG, ``size`` pixels wide (its title in Korean with
    ``korean``).

    >>> svg_text = card("1B", size=120)
    >>> 'width="120"' in svg_text and 'href="#gostop-card-1B"' in svg_text
    True
    """
    code = _code(code)
    size = _size(size)
    height = size * CARD_HEIGHT / CARD_WIDTH
    use = (f'<use href="#{card_symbol_id(code)}" x="0" y="0" width="{CARD_WIDTH}" '
           f'height="{CARD_HEIGHT}"/>')
    return _svg(size, height, CARD_WIDTH, CARD_HEIGHT,
                card_defs([code], colors, back=False, korean=korean) + use)


def back(size: float = 60, colors: dict | None = None) -> str:
    """The back of a card (a hidden card), ``size`` pixels wide."""
    size = _size(size)
    height = size * CARD_HEIGHT / CARD_WIDTH
    use = f'<use href="#{BACK_ID}" x="0" y="0" width="{CARD_WIDTH}" height="{CARD_HEIGHT}"/>'
    return _svg(size, height, CARD_WIDTH, CARD_HEIGHT,
                f"<defs>{_back_symbol(_colors(colors))}</defs>{use}")


def card_sheet(codes=None, columns: int = 10, size: float = 600,
               colors: dict | None = None) -> str:
    """Every card (or ``codes``) in a grid, then a card back: a sheet to learn from."""
    chosen = list(CARD_CODES) if codes is None else [_code(x) for x in codes]
    size = _size(size)
    if isinstance(columns, bool) or not isinstance(columns, int):
        raise ArgumentTypeError(f"columns must be a whole number, not {type(columns).__name__}")
    if not 1 <= columns <= 100:
        raise SvgArgumentError(f"columns {columns}: give 1 to 100")
    gap = 6
    cells = chosen + [None]
    rows = (len(cells) + columns - 1) // columns
    width = columns * (CARD_WIDTH + gap) + gap
    height = rows * (CARD_HEIGHT + gap) + gap
    uses = []
    for i, code in enumerate(cells):
        x = gap + (i % columns) * (CARD_WIDTH + gap)
        y = gap + (i // columns) * (CARD_HEIGHT + gap)
        ref = BACK_ID if code is None else card_symbol_id(code)
        uses.append(f'<use href="#{ref}" x="{x}" y="{y}" width="{CARD_WIDTH}" '
                    f'height="{CARD_HEIGHT}"/>')
    c = _colors(colors)
    inner = (card_defs(chosen, c) + f'<rect width="{width}" height="{height}" '
             f'fill="{c["table"]}"/>' + "".join(uses))
    return _svg(size, size * height / width, width, height, inner)
