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
from gostop_core.driver import BotForfeit, HandDriver
from gostop_core.errors import BotError
from gostop_core.cards import card_kind, card_month
from gostop_core.testing.lockstep import Lockstep

from gostop_core.bots.analysis import hint_moves, payout_unit, public_line
from gostop_cli.children import become_subreaper, end_orphans
from gostop_cli.board import (
    family_target, kinds_legend, ledger_table, match_header, quiet_line, render_board,
    report_renderables, rules_line, seat_names, you_grammar, signed, stake_text, standings_text,
)
from gostop_cli.korean import name_ko, translate
from gostop_cli.narration import Narrator, verb
from gostop_cli.prompt import (
    EndOfInput, QuitGame, ask, command_of, help_text, isatty, legend_text, read_decision,
)

class TakeBack(Exception):
    """'u' in practice: undo the person's last decision."""


class Session:
    """One hand.  ``seats[i]`` is a bot name, or ``None`` for the person at the
    keyboard.  ``hand_no``/``hands`` and ``ledger`` (the chips of every seat
    before this hand) place the hand in its match."""

    def __init__(self, game: Game, seats: Sequence[str | None], seed: int,
                 pause: bool = True, quiet: bool = False, seed_given: bool = True,
                 console: Console | None = None, bots: Sequence[Bot | None] | None = None,
                 hand_no: int = 1, hands: int = 1, ledger: Sequence[int] | None = None,
                 in_match: bool = False, lockstep: Lockstep | None = None,
                 practice: bool = False, korean: bool = False, redraw: bool = False):
        self.game = game
        #: --redraw: no Enter between turns; at each of the person's moves the screen
        #: is cleared and redrawn: the board, the turns since their last move, the menu
        self.redraw = redraw
        self.recent: list[list[Event]] = []  # finished turns not shown yet (redraw)
        self.screens = 0  # screens drawn (the first one keeps the lines above it)
        #: --practice: decisions may be taken back ('u'), the full position shown ('p')
        self.practice = practice
        self.korean = korean
        # before each decision of the person: (moves pushed, narrator's waiting
        # pairs, events of the turn so far, events shown) to take it back
        self.checkpoints: list[tuple[int, dict[tuple[int, str], str], list[Event], int]] = []
        # with --reference: the reference engine replays every decision and is checked
        self.lockstep = lockstep
        self.in_match = in_match
        self.seed = seed
        self.seed_given = seed_given
        self.pause = pause
        self.quiet = quiet
        self.console = console or Console(highlight=False)
        self.kinds = list(seats)
        become_subreaper()  # before any bot program starts: see gostop_cli.children
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
        self.narrator = Narrator(game, self.names, self.viewer, korean=korean)
        self.echo = not isatty(sys.stdin)

    # ---------------------------------------------------------------- output
    def t(self, text: str) -> str:
        """``text`` as the screen says it: in Korean with ``--korean``."""
        return translate(text) if self.korean else text

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

    def board(self) -> RenderableType:
        """The board as seat 0 sees it."""
        return render_board(self.game, seat=self.viewer, names=self.names,
                            labels=[self.label(s) for s in range(self.game.players)],
                            ledger=self.ledger, hand_no=self.hand_no, hands=self.hands,
                            seed=self.seed, korean=self.korean)

    # ---------------------------------------------------------------- input
    def ask(self, prompt: str) -> str:
        return ask(self.console, prompt, self.echo)

    def wait(self) -> None:
        """Between turns: Enter goes on, q leaves."""
        if not self.pause:
            return
        undo = "u takes back, " if self.practice and self.checkpoints else ""
        text = self.ask(self.t(f"Press Enter to continue ({undo}q quits) ")).strip()
        command = command_of(text)
        if command == "quit":
            self.leave()
        elif command == "undo" and self.practice:
            self.take_back()

    def leave(self) -> None:
        """'q': leave the game; in the middle of a match, only once confirmed."""
        if self.in_match and self.hands > 1:
            answer = self.ask(f"Leave the match in hand {self.hand_no} of {self.hands}? "
                              "This hand and the ones after it are not played (y/N) ")
            if answer.strip().lower() not in ("y", "yes"):
                self.say("The match goes on.", style="dim")
                return
        raise QuitGame

    # ---------------------------------------------------------------- events
    def show_turn(self, events: Sequence[Event], done: bool = True) -> None:
        if not events or self.quiet:
            return
        seat = events[0].player
        for ev in events:
            if ev.kind not in ("dealt_bonus",):
                seat = ev.player
                break
        body = Text("\n".join(self.t(line) for line in self.narrator.event_lines(events)))
        if done:
            body.append("\n")
            body.append_text(standings_text(self.game, self.names, self.korean))
        title = self.t(f"Turn {events[-1].turn + 1} · {self.label(seat)}")
        self.out(Panel(body, title=Text(f" {title} ", style="bold"),
                       title_align="left", border_style="blue"))

    def recent_panel(self) -> Panel:
        """The turns played since the person's last move, a few lines each, and the
        points (``--redraw``); the turns are then counted as shown."""
        body = Text()
        for events in self.recent:
            seat = next((ev.player for ev in events if ev.kind != "dealt_bonus"),
                        events[0].player)
            body.append(self.t(f"Turn {events[-1].turn + 1} · {self.label(seat)}: "),
                        style="bold")
            lines = [you_grammar(line) for line in self.narrator.event_lines(events)]
            own = f"{self.names[seat]} "
            if self.korean:
                lines = [self.t(line) for line in lines]
                own = f"{name_ko(self.names[seat])}: "
            # the turn's player is named once, before its lines
            lines = [line[len(own):] if line.startswith(own) else line for line in lines]
            body.append("; ".join(lines) + "\n")
        body.append_text(standings_text(self.game, self.names, self.korean))
        self.recent = []
        title = "Since your last move" if self.is_human(self.viewer) else "The last turns"
        return Panel(body, title=Text(f" {self.t(title)} ", style="bold"), title_align="left",
                     border_style="blue")

    def screen(self) -> None:
        """``--redraw``: a fresh screen (the first one keeps the lines above it):
        the turns since the person's last move, then the board."""
        if self.screens:
            self.console.clear()
        self.screens += 1
        if self.recent:
            self.console.print(self.recent_panel())
        self.console.print(self.board())

    def feed(self, events: Sequence[Event]) -> None:
        """Show each finished turn as a panel, then pause."""
        events = list(events)
        for i, ev in enumerate(events):
            self.turn_events.append(ev)
            if ev.kind == "turn_end":
                if self.redraw:
                    self.recent.append(self.turn_events)
                else:
                    self.show_turn(self.turn_events)
                self.turn_events = []
                self.shown = 0
                # forced turns (flip-only) may follow in the same batch: pause between
                if not self.redraw and (not self.game.is_over() or i + 1 < len(events)):
                    self.wait()

    def show_progress(self) -> None:
        """Before a decision in the middle of a turn: what happened so far."""
        new = self.turn_events[self.shown:]
        if new:
            for line in self.narrator.event_lines(self.turn_events, live=True)[-len(new):]:
                self.console.print(Text(self.t(line)))
        self.shown = len(self.turn_events)

    def push(self, move: Move, driver: HandDriver | None = None) -> None:
        """Push a decision (through the hand driver, so that the bots observe
        it), remembering where a played card waits for the flip."""
        self.narrator.note_move(move)
        events = driver.push(move) if driver is not None else self.game.push(move)
        if self.lockstep is not None:
            self.lockstep.follow(move, events)
        self.feed(events)

    # ---------------------------------------------------------------- decisions
    def print_options(self, view: PlayerView, legal: Sequence[Move]) -> None:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column()
        for i, move in enumerate(legal, 1):
            grid.add_row(Text(f"  {i})", style="bold"), str(move),
                         self.t(self.narrator.describe(view, move)))
        self.console.print(grid)
        self.console.print(legend_text(self.commands(), self.korean))

    def human_move(self, seat: int, legal: list[Move]) -> Move:
        g = self.game
        view = g.view(seat)
        if self.redraw and self.recent and g.phase != "play":
            self.console.print(self.recent_panel())  # turns before a decision out of turn
        if g.phase == "play":
            if self.board_turn != g.turns:
                if self.redraw:
                    self.screen()
                else:
                    self.console.print(self.board())
                self.board_turn = g.turns
            self.console.print(Text(self.t("Your move:"), style="bold"))
        elif g.phase == "flip":
            self.console.print(Text(self.t(f"The flipped {g.flip_card} matches two field cards: "
                                           "which one does it take?"), style="bold"))
            if view.played_card and view.played_target:
                self.console.print(Text(self.t(
                    f"(Your {view.played_card} waits on {view.played_target}: the pair is "
                    "taken once this flip is settled.)"), style="dim"))
        elif g.phase == "gostop":
            self.console.print(Text(self.t(
                f"You have {g.score(seat).total} points ({g.threshold()} needed): Go or Stop?"),
                style="bold dark_orange3"))
        elif g.phase == "showdown":
            asker = "-" if view.showdown_caller is None else self.names[view.showdown_caller]
            self.console.print(Text(self.t(
                f"{asker} asks for a showdown, showing {view.showdown_card}, another player's "
                "win-card: receive it or refuse?"), style="bold"))
        self.print_options(view, legal)

        def redraw() -> None:
            self.console.print(self.board())
            self.print_options(view, legal)

        def show_help() -> None:
            self.console.print(help_text(self.commands(), self.korean))
            self.console.print(kinds_legend(self.korean))
            self.print_options(view, legal)

        handlers = {"hint": lambda: self.show_hint(view, legal), "help": show_help,
                    "board": redraw, "position": lambda: self.show_position(seat),
                    "quit": self.leave}
        if self.practice:
            handlers["undo"] = self.take_back
        return read_decision(self.console, g, seat, legal, echo=self.echo, handlers=handlers,
                             translate=self.t)

    def commands(self) -> list[str]:
        """The commands offered at a decision (see :data:`gostop_cli.prompt.COMMANDS`)."""
        return ["hint", "help", "board", "position"] + (["undo"] if self.practice else []) + [
            "quit"]

    def show_hint(self, view: PlayerView, legal: Sequence[Move] | None = None) -> None:
        """'?': the expectimax bot's ranking of every legal move, from this view
        only, in the payout's units; the line shows only what the seat may know.
        Each move carries its number in the menu (``legal``), so a number typed
        after the hint plays the move the hint shows under that number."""
        ranked = hint_moves(view)
        unit = payout_unit(view.rules)
        stop = " (a Stop: what it pays)" if view.rules.go_stop else ""
        menu = {move: i for i, move in enumerate(legal or [r.move for r in ranked], 1)}
        self.console.print(Text(self.t(
            f"Hint: all {len(ranked)} moves, best first, with the net {unit} each should "
            f"bring you from here{stop}, then a likely line (flip = a card from the stock). "
            "The numbers are the menu's:"), style="bold"))
        width = max(len(str(r.move)) for r in ranked)
        digits = len(str(len(menu)))
        known = view.hand.codes() + view.field.codes()
        for r in ranked:
            rest = public_line(r.line[1:], self.names, known)
            number = menu.get(r.move)
            key = f"{number:>{digits}})" if number is not None else " " * (digits + 1)
            self.console.print(Text(self.t(f"  {key} {str(r.move):<{width}} {r.value:+7.2f}   "
                                           f"{' '.join(rest)}")))

    def show_position(self, seat: int) -> None:
        """'p': the seat's view string (for ``gostop hint``); in practice, also the
        full position (every hand and the stock)."""
        self.console.print(Text(self.t("Your view (gostop hint takes it):"), style="bold"))
        self.console.print(Text(self.game.view(seat).to_str()), soft_wrap=True)
        if self.practice:
            self.console.print(Text(self.t("Full position (every hand and the stock order):"),
                                    style="bold"))
            self.console.print(Text(self.game.position()), soft_wrap=True)

    def take_back(self) -> None:
        """'u' (practice): undo the person's last decision and what followed it."""
        if not self.checkpoints:
            self.console.print(Text("Nothing to take back yet.", style="dark_orange3"))
            return
        raise TakeBack

    def restore(self) -> None:
        """Back to before the person's last decision."""
        moves, placed, events, shown = self.checkpoints.pop()
        g = self.game
        taken = []
        while len(g.move_stack) > moves:
            taken.append(g.pop())
        self.narrator.placed = placed
        self.recent = []  # the turns taken back are not told again
        self.turn_events = events
        self.shown = shown
        self.board_turn = -1
        mine = taken[-1] if taken else None
        after = len(taken) - 1
        self.say(f"Taken back: your {mine}" + (
            f" and the {after} move{'s' if after > 1 else ''} after it" if after else "") + ".",
            style="dark_orange3")

    # ---------------------------------------------------------------- the hand
    def intro(self) -> None:
        g = self.game
        if not self.in_match:
            self.console.print(match_header(g.rules.preset, g.players, 1, self.seed,
                                            self.korean))
            if not self.quiet:
                self.console.print(rules_line(g.rules, self.korean))
            if not self.seed_given:
                self.console.print(Text(f"Replay this game with --seed {self.seed}", style="dim"))
        if self.quiet:
            return
        if self.hands > 1:
            self.out(Rule(Text(f" {self.t(f'Hand {self.hand_no} of {self.hands}')} ",
                               style="bold")))
        if self.hand_no == 1:
            opponents = ", ".join(self.label(s) for s in range(g.players) if s != self.viewer)
            seat0 = "You are seat 0" if self.is_human(0) else f"Seat 0 is {self.label(0)}"
            self.say(self.t(f"{seat0}; against {opponents}."))
        dealer = self.label(g.dealer)
        you = self.is_human(g.dealer)
        line = f"{dealer} deal{'' if you else 's'} and play{'' if you else 's'} first."
        if g.rules.go_stop:
            line += f"  First to {g.threshold()} points may call Go or Stop."
        else:
            line += (f"  No Go/Stop: the stock is played out and card points are counted "
                     f"against {family_target(g)} (break-even).")
        self.say(self.t(line))
        if g.stake_doublings:
            self.say(self.t(f"After the drawn hand(s) before: {stake_text(g.stake_doublings)}."),
                     style="bold magenta")
        for ev in g.deal_events():
            self.say(self.t(you_grammar(ev.describe(self.names))), style="dim")
        if not g.is_over() and (not self.is_human(self.viewer) or not self.is_human(g.dealer)):
            # a demo, or a bot plays first: the board before its move (the person's
            # board is drawn before each of their decisions)
            self.out(self.board())
            self.board_turn = g.turns

    def forfeit(self, failure: BotForfeit) -> BotError:
        """The error that ends the game for a bot's failure, naming its seat."""
        return BotError(f"{self.label(failure.seat)} loses by forfeit: {failure.detail}")

    def play(self) -> None:
        g = self.game
        self.intro()
        # the one hand driver: every bot gets every hook (the person's moves
        # observed too); whatever goes wrong with a bot is a forfeit
        driver = HandDriver(g, self.bots, policy="forfeit")
        try:
            driver.start()
            while not g.is_over():
                seat = g.turn
                assert seat is not None
                legal = list(g.legal_moves)
                try:
                    if self.bots[seat] is None:
                        self.show_progress()
                        move = self.human_move(seat, legal)
                        if self.practice:
                            self.checkpoints.append((len(g.move_stack),
                                                     dict(self.narrator.placed),
                                                     list(self.turn_events), self.shown))
                    else:
                        move = driver.choose()
                    self.push(move, driver)
                except TakeBack:
                    self.restore()
                    driver.resync()  # the bots forget the moves taken back
            driver.finish()
        except BotForfeit as failure:
            raise self.forfeit(failure) from failure
        # what follows the last turn (a drawn hand, the scoring of a played-out
        # hand) is told by the report
        rest = [ev for ev in self.turn_events if ev.kind not in ("draw", "hand_end")]
        if rest and self.redraw:
            self.recent.append(self.turn_events)
        elif rest:
            self.show_turn(self.turn_events)
        self.turn_events = []
        self.finish()

    def finish(self) -> None:
        g = self.game
        outcome = g.outcome()
        assert outcome is not None
        if self.quiet:
            return
        if self.redraw:
            self.screen()
        else:
            self.console.print(self.board())
        title = (f" Hand {self.hand_no} of {self.hands} is over " if self.hands > 1
                 else " Hand over ")
        last = self.in_match and self.hand_no == self.hands
        self.console.print(Panel(Group(*report_renderables(g, outcome, self.names, last,
                                                           self.korean)),
                                 title=Text(f" {self.t(title.strip())} ", style="bold"),
                                 title_align="left",
                                 border_style="green"))


