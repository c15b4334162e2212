"""Game records: every decision of a hand, saved, read back and replayed.

A record (``"format": "gostop-record/1"``, docs/records.md) is one JSON object
per hand: the rules token, the number of players, the dealer, the start
position string (authoritative: a record replays without its seed), the seed
when there was one, the seats' names (a person, or a bot with its settings),
every decision as ``{"seat", "move"}`` in move notation, the outcome, and the
engine and date.  Many records: JSON Lines, one record per line.  A match is a
sequence of records whose ``match`` field numbers the hands and carries the
ledger after each one (:class:`MatchRecord`).

Reading is strict by default: the first bad record raises :class:`RecordError`
naming its line, the decision, the move and the kind of fault.  Replaying is one
forward loop (:func:`replay`) that feeds a :class:`RecordVisitor`; building the
game (:class:`GameBuilder`, behind :func:`game_from_record`), printing a position
after K decisions and analysing the decisions are visitors.

The module stays one module: the format, its errors, the replay and the file
reading and writing (a chunk at a time, a record at a time) share the record
type and its error kinds, and callers import them all from here.

>>> from gostop_core import Game
>>> g = Game("casual", 2, seed=7)
>>> _ = g.push(next(iter(g.legal_moves)))
>>> rec = record_from_game(g)
>>> game_from_record(rec.to_json()).position() == g.position()
True
"""

from __future__ import annotations

import io
import json
import os
import re
import warnings
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import IO, TYPE_CHECKING, Any, Iterable, Iterator, Literal, NamedTuple, overload

from gostop_core.errors import GoStopError, IllegalMoveError
from gostop_core.game import Game
from gostop_core.moves import Move
from gostop_core.notation import format_position, rules_from_token, rules_to_token

if TYPE_CHECKING:  # pragma: no cover
    from gostop_core.game import Events
    from gostop_core.match import Match

__all__ = [
    "FORMAT", "RecordError", "Decision", "Seat", "Record", "MatchRecord", "RecordVisitor",
    "GameBuilder", "SKIP", "replay", "record_from_game", "game_from_record", "start_game",
    "match_records", "read_records", "write_records", "append_record", "load_records",
    "iter_records", "RecordWriter", "RecordWriteError", "MAX_LINE",
]

#: The format tag of every record this version writes and reads.
FORMAT = "gostop-record/1"

#: Returned by a visitor's method to stop the replay there.
SKIP = object()

#: Bounds a record's size, so that a hostile file cannot make the reader work forever
#: (a real hand has well under 200 decisions).
MAX_DECISIONS = 10_000
#: The longest line a reader takes, in characters (docs/records.md): a real record is
#: a few kilobytes; a longer line is refused while it is read, never held whole.  A
#: pretty-printed record or array read as one document has the same bound.
MAX_LINE = 1_000_000
#: How much of the file the reader holds at a time (characters).
_CHUNK = 1 << 16


