"""The interactive game of ``gostop play``: a match of one or more hands, a rich
board, numbered choices, a pause after every turn and a report after every hand.

The screen only ever shows what seat 0 may see (its :class:`PlayerView`): the
other hands and the stock order stay hidden.  Every rule is the engine's; this
module only asks for decisions, pushes them and describes the events and the
outcome of each hand (:meth:`Outcome.report`).
"""

from __future__ import annotations

import sys
from typing import Sequence

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from gostop_core import (
    Event, Game, IllegalMoveError, Match, Move, MoveParseError, Outcome, PlayerView,
)
from gostop_core.bots import Bot, capture_timing, make_bot, visible_capture
from gostop_core.errors import BotError, IllegalBotMoveError
from gostop_core.cards import card_kind, card_month
from gostop_core.lockstep import Lockstep
from gostop_core.scoring import score as score_pile

KIND_STYLE = {"B": "bold yellow", "A": "green", "R": "red", "J": "", "D": "cyan", "X": "magenta"}
KIND_WORD = {"B": "bright", "A": "animal", "R": "ribbon", "J": "junk", "D": "double junk",
             "X": "bonus"}
PILES = ("brights", "animals", "ribbons", "junk")
PILE_OF_KIND = {"B": "brights", "A": "animals", "R": "ribbons", "J": "junk", "D": "junk",
                "X": "junk"}

