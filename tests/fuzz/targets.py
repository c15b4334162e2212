"""Fuzz targets shared by the Hypothesis tests (``tests/test_fuzz.py``) and the
coverage-guided atheris harness (``tests/fuzz/fuzz_parsers.py``).

Each ``check_*`` function feeds one input to a parser (and, for a position that
parses, to the engine) and returns quietly when the input is handled: accepted,
or refused with one of the engine's own errors (:data:`EXPECTED`).  Any other
exception escapes: that is a finding.  The functions also check what must hold
for every accepted input (a position string read back from a game is read the
same way again; push then pop restores the position; perft(1) counts the legal
moves; a view string of the game parses).

A :class:`Chooser` makes the random choices: the Hypothesis tests draw them from
``data``, the atheris harness from its ``FuzzedDataProvider``.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path
from typing import Callable, Protocol, Sequence, TypeVar

from gostop_core import CardSet, Game, GoStopError, Move, parse_position, parse_view
from gostop_core.cards import CARD_CODES, card_index, parse_mask
from gostop_core.testing.perft_suite import SuiteError, load_suite, parse_suite

#: The errors an input may legitimately raise.
EXPECTED: tuple[type[BaseException], ...] = (GoStopError, SuiteError)

PERFT_DIR = Path(__file__).resolve().parent.parent / "perft"
T = TypeVar("T")


class Chooser(Protocol):
    def int(self, lo: int, hi: int) -> int: ...


def pick(chooser: Chooser, items: Sequence[T]) -> T:
    return items[chooser.int(0, len(items) - 1)]


class RandomChooser:
    """Choices from a :class:`random.Random` (plain scripts, reproducible runs)."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def int(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)


# ---------------------------------------------------------------- real inputs
@lru_cache(maxsize=1)
def seed_positions() -> tuple[str, ...]:
    """Real position strings: every entry of the perft suites (deals of every
    preset and player count, and the tricky positions in the middle of hands),
    and a few positions of each seeded deal after some random moves (a flip
    choice, Go/Stop, a finished hand)."""
    out = [e.position for path in sorted(PERFT_DIR.glob("*.perft")) for e in load_suite(path)]
    rng = random.Random(5)
    for text in list(out[:40]):
        game = Game.from_position(text)
        for _ in range(rng.randint(1, 60)):
            moves = list(game.legal_moves)
            if not moves:
                break
            game.push(rng.choice(moves))
            if game.phase != "play" or rng.random() < 0.1:
                out.append(game.position())
        out.append(game.position())
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=1)
def seed_views() -> tuple[str, ...]:
    out = []
    for text in seed_positions()[::3]:
        game = Game.from_position(text)
        out += [game.view(p).to_str() for p in range(game.players)]
    return tuple(out)


MOVE_WORDS = ("go", "stop", "fliponly", "accept", "refuse", "bomb", "shake", "flip/",
              "showdown/", "X2", "X3", "/", "3B/3R", "bomb9", "shake12", "flip/9R")
ODD_TEXT = ("", "-", "|", ",", "=", ":", "/", "+", " ", "0", "-1", "99999999999999999999",
            "1" * 5000, "²", "٣", "１", "ß", "\x00", "\u200b", "nan", "1_0", "0x10", "+3",
            "gostop/1", "gostop-view/1", "X", "J", "13B", "0B", "1J", "1J3", "X4", "flip:9A",
            "showdown:3B", "casual+", "casual+godori", "casual+godori=x", "family+allow_4p=1")


# ---------------------------------------------------------------- mutations
GENTLE = (6, 7, 7, 7, 8)   # number changes, cards moved, optional keys: often still valid