# ---------------------------------------------------------------- entry points
def close_bots(bots: Sequence[Bot | None]) -> None:
    """Close every bot (an outside program is stopped, and whatever it started
    that escaped its process group: :mod:`gostop_cli.children`); never raises."""
    for bot in bots:
        if bot is not None:
            try:
                bot.close()
            except Exception:  # pragma: no cover - closing must not hide the result
                pass
    end_orphans()


#: The exit code of a game or match a bot abandoned by forfeit (bad input from outside,
#: as a bad record or position is).
FORFEIT_EXIT = 2


def forfeit_exit(console: Console, exc: BotError, what: str) -> int:
    """Say on one line that a bot lost by forfeit and the game or match is
    abandoned; returns :data:`FORFEIT_EXIT`."""
    message = " ".join(str(exc).split())
    console.print(Text(f"{message}; the {what} is abandoned.", style="red"), soft_wrap=True)
    return FORFEIT_EXIT


def run_game(game: Game, seats: Sequence[str | None], seed: int, pause: bool = True,
             quiet: bool = False, seed_given: bool = True,
             console: Console | None = None, reference: bool = False,
             practice: bool = False, korean: bool = False, redraw: bool = False) -> int:
    """Play one standalone hand; returns the exit code: 0 (finished, quit, end of
    input) or 130 (Ctrl-C).  With ``reference`` the reference engine follows every
    decision (:class:`Lockstep`); a disagreement raises ``EngineDisagreement``.
    ``practice``, ``korean`` and ``redraw`` as for :func:`run_match`."""
    session = Session(game, seats, seed, pause=pause, quiet=quiet, seed_given=seed_given,
                      console=console, lockstep=Lockstep(game) if reference else None,
                      practice=practice, korean=korean, redraw=redraw)
    try:
        session.play()
    except EndOfInput:
        session.console.print(Text(session.t("End of input: the game is abandoned."),
                                   style="dark_orange3"))
        return 0
    except QuitGame:
        session.console.print(Text("You left the game.", style="dark_orange3"))
        return 0
    except KeyboardInterrupt:
        session.console.print()
        session.console.print(Text("Interrupted: the game is abandoned.", style="dark_orange3"))
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
                 practice: bool = False, korean: bool = False, move_time: float | None = None,
                 save: str | None = None, redraw: bool = False):
        self.match = match
        self.redraw = redraw
        self.practice = practice
        self.korean = korean
        self.reference = reference
        self.save = save  # append each finished hand's record to this file
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
        become_subreaper()  # before any bot program starts: see gostop_cli.children
        self.bots: list[Bot | None] = [
            None if name is None else make_bot(name, seed=match.seed * 10 + i)
            for i, name in enumerate(seats)]
        for bot in self.bots:
            if move_time is not None and bot is not None and hasattr(bot, "move_time"):
                setattr(bot, "move_time", move_time)  # an outside program's time per move
        self.wins = [0] * match.players
        self.echo = not isatty(sys.stdin)

    def t(self, text: str) -> str:
        """``text`` as the screen says it: in Korean with ``--korean``."""
        return translate(text) if self.korean else text

    def intro(self) -> None:
        m = self.match
        self.console.print(match_header(m.rules.preset, m.players, self.hands, m.seed,
                                        self.korean))
        if not self.quiet:
            self.console.print(rules_line(m.rules, self.korean))
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
            self.console.print(Text(self.t(f"Draw for the first dealer: {draws}; {rule}: "
                                           f"{self.labels[m.dealer]}."), style="dim"))
        if self.hands > 1:
            nxt = ("the winner deals the next hand" if m.rules.dealer_rule
                   else "the dealer stays the same")
            nagari = "; a drawn hand (nagari) doubles the next payment" \
                if m.rules.nagari_doubling else ""
            self.console.print(Text(self.t(f"{self.hands} hands: {nxt}{nagari}."), style="dim"))

    def run(self) -> int:
        try:
            self.intro()
            for i in range(self.hands):
                self.play_hand(i)
            if self.reference:
                self.console.print(self.reference_line(), soft_wrap=True)
        except EndOfInput:
            self.console.print(Text(self.t("End of input: the game is abandoned."),
                                    style="dark_orange3"))
            return 0
        except QuitGame:
            self.console.print(Text(translate("You left the game.") if self.korean
                                    else "You left the game.", style="dark_orange3"))
            return 0
        except KeyboardInterrupt:
            self.console.print()
            self.console.print(Text("Interrupted: the game is abandoned.", style="dark_orange3"))
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
                          lockstep=lockstep, practice=self.practice, korean=self.korean,
                          redraw=self.redraw)
        session.play()
        if lockstep is not None:
            lockstep.finish()
            self.checked += lockstep.decisions
        rec = m.record(game)
        if self.save is not None:
            save_hand(self.save, game, self.seats, self.names, m, i)
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
        body: list[RenderableType] = [ledger_table(m, self.names, this_hand, self.wins,
                                                   self.korean)]
        if not last:
            nxt = [f"Next: {self.labels[m.dealer]} {verb(self.names[m.dealer], 'deal')}"]
            if m.stake_doublings:
                nxt.append(stake_text(m.stake_doublings))
            body += [Text(), Text(self.t(" · ".join(nxt) + "."), style="dim")]
        else:
            leader, chips = m.standings()[0]
            tied = sum(1 for _, c in m.standings() if c == chips) > 1
            if self.hands > 1:
                body += [Text(), Text(self.t("A tie at the top." if tied else
                                             f"{self.labels[leader]} "
                                             f"{verb(self.names[leader], 'lead')} the match "
                                             f"with {signed(chips)}."), style="bold green")]
        title = f" {self.t(title.strip())} "
        self.console.print(Panel(Group(*body), title=Text(title, style="bold"),
                                 title_align="left", border_style="magenta"))
        if not last and self.human:
            prompt = f"Press Enter to deal hand {i + 2} (q quits) "
            text = ask(self.console, translate(prompt) if self.korean else prompt, self.echo)
            if command_of(text) == "quit":
                answer = ask(self.console, f"Leave the match after hand {i + 1} of "
                             f"{self.hands}? (y/N) ", self.echo)
                if answer.strip().lower() in ("y", "yes"):
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
              practice: bool = False, korean: bool = False, move_time: float | None = None,
              save: str | None = None, redraw: bool = False) -> int:
    """Play ``hands`` hands of ``match``; returns the exit code (0, or 130 after Ctrl-C).
    With ``save`` each finished hand's record is appended to that file.
    With ``reference`` the reference engine follows every decision of every hand
    (:class:`~gostop_core.testing.lockstep.Lockstep`) and a disagreement raises
    :class:`~gostop_core.testing.lockstep.EngineDisagreement`.  With ``practice`` the
    person may take decisions back; with ``korean`` cards and months are named
    in Korean.  With ``redraw`` the game does not wait between turns: at each of
    the person's moves the screen is cleared and redrawn with the turns played
    since their last move.  A bot that fails (:class:`~gostop_core.errors.BotError`)
    abandons the match with exit code 1; ``move_time`` is the time per move of
    outside programs (``cmd:`` bots)."""
    return MatchRunner(match, seats, hands, pause=pause, quiet=quiet, seed_given=seed_given,
                       console=console, reference=reference, practice=practice,
                       korean=korean, move_time=move_time, save=save, redraw=redraw).run()


def save_hand(path: str, game: Game, seats: Sequence[str | None], names: Sequence[str],
              match: Match, index: int) -> None:
    """Append the record of a finished hand of ``match`` (docs/records.md)."""
    from gostop_core.records import Seat, append_record, record_from_game
    record = record_from_game(game, [Seat(n, k) for n, k in zip(names, seats)],
                            match={"seed": match.seed, "hand": index + 1,
                                   "ledger": list(match.ledger)})
    append_record(path, record)
