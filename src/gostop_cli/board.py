"""The board and the end-of-hand report, drawn with rich: pure functions of a
:class:`~gostop_core.PlayerView` (what one seat may see) or of a full
:class:`~gostop_core.Game` (optionally with every hand open).

Nothing here reads input or changes a game: ``gostop play`` draws its screens
with these functions, and so can a replay or a test.  :func:`render_board`
returns a rich renderable; :func:`board_text` the same board as a string.

Example::

    from gostop_core import Game
    from gostop_cli.board import board_text
    game = Game("casual", 2, seed=7)
    print(board_text(game, open_hands=True))      # every hand shown
    print(board_text(game.view(0)))               # what seat 0 sees
"""

from __future__ import annotations

import io
import re
from typing import Sequence

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gostop_core import Game, Match, Outcome, PlayerView, Rules
from gostop_core.match import MAX_STAKE_DOUBLINGS
from gostop_core.notation import rules_to_token
from gostop_core.cards import (
    KIND_NAMES, MASK_CHEONGDAN, MASK_CHODAN, MASK_GODORI, MASK_HONGDAN, MASK_RAIN_BRIGHT,
    MASK_RAIN_RIBBON, MASK_SAKE_CUP, card_index, card_kind, card_month,
)
from gostop_core.display import family_target as core_family_target, group_captured
from gostop_core.korean import card_name_ko
from gostop_core.scoring import Score, score as score_pile

from gostop_cli.korean import translate
from gostop_cli.tally import (
    in_force_text, pile_notes, progress_text, risk_text,
)


def _t(text: str, korean: bool) -> str:
    """``text`` in Korean with ``korean`` (:func:`gostop_cli.korean.translate`)."""
    return translate(text) if korean else text

__all__ = [
    "KIND_STYLE", "KIND_WORD", "card_text", "cards_text", "with_kind", "seat_names",
    "render_board", "board_text", "to_text", "standings_text", "family_target",
    "report_lines", "report_renderables", "family_table", "match_header", "ledger_table",
    "quiet_line", "signed", "stake_text", "month_of", "card_words", "kinds_legend",
    "rules_line", "PRESET_SUMMARY", "hand_text", "month_word",
]

#: The colour of each kind of card: readable on dark and on light backgrounds
#: (no white, black or pale yellow); the kind letter in the code (B A R J D X)
#: says the same without colour (``NO_COLOR``, a monochrome terminal).
KIND_STYLE = {"B": "bold orange3", "A": "green4", "R": "red3", "J": "", "D": "dark_cyan",
              "X": "magenta"}
#: The colour of each kind in words, for the legend.
KIND_COLOUR = {"B": "orange", "A": "green", "R": "red", "J": "plain", "D": "teal",
               "X": "magenta"}
KIND_WORD = {"B": "bright", "A": "animal", "R": "ribbon", "J": "junk", "D": "double junk",
             "X": "bonus"}
MONTH_ABBR = ("", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
              "Dec")
#: What sets a card apart within its kind (the sets it belongs to).
_SPECIAL = ((MASK_HONGDAN, "red poem"), (MASK_CHEONGDAN, "blue"), (MASK_CHODAN, "grass"),
            (MASK_RAIN_RIBBON, "rain"), (MASK_GODORI, "godori bird"), (MASK_SAKE_CUP, "sake cup"),
            (MASK_RAIN_BRIGHT, "rain"))
PILES = ("brights", "animals", "ribbons", "junk")
PILE_OF_KIND = {"B": "brights", "A": "animals", "R": "ribbons", "J": "junk", "D": "junk",
                "X": "junk"}

