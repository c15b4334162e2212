"""Perft suites: data files of positions with their perft counts.

The format follows python-chess's ``.perft`` files: entries separated by blank lines,
each an ``id`` line, a ``position`` line (a position string) or a ``deal`` line
(``deal PRESET PLAYERS SEED [DEALER]``), then ``perft DEPTH COUNT`` lines.  ``#``
starts a comment::

    id casual-2p-seed1
    deal casual 2 1
    perft 1 12
    perft 2 130

:func:`check_suite` counts every entry with the core (and, with
``reference=True``, with the pure-Python reference engine); a mismatch carries the
divide of both engines so the first differing move is plain.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from gostop_core.errors import PositionError
from gostop_core.game import Game
from gostop_core.notation import parse_position


@dataclass
class SuiteEntry:
    id: str
    position: str
    counts: list[tuple[int, int]] = field(default_factory=list)
    line: int = 0


@dataclass
class SuiteResult:
    entry: SuiteEntry
    depth: int
    expected: int
    core: int
    reference: int | None = None
    seconds: float = 0.0
    divide_core: dict[str, int] | None = None
    divide_reference: dict[str, int] | None = None

    @property
    def ok(self) -> bool:
        return self.core == self.expected and self.reference in (None, self.expected)

    def first_difference(self) -> str | None:
        """The first move whose divide counts differ between the two engines."""
        if self.divide_core is None or self.divide_reference is None:
            return None
        for move in sorted(set(self.divide_core) | set(self.divide_reference)):
            a, b = self.divide_core.get(move), self.divide_reference.get(move)
            if a != b:
                return f"{move}: core {a}, reference {b}"
        return None


class SuiteError(ValueError):
    """A malformed suite file; the message names the line."""


#: Bounds of the numbers of a suite line (``perft DEPTH COUNT``, ``deal ... SEED DEALER``).
MAX_SUITE_DEPTH = 64
MAX_SEED = 2 ** 64 - 1
MAX_COUNT = 2 ** 64 - 1


def _number(text: str, lo: int, hi: int, what: str, where: str) -> int:
    """An ASCII decimal ``lo..hi``; anything else (``²``, ``-1``, 4,301 digits) is a
    :class:`SuiteError` naming the line."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(hi)):
        raise SuiteError(f"{where}: {what} must be a number {lo}..{hi}, got {text[:30]!r}")
    value = int(text)
    if not lo <= value <= hi:
        raise SuiteError(f"{where}: {what} must be a number {lo}..{hi}, got {value}")
    return value


def parse_suite(text: str, name: str = "suite") -> list[SuiteEntry]:
    entries: list[SuiteEntry] = []
    current: SuiteEntry | None = None

    def close():
        nonlocal current
        if current is not None:
            if not current.position:
                raise SuiteError(f"{name}:{current.line}: entry {current.id!r} has no position")
            entries.append(current)
        current = None

    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            close()  # a blank line ends an entry
            continue
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue  # a comment line
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word == "id":
            close()
            current = SuiteEntry(rest, "", [], number)
            continue
        if current is None:
            current = SuiteEntry(f"entry-{number}", "", [], number)
        if word == "position":
            try:
                parse_position(rest)
            except PositionError as exc:
                raise SuiteError(f"{name}:{number}: {exc}") from None
            current.position = rest
        elif word == "deal":
            parts = rest.split()
            where = f"{name}:{number}"
            if len(parts) not in (3, 4):
                raise SuiteError(f"{where}: expected 'deal PRESET PLAYERS SEED [DEALER]'")
            preset = parts[0]
            players = _number(parts[1], 2, 4, "PLAYERS", where)
            seed = _number(parts[2], 0, MAX_SEED, "SEED", where)
            dealer = _number(parts[3], 0, players - 1, "DEALER", where) if len(parts) == 4 else 0
            try:
                current.position = Game(preset, players, seed, dealer).position()
            except Exception as exc:  # a bad preset or count: say where
                raise SuiteError(f"{name}:{number}: {exc}") from None
        elif word == "perft":
            parts = rest.split()
            if len(parts) != 2:
                raise SuiteError(f"{name}:{number}: expected 'perft DEPTH COUNT'")
            current.counts.append((_number(parts[0], 0, MAX_SUITE_DEPTH, "DEPTH", f"{name}:{number}"),
                                   _number(parts[1], 0, MAX_COUNT, "COUNT", f"{name}:{number}")))
        else:
            raise SuiteError(f"{name}:{number}: unknown line {word!r} (id, position, deal or perft)")
    close()
    return entries


def load_suite(path: str | Path) -> list[SuiteEntry]:
    p = Path(path)
    return parse_suite(p.read_text(encoding="utf-8"), p.name)


def _reference_game(position: str):
    from gostop_core.testing.reference import ReferenceGame
    rules, fields = parse_position(position)
    return ReferenceGame.from_fields(rules, fields)


def check_suite(entries: list[SuiteEntry], reference: bool = False, max_depth: int | None = None,
                bulk: bool = True) -> list[SuiteResult]:
    """Count every (entry, depth) up to ``max_depth``; with ``reference`` the pure-
    Python engine counts too.  Mismatches carry both engines' divide."""
    results = []
    for entry in entries:
        game = Game.from_position(entry.position)
        ref = _reference_game(entry.position) if reference else None
        for depth, expected in entry.counts:
            if max_depth is not None and depth > max_depth:
                continue
            start = time.perf_counter()
            core = game.perft(depth, bulk)
            seconds = time.perf_counter() - start
            ref_count = ref.perft(depth, bulk) if ref is not None else None
            result = SuiteResult(entry, depth, expected, core, ref_count, seconds)
            if not result.ok and depth >= 1:
                result.divide_core = {str(m): n for m, n in game.divide(depth, bulk).items()}
                if ref is None:
                    ref = _reference_game(entry.position)
                result.divide_reference = dict(ref.divide(depth, bulk))
            results.append(result)
    return results