def mutate_position(text: str, c: Chooser, rounds: int | None = None,
                    gentle: bool = False) -> str:
    """A real position string changed a few times: tokens deleted, duplicated,
    swapped or renamed, card codes changed or moved from one place to another,
    numbers changed, separators broken, odd text spliced in.  ``gentle``
    mutations keep the pack whole, so the result often parses and the engine
    gets to play it."""
    tokens = text.split(" ")
    for _ in range(c.int(1, 4) if rounds is None else rounds):
        how = pick(c, GENTLE) if gentle else c.int(0, 11)
        i = c.int(0, len(tokens) - 1) if tokens else 0
        if not tokens:
            tokens.append(pick(c, ODD_TEXT))
        elif how == 0:                                  # delete a token
            del tokens[i]
        elif how == 1:                                  # duplicate a token
            tokens.insert(c.int(0, len(tokens)), tokens[i])
        elif how == 2:                                  # swap two tokens
            j = c.int(0, len(tokens) - 1)
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif how == 3:                                  # another key, same value
            key, eq, value = tokens[i].partition("=")
            keys = ("rules", "players", "seat", "dealer", "turn", "phase", "turns", "field",
                    "hand", "hands", "captured", "stock", "go", "lastgo", "fliponly", "sitter",
                    "asker", "forced", "stake", "shaken", "bombs", "ppeoks", "played", "chips",
                    "pending", "turnbonus", "stackbonus", "flags", "end", "winner", "points",
                    "bogus", "")
            tokens[i] = pick(c, keys) + "=" + value
        elif how == 4:                                  # a value replaced by odd text
            key, eq, value = tokens[i].partition("=")
            tokens[i] = key + "=" + pick(c, ODD_TEXT)
        elif how == 5:                                  # change one card code
            tokens[i] = _replace_item(tokens[i], c, lambda: pick(c, CARD_CODES + ODD_TEXT))
        elif how == 6:                                  # change one number
            tokens[i] = _replace_item(tokens[i], c, lambda: str(pick(
                c, (0, 1, 2, 3, 4, 5, 7, 9, 12, 13, 48, 50, 100, 255, 256, 10000, 10001,
                    10 ** 6, 2 ** 31, 2 ** 63, 2 ** 64, -1, -(2 ** 63)))))
        elif how == 7:                                  # move a card elsewhere (still whole)
            tokens = _move_card(tokens, c)
        elif how == 8:                                  # change the phase or an optional key
            tokens.append(pick(c, (
                "phase=play", "phase=flip:9A", "phase=gostop", "phase=over", "phase=showdown:3B",
                "asker=1", "forced=3B", "pending=3B", "pending=3B/3R", "stackbonus=X2:3",
                "turnbonus=X3", "flags=63", "end=stop", "winner=0", "points=7", "sitter=3",
                "shaken=1,2|-", "stake=20", "chips=5,-5", "played=9,9", "bombs=1,0")))
        elif how == 9:                                  # break a separator
            sep = pick(c, (",", "|", "=", ":", "/"))
            other = pick(c, (",", "|", "=", ":", "/", " ", ""))
            tokens[i] = tokens[i].replace(sep, other, 1)
        elif how == 10:                                 # splice odd text into a token
            t = tokens[i]
            k = c.int(0, len(t))
            tokens[i] = t[:k] + pick(c, ODD_TEXT) + t[k:]
        else:                                           # cut the string short
            joined = " ".join(tokens)
            tokens = joined[:c.int(0, len(joined))].split(" ")
    return " ".join(tokens)


def _replace_item(token: str, c: Chooser, make: Callable[[], str]) -> str:
    key, eq, value = token.partition("=")
    if not eq:
        return make()
    parts = [p for part in value.split("|") for p in part.split(",")]
    target = pick(c, parts) if parts else ""
    return key + "=" + value.replace(target, make(), 1) if target else key + "=" + make()


