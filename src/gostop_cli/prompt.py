"""The keyboard side of ``gostop play``: reading a line, the commands a player
may type at a decision (hint, help, board, position, take back, quit) with
their one-line legend, and the loop that turns typed text into a legal move.

Drawing is elsewhere (:mod:`gostop_cli.board`, :mod:`gostop_cli.narration`);
the game itself is never changed here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from gostop_core import Game, IllegalMoveError, Move, MoveParseError

__all__ = ["EndOfInput", "QuitGame", "Command", "COMMANDS", "command_of", "legend_text",
           "help_text",
           "ask", "isatty", "read_decision", "why_illegal", "MOVE_FORMS"]


class EndOfInput(Exception):
    """Standard input is exhausted."""


class QuitGame(Exception):
    """The player asked to leave."""


@dataclass(frozen=True)
class Command:
    """Something to type at a decision instead of a move: its ``name`` (the key
    of the handler), the ``keys`` and words that call it, its ``text`` in the
    legend and its ``help`` sentence."""

    name: str
    keys: tuple[str, ...]
    text: str
    help: str


#: Every command, in legend order.  A screen offers those it has a handler for.
COMMANDS: tuple[Command, ...] = (
    Command("hint", ("?", "hint"), "hint",
            "rank every legal move by the net points (chips, balance) it should bring"),
    Command("help", ("h", "help"), "help", "this help and the kinds of cards"),
    Command("board", ("b", "board"), "board", "draw the board again"),
    Command("position", ("p", "position"), "position",
            "print your view string (in practice also the full position)"),
    Command("undo", ("u", "undo"), "take back", "take back your last decision (practice only)"),
    Command("quit", ("q", "quit", "exit"), "quit", "leave the game (a match asks first)"),
)

#: The forms of a typed move, for the help.
MOVE_FORMS = ("a card (3B), a card and the field card it takes (9R/9A), a bonus card (X2), "
              "bomb9, shake9, fliponly, flip/9A, go, stop")


def command_of(text: str) -> str | None:
    """The name of the command ``text`` calls (``"?"``, ``"hint"`` -> ``"hint"``),
    or ``None``."""
    low = text.strip().lower()
    for command in COMMANDS:
        if low in command.keys:
            return command.name
    return None


#: The commands' legend words in Korean.
LEGEND_KO = {"hint": "힌트", "help": "도움말", "board": "판", "position": "포지션",
             "undo": "무르기", "quit": "끝내기"}


def legend_text(available: Iterable[str], korean: bool = False) -> Text:
    """The one-line legend of the commands named in ``available``:
    ``? hint · h help · b board · q quit`` (``? 힌트 · ...`` with ``korean``)."""
    names = set(available)
    out = Text()
    for command in COMMANDS:
        if command.name not in names:
            continue
        if out:
            out.append(" · ", style="dim")
        out.append(command.keys[0], style="bold")
        out.append(f" {LEGEND_KO[command.name] if korean else command.text}", style="dim")
    return out


#: The commands' help sentences in Korean.
HELP_KO = {"hint": "가능한 수마다 가져올 순 점수(칩, 잔액)를 매겨 보여 줌",
           "help": "이 도움말과 패의 종류", "board": "판을 다시 그림",
           "position": "내 뷰 문자열을 보여 줌 (연습에서는 전체 포지션도)",
           "undo": "마지막 결정을 무름 (연습에서만)", "quit": "게임을 떠남 (판이 이어지면 먼저 물음)"}


def help_text(available: Iterable[str], korean: bool = False) -> RenderableType:
    """What may be typed at a decision: a number, a move, or the commands named
    in ``available``, one line each (in Korean with ``korean``)."""
    names = set(available)
    if korean:
        head = Text("선택지의 번호나 수를 입력: ", style="bold")
        head.append("패 (3B), 패와 그 패로 먹을 바닥 패 (9R/9A), 보너스 패 (X2), bomb9, shake9, "
                    "fliponly, flip/9A, go, stop.  또는 명령 (키나 단어):")
    else:
        head = Text("Type the number of a choice, or a move: ", style="bold")
        head.append(MOVE_FORMS + ".  Or a command, as a key or a word:")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column()
    for command in COMMANDS:
        if command.name in names:
            grid.add_row("  " + " or ".join(command.keys[:2]),
                         HELP_KO[command.name] if korean else command.help)
    return Group(head, grid)


def ask(console: Console, prompt: str, echo: bool) -> str:
    """Print ``prompt`` and read one line; :class:`EndOfInput` at the end of
    input.  With ``echo`` (input not from a terminal) the line is printed back."""
    console.print(Text(prompt, style="bold"), end="")
    try:
        line = input("")
    except EOFError:
        console.print()
        raise EndOfInput from None
    if echo:
        console.print(Text(line), highlight=False)
    return line


def isatty(stream: object) -> bool:
    """Whether ``stream`` is a terminal (``False`` for anything odd)."""
    check = getattr(stream, "isatty", None)
    try:
        return bool(check()) if callable(check) else False
    except (OSError, ValueError):
        return False


def why_illegal(game: Game, move: Move, seat: int) -> str:
    """Why ``move`` cannot be played now, in the engine's words, said to the
    person at ``seat``."""
    try:
        game.copy(stack=False).push(move)
    except IllegalMoveError as exc:
        reason = str(exc).split(" (legal:")[0]
        _, sep, rest = reason.partition(": ")
        reason = rest if sep else reason
        reason = reason.replace(f"player {seat}'s", "your").replace(f"player {seat} ", "you ")
        return f"Not possible: {reason}."
    return f"Not possible: {move}."  # pragma: no cover - legal moves are accepted earlier


def choice_prompt(count: int) -> str:
    """``Choose 1-12 or type a move: `` (one choice: ``Type 1 to confirm: ``)."""
    if count == 1:
        return "Type 1 (or Enter) to confirm: "
    return f"Choose 1-{count} or type a move: "


def read_decision(console: Console, game: Game, seat: int, legal: Sequence[Move], *,
                  echo: bool, handlers: Mapping[str, Callable[[], None]],
                  translate: Callable[[str], str] = str) -> Move:
    """Read lines until one names a legal move of ``seat`` and return it.

    A number picks from ``legal``; a move is typed in its notation; a command
    word (:data:`COMMANDS`) calls ``handlers[name]`` (which may raise, e.g.
    :class:`QuitGame`) and reads on.  A bad line gets a one-line reason.
    ``translate`` turns the prompt into the screen's language."""
    legal = list(legal)
    words = ", ".join(c.keys[-1] if c.name != "quit" else "quit" for c in COMMANDS
                      if c.name in handlers and c.name != "quit")
    while True:
        text = ask(console, translate(choice_prompt(len(legal))), echo).strip()
        if not text:
            if len(legal) == 1:
                return legal[0]
            continue
        name = command_of(text)
        if name is not None:
            if name in handlers:
                handlers[name]()
            else:
                console.print(Text(translate(f"'{text}' is not available here."), style="red"))
            continue
        if text.isdigit():
            # only ASCII digits count ('²' is a digit to str.isdigit), and a
            # number of thousands of digits is simply no choice
            n = int(text) if text.isascii() and len(text) <= 6 else 0
            if 1 <= n <= len(legal):
                return legal[n - 1]
            span = "1" if len(legal) == 1 else f"a number from 1 to {len(legal)}"
            console.print(Text(translate(f"There is no choice {text[:12]}: type {span}, or a "
                                         f"move such as {legal[0]}."), style="red"))
            continue
        try:
            move = Move.from_str(text)
        except MoveParseError as exc:
            console.print(Text(translate(f"Not a move: {exc}.  Type a number from the list, a "
                                         f"move, or a command ({words}, quit)."), style="red"))
            continue
        if game.phase == "flip" and move.kind == "play" and move.target is None and move.card:
            move = Move("flip", target=move.card)
        if move in legal:
            return move
        if move.kind == "play" and move.target is not None and move.card:
            # 3B/3R where the play has no choice to make means 3B
            plain = Move("play", card=move.card)
            if plain in legal and game.is_legal(move):
                return plain
        console.print(Text(translate(why_illegal(game, move, seat)), style="red"))
