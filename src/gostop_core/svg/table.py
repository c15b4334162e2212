"""Go-Stop tables as SVG: :func:`board`, drawn from a
:class:`~gostop_core.view.PlayerView` (what one seat may see) or a
:class:`~gostop_core.game.Game`.  Re-exported by :mod:`gostop_core.svg`."""

from __future__ import annotations

import re

from gostop_core.arguments import seat_number
from gostop_core.cards import CARD_CODES, CHEONGDAN, CHODAN, HONGDAN, CardSet, card_month
from gostop_core.game import Game
from gostop_core.moves import Move
from gostop_core.display import PILES, group_captured
from gostop_core.scoring import Score, score as score_pile
from gostop_core.svg.cards import (
    BACK_ID, CARD_HEIGHT, CARD_WIDTH, _FONT, _colors, _esc, _size, _svg, card_defs, card_symbol_id,
)
from gostop_core.view import PlayerView

__all__ = ["board"]


_BOARD_WIDTH = 800
_SCALE = 0.75  # cards on the board
_CW = CARD_WIDTH * _SCALE
_CH = CARD_HEIGHT * _SCALE


class _Table:
    """What a board shows, taken from a view (public facts) and, for an omniscient
    Game, the hands."""

    def __init__(self, source, seat: int | None, korean: bool = False):
        self.korean = korean
        if isinstance(source, PlayerView):
            if seat is not None and seat != source.seat:
                raise ValueError(f"a view of seat {source.seat} cannot show seat {seat}")
            view = source
            self.viewer = source.seat
            self.hands = {source.seat: source.hand}
        elif isinstance(source, Game):
            if seat is not None:
                seat_number(seat, source.players)
                view = source.view(seat)
                self.viewer = seat
                self.hands = {seat: view.hand}
            else:
                view = source.view(source.turn if source.turn is not None else 0)
                self.viewer = None
                self.hands = {q: source.hand(q) for q in range(source.players)}
        else:
            raise TypeError(f"board() needs a Game or a PlayerView, not "
                            f"{type(source).__name__}")
        self.view = view
        #: the seat drawn at the bottom, its hand in a row of its own
        self.bottom = self.viewer if self.viewer is not None else 0
        self.rules = view.rules
        self.players = view.players
        self.scores = [score_pile(view.captured[q], view.rules) for q in range(view.players)]


#: The board's words in Korean (``board(..., korean=True)``), applied in order to each
#: label; the names follow the terminal's ``--korean`` (gostop_core.korean).
_KOREAN = [(re.compile(p), k) for p, k in (
    (r"(\w+) rules", r"\1 규칙"), (r"(\d) players", r"\1인"), (r"turn (\d+)", r"\1번째 차례"),
    (r"hand over: drawn \(nagari\)", "판 끝: 나가리"),
    (r"hand over: seat (\d) wins (\d+)", r"판 끝: 자리 \1 승, \2"),
    (r"seat (\d) to decide Go or Stop", r"자리 \1: 고 또는 스톱"),
    (r"seat (\d) to move", r"자리 \1 차례"), (r"Go/Stop at (\d+)", r"\1점부터 고/스톱"),
    (r"nagari x(\d+)", r"나가리 x\1"), (r"seat (\d) \(you\)", r"자리 \1 (나)"),
    (r"seat (\d)", r"자리 \1"), (r"\bdealer\b", "선"), (r"sits out", "쉼"),
    (r"(\d+) pt\b", r"\1점"), (r"Go (\d+)", r"\1고"), (r"shook ([\d,]+)", r"\1월 흔듦"),
    (r"bombs (\d+)", r"폭탄 \1"), (r"flip-only (\d+)", r"뒤집기만 \1"),
    (r"chips ([+-]\d+)", r"칩 \1"), (r"◀ to move", "◀ 차례"),
    (r"光 brights (\d+)", r"광 \1"), (r"animals (\d+)", r"열끗 \1"),
    (r"ribbons (\d+)", r"띠 \1"), (r"junk (\d+)", r"피 \1"), (r"godori (\d)", r"고도리 \1"),
    (r"hongdan", "홍단"), (r"cheongdan", "청단"), (r"chodan", "초단"),
    (r"12R counts 0 under (\S+)", r"12R: \1에서는 0"), (r"(\w+) counted as junk", r"\1은(는) 피"),
    (r"^hand (\d+)", r"손패 \1"), (r"^stock (\d+)", r"더미 \1"), (r"^field (\d+)", r"바닥 \1"),
    (r"^flipped$", "뒤집은 패"),
)]