#: Why a payment was multiplied (the reasons of a settlement), in words.
REASON_WORDS = {
    "shake": "the winner shook (x2 per shake)",
    "bomb": "the winner's bomb counts as a shake (x2 per month shown)",
    "nagari": "stakes doubled by a drawn hand before (x2 per nagari)",
    "double_joker": "the winner holds the double-payment joker",
    "gwang_bak": "the winner scores brights, this player holds none (x2)",
    "gwang_bak_plus_two": "the winner scores brights, this player holds none (+2)",
    "pi_bak": "the winner scores junk, this player holds too few (x2)",
    "mong_bak": "the winner holds enough animals (x2)",
    "go_bak": "this player called Go and lost (x2)",
    "pays_third": "the Go caller also pays the third player's share",
    "covered_by_go_caller": "paid by the player who called Go",
}


# ---------------------------------------------------------------- cards
def card_text(code: str) -> Text:
    """One card code, coloured by its kind."""
    return Text(code, style=KIND_STYLE.get(card_kind(code), ""))


def cards_text(codes: Sequence[str], sep: str = " ") -> Text:
    """Card codes, each coloured by its kind."""
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(sep)
        out.append_text(card_text(code))
    return out


def card_words(code: str, korean: bool = False) -> str:
    """A card in words: its month and kind, and the set it belongs to:
    ``"Nov double junk"``, ``"Dec bright, rain"``; with ``korean`` the month and
    the card's Korean name, ``"11월 오동 쌍피"``, ``"12월 비 광"``.  A bonus card: ``"bonus, 2 junk"``."""
    kind = card_kind(code)
    if kind == "X":
        junk = code[1:]
        return f"보너스 {junk}피" if korean else f"bonus, {junk} junk"
    m = card_month(code)
    if korean:  # the month and the card's own name (gostop_core.korean): 8월 공산 광
        return f"{m}월 {card_name_ko(code)}"
    word = KIND_WORD[kind]
    text = f"{MONTH_ABBR[m]} {word}"
    bit = 1 << card_index(code)
    for mask, en in _SPECIAL:
        if mask & bit:
            text += f", {en}"
            break
    return text


def with_kind(code: str, korean: bool = False) -> str:
    """``"8B (Aug bright)"``: the code a player types, and the card in words."""
    return f"{code} ({card_words(code, korean)})"


def month_word(month: int, korean: bool = False) -> str:
    """``"Aug"``, or ``"8월"``."""
    return f"{month}월" if korean else MONTH_ABBR[month]


#: The colours of the kinds in Korean.
KIND_COLOUR_KO = {"B": "주황", "A": "초록", "R": "빨강", "J": "무색", "D": "청록", "X": "자홍"}


def kinds_legend(korean: bool = False) -> Text:
    """The kinds of cards, each in its colour, for the help screen (in Korean
    with ``korean``)."""
    out = Text("패: " if korean else "Cards: ", style="bold")
    for i, kind in enumerate(KIND_STYLE):
        if i:
            out.append(" · ", style="dim")
        out.append(kind, style=KIND_STYLE[kind])
        if korean:
            out.append(f" {KIND_NAMES[kind][1]} ({KIND_COLOUR_KO[kind]})")
        else:
            out.append(f" {KIND_WORD[kind]} ({KIND_COLOUR[kind]})")
    if korean:
        out.append("\n패 코드는 달(1-12)과 종류: 8B = 8월 광, 11D = 11월 쌍피; J1/J2는 같은 달의 "
                   "두 피를 가름.", style="dim")
        return out
    out.append("\nA code is the month (1-12) and the kind: 8B = August bright, 11D = "
               "November double junk; J1/J2 tell two junk cards of a month apart.", style="dim")
    return out


def month_of(code: str) -> int | None:
    """The month of a card, ``None`` for a bonus card."""
    return None if card_kind(code) == "X" else card_month(code)


# ---------------------------------------------------------------- small words
def signed(n: int) -> str:
    """``+3``, ``-2``, ``0``."""
    return f"{n:+d}" if n else "0"


def stake_text(doublings: int) -> str:
    """The nagari stake in words, ``""`` when there is none."""
    if not doublings:
        return ""
    if doublings >= MAX_STAKE_DOUBLINGS:
        return f"stakes x{2 ** doublings} (the cap: {doublings} or more nagaris before)"
    return f"stakes x{2 ** doublings} ({doublings} nagari{'s' if doublings > 1 else ''} before)"