#: Why a payment was multiplied (the reasons of a settlement), in words.
REASON_WORDS = {
    "shake": "the winner shook (x2 per shake)",
    "bomb": "the winner's bomb counts as a shake (x2 per bomb)",
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
CHIP_WORDS = {"first_turn_ppeok": "a ppeok on the first turn",
              "first_turn_capture": "a first-turn ttadak, stack or jjok",
              "three_ppeok": "a third ppeok", "chongtong": "chongtong",
              "gwangpalli": "brights held by the seat sitting out"}

HELP = ("Type the number of a choice, or a move: a card (3B), a card and the field card "
        "it takes (9R/9A), a bonus card (X2), bomb9, shake9, fliponly, flip/9A, go, stop.  "
        "'?' ranks the moves with the expectimax bot, 'h' shows this help, "
        "'b' redraws the board, 'q' quits.")


class EndOfInput(Exception):
    """Standard input is exhausted."""


class QuitGame(Exception):
    """The player asked to leave."""


def card_text(code: str) -> Text:
    return Text(code, style=KIND_STYLE.get(card_kind(code), ""))


def cards_text(codes: Sequence[str], sep: str = " ") -> Text:
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(sep)
        out.append_text(card_text(code))
    return out


def with_kind(code: str) -> str:
    return f"{code} ({KIND_WORD[card_kind(code)]})"


def verb(name: str, base: str) -> str:
    """``base`` for "You", else its third person."""
    return base if name == "You" else base + "s"


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def stake_text(doublings: int) -> str:
    if not doublings:
        return ""
    return f"stakes x{2 ** doublings} ({doublings} nagari{'s' if doublings > 1 else ''} before)"


def _month_of(code: str) -> int | None:
    return None if card_kind(code) == "X" else card_month(code)


class Session:
    """One hand.  ``seats[i]`` is a bot name, or ``None`` for the person at the
    keyboard.  ``hand_no``/``hands`` and ``ledger`` (the chips of every seat
    before this hand) place the hand in its match."""

    def __init__(self, game: Game, seats: Sequence[str | None], seed: int,
                 pause: bool = True, quiet: bool = False, seed_given: bool = True,
                 console: Console | None = None, bots: Sequence[Bot | None] | None = None,
                 hand_no: int = 1, hands: int = 1, ledger: Sequence[int] | None = None,
                 in_match: bool = False, lockstep: Lockstep | None = None):
        self.game = game
        # with --reference: the reference engine replays every decision and is checked
        self.lockstep = lockstep
        self.in_match = in_match
        self.seed = seed
        self.seed_given = seed_given
        self.pause = pause
        self.quiet = quiet
        self.console = console or Console(highlight=False)
        self.kinds = list(seats)
        self.bots: list[Bot | None] = list(bots) if bots is not None else [
            None if name is None else make_bot(name, seed=seed * 10 + i)
            for i, name in enumerate(seats)]
        self.names = seat_names(seats)
        self.viewer = 0  # the board always shows seat 0's view
        self.hand_no = hand_no
        self.hands = hands
        self.ledger = list(ledger) if ledger is not None else [0] * game.players
        self.turn_events: list[Event] = []
        self.shown = 0  # events of the current turn already printed before a prompt
        self.board_turn = -1  # the turn whose board was last drawn for a decision
        # (turn, card) -> the field card a played card was placed on, waiting for the flip
        self.placed: dict[tuple[int, str], str] = {}
        self.echo = not _isatty(sys.stdin)

    # ---------------------------------------------------------------- output
    def out(self, item: RenderableType) -> None:
        if not self.quiet:
            self.console.print(item)

    def say(self, text: str, style: str = "") -> None:
        self.out(Text(text, style=style))

    def label(self, seat: int) -> str:
        kind = self.kinds[seat]
        return self.names[seat] if kind is None else f"{self.names[seat]} ({kind})"

    def is_human(self, seat: int) -> bool:
        return self.kinds[seat] is None

    def possessive(self, seat: int) -> str:
        return "your" if self.is_human(seat) else f"{self.names[seat]}'s"

    # ---------------------------------------------------------------- input
    def ask(self, prompt: str) -> str:
        return ask(self.console, prompt, self.echo)

    def wait(self) -> None:
        if not self.pause:
            return
        text = self.ask("Press Enter to pass the turn ").strip().lower()
        if text in ("q", "quit", "exit"):
            raise QuitGame

    # ---------------------------------------------------------------- the board
    def goal_text(self) -> str:
        g = self.game
        rules = g.rules
        if not rules.go_stop:
            target = family_target(g)
            return f"card points, break-even {target}"
        return f"Go/Stop at {g.threshold()} points"

    def board(self) -> Panel:
        g = self.game
        rules = g.rules
        v = g.view(self.viewer)
        head = Text()
        where = f"hand {self.hand_no} of {self.hands} · " if self.hands > 1 else ""
        head.append(f"{rules.preset} · {v.players} players · {where}seed {self.seed} · "
                    f"turn {g.turns + 1} · stock {v.stock_count} · {self.goal_text()}")
        if v.stake_doublings:
            head.append(f" · {stake_text(v.stake_doublings)}", style="bold magenta")

        field = Text("Field  ", style="bold")
        months: dict[int, list[str]] = {}
        bonus_on_field: list[str] = []
        for code in v.field.codes():
            m = _month_of(code)
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
                codes = months[m]
                if pending and pending[1] and card_month(pending[0] or "") == m:
                    # the played card waits on its pair for the flip
                    rest = [c for c in codes if c not in pending]
                    field.append("[")
                    field.append_text(cards_text([pending[1], pending[0] or ""], sep="+"))
                    field.append("]")
                    field.append(" pair waits for the flip", style="italic")
                    if rest:
                        field.append(" ")
                        field.append_text(cards_text(rest))
                elif len(codes) == 3 and rules.field_stacks:
                    extra = [b for b, month in v.stack_bonus.items() if month == m]
                    field.append("[")
                    field.append_text(cards_text(codes + extra))
                    field.append("]")
                    field.append(" stack", style="bold italic")
                else:
                    field.append_text(cards_text(codes))
        else:
            field.append("(empty)", style="dim")
        if bonus_on_field:
            field.append("  ·  ", style="dim")
            field.append_text(cards_text(bonus_on_field))
        if v.flip_card:
            field.append("    flipped: ", style="bold")
            field.append_text(card_text(v.flip_card))

        family = bool(rules.family_scoring)
        chips_col = rules.payment == 1 or self.hands > 1
        table = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False,
                      header_style="bold")
        table.add_column("", no_wrap=True)
        table.add_column("Player", no_wrap=True)
        table.add_column("Hand", justify="right")
        for pile in PILES:
            table.add_column(pile.capitalize(), ratio=2 if pile == "junk" else 1)
        table.add_column("Pts", justify="right")
        if rules.go_stop:
            table.add_column("Go", justify="right")
        notes = [self.seat_notes(v, seat) for seat in range(v.players)]
        if chips_col:
            table.add_column({0: "Won", 2: "Bal."}.get(rules.payment, "Chips"), justify="right")
        for seat in range(v.players):
            piles = self.piles(v, seat)
            marker = Text()
            marker.append("▶" if v.to_move == seat and g.turn is not None else " ",
                          style="bold green")
            marker.append("D" if v.dealer == seat else " ", style="bold")
            name = Text(self.names[seat], style="bold" if self.is_human(seat) else "")
            for note in notes[seat]:
                name.append("\n" + note, style="magenta")
            sc = g.score(seat)
            pts = Text(str(sc.total), style="bold")
            if family and sc.family_set_bonus:
                pts.append(f"+{sc.family_set_bonus}", style="magenta")
            row: list[RenderableType] = [marker, name, str(v.hand_counts[seat]),
                                         *[piles[p] for p in PILES], pts]
            if rules.go_stop:
                row.append(str(v.go_counts[seat]))
            if chips_col:
                row.append(signed(self.ledger[seat] + v.chips[seat]))
            table.add_row(*row)

        parts: list[RenderableType] = [head, Text(), field, Text(), table]
        who = "Your hand" if self.is_human(self.viewer) else f"{self.names[self.viewer]}'s hand"
        hand = Text(f"{who}  ", style="bold")
        hand.append_text(cards_text(v.hand.codes()) if len(v.hand) else Text("(empty)", style="dim"))
        owed = v.flip_only[self.viewer]
        if owed:
            how = "you may use them" if rules.bomb_flip_only_optional else "forced"
            hand.append(f"   ({owed} flip-only turn(s) owed: {how})", style="dim")
        parts += [Text(), hand]
        to_move = "-" if g.turn is None else self.label(g.turn)
        title = Text(f" Go-Stop · to play: {to_move} ", style="bold")
        legend = "D = dealer  ▶ = to play"
        if family:
            legend = "Pts = card points (+ set bonus)  " + legend
        return Panel(Group(*parts), title=title, title_align="left",
                     subtitle=legend, subtitle_align="right")

    def seat_notes(self, v: PlayerView, seat: int) -> list[str]:
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

    def piles(self, v: PlayerView, seat: int) -> dict[str, Text]:
        """The captured pile of a seat, grouped by kind, with the counted totals."""
        sc = self.game.score(seat)
        groups: dict[str, list[str]] = {p: [] for p in PILES}
        for code in v.captured[seat].codes():
            pile = PILE_OF_KIND[card_kind(code)]
            if code == "9A" and sc.sake_cup_as_junk:
                pile = "junk"
            if code == "5A" and sc.bridge_as_junk:
                pile = "junk"
            groups[pile].append(code)
        counts = {"brights": sc.brights, "animals": sc.animals, "ribbons": sc.ribbons,
                  "junk": sc.junk}
        out = {}
        for pile in PILES:
            if not groups[pile]:
                out[pile] = Text("-", style="dim")
                continue
            text = cards_text(groups[pile])
            if not (self.game.rules.family_scoring and pile == "junk"):
                text.append(f" ({counts[pile]})", style="dim")
            out[pile] = text
        return out

    def standings(self) -> Text:
        g = self.game
        text = Text("Points  " if g.rules.go_stop else "Card points  ", style="dim")
        for seat in range(g.players):
            if seat:
                text.append(" · ", style="dim")
            text.append(f"{self.names[seat]}: {g.score(seat).total}")
            gos = g.go_count(seat)
            if gos:
                text.append(f" ({gos} Go)")
        return text

    # ---------------------------------------------------------------- events
    def event_lines(self, events: Sequence[Event], live: bool = False) -> list[str]:
        """Plain sentences for a run of events.  A played or flipped card and what
        it captured are told together."""
        names = self.names
        rules = self.game.rules
        lines: list[str] = []
        skip: set[int] = set()
        waiting: dict[int, tuple[str, str]] = {}  # seat -> (played card, its pair)

        def at(i: int) -> Event | None:
            return events[i] if i < len(events) else None

        def taken_with(ev_card: str, cap: Event) -> str:
            return " ".join(c for c in cap.cards.codes() if c != ev_card)

        for i, ev in enumerate(events):
            if i in skip or ev.kind == "turn_end":
                continue
            who = names[ev.player]
            nxt = at(i + 1)
            if ev.kind == "played" and ev.card:
                target = self.placed.get((ev.turn, ev.card))
                if nxt is not None and nxt.kind == "captured" and ev.card in nxt.cards:
                    lines.append(f"{who} played {ev.card} and took {taken_with(ev.card, nxt)}")
                    skip.add(i + 1)
                elif nxt is not None and nxt.kind == "stack":
                    third = at(i + 2)
                    cards = nxt.cards.codes()
                    lines.append(f"{who} played {ev.card} on the month-{nxt.card} stack and "
                                 f"took all of it: {' '.join(c for c in cards if c != ev.card)}")
                    skip.add(i + 1)
                    if third is not None and third.kind == "captured":
                        skip.add(i + 2)
                elif target:
                    waiting[ev.player] = (ev.card, target)
                    lines.append(f"{who} placed {ev.card} on {target}: the pair waits for the flip")
                else:
                    lines.append(f"{who} played {ev.card}: no match, it stays on the field")
            elif ev.kind == "flipped" and ev.card:
                lines.append(self.flip_line(events, i, who, live, skip))
            elif ev.kind == "captured":
                codes = ev.cards.codes()
                pair = waiting.get(ev.player)
                if not pair and len(codes) == 2:
                    for card in codes:
                        target = self.placed.get((ev.turn, card))
                        if target in codes:
                            pair = (card, target)
                if pair and pair[0] in ev.cards and pair[1] in ev.cards and len(codes) == 2:
                    lines.append(f"{who} took the waiting pair {pair[1]} {pair[0]}")
                    waiting.pop(ev.player, None)
                else:
                    lines.append(f"{who} took {' '.join(codes)}")
            elif ev.kind == "stack":
                lines.append(ev.describe(names))
                if nxt is not None and nxt.kind == "captured":
                    skip.add(i + 1)
            elif ev.kind == "bonus":
                text = f"{who} banked the bonus card {ev.card}"
                if nxt is not None and nxt.kind == "drawn":
                    skip.add(i + 1)
                    if nxt.player == self.viewer and self.is_human(self.viewer):
                        text += f" and drew {nxt.card}"
                    else:
                        text += " and drew a replacement card"
                lines.append(text)
            elif ev.kind == "drawn":
                if ev.player == self.viewer and self.is_human(self.viewer):
                    lines.append(f"{who} drew {ev.card}")
                else:
                    lines.append(f"{who} drew a replacement card")
            elif ev.kind == "bomb":
                text = f"{who} dropped a bomb: {' '.join(ev.cards.codes())}"
                if nxt is not None and nxt.kind == "captured":
                    taken = [c for c in nxt.cards.codes() if c not in ev.cards]
                    text += f", taking {' '.join(taken)} with them"
                    skip.add(i + 1)
                lines.append(text)
            elif ev.kind == "shake":
                lines.append(f"{who} shook month {ev.card}: {' '.join(ev.cards.codes())} "
                             f"(doubles the payment if {'you win' if self.is_human(ev.player) else who + ' wins'})")
            elif ev.kind == "stolen":
                lines.append(f"{who} took {ev.card} from {self.possessive(ev.other)} junk")
            elif ev.kind == "sseul":
                lines.append(f"sseul: {who} swept the field")
            elif ev.kind == "chips":
                why = CHIP_WORDS.get(ev.card or "", ev.card or "")
                lines.append(f"{who} receives {ev.other} chip{'s' if ev.other != 1 else ''} "
                             f"from each opponent ({why})")
            elif ev.kind == "flip_only":
                text = f"{who}: a flip-only turn (after the bomb)"
                if nxt is None or nxt.kind == "turn_end":
                    text += ": the stock is empty, nothing to flip"
                lines.append(text)
            elif ev.kind == "go":
                lines.append(f"{who} called Go! ({ev.other} Go{'es' if ev.other > 1 else ''})")
            elif ev.kind == "stop":
                lines.append(f"{who} called Stop" + (" (automatic on the last turn)" if ev.other else ""))
            elif ev.kind == "showdown":
                lines.append(f"{who} asks for a showdown, showing {ev.card}, another player's "
                             "win-card")
            elif ev.kind == "showdown_answer":
                verb_ = "receive" if ev.other else "refuse"
                lines.append(f"{who} {verb(names[ev.player], verb_)} the showdown"
                             + ("" if ev.other else f": {ev.card} must be laid down"))
            elif ev.kind == "draw":
                prev = events[i - 1] if i else None
                if prev is not None and prev.kind == "showdown_answer":
                    lines.append("everyone received the showdown: the hand is a nagari")
                else:
                    lines.append("every hand is played out and nobody stopped: the hand is "
                                 "a nagari")
            elif ev.kind in ("jjok", "ttadak", "ppeok"):
                # reached only when not folded into the flip before it
                lines.append(ev.describe(names))
            else:
                lines.append(ev.describe(names))
        return lines

    def flip_line(self, events: Sequence[Event], i: int, who: str, live: bool,
                  skip: set[int]) -> str:
        """The sentence of a flipped card, folding in what it did next."""
        ev = events[i]
        card = ev.card or ""
        rules = self.game.rules
        nxt = events[i + 1] if i + 1 < len(events) else None
        after = events[i + 2] if i + 2 < len(events) else None
        if nxt is not None and nxt.kind == "captured" and card in nxt.cards:
            skip.add(i + 1)
            return f"{who} flipped {card} and took {' '.join(c for c in nxt.cards.codes() if c != card)}"
        if card_kind(card) == "X":
            if nxt is not None and nxt.kind == "bonus" and nxt.card == card:
                skip.add(i + 1)
                return f"{who} flipped the bonus card {card}: banked, and flipped again"
            return f"{who} flipped the bonus card {card}: it goes with this turn's captures; flipped again"
        if nxt is not None and nxt.kind == "stack":
            skip.add(i + 1)
            if after is not None and after.kind == "captured":
                skip.add(i + 2)
            steal = " (+1 junk from each opponent)" if rules.stack_steal else ""
            taken = " ".join(c for c in nxt.cards.codes() if c != card)
            return f"{who} flipped {card} and took the month-{nxt.card} stack: {taken}{steal}"
        if nxt is not None and nxt.kind in ("jjok", "ttadak"):
            skip.add(i + 1)
            if after is not None and after.kind == "captured":
                skip.add(i + 2)
            taken = " ".join(c for c in nxt.cards.codes() if c != card)
            steals = rules.jjok_steal if nxt.kind == "jjok" else rules.ttadak_steal
            steal = " + 1 junk from each opponent" if steals else ""
            if nxt.kind == "jjok":
                return f"{who} flipped {card}: jjok! it takes back the card just played: {taken}{steal}"
            return f"{who} flipped {card}: ttadak! the fourth of month {nxt.card}: took {taken}{steal}"
        if nxt is not None and nxt.kind == "ppeok":
            skip.add(i + 1)
            if rules.ppeok == 2:
                if after is not None and after.kind == "captured":
                    skip.add(i + 2)
                return (f"{who} flipped {card}: ppeok, it matches the pair just made; "
                        f"the pair is taken and {card} stays on the field")
            return (f"{who} flipped {card}: ppeok! it matches the pair just made, and the three "
                    f"stay on the field as a stack")
        if live and nxt is None and self.game.phase == "flip":
            return f"{who} flipped {card}"
        return f"{who} flipped {card}: no match, it stays on the field"

    def show_turn(self, events: Sequence[Event], done: bool = True) -> None:
        if not events or self.quiet:
            return
        seat = events[0].player
        for ev in events:
            if ev.kind not in ("dealt_bonus",):
                seat = ev.player
                break
        body = Text("\n".join(self.event_lines(events)))
        if done:
            body.append("\n")
            body.append_text(self.standings())
        self.out(Panel(body, title=Text(f" Turn {events[-1].turn + 1} · {self.label(seat)} ",
                                        style="bold"),
                       title_align="left", border_style="blue"))

    def feed(self, events: Sequence[Event]) -> None:
        """Show each finished turn as a panel, then pause."""
        events = list(events)
        for i, ev in enumerate(events):
            self.turn_events.append(ev)
            if ev.kind == "turn_end":
                self.show_turn(self.turn_events)
                self.turn_events = []
                self.shown = 0
                # forced turns (flip-only) may follow in the same batch: pause between
                if not self.game.is_over() or i + 1 < len(events):
                    self.wait()

    def show_progress(self) -> None:
        """Before a decision in the middle of a turn: what happened so far."""
        new = self.turn_events[self.shown:]
        if new:
            for line in self.event_lines(self.turn_events, live=True)[-len(new):]:
                self.console.print(Text(line))
        self.shown = len(self.turn_events)

    def push(self, move: Move) -> None:
        """Push a decision, remembering where a played card waits for the flip."""
        g = self.game
        seat = g.turn
        if move.kind == "play" and move.card and seat is not None:
            view = g.view(seat)
            if capture_timing(view, move) == "after_flip":
                taken = visible_capture(view, move)
                self.placed[(g.turns, move.card)] = taken[1]
        elif move.kind == "flip" and seat is not None:
            view = g.view(seat)
            if view.played_card and view.played_target:  # a pair placed before this session
                self.placed[(g.turns, view.played_card)] = view.played_target
        events = g.push(move)
        if self.lockstep is not None:
            self.lockstep.follow(move, events)
        self.feed(events)

    # ---------------------------------------------------------------- decisions
    def describe(self, view: PlayerView, move: Move) -> str:
        g = self.game
        rules = g.rules
        kind = move.kind
        if kind == "play" and move.card:
            timing = capture_timing(view, move)
            taken = visible_capture(view, move)
            card = with_kind(move.card)
            if timing == "now":
                return f"play {card}, take {', '.join(with_kind(c) for c in taken[1:])}"
            if timing == "after_flip":
                return f"place {card} on {with_kind(taken[1])}, captured after the flip"
            if timing == "stack":
                steal = " + 1 junk from each opponent" if rules.stack_steal else ""
                return (f"play {card} on the stack {' '.join(taken[1:])}: take all four{steal}")
            return f"play {card}: no match, it stays on the field"
        if kind == "bonus" and move.card:
            junk = rules.bonus_x2_junk if move.card == "X2" else rules.bonus_x3_junk
            return f"bank the bonus card {move.card} ({junk} junk), draw a replacement, then play"
        if kind == "shake" and move.month:
            mine = [c for c in view.hand.codes() if _month_of(c) == move.month]
            return (f"shake: show {' '.join(mine)}; doubles your payment if you win, "
                    f"then you still play")
        if kind == "bomb" and move.month:
            mine = [c for c in view.hand.codes() if _month_of(c) == move.month]
            field = [c for c in view.field.codes() if _month_of(c) == move.month]
            text = f"bomb: play {' '.join(mine)} at once and take {' '.join(field)}"
            if rules.bomb_steal:
                text += " + 1 junk from each opponent"
            if rules.bomb_counts_as_shake:
                text += "; doubles your payment like a shake"
            turns = rules.bomb_flip_only_turns
            if turns:
                if rules.bomb_flip_only_optional:
                    text += f"; you then owe {turns} flip-only turns, to use when you like"
                else:
                    text += f"; your next {turns} turns only flip"
            return text
        if kind == "fliponly":
            owed = view.flip_only[view.seat]
            return (f"flip-only turn: play no card, only flip the stock "
                    f"({owed} owed after your bomb)")
        if kind == "flip" and move.target:
            return f"the flipped {view.flip_card} takes {with_kind(move.target)}"
        if kind == "go":
            n = view.go_counts[view.seat] + 1
            text = f"Go #{n}: play on for more (asked again only when your score rises)"
            if rules.go_bak:
                text += "; if another player wins, you pay double (go-bak)"
            return text
        if kind == "stop":
            return self.stop_text(view)
        if kind == "showdown" and move.card:
            return f"ask for a showdown with {move.card}, another player's win-card"
        if kind == "accept":
            return "receive the showdown (if everyone receives, the hand is a nagari)"
        if kind == "refuse":
            return "refuse the showdown: the asker must lay the card down"
        return str(move)

    def stop_text(self, view: PlayerView) -> str:
        sv = view.stop_value
        if sv is None:
            return "Stop: end the hand now"
        text = f"Stop: end the hand now and win {sv['base']} points"
        if self.game.rules.payment == 1:
            pays = [f"{self.names[q]} pays {sv['pay'][q]}"
                    + (f" (x{sv['multiplier'][q]}: "
                       f"{', '.join(r.replace('_', '-') for r in sv['reasons'][q])})"
                       if sv["reasons"][q] else "")
                    for q in range(view.players) if q != view.seat and q != view.sitter]
            text += ": " + "; ".join(pays)
        return text

    def print_options(self, view: PlayerView, legal: Sequence[Move]) -> None:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column(no_wrap=True, style="bold cyan")
        grid.add_column()
        for i, move in enumerate(legal, 1):
            grid.add_row(Text(f"  {i})", style="bold"), str(move), self.describe(view, move))
        self.console.print(grid)

    def human_move(self, seat: int, legal: list[Move]) -> Move:
        g = self.game
        view = g.view(seat)
        if g.phase == "play":
            if self.board_turn != g.turns:
                self.console.print(self.board())
                self.board_turn = g.turns
            self.console.print(Text("Your move:", style="bold"))
        elif g.phase == "flip":
            self.console.print(Text(f"The flipped {g.flip_card} matches two field cards: "
                                    "which one does it take?", style="bold"))
            if view.played_card and view.played_target:
                self.console.print(Text(
                    f"(Your {view.played_card} waits on {view.played_target}: the pair is "
                    "taken once this flip is settled.)", style="dim"))
        elif g.phase == "gostop":
            self.console.print(Text(
                f"You have {g.score(seat).total} points ({g.threshold()} needed): Go or Stop?",
                style="bold yellow"))
        elif g.phase == "showdown":
            asker = "-" if view.showdown_caller is None else self.names[view.showdown_caller]
            self.console.print(Text(
                f"{asker} asks for a showdown, showing {view.showdown_card}, another player's "
                "win-card: receive it or refuse?", style="bold"))
        self.print_options(view, legal)
        while True:
            text = self.ask(f"Choose 1-{len(legal)} or type a move: ").strip()
            if not text:
                continue
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise QuitGame
            if low == "?":
                self.show_hint(view)
                continue
            if low in ("h", "help"):
                self.console.print(Text(HELP))
                self.print_options(view, legal)
                continue
            if low in ("b", "board"):
                self.console.print(self.board())
                self.print_options(view, legal)
                continue
            if text.isdigit():
                n = int(text)
                if 1 <= n <= len(legal):
                    return legal[n - 1]
                self.error(f"There is no choice {n}: type a number from 1 to {len(legal)}, "
                           f"or a move such as {legal[0]}.")
                continue
            try:
                move = Move.from_str(text)
            except MoveParseError as exc:
                self.error(f"Not a move: {exc}.  Type a number from 1 to {len(legal)}, or ? for help.")
                continue
            if g.phase == "flip" and move.kind == "play" and move.target is None and move.card:
                move = Move("flip", target=move.card)
            if move in legal:
                return move
            if move.kind == "play" and move.target is not None and move.card:
                # 3B/3R where the play has no choice to make means 3B
                plain = Move("play", card=move.card)
                if plain in legal and g.is_legal(move):
                    return plain
            self.error(self.why_illegal(move, seat))

    def show_hint(self, view: PlayerView) -> None:
        """'?': the expectimax bot's ranking of the legal moves, from this view only."""
        from gostop_core.bots import ExpectimaxBot
        self.console.print(Text("Hint (expectimax; expected net points, then the likely line):",
                                style="bold"))
        for i, r in enumerate(ExpectimaxBot().analyse(view)[:10], 1):
            self.console.print(Text(f"  {i:>2}. {str(r.move):<9} {r.value:+7.2f}   "
                                    f"{' '.join(r.line[1:])}"))

    def why_illegal(self, move: Move, seat: int) -> str:
        try:
            self.game.copy(stack=False).push(move)
        except IllegalMoveError as exc:
            reason = str(exc).split(" (legal:")[0]
            _, sep, rest = reason.partition(": ")
            reason = rest if sep else reason
            reason = reason.replace(f"player {seat}'s", "your").replace(f"player {seat} ", "you ")
            return f"Not possible: {reason}."
        return f"Not possible: {move}."  # pragma: no cover - legal moves are accepted earlier

    def error(self, text: str) -> None:
        self.console.print(Text(text, style="red"))

    # ---------------------------------------------------------------- the hand
    def intro(self) -> None:
        g = self.game
        if not self.in_match:
            self.console.print(match_header(g.rules.preset, g.players, 1, self.seed))
            if not self.seed_given:
                self.console.print(Text(f"Replay this game with --seed {self.seed}", style="dim"))
        if self.quiet:
            return
        if self.hands > 1:
            self.out(Rule(Text(f" Hand {self.hand_no} of {self.hands} ", style="bold")))
        if self.hand_no == 1:
            opponents = ", ".join(self.label(s) for s in range(g.players) if s != self.viewer)
            seat0 = "You are seat 0" if self.is_human(0) else f"Seat 0 is {self.label(0)}"
            self.say(f"{seat0}; against {opponents}.")
        dealer = self.label(g.dealer)
        you = self.is_human(g.dealer)
        line = f"{dealer} deal{'' if you else 's'} and play{'' if you else 's'} first."
        if g.rules.go_stop:
            line += f"  First to {g.threshold()} points may call Go or Stop."
        else:
            line += (f"  No Go/Stop: the stock is played out and card points are counted "
                     f"against {family_target(g)} (break-even).")
        self.say(line)
        if g.stake_doublings:
            self.say(f"After the drawn hand(s) before: {stake_text(g.stake_doublings)}.",
                     style="bold magenta")
        for ev in g.deal_events():
            self.say(ev.describe(self.names), style="dim")
        if not self.is_human(self.viewer):
            self.out(self.board())  # a demo: the human board is drawn before each decision

    def bot_call(self, seat: int, call: str, *args: object) -> object:
        """Call a bot's method; whatever goes wrong becomes a :class:`BotError`
        naming the seat (the game cannot go on without the bot)."""
        bot = self.bots[seat]
        try:
            return getattr(bot, call)(*args)
        except BotError as exc:
            raise BotError(f"{self.label(seat)} loses by forfeit: "
                           f"{exc.reason}: {exc}") from exc
        except Exception as exc:
            raise BotError(f"{self.label(seat)} loses by forfeit: "
                           f"{type(exc).__name__}: {exc}") from exc

    def play(self) -> None:
        g = self.game
        self.intro()
        for s, first in enumerate(self.bots):
            if first is not None:
                self.bot_call(s, "start_hand", g.view(s))
        while not g.is_over():
            seat = g.turn
            assert seat is not None
            legal = list(g.legal_moves)
            bot = self.bots[seat]
            if bot is None:
                self.show_progress()
                move = self.human_move(seat, legal)
            else:
                answer = self.bot_call(seat, "choose", g.view(seat), legal)
                if answer not in legal:
                    raise IllegalBotMoveError(f"{self.label(seat)} loses by forfeit: "
                                              f"illegal: it answered {answer!r}")
                move = answer  # type: ignore[assignment]
            self.push(move)
        outcome = g.outcome()
        for s, last in enumerate(self.bots):
            if last is not None:
                self.bot_call(s, "end_hand", g.view(s), outcome)
        # what follows the last turn (a drawn hand, the scoring of a played-out
        # hand) is told by the report
        rest = [ev for ev in self.turn_events if ev.kind not in ("draw", "hand_end")]
        if rest:
            self.show_turn(self.turn_events)
        self.turn_events = []
        self.finish()

    def finish(self) -> None:
        g = self.game
        outcome = g.outcome()
        assert outcome is not None
        if self.quiet:
            return
        self.console.print(self.board())
        title = (f" Hand {self.hand_no} of {self.hands} is over " if self.hands > 1
                 else " Hand over ")
        last = self.in_match and self.hand_no == self.hands
        self.console.print(Panel(Group(*report_renderables(g, outcome, self.names, last)),
                                 title=Text(title, style="bold"), title_align="left",
                                 border_style="green"))