def _words(text: str, korean: bool) -> str:
    if korean:
        for pattern, repl in _KOREAN:
            text = pattern.sub(repl, text)
    return text


def _lastmove_cards(lastmove) -> set[str]:
    if lastmove is None:
        return set()
    move = lastmove if isinstance(lastmove, Move) else Move.from_str(str(lastmove))
    out = set()
    if move.card:
        out.add(move.card)
    if move.target:
        out.add(move.target)
    if move.kind == "bomb" and move.month:
        out.update(CardSet.month(move.month).codes())
    return out


def _text(x: float, y: float, text: str, size: float, fill: str, anchor: str = "start",
          bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}" {_FONT} '
            f'text-anchor="{anchor}"{weight}>{_esc(text)}</text>')


def _place(ref: str, x: float, y: float, highlight: str | None = None,
           dim: str | None = None, zone: str | None = None) -> str:
    """A card (or a back) at x, y; in a group naming the card and its zone
    (``data-card="3B" data-zone="hand-0"``), so a page can find and click it."""
    out = f'<use href="#{ref}" x="{x:.1f}" y="{y:.1f}" width="{_CW:g}" height="{_CH:g}"/>'
    if dim:
        out += (f'<rect x="{x:.1f}" y="{y:.1f}" width="{_CW:g}" height="{_CH:g}" rx="3" '
                f'fill="{dim}" fill-opacity="0.55"/>')
    if highlight:
        out += (f'<rect x="{x - 1.5:.1f}" y="{y - 1.5:.1f}" width="{_CW + 3:g}" '
                f'height="{_CH + 3:g}" rx="4" fill="none" stroke="{highlight}" '
                f'stroke-width="3" class="gostop-lastmove"/>')
    if zone is None:
        return out
    card_attr = "" if ref == BACK_ID else f' data-card="{ref[len("gostop-card-"):]}"'
    return f'<g class="gostop-card"{card_attr} data-zone="{zone}">{out}</g>'


def _row(codes, x: float, y: float, width: float, colors: dict, marked: set[str],
         dimmed: set[str] | frozenset[str] = frozenset(), step_max: float = _CW + 4,
         zone: str | None = None) -> str:
    codes = list(codes)
    if not codes:
        return ""
    step = step_max if len(codes) == 1 else min(step_max, (width - _CW) / (len(codes) - 1))
    return "".join(_place(card_symbol_id(code), x + i * step, y,
                          colors["highlight"] if code in marked else None,
                          colors["not counted"] if code in dimmed else None, zone)
                   for i, code in enumerate(codes))


def _backs(count: int, x: float, y: float, colors: dict, label: str, zone: str,
           korean: bool) -> str:
    """Hidden cards: a few backs and their count (``data-count``)."""
    head = f'<g class="gostop-backs" data-zone="{zone}" data-count="{count}">'
    words = _words(f"{label} {count}", korean)
    if count == 0:
        return head + _text(x, y + _CH / 2, words, 11, colors["muted"]) + "</g>"
    out = "".join(_place(BACK_ID, x + k * 3, y - k * 2) for k in range(min(count, 3)))
    return (head + out + _text(x + _CW / 2 + 3, y + _CH + 13, words, 11,
                               colors["text"], "middle", True) + "</g>")


def _groups(table: _Table, q: int) -> list[tuple[str, list[str], set[str], list[str]]]:
    """The captured pile of seat ``q`` by kind as the score counts it: (title, codes,
    cards that count for nothing, note lines: set progress, cards moved or not
    counted)."""
    rules = table.rules
    sc: Score = table.scores[q]
    # the one grouping every board uses (gostop_core.display)
    grouped = group_captured(table.view.captured[q], rules, sc)
    as_junk = grouped.as_junk
    brights, animals, ribbons, junk = (list(grouped.piles[p]) for p in PILES)
    dead = set(grouped.uncounted)

    def points(value: int) -> str:
        return f" = {value} pt" if value and not sc.family else ""

    family = sc.family  # card points: no junk score, no godori, no chodan set
    godori = 0 if family else sum(1 for c in animals if c in ("2A", "4A", "8A"))
    sets = []
    for name, cards in (("hongdan", HONGDAN), ("cheongdan", CHEONGDAN),
                        ("chodan", CHODAN if not family else CardSet())):
        have = sum(1 for c in ribbons if c in cards.codes())
        if have:
            sets.append(f"{name} {have}/3")
    ribbon_notes = [" · ".join(sets[:2])] if sets else []
    if sets[2:]:
        ribbon_notes.append(sets[2])
    if dead:
        ribbon_notes.append(f"12R counts 0 under {rules.preset}")
    junk_notes = [f"{c} counted as junk" for c in sorted(as_junk)]
    return [
        (f"光 brights {len(brights)}{points(sc.bright_points)}", brights, set(), []),
        (f"animals {len(animals)}{points(sc.animal_points)}", animals, set(),
         [f"godori {godori}/3"] if godori else []),
        (f"ribbons {sc.ribbons}{points(sc.ribbon_points)}", ribbons, dead, ribbon_notes[:2]),
        (f"junk {sc.junk}" + ("" if family else f"/{rules.junk_min}{points(sc.junk_points)}"),
         junk, set(), junk_notes),
    ]