def you_grammar(text: str) -> str:
    """``"You holds"`` -> ``"You hold"``: the engine's sentences say "<name> <verb>s"."""
    def fix(m: re.Match[str]) -> str:
        word = m.group(1)
        if word == "has":
            return "You have"
        if word == "is":
            return "You are"
        if word.endswith(("sses", "shes", "ches", "xes")):
            return "You " + word[:-2]
        return "You " + word[:-1]
    return re.sub(r"\bYou (\w+s)\b", fix, text)


def seat_names(seats: Sequence[str | None]) -> list[str]:
    """``"You"`` for the person (``None``), ``"Bot i"`` for a bot seat."""
    return ["You" if name is None else f"Bot {i}" for i, name in enumerate(seats)]


def family_target(game: Game | PlayerView) -> int:
    """Family rules: the card points a player needs to break even
    (:func:`gostop_core.display.family_target`)."""
    return core_family_target(game.rules, game.players)


def goal_text(source: Game | PlayerView, korean: bool = False) -> str:
    """What the hand is played for, in a few words."""
    rules = source.rules
    if not rules.go_stop:
        if korean:
            return f"패 점수, 본전 {family_target(source)}"
        return f"card points, break-even {family_target(source)}"
    if korean:
        return f"{rules.threshold(source.players)}점부터 고/스톱"
    return f"Go/Stop at {rules.threshold(source.players)} points"


def to_text(renderable: RenderableType, width: int = 100, color: bool = False) -> str:
    """A rich renderable as a string (ANSI colours only with ``color``)."""
    buf = io.StringIO()
    console = Console(file=buf, width=width, highlight=False, force_terminal=color,
                      color_system="standard" if color else None, no_color=not color)
    console.print(renderable)
    return buf.getvalue()


# ---------------------------------------------------------------- the board
def _view_and_game(source: Game | PlayerView, seat: int | None,
                   open_hands: bool) -> tuple[PlayerView, Game | None]:
    if isinstance(source, PlayerView):
        if open_hands:
            raise ValueError("a player view cannot show the other hands: pass the Game")
        if seat is not None and seat != source.seat:
            raise ValueError(f"this is seat {source.seat}'s view, not seat {seat}'s")
        return source, None
    if seat is None:
        seat = 0
    if not 0 <= seat < source.players:
        raise ValueError(f"seat {seat} is not a seat of a {source.players}-player game")
    return source.view(seat), source