def _move_card(tokens: list[str], c: Chooser) -> list[str]:
    """Take one card out of a card list and put it into another (or the same) one:
    the pack stays whole, so the position often still parses and reaches the engine."""
    places = [i for i, t in enumerate(tokens)
              if t.partition("=")[0] in ("field", "hands", "captured", "stock", "hand")]
    if not places:
        return tokens
    src, dst = pick(c, places), pick(c, places)
    key, _, value = tokens[src].partition("=")
    groups = [g.split(",") if g not in ("", "-") else [] for g in value.split("|")]
    full = [k for k, g in enumerate(groups) if g]
    if not full:
        return tokens
    g = groups[pick(c, full)]
    card = g.pop(c.int(0, len(g) - 1))
    tokens[src] = key + "=" + "|".join(",".join(x) or "-" for x in groups)
    key, _, value = tokens[dst].partition("=")
    groups = [x.split(",") if x not in ("", "-") else [] for x in value.split("|")]
    g = groups[c.int(0, len(groups) - 1)]
    g.insert(c.int(0, len(g)), card)
    tokens[dst] = key + "=" + "|".join(",".join(x) or "-" for x in groups)
    return tokens


# ---------------------------------------------------------------- oracles
def check_cards(text: str) -> None:
    """Card codes and card sets: a code that parses names a card whose code
    parses back to it; a set's codes rebuild the set."""
    try:
        i = card_index(text)
    except EXPECTED:
        pass
    else:
        assert card_index(CARD_CODES[i]) == i
    try:
        mask = parse_mask(text)
    except EXPECTED:
        pass
    else:
        cards = CardSet(mask)
        assert CardSet(" ".join(cards.codes())) == cards == CardSet.from_str(text)


def check_move(text: str) -> None:
    """A move string that parses prints as a move string that parses to it."""
    try:
        move = Move.from_str(text)
    except EXPECTED:
        return
    assert Move.from_str(str(move)) == move
    assert Move.from_code(move.code) == move


def check_view(text: str) -> None:
    try:
        parse_view(text)
    except EXPECTED:
        pass


def check_suite_text(text: str) -> None:
    try:
        entries = parse_suite(text, "fuzz.perft")
    except EXPECTED:
        return
    for e in entries:
        parse_position(e.position)


def check_position(text: str, c: Chooser | None = None, pushes: int = 12) -> Game | None:
    """Parse a position string; when it parses, build the game and exercise the
    engine: round-trip the position, count the legal moves, read the views, and
    (with a chooser) push up to ``pushes`` legal moves, then pop them all."""
    try:
        parse_position(text)
    except EXPECTED:
        parsed = False
    else:
        parsed = True
    try:
        game = Game.from_position(text)
    except EXPECTED:
        return None
    assert parsed, "Game.from_position accepted what parse_position refused"
    exercise(game, c, pushes)
    return game


def exercise(game: Game, c: Chooser | None = None, pushes: int = 12) -> None:
    start = game.position()
    again = Game.from_position(start)
    assert again.position() == start, f"position does not read back the same:\n{start}"
    moves = list(game.legal_moves)
    assert game.perft(1) == len(moves) == len(set(moves))
    assert (not moves) == game.is_over(), "no legal move, yet the hand is not over"
    for p in range(game.players):
        view = game.view(p)
        rules, fields = parse_view(view.to_str())
        assert fields["seat"] == p
    if game.is_over():
        outcome = game.outcome()
        assert outcome is not None
        outcome.report()
    if c is None:
        return
    made = 0
    for _ in range(pushes):
        moves = list(game.legal_moves)
        if not moves:
            break
        move = pick(c, moves)
        game.push(move)
        made += 1
        # a move the game does not list is refused without a change
        bad = pick(c, ("go", "stop", "3B", "bomb9", "flip/1B", "X2", "fliponly", "accept"))
        if Move.from_str(bad) not in game.legal_moves:
            before = game.position()
            try:
                game.push(bad)
            except EXPECTED:
                pass
            else:
                raise AssertionError(f"{bad} was pushed though not legal")
            assert game.position() == before
    for _ in range(made):
        game.pop()
    assert game.position() == start, "push/pop did not restore the position"