def _seat_status(table: _Table, q: int) -> str:
    view = table.view
    parts = [f"seat {q}"]
    if q == table.viewer:
        parts[0] += " (you)"
    if q == view.dealer:
        parts.append("dealer")
    if view.sitter == q:
        parts.append("sits out")
    parts.append(f"{table.scores[q].total} pt")
    if view.go_counts[q]:
        parts.append(f"Go {view.go_counts[q]}")
    if view.shaken[q]:
        months = view.shaken[q]
        parts.append("shook " + ",".join(str(m) for m in months) + f" (x{2 ** len(months)})")
    if view.bombs[q]:
        parts.append(f"bombs {view.bombs[q]}")
    if view.flip_only[q]:
        parts.append(f"flip-only {view.flip_only[q]}")
    if view.chips[q]:
        parts.append(f"chips {view.chips[q]:+d}")
    return " · ".join(parts)


def _seat_panel(table: _Table, q: int, y: float, colors: dict, marked: set[str]) -> tuple[str, float]:
    view = table.view
    active = view.to_move == q and view.phase != "over"
    height = 40 + _CH + 34
    own_row = q in table.hands and q == table.bottom
    if own_row:
        height += _CH + 36
    out = [f'<rect x="6" y="{y:g}" width="{_BOARD_WIDTH - 12}" height="{height:g}" rx="6" '
           f'fill="{colors["panel active"] if active else colors["panel"]}"/>']
    title = _seat_status(table, q) + ("  ◀ to move" if active else "")
    out.append(_text(16, y + 17, _words(title, table.korean), 13, colors["text"], bold=True))
    top = y + 26
    x = 16.0
    if q in table.hands and not own_row:
        hand = table.hands[q].codes()
        out.append(_row(hand, x, top, 190, colors, marked, step_max=22, zone=f"hand-{q}"))
        out.append(_text(x, top + _CH + 12, _words(f"hand {len(hand)}", table.korean), 10,
                         colors["muted"]))
        x += 200
    elif q not in table.hands:
        out.append(_backs(view.hand_counts[q], x, top + 2, colors, "hand", f"hand-{q}",
                          table.korean))
        x += 70
    budgets = _group_budgets(_BOARD_WIDTH - 16 - x)
    for (title, codes, dead, note), width in zip(_groups(table, q), budgets):
        out.append(_row(codes, x, top, width - 8, colors, marked, dead, step_max=16,
                        zone=f"captured-{q}"))
        out.append(_text(x, top + _CH + 12, _words(title, table.korean), 10.5,
                         colors["text"] if codes else colors["muted"], bold=bool(codes)))
        for k, line in enumerate(note):
            out.append(_text(x, top + _CH + 24 + 11 * k, _words(line, table.korean), 9.5,
                             colors["highlight"]))
        x += width
    if own_row:
        hand = table.hands[q].codes()
        row_y = top + _CH + 48  # below two note lines
        out.append(_row(hand, 16, row_y, _BOARD_WIDTH - 40, colors, marked, zone=f"hand-{q}"))
        out.append(_text(16, row_y + _CH + 12, _words(f"hand {len(hand)}", table.korean), 10,
                         colors["muted"]))
    return "".join(out), height


def _group_budgets(total: float) -> list[float]:
    weights = (0.2, 0.26, 0.26, 0.28)
    return [total * w for w in weights]