def render_board(source: Game | PlayerView, *, seat: int | None = None,
                 open_hands: bool = False, names: Sequence[str] | None = None,
                 labels: Sequence[str] | None = None, ledger: Sequence[int] | None = None,
                 hand_no: int = 1, hands: int = 1, seed: int | None = None,
                 korean: bool = False) -> Panel:
    """The board as a rich panel: a header line (preset, players, turn, stock,
    goal), the field by month, a row per seat (cards in hand, captured piles by
    kind with their counts, points, Go calls, chips) and the viewer's hand.

    ``source`` is a :class:`PlayerView` (its seat is the viewer) or a
    :class:`Game` (the viewer is ``seat``, default 0; with ``open_hands`` every
    hand is shown, for a replay or an analysis).  ``names`` name the seats
    (default ``Seat 0``...; the name ``"You"`` reads as the person), ``labels``
    the seat to move in the title (default: the names).  ``ledger`` holds the
    chips of every seat before this hand, ``hand_no``/``hands`` place the hand
    in a match, and ``seed`` is shown in the header when given.  Months are
    named in English (``Aug``), or in Korean (``8월``) with ``korean``."""
    v, game = _view_and_game(source, seat, open_hands)
    rules = v.rules
    n = v.players
    names = list(names) if names is not None else [f"Seat {s}" for s in range(n)]
    labels = list(labels) if labels is not None else names
    ledger = list(ledger) if ledger is not None else [0] * n
    over = v.phase == "over"
    scores = [score_pile(v.captured[s], rules) for s in range(n)]
    turns = v.turns

    head = Text()
    if korean:
        where = f"{hands}판 중 {hand_no}번째 판 · " if hands > 1 else ""
        seed_part = f"시드 {seed} · " if seed is not None else ""
        head.append(f"{rules.preset} · {n}인 · {where}{seed_part}{turns + 1}번째 차례 · "
                    f"더미 {v.stock_count}장 · {goal_text(v, korean)}")
    else:
        where = f"hand {hand_no} of {hands} · " if hands > 1 else ""
        seed_part = f"seed {seed} · " if seed is not None else ""
        head.append(f"{rules.preset} · {n} players · {where}{seed_part}"
                    f"turn {turns + 1} · stock {v.stock_count} · {goal_text(v)}")
    if v.stake_doublings:
        head.append(f" · {_t(stake_text(v.stake_doublings), korean)}", style="bold magenta")

    family = bool(rules.family_scoring)
    chips_col = rules.payment == 1 or hands > 1
    table = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False,
                  header_style="bold")
    table.add_column("", no_wrap=True)
    table.add_column(_t("Player", korean), no_wrap=True)
    table.add_column(_t("Hand", korean), justify="right")
    for pile in PILES:
        table.add_column(_t(pile.capitalize(), korean), ratio=2 if pile == "junk" else 1)
    table.add_column(_t("Pts", korean), justify="right")
    if rules.go_stop:
        table.add_column(_t("Go", korean), justify="right")
    if chips_col:
        table.add_column(_t({0: "Won", 2: "Bal."}.get(rules.payment, "Chips"), korean),
                         justify="right")
    for s in range(n):
        piles = _piles(v, s, scores[s])
        marker = Text()
        marker.append("▶" if v.to_move == s and not over else " ", style="bold green")
        marker.append("D" if v.dealer == s else " ", style="bold")
        name = Text(_t(names[s], korean), style="bold" if s == v.seat else "")
        for note in seat_notes(v, s):
            name.append("\n" + _t(note, korean), style="magenta")
        pts = Text(str(scores[s].total), style="bold")
        if family and scores[s].family_set_bonus:
            pts.append(f"+{scores[s].family_set_bonus}", style="magenta")
        row: list[RenderableType] = [marker, name, str(v.hand_counts[s]),
                                     *[piles[p] for p in PILES], pts]
        if rules.go_stop:
            row.append(str(v.go_counts[s]))
        if chips_col:
            row.append(signed(ledger[s] + v.chips[s]))
        table.add_row(*row)

    parts: list[RenderableType] = [head, Text(), field_text(v, korean), Text(), table]
    progress = [(s, progress_text(v, s, scores[s], korean)) for s in range(n)]
    progress = [(s, text) for s, text in progress if text]
    if progress:
        parts.append(Text())
        for s, text in progress:
            line = Text(f"{_t(names[s], korean)}: ", style="bold")
            line.append_text(text)
            parts.append(line)
    forced = in_force_text(v, [_t(name, korean) for name in names], korean)
    if forced:
        parts.append(forced)
    risks = risk_text(v, names, korean)
    if risks:
        parts.append(risks)
    parts += pile_notes(v, scores, korean)
    shown = range(n) if open_hands else [v.seat]
    for s in shown:
        cards = game.hand(s).codes() if game is not None and open_hands else v.hand.codes()
        who = "Your hand" if names[s] == "You" else f"{names[s]}'s hand"
        line = Text(f"{_t(who, korean)}  ", style="bold")
        line.append_text(hand_text(cards, korean) if cards
                         else Text(_t("(empty)", korean), style="dim"))
        owed = v.flip_only[s]
        if owed and not over:
            optional = rules.bomb_flip_only_optional
            if korean:
                owed_text = (f"   (뒤집기만 하는 차례 {owed}번 남음: "
                             f"{'원할 때 씀' if optional else '강제'})")
            else:
                how = "to use when you like" if optional else "forced"
                owed_text = f"   ({owed} flip-only turn{'s' if owed > 1 else ''} owed: {how})"
            line.append(owed_text, style="dim")
        parts += [Text(), line]
    to_move = "-" if over else labels[v.to_move]
    title = Text(f" 고스톱 · 칠 차례: {_t(to_move, korean)} " if korean
                 else f" Go-Stop · to play: {to_move} ", style="bold")
    legend = "D = dealer  ▶ = to play"
    if family:
        legend = "Pts = card points (+ set bonus)  " + legend
    legend = _t(legend, korean)
    return Panel(Group(*parts), title=title, title_align="left",
                 subtitle=legend, subtitle_align="right")