# ---------------------------------------------------------------- reports
def seat_names(seats: Sequence[str | None]) -> list[str]:
    return ["You" if name is None else f"Bot {i}" for i, name in enumerate(seats)]


def family_target(game: Game) -> int:
    r = game.rules
    deck = 5 * r.family_bright + 10 * r.family_ribbon + 9 * r.family_animal
    return int(deck) // game.players


def report_lines(game: Game, outcome: Outcome, names: list[str]) -> list[str]:
    """The engine's report (:meth:`Outcome.report`) with the grammar of "You"."""
    lines = []
    for line in outcome.report(names):
        if "You" in names:
            line = line.replace("You pays ", "You pay ")
        head, sep, why = line.partition(" (x")
        if sep and (" pays " in head or " pay " in head):
            line = head + sep + why.replace("_", "-")  # pi_bak -> pi-bak, as said elsewhere
        lines.append(line)
    return lines


def report_renderables(game: Game, outcome: Outcome, names: list[str],
                       last: bool = False) -> list[RenderableType]:
    """The outcome of a hand: who won and why, points by category, each
    multiplier and why, the chips each player paid or won."""
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
        parts += [family_table(game, names), family_caption(game)]
    reasons = sorted({why for ws in (outcome.settlement or {}).get("reasons", []) for why in ws})
    if reasons:
        parts.append(Text())
        words = dict(REASON_WORDS)
        pi = rules.pi_bak_threshold_2p if game.players == 2 else rules.pi_bak_threshold
        words["pi_bak"] = f"the winner scores junk, this player holds fewer than {pi} (x2)"
        words["mong_bak"] = f"the winner holds {rules.mong_bak_animals} or more animals (x2)"
        for why in reasons:
            parts.append(Text(f"  {why.replace('_', '-')}: {words.get(why, why)}", style="dim"))
    if outcome.reason == "draw" and rules.nagari_doubling and not last:
        parts.append(Text("The next hand's payment is doubled (nagari).", style="magenta"))
    if chips_line:
        parts.append(Text())
        label = {0: "Points won", 2: "Balance"}.get(rules.payment, "Chips")
        parts.append(Text(f"{label} this hand: " + ", ".join(
            f"{names[p]} {signed(c)}" for p, c in enumerate(outcome.chips)), style="bold"))
    return parts


