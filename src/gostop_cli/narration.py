"""Words for what happens in a hand: the sentence of each event (a played or
flipped card told together with what it took) and the description of each
legal move in a decision menu.  Pure text; no input, no drawing.

A :class:`Narrator` follows one game: call :meth:`Narrator.note_move` before
pushing each decision so that a card placed on its pair, waiting for the flip,
is told as such."""

from __future__ import annotations

from typing import Sequence

from gostop_core import Event, Game, Move, PlayerView
from gostop_core.bots import capture_timing, visible_capture
from gostop_core.cards import card_kind

from gostop_cli.board import month_of, with_kind

__all__ = ["Narrator", "CHIP_WORDS", "verb"]

CHIP_WORDS = {"first_turn_ppeok": "a ppeok on the first turn",
              "first_turn_capture": "a first-turn ttadak, stack or jjok",
              "three_ppeok": "a third ppeok", "chongtong": "chongtong",
              "gwangpalli": "brights held by the seat sitting out"}


def verb(name: str, base: str) -> str:
    """``base`` for "You", else its third person."""
    return base if name == "You" else base + "s"


class Narrator:
    """Sentences about one game, told to ``viewer``: ``names[i]`` names seat
    ``i`` (``"You"`` is the person, whose own drawn cards are named).  Cards in
    the menus are named in English, or in Korean with ``korean``."""

    def __init__(self, game: Game, names: Sequence[str], viewer: int = 0,
                 korean: bool = False):
        self.game = game
        self.korean = korean
        self.names = list(names)
        self.viewer = viewer
        # (turn, card) -> the field card a played card was placed on, waiting for the flip
        self.placed: dict[tuple[int, str], str] = {}

    def is_human(self, seat: int) -> bool:
        return self.names[seat] == "You"

    def possessive(self, seat: int) -> str:
        return "your" if self.is_human(seat) else f"{self.names[seat]}'s"

    def note_move(self, move: Move) -> None:
        """Before ``move`` is pushed: remember where a played card waits for the flip."""
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

    def describe(self, view: PlayerView, move: Move) -> str:
        g = self.game
        rules = g.rules
        kind = move.kind
        if kind == "play" and move.card:
            timing = capture_timing(view, move)
            taken = visible_capture(view, move)
            card = with_kind(move.card, self.korean)
            if timing == "now":
                return f"play {card}, take {', '.join(with_kind(c, self.korean) for c in taken[1:])}"
            if timing == "after_flip":
                return f"place {card} on {with_kind(taken[1], self.korean)}, captured after the flip"
            if timing == "stack":
                steal = " + 1 junk from each opponent" if rules.stack_steal else ""
                return (f"play {card} on the stack {' '.join(taken[1:])}: take all four{steal}")
            return f"play {card}: no match, it stays on the field"
        if kind == "bonus" and move.card:
            junk = rules.bonus_x2_junk if move.card == "X2" else rules.bonus_x3_junk
            return f"bank the bonus card {move.card} ({junk} junk), draw a replacement, then play"
        if kind == "shake" and move.month:
            mine = [c for c in view.hand.codes() if month_of(c) == move.month]
            return (f"shake: show {' '.join(mine)}; doubles your payment if you win, "
                    f"then you still play")
        if kind == "bomb" and move.month:
            mine = [c for c in view.hand.codes() if month_of(c) == move.month]
            field = [c for c in view.field.codes() if month_of(c) == move.month]
            text = f"bomb: play {' '.join(mine)} at once and take {' '.join(field)}"
            if rules.bomb_steal:
                text += " + 1 junk from each opponent"
            if rules.bomb_counts_as_shake:
                if move.month in view.shaken[view.seat]:
                    text += "; the month is shown already: no further double"
                else:
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
            return f"the flipped {view.flip_card} takes {with_kind(move.target, self.korean)}"
        if kind == "go":
            n = view.go_counts[view.seat] + 1
            text = f"Go #{n}: play on for more (asked again only when your score rises)"
            if rules.go_bak:
                text += "; if another player wins, you pay double (go-bak)"
            if not len(view.hand) and not view.flip_only[view.seat]:
                text += ("; but your hand is empty: you cannot score again, so a Go can only "
                         "end in a drawn hand or a loss")
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