def board_text(source: Game | PlayerView, *, width: int = 100, color: bool = False,
               **options: object) -> str:
    """:func:`render_board` as a string (plain unless ``color``); ``options`` are
    those of :func:`render_board`."""
    return to_text(render_board(source, **options), width=width, color=color)  # type: ignore[arg-type]


def field_text(v: PlayerView, korean: bool = False) -> Text:
    """The field, grouped by month; a played card waiting on its pair for the
    flip and the stacks (three cards of a month) are marked."""
    rules = v.rules
    field = Text(_t("Field", korean) + "  ", style="bold")
    months: dict[int, list[str]] = {}
    bonus_on_field: list[str] = []
    for code in v.field.codes():
        m = month_of(code)
        if m is None:
            if code not in v.stack_bonus:
                bonus_on_field.append(code)
        else:
            months.setdefault(m, []).append(code)
    pending = (v.played_card, v.played_target) if v.played_card else None
    if months:
        for i, m in enumerate(sorted(months)):
            if i:
                field.append("  ·  ", style="dim")
            field.append(f"{month_word(m, korean)} ", style="dim")
            codes = months[m]
            if pending and pending[1] and card_month(pending[0] or "") == m:
                # the played card waits on its pair for the flip
                rest = [c for c in codes if c not in pending]
                field.append("[")
                field.append_text(cards_text([pending[1], pending[0] or ""], sep="+"))
                field.append("]")
                field.append(" 뒤집기를 기다리는 짝" if korean else " pair waits for the flip",
                             style="italic")
                if rest:
                    field.append(" ")
                    field.append_text(cards_text(rest))
            elif len(codes) == 3 and rules.field_stacks:
                extra = [b for b, month in v.stack_bonus.items() if month == m]
                field.append("[")
                field.append_text(cards_text(codes + extra))
                field.append("]")
                field.append(" 더미" if korean else " stack", style="bold italic")
            else:
                field.append_text(cards_text(codes))
    else:
        field.append(_t("(empty)", korean), style="dim")
    if bonus_on_field:
        field.append("  ·  ", style="dim")
        field.append_text(cards_text(bonus_on_field))
    if v.flip_card:
        field.append("    뒤집은 패: " if korean else "    flipped: ", style="bold")
        field.append_text(card_text(v.flip_card))
    return field


def hand_text(codes: Sequence[str], korean: bool = False) -> Text:
    """Cards in hand grouped by month, each group after its month's name."""
    out = Text()
    groups: dict[int, list[str]] = {}
    for code in codes:
        groups.setdefault(month_of(code) or 13, []).append(code)
    for i, m in enumerate(sorted(groups)):
        if i:
            out.append("  ")
        if m <= 12:
            out.append(f"{month_word(m, korean)} ", style="dim")
        out.append_text(cards_text(groups[m]))
    return out


def seat_notes(v: PlayerView, seat: int) -> list[str]:
    """Public facts of a seat: shakes, bombs, ppeoks, sitting out."""
    parts = []
    if v.sitter == seat:
        parts.append("sits out")
    if v.shaken[seat]:
        parts.append("shook " + ",".join(str(m) for m in v.shaken[seat]))
    if v.bombs[seat]:
        parts.append(f"{v.bombs[seat]} bomb" + ("s" if v.bombs[seat] > 1 else ""))
    if v.ppeoks[seat]:
        parts.append(f"{v.ppeoks[seat]} ppeok")
    return parts