def family_table(game: Game, names: list[str]) -> Table:
    """Family rules: each player's card points, set bonuses and balance."""
    target = family_target(game)
    n = game.players
    outcome = game.outcome()
    assert outcome is not None
    table = Table(box=None, padding=(0, 1), header_style="bold")
    for col in ("Player", "Brights", "Ribbons", "Animals", "Card points", "Set bonus",
                "Balance"):
        table.add_column(col, justify="left" if col == "Player" else "right", no_wrap=True)
    for seat in range(n):
        sc = score_pile(game.captured(seat), game.rules)
        table.add_row(names[seat], str(sc.bright_points), str(sc.ribbon_points),
                      str(sc.animal_points), str(sc.total),
                      f"{sc.family_set_bonus} x{n - 1}" if sc.family_set_bonus else "-",
                      signed(outcome.chips[seat]))
    return table


def family_caption(game: Game) -> Text:
    n = game.players
    return Text(f"balance = card points - {family_target(game)} (240 / {n}) + own set bonus "
                f"x{n - 1} - the others' set bonuses", style="dim")


def match_header(preset: str, players: int, hands: int, seed: int) -> Text:
    head = Text()
    head.append("Go-Stop (고스톱)", style="bold")
    count = f" · {hands} hands" if hands > 1 else ""
    head.append(f" · {preset} rules · {players} players{count} · seed {seed}")
    return head


