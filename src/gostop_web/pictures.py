"""Card pictures for the browser.  PLACEHOLDER until gostop_core.svg lands:
a plain card with its code, coloured by kind."""

from __future__ import annotations

from gostop_core.cards import CARD_CODES, card_kind

_COLOUR = {"B": "#e08a00", "A": "#2e7d32", "R": "#c62828", "J": "#555", "D": "#00838f",
           "X": "#8e24aa"}


def card_svg(code: str) -> str:
    if code not in CARD_CODES:
        raise KeyError(code)
    colour = _COLOUR[card_kind(code)]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 90" width="60" height="90">'
            f'<rect x="1" y="1" width="58" height="88" rx="5" fill="#fff8ee" stroke="{colour}" '
            f'stroke-width="2"/><text x="30" y="52" font-size="16" text-anchor="middle" '
            f'fill="{colour}" font-family="sans-serif">{code}</text></svg>')


def back_svg() -> str:
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 90" width="60" height="90">'
            '<rect x="1" y="1" width="58" height="88" rx="5" fill="#b71c1c" stroke="#5d0000" '
            'stroke-width="2"/></svg>')