def _piles(v: PlayerView, seat: int, sc: Score) -> dict[str, Text]:
    """The captured pile of a seat, grouped by kind, with the counted totals.  A card
    the score moves (9A or 5A counted as junk) stands in the junk column marked
    ``9A→pi``; a card that counts for nothing under the rules (12R where the rain
    ribbon does not count) is marked ``12R*`` (:func:`pile_notes` says why)."""
    grouped = group_captured(v.captured[seat], v.rules, sc)  # the core's one grouping
    groups = grouped.piles
    moved = grouped.as_junk
    counts = {"brights": sc.brights, "animals": sc.animals, "ribbons": sc.ribbons,
              "junk": sc.junk}
    dead = grouped.uncounted
    out = {}
    for pile in PILES:
        if not groups[pile]:
            out[pile] = Text("-", style="dim")
            continue
        text = Text()
        for i, code in enumerate(groups[pile]):
            if i:
                text.append(" ")
            text.append_text(card_text(code))
            if code in moved:
                text.append("→pi", style="bold")
            elif code in dead:
                text.append("*", style="bold")
        if not (v.rules.family_scoring and pile == "junk"):
            text.append(f" ({counts[pile]})", style="dim")
        out[pile] = text
    return out


def standings_text(game: Game, names: Sequence[str], korean: bool = False) -> Text:
    """One line: every seat's points (and Go calls)."""
    text = Text(_t("Points" if game.rules.go_stop else "Card points", korean) + "  ",
                style="dim")
    for seat in range(game.players):
        if seat:
            text.append(" · ", style="dim")
        text.append(f"{_t(names[seat], korean)}: {game.score(seat).total}")
        gos = game.go_count(seat)
        if gos:
            text.append(f" ({gos} Go)")
    return text


# ---------------------------------------------------------------- reports
def report_lines(game: Game, outcome: Outcome, names: list[str]) -> list[str]:
    """The engine's report (:meth:`Outcome.report`) with the grammar of "You"."""
    lines = []
    for line in outcome.report(names):
        if "You" in names:
            line = line.replace("You pays ", "You pay ").replace("You: pays ", "You pay ")
        head, sep, why = line.partition(" (x")
        if sep and (" pays " in head or " pay " in head):
            line = head + sep + why.replace("_", "-")  # pi_bak -> pi-bak, as said elsewhere
        lines.append(line)
    return lines


def report_renderables(game: Game, outcome: Outcome, names: list[str],
                       last: bool = False, korean: bool = False) -> list[RenderableType]:
    """The outcome of a hand: who won and why, points by category, each
    multiplier and why, the chips each player paid or won (in Korean with
    ``korean``)."""
    parts = _report_renderables(game, outcome, names, last, korean)
    if not korean:
        return parts
    return [Text(translate(p.plain), style=p.style) if isinstance(p, Text) else p
            for p in parts]