def ledger_table(match: Match, names: list[str], last: Sequence[int] | None,
                 wins: Sequence[int]) -> Table:
    """The chips of every seat: this hand's and the match total, best first."""
    table = Table(box=None, padding=(0, 2), header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("Player")
    if last is not None:
        table.add_column("This hand", justify="right")
    table.add_column({0: "Points won", 2: "Balance"}.get(match.rules.payment, "Chips"),
                     justify="right")
    table.add_column("Hands won", justify="right")
    for rank, (seat, total) in enumerate(match.standings(), 1):
        row = [str(rank), names[seat]]
        if last is not None:
            row.append(signed(last[seat]))
        row += [signed(total), str(wins[seat])]
        table.add_row(*row)
    return table


def ask(console: Console, prompt: str, echo: bool) -> str:
    console.print(Text(prompt, style="bold"), end="")
    try:
        line = input("")
    except EOFError:
        console.print()
        raise EndOfInput from None
    if echo:
        console.print(Text(line), highlight=False)
    return line


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (OSError, ValueError):
        return False


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
            result += ", the next payment doubles"
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


# ---------------------------------------------------------------- entry points
def close_bots(bots: Sequence[Bot | None]) -> None:
    """Close every bot (an outside program is stopped); never raises."""
    for bot in bots:
        if bot is not None:
            try:
                bot.close()
            except Exception:  # pragma: no cover - closing must not hide the result
                pass


def forfeit_exit(console: Console, exc: BotError, what: str) -> int:
    """Say that a bot lost by forfeit and the game or match is abandoned; exit code 1."""
    console.print(Text(f"{exc}; the {what} is abandoned.", style="red"), soft_wrap=True)
    return 1


def run_game(game: Game, seats: Sequence[str | None], seed: int, pause: bool = True,
             quiet: bool = False, seed_given: bool = True,
             console: Console | None = None, reference: bool = False) -> int:
    """Play one standalone hand; returns the exit code: 0 (finished, quit, end of
    input) or 130 (Ctrl-C).  With ``reference`` the reference engine follows every
    decision (:class:`Lockstep`); a disagreement raises ``EngineDisagreement``."""
    session = Session(game, seats, seed, pause=pause, quiet=quiet, seed_given=seed_given,
                      console=console, lockstep=Lockstep(game) if reference else None)
    try:
        session.play()
    except EndOfInput:
        session.console.print(Text("End of input: the game is abandoned.", style="yellow"))
        return 0
    except QuitGame:
        session.console.print(Text("You left the game.", style="yellow"))
        return 0
    except KeyboardInterrupt:
        session.console.print()
        session.console.print(Text("Interrupted: the game is abandoned.", style="yellow"))
        return 130
    except BotError as exc:
        return forfeit_exit(session.console, exc, "game")
    finally:
        close_bots(session.bots)
    if quiet:
        outcome = game.outcome()
        assert outcome is not None
        names = seat_names(seats)
        labels = [session.label(s) for s in range(game.players)]
        session.console.print(quiet_line(0, game, outcome, names, labels), soft_wrap=True)
    return 0


class MatchRunner:
    """A match of ``hands`` hands: one :class:`Session` per hand, a report and the
    ledger after each, the final standings at the end."""

    def __init__(self, match: Match, seats: Sequence[str | None], hands: int,
                 pause: bool = True, quiet: bool = False, seed_given: bool = True,
                 console: Console | None = None, reference: bool = False,
                 move_time: float | None = None):
        self.match = match
        self.reference = reference
        self.checked = 0  # decisions the reference engine agreed on (--reference)
        self.seats = list(seats)
        self.hands = hands
        self.pause = pause
        self.quiet = quiet
        self.seed_given = seed_given
        self.console = console or Console(highlight=False)
        self.names = seat_names(seats)
        self.labels = [n if k is None else f"{n} ({k})" for n, k in zip(self.names, self.seats)]
        self.human = any(k is None for k in self.seats)
        # one bot per seat for the whole match (seeded from the match seed)
        self.bots: list[Bot | None] = [
            None if name is None else make_bot(name, seed=match.seed * 10 + i)
            for i, name in enumerate(seats)]
        for bot in self.bots:
            if move_time is not None and bot is not None and hasattr(bot, "move_time"):
                setattr(bot, "move_time", move_time)  # an outside program's time per move
        self.wins = [0] * match.players
        self.echo = not _isatty(sys.stdin)

    def intro(self) -> None:
        m = self.match
        self.console.print(match_header(m.rules.preset, m.players, self.hands, m.seed))
        if not self.seed_given:
            self.console.print(Text(f"Replay this match with --seed {m.seed}", style="dim"))
        if self.quiet:
            return
        if m.dealer_draw:
            draws = ", ".join(f"{self.names[p]} drew {c}" for p, c in enumerate(m.dealer_draw))
            rule = ("the latest month deals (by day)" if m.rules.dealer_rule == 2 and m.daytime
                    else "the earliest month deals (at night)" if m.rules.dealer_rule == 2
                    else "the highest month deals")
            if len({card_month(c) for c in m.dealer_draw}) < len(m.dealer_draw):
                rule += " (within a month: bright, animal, ribbon, then junk)"
            self.console.print(Text(f"Draw for the first dealer: {draws}; {rule}: "
                                    f"{self.labels[m.dealer]}.", style="dim"))
        if self.hands > 1:
            nxt = ("the winner deals the next hand" if m.rules.dealer_rule
                   else "the dealer stays the same")
            nagari = "; a drawn hand (nagari) doubles the next payment" \
                if m.rules.nagari_doubling else ""
            self.console.print(Text(f"{self.hands} hands: {nxt}{nagari}.", style="dim"))

    def run(self) -> int:
        try:
            self.intro()
            for i in range(self.hands):
                self.play_hand(i)
            if self.reference:
                self.console.print(self.reference_line(), soft_wrap=True)
        except EndOfInput:
            self.console.print(Text("End of input: the game is abandoned.", style="yellow"))
            return 0
        except QuitGame:
            self.console.print(Text("You left the game.", style="yellow"))
            return 0
        except KeyboardInterrupt:
            self.console.print()
            self.console.print(Text("Interrupted: the game is abandoned.", style="yellow"))
            return 130
        except BotError as exc:
            return forfeit_exit(self.console, exc, "match")
        finally:
            close_bots(self.bots)
        return 0

    def play_hand(self, i: int) -> None:
        m = self.match
        before = list(m.ledger)
        game = m.new_hand()
        lockstep = Lockstep(game) if self.reference else None
        session = Session(game, self.seats, m.seed, pause=self.pause, quiet=self.quiet,
                          seed_given=self.seed_given, console=self.console, bots=self.bots,
                          hand_no=i + 1, hands=self.hands, ledger=before, in_match=True,
                          lockstep=lockstep)
        session.play()
        if lockstep is not None:
            lockstep.finish()
            self.checked += lockstep.decisions
        rec = m.record(game)
        outcome = rec.outcome
        if outcome.winner is not None:
            self.wins[outcome.winner] += 1
        last = i == self.hands - 1
        if self.quiet:
            self.console.print(quiet_line(i, game, outcome, self.names, self.labels),
                               soft_wrap=True)
            if last:
                self.console.print(self.final_line(), soft_wrap=True)
            return
        this_hand = [m.ledger[p] - before[p] for p in range(m.players)]
        if last:
            title = (f" Final standings after {self.hands} hands " if self.hands > 1
                     else " Standings ")
        else:
            title = f" Ledger after hand {i + 1} of {self.hands} "
        body: list[RenderableType] = [ledger_table(m, self.names, this_hand, self.wins)]
        if not last:
            nxt = [f"Next: {self.labels[m.dealer]} {verb(self.names[m.dealer], 'deal')}"]
            if m.stake_doublings:
                nxt.append(stake_text(m.stake_doublings))
            body += [Text(), Text(" · ".join(nxt) + ".", style="dim")]
        else:
            leader, chips = m.standings()[0]
            tied = sum(1 for _, c in m.standings() if c == chips) > 1
            if self.hands > 1:
                body += [Text(), Text("A tie at the top." if tied else
                                      f"{self.labels[leader]} "
                                      f"{verb(self.names[leader], 'lead')} the match with "
                                      f"{signed(chips)}.", style="bold green")]
        self.console.print(Panel(Group(*body), title=Text(title, style="bold"),
                                 title_align="left", border_style="magenta"))
        if not last and self.human:
            text = ask(self.console, f"Press Enter to deal hand {i + 2} ", self.echo)
            if text.strip().lower() in ("q", "quit", "exit"):
                raise QuitGame

    def reference_line(self) -> str:
        hands = f"{self.hands} hand{'s' if self.hands > 1 else ''}"
        return (f"reference engine: agreed with the core on all {self.checked} decisions of "
                f"{hands} (legal moves, state, events, outcome)")

    def final_line(self) -> str:
        casual = self.match.rules.payment == 0
        return ("final " + ("points" if casual else "ledger") + ": " + ", ".join(
            f"{self.labels[s]} {signed(c)}" for s, c in self.match.standings()))


def run_match(match: Match, seats: Sequence[str | None], hands: int, pause: bool = True,
              quiet: bool = False, seed_given: bool = True,
              console: Console | None = None, reference: bool = False,
              move_time: float | None = None) -> int:
    """Play ``hands`` hands of ``match``; returns the exit code (0, or 130 after Ctrl-C).
    With ``reference`` the reference engine follows every decision of every hand
    (:class:`~gostop_core.lockstep.Lockstep`) and a disagreement raises
    :class:`~gostop_core.lockstep.EngineDisagreement`.  A bot that fails
    (:class:`~gostop_core.errors.BotError`) abandons the match with exit code 1;
    ``move_time`` is the time per move of outside programs (``cmd:`` bots)."""
    return MatchRunner(match, seats, hands, pause=pause, quiet=quiet, seed_given=seed_given,
                       console=console, reference=reference, move_time=move_time).run()