class RecordError(GoStopError, ValueError):
    """A record that cannot be read or does not replay.

    ``kind`` is one of :data:`KINDS`: ``json`` (not JSON, or truncated),
    ``format`` (an unknown format tag, a missing or mistyped field), ``illegal``
    (a move that is not legal there), ``wrong_seat`` (a decision by a seat that
    is not to move), ``position`` (a start position that does not parse or does
    not match the record's rules, players, dealer or seed) and
    ``outcome_mismatch`` (the replay ends differently from the stored outcome).
    ``line`` is the line of the file (1-based; ``None`` outside a file),
    ``index`` the 0-based decision at fault and ``move`` its text, ``None`` when
    the fault is not a decision's."""

    KINDS = ("json", "format", "illegal", "wrong_seat", "position", "outcome_mismatch")

    def __init__(self, message: str, kind: str, line: int | None = None,
                 index: int | None = None, move: str | None = None,
                 seat: int | None = None):
        if kind not in self.KINDS:
            raise ValueError(f"unknown record error kind {kind!r}")
        self.kind = kind
        self.line = line
        self.index = index
        self.move = move
        self.seat = seat
        # bounded: a message may quote a hostile line's text
        self.reason = message if len(message) <= 300 else message[:300] + "..."
        super().__init__(self._text())

    def _text(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        if self.index is not None:
            who = f"seat {self.seat}, " if self.seat is not None else ""
            where += f"decision {self.index + 1} ({who}{self.move}): "
        return where + self.reason

    def at_line(self, line: int | None) -> "RecordError":
        """The same error, placed at ``line`` of a file."""
        if line is not None and self.line is None:
            self.line = line
            self.args = (self._text(),)
        return self


class RecordWriteError(GoStopError, OSError):
    """A record file that cannot be written (a full disk, no permission).  The
    file is cut back to its last complete record, so it still reads."""

    def __init__(self, path: str, error: OSError):
        self.path = path
        self.reason = error.strerror or str(error)
        super().__init__(error.errno, f"cannot write {path}: {self.reason}")

    def __str__(self) -> str:
        return f"cannot write {self.path}: {self.reason}"


def _short(value: Any, width: int = 40) -> str:
    """``repr(value)``, cut to ``width`` characters: an error message never
    carries a hostile file's megabytes."""
    text = repr(value)
    return text if len(text) <= width else text[:width] + "..."


class Decision(NamedTuple):
    """One decision of a record: the seat that made it, the move in notation and
    an optional comment."""

    seat: int
    move: str
    comment: str | None = None


class Seat(NamedTuple):
    """Who held a seat: ``name``, and ``bot`` the bot's name with its settings
    (``greedy``, ``expectimax:depth=2,samples=64``) or ``None`` for a person."""

    name: str
    bot: str | None = None


_KNOWN_KEYS = ("format", "engine", "date", "rules", "players", "dealer", "seed", "start",
               "seats", "decisions", "outcome", "match")


@dataclass(frozen=True)
class Record:
    """One hand, as saved.  ``start`` (a position string) is authoritative;
    ``seed`` is kept for reference and checked against ``start`` on replay.
    ``outcome`` is the engine's :meth:`Outcome.as_dict` plus ``report`` (its
    lines), or ``None`` for a hand that was not finished.  ``match`` numbers a
    match's hands (``{"seed", "hand", "ledger"}``).  ``meta`` keeps every key
    this version does not know, so that a record survives a round trip.
    ``line`` is where the record was read from (not part of equality)."""

    rules: str
    players: int
    dealer: int
    start: str
    decisions: tuple[Decision, ...] = ()
    outcome: dict | None = None
    seed: int | None = None
    seats: tuple[Seat, ...] = ()
    engine: str = ""
    date: str | None = None
    match: dict | None = None
    meta: dict = field(default_factory=dict)
    format: str = FORMAT
    line: int | None = field(default=None, compare=False, repr=False)

    __hash__ = None  # type: ignore[assignment]  # holds dicts

    @property
    def names(self) -> list[str]:
        """The seats' names (``player N`` where none was saved)."""
        if len(self.seats) == self.players:
            return [s.name for s in self.seats]
        return [f"player {p}" for p in range(self.players)]

    # ---------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON data (the keys in the documented order)."""
        out: dict[str, Any] = {"format": self.format, "engine": self.engine, "date": self.date,
                               "rules": self.rules, "players": self.players,
                               "dealer": self.dealer, "seed": self.seed, "start": self.start}
        out["seats"] = [{"name": s.name, **({"bot": s.bot} if s.bot is not None else {})}
                        for s in self.seats]
        out["decisions"] = [{"seat": d.seat, "move": d.move,
                             **({"comment": d.comment} if d.comment is not None else {})}
                            for d in self.decisions]
        out["outcome"] = self.outcome
        if self.match is not None:
            out["match"] = self.match
        for key, value in self.meta.items():
            out.setdefault(key, value)
        return out

    def to_json(self, pretty: bool = False) -> str:
        """One line of JSON, or with ``pretty`` a readable object over several
        lines: a line per field, per decision and per outcome entry."""
        data = self.to_dict()
        if not pretty:
            return _line_safe(json.dumps(data, ensure_ascii=False, separators=(",", ":")))

        def one(value: Any) -> str:
            return _line_safe(json.dumps(value, ensure_ascii=False))

        def block(items: list[str], open_: str, close: str, pad: str) -> str:
            if not items:
                return open_ + close
            return open_ + "\n" + ",\n".join(pad + "  " + i for i in items) + "\n" + pad + close

        rows = []
        for key, value in data.items():
            if key == "decisions":
                text = block([one(d) for d in value], "[", "]", "  ")
            elif key == "outcome" and isinstance(value, dict):
                text = block([f"{one(k)}: {one(v)}" for k, v in value.items()], "{", "}", "  ")
            else:
                text = one(value)
            rows.append(f"{one(key)}: {text}")
        return block(rows, "{", "}", "")

    @classmethod
    def from_dict(cls, data: Any, line: int | None = None) -> "Record":
        """Check every field's presence and type; raises :class:`RecordError`
        (kind ``format``).  The moves and the start position are checked when
        the record is replayed."""
        def bad(message: str) -> RecordError:
            return RecordError(message, "format", line)

        if not isinstance(data, dict):
            raise bad(f"a record is a JSON object, got {type(data).__name__}")
        tag = data.get("format")
        if tag != FORMAT:
            if tag is None:
                raise bad(f"no \"format\" field (expected {FORMAT!r})")
            raise bad(f"unknown format {_short(tag)} (this version reads {FORMAT!r})")
        for key in ("rules", "players", "dealer", "start", "decisions"):
            if key not in data:
                raise bad(f"missing field {key!r}")
        rules = data["rules"]
        if not isinstance(rules, str) or not rules:
            raise bad("rules must be a rules token such as \"casual\" or \"standard+godori=3\"")
        players = data["players"]
        if not _is_int(players) or not 2 <= players <= 4:
            raise bad(f"players must be 2, 3 or 4, got {_short(players)}")
        dealer = data["dealer"]
        if not _is_int(dealer) or not 0 <= dealer < players:
            raise bad(f"dealer must be a seat 0..{players - 1}, got {_short(dealer)}")
        start = data["start"]
        if not isinstance(start, str):
            raise bad("start must be a position string")
        seed = data.get("seed")
        if seed is not None and (not _is_int(seed) or not 0 <= seed < 2 ** 64):
            raise bad(f"seed must be null or an integer 0..2^64-1, got {_short(seed)}")
        seats_raw = data.get("seats", [])
        if not isinstance(seats_raw, list) or (seats_raw and len(seats_raw) != players):
            raise bad(f"seats must be a list of {players} seats")
        seats = []
        for s in seats_raw:
            if not isinstance(s, dict) or not isinstance(s.get("name"), str):
                raise bad("each seat is an object with a \"name\" string")
            bot = s.get("bot")
            if bot is not None and not isinstance(bot, str):
                raise bad("a seat's \"bot\" must be a bot name string")
            seats.append(Seat(s["name"], bot))
        raw = data["decisions"]
        if not isinstance(raw, list):
            raise bad("decisions must be a list")
        if len(raw) > MAX_DECISIONS:
            raise bad(f"{len(raw)} decisions: more than {MAX_DECISIONS}, no hand is that long")
        decisions = []
        for i, d in enumerate(raw):
            if not (isinstance(d, dict) and _is_int(d.get("seat"))
                    and isinstance(d.get("move"), str)):
                raise RecordError("each decision is {\"seat\": int, \"move\": string}",
                                  "format", line, i, None if not isinstance(d, dict)
                                  else str(d.get("move"))[:40])
            comment = d.get("comment")
            if comment is not None and not isinstance(comment, str):
                raise RecordError("a comment must be a string", "format", line, i, d["move"][:40])
            decisions.append(Decision(d["seat"], d["move"], comment))
        outcome = data.get("outcome")
        if outcome is not None and not isinstance(outcome, dict):
            raise bad("outcome must be an object or null")
        for key in ("engine", "date"):
            if data.get(key) is not None and not isinstance(data[key], str):
                raise bad(f"{key} must be a string")
        match = data.get("match")
        if match is not None and not isinstance(match, dict):
            raise bad("match must be an object or null")
        meta = {k: v for k, v in data.items() if k not in _KNOWN_KEYS}
        return cls(rules=rules, players=players, dealer=dealer, start=start,
                   decisions=tuple(decisions), outcome=outcome, seed=seed, seats=tuple(seats),
                   engine=data.get("engine") or "", date=data.get("date"), match=match,
                   meta=meta, line=line)

    @classmethod
    def from_game(cls, game: "Game", seats: Iterable["Seat | str | tuple"] | None = None,
                  date: str | None = None, match: dict | None = None,
                  meta: dict | None = None) -> "Record":
        """The record of ``game`` (:func:`record_from_game`), as
        ``chess.pgn.Game.from_board`` makes a PGN game of a board."""
        return record_from_game(game, seats, date, match, meta)

    def to_game(self) -> "Game":
        """The game of this record, every decision replayed and the stored
        outcome checked (:func:`game_from_record`)."""
        return game_from_record(self)

    @classmethod
    def from_json(cls, text: str, line: int | None = None) -> "Record":
        """Parse one record; bad JSON raises :class:`RecordError` (kind ``json``)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            body = text.strip()
            cut = body.startswith("{") and not body.endswith("}") or exc.pos >= len(body)
            what = "truncated JSON" if cut else "not valid JSON"
            raise RecordError(f"{what} ({exc.msg}, column {exc.colno})", "json", line) from None
        except RecursionError:
            raise RecordError("not valid JSON (nested too deeply)", "json", line) from None
        except ValueError:  # json reads a number through int(): at most 4300 digits
            raise RecordError("not valid JSON (a number with too many digits)", "json",
                              line) from None
        return cls.from_dict(data, line)


# Characters json.dumps writes raw that some JSON Lines readers take for a line break
# (str.splitlines splits on U+0085, U+2028 and U+2029; the control characters it
# also splits on are escaped by json.dumps already), and lone surrogates, which no
# UTF-8 file can hold.  They only ever stand inside JSON strings, where \\uXXXX
# reads back as the same character.
_NOT_LINE_SAFE = re.compile("[\x85\u2028\u2029\ud800-\udfff]")


def _line_safe(text: str) -> str:
    return _NOT_LINE_SAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------- from a game
def _engine() -> str:
    from gostop_core._version import __version__
    return f"gostop {__version__}"


def _start_position(game: "Game") -> str:
    core = game._core.copy()
    core.restore(game._start)
    return format_position(game.rules, core.to_fields())


def record_from_game(game: "Game", seats: Iterable[Seat | str | tuple] | None = None,
                     date: str | None = None, match: dict | None = None,
                     meta: dict | None = None) -> Record:
    """The record of ``game`` from its start: every decision with its seat, the
    outcome if the hand is over.  ``seats`` names the players (a :class:`Seat`,
    a name, or ``(name, bot)``); ``date`` defaults to now (UTC)."""
    start = _start_position(game)
    walker = Game._from_core(game._core.copy())
    walker._core.restore(game._start)
    decisions = []
    for move in game.move_stack:
        seat = walker.turn
        assert seat is not None
        decisions.append(Decision(seat, str(move)))
        walker.push(move)
    outcome = game.outcome()
    seat_list: list[Seat] = []
    for s in seats or ():
        if isinstance(s, Seat):
            seat_list.append(s)
        elif isinstance(s, str):
            seat_list.append(Seat(s))
        else:
            seat_list.append(Seat(*s))
    if seat_list and len(seat_list) != game.players:
        raise ValueError(f"{len(seat_list)} seats named for {game.players} players")
    names = [s.name for s in seat_list] or None
    out = None
    if outcome is not None:
        out = _json_normal(outcome.as_dict())
        out["report"] = outcome.report(names)
    if date is None:
        date = datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    return Record(rules=rules_to_token(game.rules), players=game.players,
                  dealer=game.dealer, start=start, decisions=tuple(decisions), outcome=out,
                  seed=game.seed,
                  seats=tuple(seat_list), engine=_engine(), date=date, match=match,
                  meta=dict(meta or {}))


def _json_normal(value: Any) -> Any:
    return json.loads(json.dumps(value))


def match_records(match: "Match", seats: Iterable[Seat | str | tuple] | None = None,
                  date: str | None = None) -> list[Record]:
    """The records of every finished hand of ``match``, each with
    ``match = {"seed", "hand", "ledger"}`` (the ledger after that hand)."""
    seat_list = list(seats or ())
    ledger = [0] * match.players
    out = []
    for rec in match.hands:
        game = Game(match.rules, match.players, rec.seed, rec.dealer, rec.stake_doublings)
        for move in rec.moves:
            game.push(move)
        ledger = [a + b for a, b in zip(ledger, rec.outcome.chips)]
        out.append(record_from_game(game, seat_list, date,
                                    {"seed": match.seed, "hand": rec.index + 1,
                                     "ledger": list(ledger)}))
    return out


@dataclass(frozen=True)
class MatchRecord:
    """A match read back: its hands in order and the ledger after the last one."""

    seed: int | None
    records: tuple[Record, ...]
    ledger: tuple[int, ...]

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def from_records(cls, records: Iterable[Record]) -> "MatchRecord":
        """Check that the records are the hands 1, 2, ... of one match and that
        each stored ledger is the sum of the hands' chips so far; raises
        :class:`RecordError` (kind ``outcome_mismatch`` or ``format``)."""
        recs = tuple(records)
        if not recs:
            raise RecordError("a match needs at least one record", "format")
        ledger = [0] * recs[0].players
        seed = recs[0].match.get("seed") if recs[0].match else None
        for n, r in enumerate(recs, 1):
            if r.match is None or r.match.get("hand") != n or r.match.get("seed") != seed:
                raise RecordError(f"not hand {n} of the match of seed {seed}", "format", r.line)
            if r.outcome is None:
                raise RecordError(f"hand {n} of the match is not finished", "outcome_mismatch",
                                  r.line)
            chips = r.outcome.get("chips") or [0] * r.players
            ledger = [a + b for a, b in zip(ledger, chips)]
            if r.match.get("ledger") != ledger:
                raise RecordError(f"the ledger after hand {n} should be {ledger}, the record "
                                  f"says {r.match.get('ledger')}", "outcome_mismatch", r.line)
        return cls(seed, recs, tuple(ledger))


# ---------------------------------------------------------------- replaying
class RecordVisitor:
    """What :func:`replay` calls, in order: ``begin_record(record)``,
    ``begin_game(game)`` with the start position, then for each decision
    ``before_decision(game, index, decision)`` and, after the move is made,
    ``visit_decision(game, index, decision, events)``; finally
    ``end_record(game)`` once the stored outcome is checked.  Any of them may
    return :data:`SKIP` to stop there.  A fault calls ``handle_error(error)``
    (which raises by default) and ends the replay: nothing after a bad decision
    is played.  ``result()`` is what :func:`replay` returns."""

    def begin_record(self, record: Record) -> Any:
        return None

    def begin_game(self, game: "Game") -> Any:
        return None

    def before_decision(self, game: "Game", index: int, decision: Decision) -> Any:
        return None

    def visit_decision(self, game: "Game", index: int, decision: Decision,
                       events: "Events") -> Any:
        return None

    def end_record(self, game: "Game") -> Any:
        return None

    def handle_error(self, error: RecordError) -> None:
        raise error

    def result(self) -> Any:
        return None


class GameBuilder(RecordVisitor):
    """Builds the :class:`Game` of a record, every decision pushed."""

    def __init__(self) -> None:
        self.game: "Game | None" = None

    def begin_game(self, game: "Game") -> None:
        self.game = game

    def result(self) -> "Game | None":
        return self.game


def start_game(record: Record) -> "Game":
    """The game at the record's start position, checked against its rules,
    players, dealer and seed; raises :class:`RecordError` (kind ``position``)."""

    def bad(message: str) -> RecordError:
        return RecordError(message, "position", record.line)

    try:
        rules = rules_from_token(record.rules)
    except GoStopError as exc:
        raise RecordError(f"rules: {exc}", "format", record.line) from None
    try:
        game = Game.from_position(" ".join(record.start.split()))
    except GoStopError as exc:
        raise bad(f"the start position does not parse: {exc}") from None
    if rules_to_token(game.rules) != rules_to_token(rules):
        raise bad(f"the start position is for rules {rules_to_token(game.rules)!r}, the record "
                  f"says {record.rules!r}")
    if game.players != record.players:
        raise bad(f"the start position has {game.players} players, the record says "
                  f"{record.players}")
    if game.dealer != record.dealer:
        raise bad(f"the start position's dealer is seat {game.dealer}, the record says "
                  f"{record.dealer}")
    if record.seed is not None:
        try:
            dealt = Game(rules, record.players, record.seed, record.dealer,
                         game.stake_doublings)
        except (GoStopError, ValueError) as exc:
            raise bad(f"seed {record.seed} cannot be dealt: {exc}") from None
        if dealt.position() != game.position():
            raise bad(f"the start position is not the deal of seed {record.seed} "
                      f"(rules {record.rules}, {record.players} players, dealer {record.dealer})")
        game = dealt  # the same state, with the deal's events
    return game


def _outcome_difference(stored: dict, game: "Game") -> str | None:
    outcome = game.outcome()
    if outcome is None:
        return "the record ends before the hand is over"
    actual = _json_normal(outcome.as_dict())
    for key in ("winner", "points", "reason", "chips", "scores", "go_counts", "settlement",
                "winner_score"):
        if key in stored and stored[key] != actual.get(key):
            return (f"the stored outcome says {key} = {json.dumps(stored[key])}, the replay "
                    f"gives {json.dumps(actual.get(key))}")
    missing = [k for k in ("winner", "points", "reason", "chips") if k not in stored]
    if missing:
        return f"the stored outcome lacks {', '.join(missing)}"
    return None


def replay(record: Record | dict | str, visitor: RecordVisitor | None = None) -> Any:
    """Replay ``record`` from its start position, decision by decision, feeding
    ``visitor`` (see :class:`RecordVisitor`; default: :class:`GameBuilder`), and
    check the stored outcome.  Returns ``visitor.result()``."""
    visitor = visitor if visitor is not None else GameBuilder()
    try:
        rec = _coerce(record)
        if visitor.begin_record(rec) is SKIP:
            return visitor.result()
        game = start_game(rec)
    except RecordError as exc:
        visitor.handle_error(exc)
        return visitor.result()
    if visitor.begin_game(game) is SKIP:
        return visitor.result()
    for i, d in enumerate(rec.decisions):
        def fault(message: str, kind: str = "illegal") -> RecordError:
            return RecordError(message, kind, rec.line, i, d.move[:40], d.seat)
        if game.is_over():
            visitor.handle_error(fault("the hand is already over"))
            return visitor.result()
        if d.seat != game.turn:
            visitor.handle_error(fault(f"seat {game.turn} is to move, not seat {d.seat}",
                                       "wrong_seat"))
            return visitor.result()
        try:
            move = Move.from_str(d.move)
            if visitor.before_decision(game, i, d) is SKIP:
                return visitor.result()
            events = game.push(move)
        except IllegalMoveError as exc:
            visitor.handle_error(fault(str(exc)))
            return visitor.result()
        if visitor.visit_decision(game, i, d, events) is SKIP:
            return visitor.result()
    if rec.outcome is not None:
        why = _outcome_difference(rec.outcome, game)
    elif game.is_over():
        why = "the record has no outcome but the hand is over"
    else:
        why = None
    if why is not None:
        visitor.handle_error(RecordError(why, "outcome_mismatch", rec.line))
        return visitor.result()
    visitor.end_record(game)
    return visitor.result()


def _coerce(record: Record | dict | str) -> Record:
    if isinstance(record, Record):
        return record
    if isinstance(record, str):
        return Record.from_json(record)
    return Record.from_dict(record)


def game_from_record(record: Record | dict | str) -> "Game":
    """The game of a record with every decision pushed (``Game.from_record``):
    raises :class:`RecordError` at the first fault."""
    game = replay(record, GameBuilder())
    assert game is not None
    return game


# ---------------------------------------------------------------- files
_CONTENT = re.compile(r"[^ \t\r\n]")  # a character other than JSON whitespace
_JSON_SPACE = " \t\r"


def _lines(handle: IO[str]) -> Iterator[tuple[int, str | None]]:
    """(line number, text) of each non-blank line of ``handle``, split on ``\\n``
    only, read a chunk at a time: a line longer than :data:`MAX_LINE` comes as
    ``(number, None)`` and is dropped while it is read.  Runs of blank lines are
    skipped by searches in C, so a file of newlines costs little time and no
    memory."""
    number = 1
    carry = ""          # the start of a line not finished in the chunks read so far
    too_long = False    # dropping the rest of an over-long line
    while True:
        chunk = handle.read(_CHUNK)
        if not chunk:
            break
        if too_long:
            end = chunk.find("\n")
            if end < 0:
                continue
            yield number, None
            number += 1
            too_long = False
            chunk = chunk[end + 1:]
        last = chunk.rfind("\n")
        if last < 0:
            carry += chunk
            if len(carry) > MAX_LINE:
                carry, too_long = "", True
            continue
        text = carry + chunk[:last + 1] if carry else chunk[:last + 1]
        carry = chunk[last + 1:]
        pos = 0
        while True:
            found = _CONTENT.search(text, pos)
            if found is None:
                number += text.count("\n", pos)
                break
            start = text.rfind("\n", pos, found.start()) + 1 or pos
            number += text.count("\n", pos, start)
            end = text.index("\n", found.start())
            yield number, (text[start:end] if end - start <= MAX_LINE else None)
            number += 1
            pos = end + 1
        if len(carry) > MAX_LINE:
            carry, too_long = "", True
    if too_long:
        yield number, None
    elif carry.strip(_JSON_SPACE):
        yield number, carry


def _opens_document(line: str) -> bool:
    """Whether a file's first line starts a JSON object or array spread over
    several lines (a pretty-printed record) rather than one JSON Lines record."""
    body = line.strip(_JSON_SPACE)
    return body[:1] in ("{", "[") and body[-1:] not in ("}", "]")


def _entries(handle: IO[str]) -> Iterator[tuple[int, str | None]]:
    """(line number, text) of each record of a file: one record per non-blank
    line (JSON Lines), or, when the first line opens a JSON object or array left
    open there, the whole file as one record or an array of records (at most
    :data:`MAX_LINE` characters; a longer or unparsable one is read as lines).
    ``None`` stands for a line too long to read."""
    lines = _lines(handle)
    first = next(lines, None)
    if first is None:
        return
    if first[1] is None or not _opens_document(first[1]):
        yield first
        yield from lines
        return
    held = [first]
    size = len(first[1]) + 1
    for item in lines:
        held.append(item)
        size += len(item[1]) + 1 if item[1] is not None else MAX_LINE + 1
        if size > MAX_LINE:
            yield from held
            yield from lines
            return
    document = "\n".join(text for _, text in held if text is not None)
    try:
        data = json.loads(document)
    except (ValueError, RecursionError):  # not JSON, too deep, a number of 4300+ digits
        data = None
    if isinstance(data, dict):
        yield first[0], document
    elif isinstance(data, list):
        for item in data:
            yield first[0], json.dumps(item)
    else:
        yield from held


def _text_handle(handle: IO[str] | str) -> IO[str]:
    return io.StringIO(handle, newline="") if isinstance(handle, str) else handle


def iter_records(handle: IO[str] | str, strict: bool = True,
                 verify: bool = False) -> Iterator[Record | RecordError]:
    """The records of a JSON Lines file (or of one JSON record or array), one at
    a time, as :func:`read_records` returns them: the file is read a chunk at a
    time, so memory holds one record, whatever the file.  A line longer than
    :data:`MAX_LINE` characters is refused (kind ``json``) without being held;
    text that is not UTF-8 ends the reading with a :class:`RecordError`
    (strict or not)."""
    stream = _text_handle(handle)
    entries = _entries(stream)
    number = 1
    while True:
        try:
            entry = next(entries, None)
        except UnicodeDecodeError:
            raise RecordError("not UTF-8 text", "json", number) from None
        if entry is None:
            return
        number, line = entry
        try:
            if line is None:
                raise RecordError(f"a line of more than {MAX_LINE:,} characters is too long "
                                  "for a record", "json", number)
            rec = Record.from_json(line, number)
            if verify:
                replay(rec, RecordVisitor())
        except RecordError as exc:
            if strict:
                raise exc.at_line(number) from None
            yield exc.at_line(number)
            continue
        yield rec


@overload
def read_records(handle: IO[str] | str, strict: Literal[True] = ...,
                 verify: bool = ...) -> list[Record]: ...
@overload
def read_records(handle: IO[str] | str, strict: Literal[False],
                 verify: bool = ...) -> list[Record | RecordError]: ...
def read_records(handle: IO[str] | str, strict: bool = True,
                 verify: bool = False) -> list[Any]:
    """Every record of a JSON Lines file (or of one JSON record or array).

    ``handle`` is an open text file or the text itself; lines are split on
    ``\\n`` only (a record never holds a raw line break: see :meth:`Record.to_json`).
    Strict (the default): the first bad record raises :class:`RecordError` with
    its line.  With ``strict=False`` each bad record is returned as its
    :class:`RecordError`, in its place, so that nothing is skipped silently (the
    list grows with the file: :func:`iter_records` takes one at a time).
    ``verify`` also replays each record (illegal moves, wrong seats, outcomes)."""
    return list(iter_records(handle, strict, verify))


class _BorrowedText(io.TextIOWrapper):
    """Standard input read as UTF-8 text split on ``\\n`` only; closing it leaves
    standard input open (a command may still read keys from it)."""

    def close(self) -> None:
        try:
            self.detach()
        except ValueError:  # detached already
            pass

    def __del__(self) -> None:
        self.close()


def open_record_file(path: str) -> IO[str]:
    """A record file (``-``: standard input) opened for :func:`iter_records`:
    UTF-8, lines split on ``\\n`` only."""
    import sys
    if path == "-":
        binary = getattr(sys.stdin, "buffer", None)
        if binary is None:  # a text-only stand-in for stdin
            return sys.stdin
        return _BorrowedText(binary, encoding="utf-8", newline="")
    return open(path, encoding="utf-8", newline="")


def load_records(path: str, strict: bool = True, verify: bool = False) -> list[Any]:
    """:func:`read_records` of a file by name (``-`` reads standard input)."""
    with open_record_file(path) as fh:
        return read_records(fh, strict, verify)  # type: ignore[call-overload]


class RecordWriter:
    """Writes records to a file as JSON Lines, each record one write of one
    complete line.  A write that fails (a full disk) cuts the file back to the
    end of the last complete record and raises :class:`RecordWriteError`, so a
    partly written file still reads, up to that record.  ``append`` keeps what
    the file holds (else it is emptied).  A context manager."""

    def __init__(self, path: str, append: bool = False):
        self.path = path
        flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
        try:
            self._fd: int | None = os.open(path, flags, 0o666)
        except OSError as exc:
            raise RecordWriteError(path, exc) from None
        self.written = 0

    def write(self, record: Record) -> None:
        """Write one record (one line)."""
        if self._fd is None:
            raise ValueError("the record file is closed")
        data = (record.to_json() + "\n").encode("utf-8")
        try:
            start = os.lseek(self._fd, 0, os.SEEK_END)
        except OSError:
            start = None  # a pipe or a device: nothing to cut back
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._fd, view):]
        except OSError as exc:
            if start is not None:
                try:
                    os.ftruncate(self._fd, start)
                except OSError:
                    pass
            raise RecordWriteError(self.path, exc) from None
        self.written += 1

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                os.close(fd)
            except OSError as exc:
                raise RecordWriteError(self.path, exc) from None

    def __enter__(self) -> "RecordWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def write_records(handle: IO[str], records: Iterable[Record]) -> int:
    """Write records as JSON Lines, one per line; returns how many.  (To a file
    by name, :class:`RecordWriter` keeps the file whole when a write fails.)"""
    n = 0
    for rec in records:
        handle.write(rec.to_json() + "\n")
        n += 1
    return n


def append_record(path: str, record: Record) -> None:
    """Append one record to a JSON Lines file (created if missing); a failed
    write leaves the file as it was and raises :class:`RecordWriteError`."""
    with RecordWriter(path, append=True) as out:
        out.write(record)


def dumps_records(records: Iterable[Record]) -> str:
    """Records as JSON Lines text."""
    buf = io.StringIO()
    write_records(buf, records)
    return buf.getvalue()


# ---------------------------------------------------------------- the old spellings on Game
# Records depend on the game, never the reverse (as chess.pgn depends on chess):
# game.py does not import this module.  The methods Game had before 0.2 are
# added here, and importing gostop_core (which every import of gostop_core.game
# does first) imports this module, so old code keeps working, with a warning.

def _deprecated_to_record(self: Game, seats: Iterable[Seat | str | tuple] | None = None,
                          date: str | None = None, match: dict | None = None,
                          meta: dict | None = None) -> Record:
    """Deprecated: use :func:`gostop_core.records.record_from_game` (or
    :meth:`Record.from_game`)."""
    warnings.warn("Game.to_record() is deprecated; use gostop_core.records.record_from_game(game)"
                  " or Record.from_game(game)", DeprecationWarning, stacklevel=2)
    return record_from_game(self, seats, date, match, meta)


def _deprecated_from_record(cls: type, record: Record | dict | str) -> Game:
    """Deprecated: use :func:`gostop_core.records.game_from_record` (or
    :meth:`Record.to_game`)."""
    warnings.warn("game_from_record() is deprecated; use gostop_core.records.game_from_record("
                  "record) or record.to_game()", DeprecationWarning, stacklevel=2)
    return game_from_record(record)


Game.to_record = _deprecated_to_record  # type: ignore[attr-defined]
Game.from_record = classmethod(_deprecated_from_record)  # type: ignore[attr-defined]
