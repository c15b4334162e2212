"""The interactive game of ``gostop play``: a rich board, numbered choices and a
pause after every turn.

The screen only ever shows what seat 0 may see (its :class:`PlayerView`): the
other hands and the stock order stay hidden.  Every rule is the engine's; this
module only asks for decisions, pushes them and describes the events.
"""

from __future__ import annotations

import sys
from typing import Sequence

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gostop_core import Event, Game, IllegalMoveError, Move, MoveParseError, PlayerView
from gostop_core.bots import Bot, make_bot, visible_capture
from gostop_core.cards import card_kind, card_month

KIND_STYLE = {"B": "bold yellow", "A": "green", "R": "red", "J": "", "D": "cyan", "X": "magenta"}
KIND_WORD = {"B": "bright", "A": "animal", "R": "ribbon", "J": "junk", "D": "double junk",
             "X": "bonus"}
PILES = ("brights", "animals", "ribbons", "junk")
PILE_OF_KIND = {"B": "brights", "A": "animals", "R": "ribbons", "J": "junk", "D": "junk",
                "X": "junk"}

HELP = ("Type the number of a choice, or a move: a card (3B), a card and the field card "
        "it takes (9R/9A), a bonus card (X2), bomb9, flip/9A, go, stop.  "
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


class Session:
    """One hand: ``seats[i]`` is a bot name, or ``None`` for the person at the keyboard."""

    def __init__(self, game: Game, seats: Sequence[str | None], seed: int,
                 pause: bool = True, quiet: bool = False, seed_given: bool = True,
                 console: Console | None = None):
        self.game = game
        self.seed = seed
        self.seed_given = seed_given
        self.pause = pause
        self.quiet = quiet
        self.console = console or Console(highlight=False)
        self.kinds = list(seats)
        self.bots: list[Bot | None] = [
            None if name is None else make_bot(name, seed=seed * 10 + i)
            for i, name in enumerate(seats)]
        self.names = ["You" if name is None else f"Bot {i}" for i, name in enumerate(seats)]
        self.viewer = 0  # the board always shows seat 0's view
        self.turn_events: list[Event] = []
        self.shown = 0  # events of the current turn already printed before a prompt
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

    # ---------------------------------------------------------------- input
    def ask(self, prompt: str) -> str:
        self.console.print(Text(prompt, style="bold"), end="")
        try:
            line = input("")
        except EOFError:
            self.console.print()
            raise EndOfInput from None
        if self.echo:
            self.console.print(Text(line), highlight=False)
        return line

    def wait(self) -> None:
        if not self.pause:
            return
        text = self.ask("Press Enter to pass the turn ").strip().lower()
        if text in ("q", "quit", "exit"):
            raise QuitGame

    # ---------------------------------------------------------------- the board
    def board(self) -> Panel:
        g = self.game
        v = g.view(self.viewer)
        threshold = g.threshold()
        head = Text()
        head.append(f"{v.rules.preset} · {v.players} players · seed {self.seed} · "
                    f"turn {g.turns + 1} · stock {v.stock_count} · Go/Stop at {threshold} points")

        field = Text("Field  ", style="bold")
        months: dict[int, list[str]] = {}
        for code in v.field.codes():
            months.setdefault(card_month(code), []).append(code)
        if months:
            for i, m in enumerate(sorted(months)):
                if i:
                    field.append("  ·  ", style="dim")
                field.append_text(cards_text(months[m]))
        else:
            field.append("(empty)", style="dim")
        if v.flip_card:
            field.append("    flipped: ", style="bold")
            field.append_text(card_text(v.flip_card))

        table = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False,
                      header_style="bold")
        table.add_column("", no_wrap=True)
        table.add_column("Player", no_wrap=True)
        table.add_column("Hand", justify="right")
        for pile in PILES:
            table.add_column(pile.capitalize(), ratio=1)
        table.add_column("Pts", justify="right")
        table.add_column("Go", justify="right")
        for seat in range(v.players):
            piles = self.piles(v, seat)
            marker = Text()
            marker.append("▶" if v.to_move == seat and g.turn is not None else " ",
                          style="bold green")
            marker.append("D" if v.dealer == seat else " ", style="bold")
            name = Text(self.names[seat], style="bold" if self.kinds[seat] is None else "")
            table.add_row(marker, name, str(v.hand_counts[seat]),
                          *[piles[p] for p in PILES],
                          Text(str(g.score(seat).total), style="bold"),
                          str(v.go_counts[seat]))

        parts: list[RenderableType] = [head, Text(), field, Text(), table]
        who = "Your hand" if self.kinds[self.viewer] is None else f"{self.names[self.viewer]}'s hand"
        hand = Text(f"{who}  ", style="bold")
        hand.append_text(cards_text(v.hand.codes()) if len(v.hand) else Text("(empty)", style="dim"))
        if v.flip_only[self.viewer]:
            hand.append(f"   ({v.flip_only[self.viewer]} flip-only turn(s) to come)", style="dim")
        parts += [Text(), hand]
        to_move = "-" if g.turn is None else self.label(g.turn)
        title = Text(f" Go-Stop · to play: {to_move} ", style="bold")
        return Panel(Group(*parts), title=title, title_align="left",
                     subtitle="D = dealer  ▶ = to play", subtitle_align="right")

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
            text.append(f" ({counts[pile]})", style="dim")
            out[pile] = text
        return out

    def possessive(self, seat: int) -> str:
        return "your" if self.names[seat] == "You" else f"{self.names[seat]}'s"

    def standings(self) -> Text:
        text = Text("Scores  ", style="dim")
        for seat in range(self.game.players):
            if seat:
                text.append(" · ", style="dim")
            text.append(f"{self.names[seat]}: {self.game.score(seat).total}")
            gos = self.game.go_count(seat)
            if gos:
                text.append(f" ({gos} Go)")
        return text

    # ---------------------------------------------------------------- events
    def event_lines(self, events: Sequence[Event], live: bool = False) -> list[str]:
        """Plain sentences for a run of events.  A played or flipped card and what
        it captured are told together."""
        names = self.names
        lines: list[str] = []
        skip: set[int] = set()
        for i, ev in enumerate(events):
            if i in skip or ev.kind == "turn_end":
                continue
            who = names[ev.player]
            nxt = events[i + 1] if i + 1 < len(events) else None
            if ev.kind in ("played", "flipped") and ev.card:
                verb = ev.kind
                if nxt is not None and nxt.kind == "captured" and ev.card in nxt.cards:
                    taken = [c for c in nxt.cards.codes() if c != ev.card]
                    lines.append(f"{who} {verb} {ev.card} and took {' '.join(taken)}")
                    skip.add(i + 1)
                elif nxt is not None and nxt.kind == "bonus" and nxt.card == ev.card:
                    lines.append(f"{who} flipped the bonus card {ev.card}: banked, and flipped again")
                    skip.add(i + 1)
                elif (live and nxt is None and verb == "flipped"
                      and self.game.phase == "flip"):
                    lines.append(f"{who} flipped {ev.card}")
                else:
                    lines.append(f"{who} {verb} {ev.card}: no match, it stays on the field")
            elif ev.kind == "captured":
                lines.append(f"{who} took {' '.join(ev.cards.codes())}")
            elif ev.kind == "bonus":
                text = f"{who} banked the bonus card {ev.card}"
                if nxt is not None and nxt.kind == "drawn":
                    skip.add(i + 1)
                    if nxt.player == self.viewer and self.kinds[self.viewer] is None:
                        text += f" and drew {nxt.card}"
                    else:
                        text += " and drew a replacement card"
                lines.append(text)
            elif ev.kind == "drawn":
                if ev.player == self.viewer and self.kinds[self.viewer] is None:
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
            elif ev.kind == "stolen":
                lines.append(f"{who} took {ev.card} from {self.possessive(ev.other)} junk")
            elif ev.kind == "flip_only":
                text = f"{who}: a flip-only turn (after the bomb)"
                if nxt is None or nxt.kind == "turn_end":
                    text += ": the stock is empty, nothing to flip"
                lines.append(text)
            elif ev.kind == "go":
                lines.append(f"{who} called Go! ({ev.other} Go{'es' if ev.other > 1 else ''})")
            elif ev.kind == "stop":
                lines.append(f"{who} called Stop" + (" (automatic on the last turn)" if ev.other else ""))
            else:
                lines.append(ev.describe(names))
        return lines

    def show_turn(self, events: Sequence[Event], done: bool = True) -> None:
        if not events:
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
        for ev in events:
            self.turn_events.append(ev)
            if ev.kind == "turn_end":
                self.show_turn(self.turn_events)
                self.turn_events = []
                self.shown = 0
                if not self.game.is_over():
                    self.wait()

    def show_progress(self) -> None:
        """Before a decision in the middle of a turn: what happened so far."""
        new = self.turn_events[self.shown:]
        if new:
            for line in self.event_lines(self.turn_events, live=True)[-len(new):]:
                self.say(line)
        self.shown = len(self.turn_events)

    # ---------------------------------------------------------------- decisions
    def describe(self, view: PlayerView, move: Move) -> str:
        g = self.game
        kind = move.kind
        if kind == "play" and move.card:
            taken = visible_capture(view, move)
            if taken:
                return f"play {with_kind(move.card)}, take {', '.join(with_kind(c) for c in taken[1:])}"
            return f"play {with_kind(move.card)}: no match, it stays on the field"
        if kind == "bonus" and move.card:
            junk = g.rules.bonus_x2_junk if move.card == "X2" else g.rules.bonus_x3_junk
            return f"bank the bonus card {move.card} ({junk} junk), draw a replacement, then play"
        if kind == "bomb" and move.month:
            mine = [c for c in view.hand.codes() if card_month(c) == move.month]
            field = [c for c in view.field.codes() if card_month(c) == move.month]
            text = f"bomb: play {' '.join(mine)} at once and take {' '.join(field)}"
            if g.rules.bomb_steal:
                text += " + 1 junk from each opponent"
            turns = g.rules.bomb_flip_only_turns
            if turns:
                text += f"; your next {turns} turns only flip"
            return text
        if kind == "flip" and move.target:
            return f"the flipped {view.flip_card} takes {with_kind(move.target)}"
        if kind == "go":
            n = view.go_counts[view.seat] + 1
            return f"Go #{n}: play on for more (you are asked again only when your score rises)"
        if kind == "stop":
            trial = g.copy(stack=False)
            trial.push(move)
            outcome = trial.outcome()
            points = outcome.points if outcome is not None else 0
            return f"Stop: end the hand now and win {points} points"
        return str(move)

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
            self.console.print(self.board())
            self.console.print(Text("Your move:", style="bold"))
        elif g.phase == "flip":
            self.console.print(Text(f"The flipped {g.flip_card} matches two field cards: "
                                    "which one does it take?", style="bold"))
        elif g.phase == "gostop":
            self.console.print(Text(
                f"You have {g.score(seat).total} points ({g.threshold()} needed): Go or Stop?",
                style="bold yellow"))
        self.print_options(view, legal)
        while True:
            text = self.ask(f"Choose 1-{len(legal)} or type a move: ").strip()
            if not text:
                continue
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise QuitGame
            if low in ("?", "h", "help"):
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
            self.error(self.why_illegal(move, seat))

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

    # ---------------------------------------------------------------- the game
    def intro(self) -> None:
        g = self.game
        opponents = ", ".join(self.label(s) for s in range(g.players) if s != self.viewer)
        head = Text()
        head.append("Go-Stop (고스톱)", style="bold")
        head.append(f" · {g.rules.preset} rules · {g.players} players · seed {self.seed}")
        self.console.print(head)
        if not self.seed_given:
            self.console.print(Text(f"Replay this deal with --seed {self.seed}", style="dim"))
        if self.quiet:
            return
        seat0 = "You are seat 0" if self.kinds[0] is None else f"Seat 0 is {self.label(0)}"
        self.say(f"{seat0}; against {opponents}.  {self.label(g.dealer)} deal"
                 f"{'' if g.dealer == 0 and self.kinds[0] is None else 's'} and play"
                 f"{'' if g.dealer == 0 and self.kinds[0] is None else 's'} first.  "
                 f"First to {g.threshold()} points may call Stop.")
        for ev in g.deal_events():
            self.say(ev.describe(self.names), style="dim")
        if self.kinds[self.viewer] is not None:
            self.out(self.board())  # a demo: the human board is drawn before each decision

    def play(self) -> None:
        g = self.game
        self.intro()
        while not g.is_over():
            seat = g.turn
            assert seat is not None
            legal = list(g.legal_moves)
            bot = self.bots[seat]
            if bot is None:
                self.show_progress()
                move = self.human_move(seat, legal)
            else:
                move = bot.choose(g.view(seat), legal)
            self.feed(g.push(move))
        if self.turn_events:
            self.show_turn(self.turn_events)
            self.turn_events = []
        self.finish()

    def finish(self) -> None:
        g = self.game
        outcome = g.outcome()
        assert outcome is not None
        if not self.quiet:
            self.console.print(self.board())
        table = Table(box=None, padding=(0, 2), header_style="bold")
        table.add_column("Player")
        table.add_column("Score", justify="right")
        table.add_column("Go", justify="right")
        table.add_column("Cards taken", justify="right")
        for seat in range(g.players):
            style = "bold green" if outcome.winner == seat else ""
            table.add_row(Text(self.label(seat), style=style), str(outcome.scores[seat]),
                          str(outcome.go_counts[seat]), str(len(g.captured(seat))))
        if outcome.winner is None:
            line = Text("Draw: every hand was played out and nobody called Stop.  No score.",
                        style="bold")
        else:
            w = outcome.winner
            gos = outcome.go_counts[w]
            how = "called Stop" if outcome.reason == "stop" else \
                "automatic Stop on the last turn"
            detail = f"score {outcome.scores[w]}"
            if gos:
                detail += f" with {gos} Go" + ("es" if gos > 1 else "")
            verb = "win" if w == self.viewer and self.kinds[w] is None else "wins"
            line = Text(f"{self.label(w)} {verb} {outcome.points} points: {detail}, {how}.",
                        style="bold green")
        self.console.print(Panel(Group(line, Text(), table),
                                 title=Text(" Game over ", style="bold"), title_align="left",
                                 border_style="green"))


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (OSError, ValueError):
        return False


def run_game(game: Game, seats: Sequence[str | None], seed: int, pause: bool = True,
             quiet: bool = False, seed_given: bool = True,
             console: Console | None = None) -> int:
    """Play the hand; returns the exit code: 0 (finished, quit, end of input) or
    130 (Ctrl-C)."""
    session = Session(game, seats, seed, pause=pause, quiet=quiet, seed_given=seed_given,
                      console=console)
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
    return 0