def _field_panel(table: _Table, y: float, colors: dict, marked: set[str]) -> tuple[str, float]:
    view = table.view
    codes = sorted(view.field.codes(), key=lambda c: (card_month(c) or 13, CARD_CODES.index(c)))
    per_row = 12
    rows = max(1, (len(codes) + per_row - 1) // per_row)
    height = 24 + rows * (_CH + 6) + 8
    out = [f'<rect x="6" y="{y:g}" width="{_BOARD_WIDTH - 12}" height="{height:g}" rx="6" '
           f'fill="{colors["panel"]}" fill-opacity="0.6"/>',
           _text(16, y + 17, _words(f"field {len(codes)}", table.korean), 13, colors["text"],
                 bold=True)]
    for r in range(rows):
        part = codes[r * per_row:(r + 1) * per_row]
        out.append(_row(part, 16, y + 24 + r * (_CH + 6), per_row * (_CW + 4), colors, marked,
                        zone="field"))
    sx = _BOARD_WIDTH - 16 - _CW - 12
    out.append(_backs(view.stock_count, sx, y + 24, colors, "stock", "stock", table.korean))
    if view.flip_card:
        fx = sx - _CW - 24
        out.append(_place(card_symbol_id(view.flip_card), fx, y + 24, colors["highlight"],
                          zone="flip"))
        out.append(_text(fx + _CW / 2, y + 24 + _CH + 13, _words("flipped", table.korean), 10,
                         colors["text"],
                         "middle"))
    return "".join(out), height


def _header(table: _Table, colors: dict) -> str:
    view = table.view
    rules = table.rules
    parts = [f"{rules.preset} rules", f"{view.players} players", f"turn {view.turns + 1}"]
    if view.phase == "over":
        if view.winner is None:
            parts.append("hand over: drawn (nagari)")
        else:
            parts.append(f"hand over: seat {view.winner} wins {view.points}")
    elif view.to_move is not None:
        parts.append(f"seat {view.to_move} to {'decide Go or Stop' if view.phase == 'gostop' else 'move'}")
    if rules.go_stop:
        parts.append(f"Go/Stop at {rules.threshold(view.players)}")
    if view.stake_doublings:
        parts.append(f"nagari x{2 ** view.stake_doublings}")
    return _text(16, 20, _words(" · ".join(parts), table.korean), 14, colors["text"], bold=True)


def board(game_or_view, seat: int | None = None, lastmove=None, size: float | None = 800,
          colors: dict | None = None, defs: bool = True, korean: bool = False) -> str:
    """A picture of the table.

    ``game_or_view`` is a :class:`~gostop_core.game.Game` or a
    :class:`~gostop_core.view.PlayerView`.  A view shows only its own seat's hand;
    a Game with ``seat=N`` shows what seat N sees (its view), and with ``seat=None``
    every hand face up (a Game knows them all).  The stock is always a card back with
    its count.  ``lastmove`` (a :class:`~gostop_core.moves.Move` or a move string)
    outlines the cards it names.  ``size`` is the width in pixels (``None``: no fixed
    size); with ``defs=False`` the card symbols are left out, for a page that holds
    :func:`card_defs` once.  With ``korean=True`` the labels are in Korean (광, 열끗,
    띠, 피, 고도리, 선 ...).
    """
    if size is not None:
        size = _size(size)
    c = _colors(colors)
    table = _Table(game_or_view, seat, korean)
    marked = _lastmove_cards(lastmove)
    n = table.players
    bottom = table.bottom
    parts = [_header(table, c)]
    y = 32.0
    # the other seats at the top in turn order, the field, the bottom seat last
    for q in [(bottom + k) % n for k in range(1, n)]:
        panel, h = _seat_panel(table, q, y, c, marked)
        parts.append(panel)
        y += h + 6
    field, h = _field_panel(table, y, c, marked)
    parts.append(field)
    y += h + 6
    panel, h = _seat_panel(table, bottom, y, c, marked)
    parts.append(panel)
    y += h + 6
    height = y + 4
    shown = set(table.view.field.codes())
    for pile in table.view.captured:
        shown.update(pile.codes())
    for hand in table.hands.values():
        shown.update(hand.codes())
    if table.view.flip_card:
        shown.add(table.view.flip_card)
    body = "".join(parts)
    inner = ((card_defs(sorted(shown, key=CARD_CODES.index), c, korean=korean) if defs else "")
             + f'<rect width="{_BOARD_WIDTH}" height="{height:g}" fill="{c["table"]}"/>' + body)
    if size is None:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_BOARD_WIDTH} '
                f'{height:g}">{inner}</svg>')
    return _svg(size, size * height / _BOARD_WIDTH, _BOARD_WIDTH, height, inner)