def _report_renderables(game: Game, outcome: Outcome, names: list[str],
                        last: bool, korean: bool) -> list[RenderableType]:
    rules = game.rules
    parts: list[RenderableType] = []
    lines = report_lines(game, outcome, names)
    head, rest = lines[0], lines[1:]
    events = game.events()
    if (outcome.reason == "draw" and len(events) > 1 and events[-1].kind == "draw"
            and events[-2].kind == "showdown_answer"):
        head = "everyone received the showdown: the hand is drawn (nagari)"
    style = "bold green" if outcome.winner is not None else "bold"
    parts.append(Text(head, style=style))
    chips_line = rest.pop() if rest and rest[-1].startswith("chips: ") else None
    for line in rest:
        parts.append(Text(line))
    if outcome.reason == "family":
        parts += [family_table(game, names, korean), family_caption(game)]
    reasons = sorted({why for ws in (outcome.settlement or {}).get("reasons", []) for why in ws})
    if reasons:
        blank = len(parts)
        words = dict(REASON_WORDS)
        pi = rules.pi_bak_threshold_2p if game.players == 2 else rules.pi_bak_threshold
        words["pi_bak"] = f"the winner scores junk, this player holds fewer than {pi} (x2)"
        words["mong_bak"] = f"the winner holds {rules.mong_bak_animals} or more animals (x2)"
        said = " ".join(lines)
        for why in reasons:
            text = words.get(why, why)
            if text.split(" (")[0] in said:
                continue  # the report already says it in these words
            parts.append(Text(f"  {why.replace('_', '-')}: {text}", style="dim"))
        if len(parts) > blank:
            parts.insert(blank, Text())
    if outcome.reason == "draw" and rules.nagari_doubling and not last:
        parts.append(Text("The next hand's payment is doubled (nagari).", style="magenta"))
    if chips_line:
        parts.append(Text())
        label = {0: "Points won", 2: "Balance"}.get(rules.payment, "Chips")
        parts.append(Text(f"{label} this hand: " + ", ".join(
            f"{names[p]} {signed(c)}" for p, c in enumerate(outcome.chips)), style="bold"))
    return parts


#: The heads of the family table in Korean.
FAMILY_HEADS_KO = {"Player": "이름", "Brights": "광", "Ribbons": "띠", "Animals": "열끗",
                   "Card points": "패 점수", "Set bonus": "세트 보너스", "Balance": "잔액"}


def family_table(game: Game, names: list[str], korean: bool = False) -> Table:
    """Family rules: each player's card points, set bonuses and balance."""
    n = game.players
    outcome = game.outcome()
    assert outcome is not None
    table = Table(box=None, padding=(0, 1), header_style="bold")
    for col in ("Player", "Brights", "Ribbons", "Animals", "Card points", "Set bonus",
                "Balance"):
        table.add_column(FAMILY_HEADS_KO[col] if korean else col,
                         justify="left" if col == "Player" else "right", no_wrap=True)
    for seat in range(n):
        sc = score_pile(game.captured(seat), game.rules)
        table.add_row(_t(names[seat], korean), str(sc.bright_points), str(sc.ribbon_points),
                      str(sc.animal_points), str(sc.total),
                      f"{sc.family_set_bonus} x{n - 1}" if sc.family_set_bonus else "-",
                      signed(outcome.chips[seat]))
    return table


def family_caption(game: Game) -> Text:
    """How a family balance is counted."""
    n = game.players
    return Text(f"balance = card points - {family_target(game)} (240 / {n}) + own set bonus "
                f"x{n - 1} - the others' set bonuses", style="dim")


#: Each preset in plain words: what it plays.
PRESET_SUMMARY = {
    "casual": "quick screen rules: pairs taken at once, bonus cards, bombs; no ppeok, shaking, "
              "baks",
    "traditional": "chips for 2-3 players: ppeok, sweeps and steals, shaking, baks; no bonus "
                   "cards",
    "standard": "the full Korean rules (Matgo): bonus cards, ppeok, steals, shaking, baks; "
                "chips",
    "family": "card points, no Go/Stop: the stock is played out and counted against an even "
              "share",
}


#: The presets in Korean.
PRESET_SUMMARY_KO = {
    "casual": "간단한 화면 규칙: 짝은 바로 먹음, 보너스 패, 폭탄; 뻑·흔들기·박 없음",
    "traditional": "2-3인 칩 게임: 뻑, 쓸·뺏기, 흔들기, 박; 보너스 패 없음",
    "standard": "한국 정식 규칙 (맞고): 보너스 패, 뻑, 뺏기, 흔들기, 박; 칩",
    "family": "패 점수, 고/스톱 없음: 더미를 다 치고 똑같은 몫과 비교",
}


def rules_line(rules: Rules, korean: bool = False) -> Text:
    """One line: the rules in force, in words (and any field changed by --set)."""
    token = rules_to_token(rules)
    out = Text("규칙: " if korean else "Rules: ", style="bold")
    base = rules.preset.split("+")[0]  # the preset a --set change starts from
    out.append(f"{base}, ")
    summary = PRESET_SUMMARY_KO if korean else PRESET_SUMMARY
    out.append(summary.get(base, "따로 정한 규칙" if korean else "a custom set of rules"))
    _, plus, changed = token.partition("+")
    if plus:
        out.append(f"; {'바꾼 것' if korean else 'changed'}: {changed.replace('+', ', ')}")
    if base != "standard":
        out.append("\n" + _t("Matgo, the full Korean rules: gostop play --rules standard",
                             korean), style="dim")
    return out


def match_header(preset: str, players: int, hands: int, seed: int,
                 korean: bool = False) -> Text:
    """The first line of ``gostop play``."""
    head = Text()
    if korean:
        head.append("고스톱", style="bold")
        count = f" · {hands}판" if hands > 1 else ""
        head.append(f" · {preset} 규칙 · {players}인{count} · 시드 {seed}")
        return head
    head.append("Go-Stop (고스톱)", style="bold")
    count = f" · {hands} hands" if hands > 1 else ""
    head.append(f" · {preset} rules · {players} players{count} · seed {seed}")
    return head


def ledger_table(match: Match, names: list[str], last: Sequence[int] | None,
                 wins: Sequence[int], korean: bool = False) -> Table:
    """The chips of every seat: this hand's and the match total, best first."""
    table = Table(box=None, padding=(0, 2), header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("이름" if korean else "Player")
    if last is not None:
        table.add_column("이번 판" if korean else "This hand", justify="right")
    if korean:
        total_head = {0: "딴 점수", 2: "잔액"}.get(match.rules.payment, "칩")
    else:
        total_head = {0: "Points won", 2: "Balance"}.get(match.rules.payment, "Chips")
    table.add_column(total_head, justify="right")
    table.add_column("이긴 판" if korean else "Hands won", justify="right")
    for rank, (seat, total) in enumerate(match.standings(), 1):
        row = [str(rank), _t(names[seat], korean)]
        if last is not None:
            row.append(signed(last[seat]))
        row += [signed(total), str(wins[seat])]
        table.add_row(*row)
    return table


def quiet_line(rec_index: int, game: Game, outcome: Outcome, names: list[str],
               labels: list[str]) -> str:
    """One line per hand for ``--auto --quiet``."""
    head = f"hand {rec_index + 1} · dealer {names[game.dealer]}"
    if game.stake_doublings:
        head += f" · stakes x{2 ** game.stake_doublings}"
    if outcome.reason == "family":
        points = []
        for p in range(game.players):
            sc = game.score(p)
            sets = f" (sets {sc.family_set_bonus})" if sc.family_set_bonus else ""
            points.append(f"{names[p]} {sc.total}{sets}")
        result = "card points " + ", ".join(points)
    elif outcome.winner is None:
        result = ("nagari (nobody stopped)" if outcome.reason == "draw"
                  else f"no winner ({outcome.reason})")
        if outcome.reason == "draw" and game.rules.nagari_doubling:
            result += (", the next payment doubles" if game.stake_doublings < MAX_STAKE_DOUBLINGS
                       else f", the stake stays at its cap, x{2 ** MAX_STAKE_DOUBLINGS}")
    else:
        how = {"stop": "Stop", "last_turn_stop": "automatic Stop on the last turn",
               "chongtong": "chongtong", "three_ppeok": "third ppeok"}.get(
                   outcome.reason, outcome.reason)
        gos = outcome.go_counts[outcome.winner]
        if gos:
            how += f", {gos} Go"
        result = f"{labels[outcome.winner]} wins {outcome.points} points ({how})"
    chips = ", ".join(f"{names[p]} {signed(c)}" for p, c in enumerate(outcome.chips))
    label = {0: "points", 2: "balances"}.get(game.rules.payment, "chips")
    return f"{head}: {result}; {label} {chips}"
