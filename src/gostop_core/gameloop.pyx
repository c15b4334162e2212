"""The hot path of :class:`gostop_core.game.Game`, in Cython: the live view of the
legal moves, the lazy event list of a push, and the push itself.

A Python loop such as ``g.push(random.choice(list(g.legal_moves)))`` spends its
time here, so nothing on this path builds a Python object it can avoid: moves
come from a table of :class:`~gostop_core.moves.Move` objects made once per code,
and the events of a push stay packed C structs until someone reads them (see
docs/performance.md, "The Game loop").
"""
cimport cython
from libc.stdint cimport uint16_t
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE

from gostop_core.movegen cimport (
    EventC, EventLog, GameStateC, MAX_MOVES, PHASE_OVER,
    apply_move, generate_moves, is_legal,
)
from gostop_core.state cimport CoreState

from collections.abc import Sequence

from gostop_core.errors import GameOverError, IllegalMoveError
from gostop_core.events import _event
from gostop_core.moves import Move, coerce_move

# Move objects by code, each made on first use: moves are immutable and the core
# generates only valid codes.  A list indexed by the uint16 code is the fastest
# lookup there is.
cdef list _MOVES = [None] * 65536


cdef inline object _move(uint16_t code):
    m = _MOVES[code]
    if m is None:
        m = Move.from_code(code)
        _MOVES[code] = m
    return m


def move_of_code(int code):
    """The shared :class:`Move` object of a legal move code (made once per code)."""
    if not 0 <= code <= 0xFFFF:
        return Move.from_code(code)  # raises MoveParseError
    return _move(<uint16_t>code)


@cython.no_gc  # holds only a CoreState: no reference cycle can pass through it
cdef class LegalMoves:
    """A lazy, live view of the legal moves of a game: iterate, ``len()``,
    ``count()``, ``in``.  It follows the game: after a push or a pop it shows
    the moves of the new position."""

    cdef CoreState _core

    def __init__(self, game):
        self._core = <CoreState?>game._core

    cdef inline int _generate(self, uint16_t* moves) except -1:
        if self._core is None:  # made with LegalMoves.__new__: no game to read
            raise ValueError("this LegalMoves belongs to no game")
        return generate_moves(&self._core.s, &self._core.rules.c, moves)

    def __iter__(self):
        cdef uint16_t moves[MAX_MOVES]
        cdef int n = self._generate(moves), i
        return iter([_move(moves[i]) for i in range(n)])

    def __len__(self):
        cdef uint16_t moves[MAX_MOVES]
        return self._generate(moves)

    def count(self):
        """The number of legal moves."""
        cdef uint16_t moves[MAX_MOVES]
        return self._generate(moves)

    def __bool__(self):
        cdef uint16_t moves[MAX_MOVES]
        return self._generate(moves) > 0

    def __contains__(self, move):
        cdef uint16_t moves[MAX_MOVES]
        self._generate(moves)
        try:
            m = coerce_move(move)
        except IllegalMoveError:
            return False
        return is_legal(&self._core.s, &self._core.rules.c, <uint16_t>m.code)

    def __repr__(self):
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"


@cython.no_gc  # holds bytes or lists of plain tuples: no cycle, so no GC tracking
cdef class Events:
    """The events of one push, made into :class:`~gostop_core.game.Event` objects
    only when read (a loop or a search that pushes and pops never pays for them).

    A sequence: index it, iterate it, ``len()``, ``in``, compare it with a list.
    ``raw`` is a list of ``(kind, player, card, other, cards)`` tuples (the
    core's events) or the packed C events of a push; ``turn`` is the turn count
    before the first one."""

    cdef object _raw       # bytes: packed EventC records; else a list of tuples
    cdef int _turn
    cdef list _items

    def __init__(self, raw, int turn):
        if type(raw) is bytes:
            if len(raw) % sizeof(EventC):
                raise ValueError("packed events of the wrong size")
        elif not isinstance(raw, list):
            raise TypeError("Events takes a list of event tuples")
        self._raw = raw
        self._turn = turn
        self._items = None

    cdef list _tuples(self):
        cdef const EventC* ev
        cdef Py_ssize_t i, n
        if type(self._raw) is not bytes:  # a list, or None after Events.__new__
            return [] if self._raw is None else self._raw
        ev = <const EventC*>PyBytes_AS_STRING(self._raw)
        n = PyBytes_GET_SIZE(self._raw) // sizeof(EventC)
        return [(ev[i].kind, ev[i].player, ev[i].card, ev[i].other, ev[i].cards)
                for i in range(n)]

    cdef list _convert(self):
        cdef int turn
        if self._items is None:
            turn = self._turn
            items = []
            last = None  # (no negative indexing: this module compiles without wraparound)
            for raw in self._tuples():
                ev = _event(raw, turn)
                if ev.kind == "draw" and last is not None and last.kind == "turn_end":
                    # the drawn hand ends with the last turn: no turn of its own
                    ev = _event(raw, last.turn)
                items.append(ev)
                last = ev
                if ev.kind == "turn_end":
                    turn += 1
            self._items = items
        return self._items

    def raw(self):
        """The core's events as ``(kind, player, card, other, cards)`` tuples."""
        return list(self._tuples())

    def __getitem__(self, index):
        return self._convert()[index]

    def __len__(self):
        if type(self._raw) is bytes:
            return PyBytes_GET_SIZE(self._raw) // sizeof(EventC)
        return len(self._tuples())

    def __iter__(self):
        return iter(self._convert())

    def __reversed__(self):
        return reversed(self._convert())

    def __contains__(self, item):
        return item in self._convert()

    def index(self, value, start=0, stop=None):
        items = self._convert()
        return items.index(value, start, len(items) if stop is None else stop)

    def count(self, value):
        return self._convert().count(value)

    def __eq__(self, other):
        if isinstance(other, Events):
            return self._convert() == (<Events>other)._convert()
        if isinstance(other, (list, tuple)):
            return self._convert() == list(other)
        return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None

    def __repr__(self):
        return repr(self._convert())

    def __reduce__(self):
        return (Events, (self._tuples(), self._turn))


Sequence.register(Events)


cdef object _push(CoreState core, list stack, move):
    # the checks, a snapshot for the undo stack, the move and its forced steps
    cdef EventLog log
    cdef int code
    cdef Events events
    m = move if type(move) is Move else coerce_move(move)
    code = m.code
    if core.s.phase == PHASE_OVER:
        raise GameOverError(f"the hand is over; {m} cannot be played")
    if code < 0 or code > 0xFFFF or not is_legal(&core.s, &core.rules.c, <uint16_t>code):
        return None
    before = PyBytes_FromStringAndSize(<char*>&core.s, sizeof(GameStateC))
    events = Events.__new__(Events)
    events._turn = core.s.turns
    log.n = 0
    apply_move(&core.s, &core.rules.c, <uint16_t>code, &log)
    events._raw = PyBytes_FromStringAndSize(<char*>log.ev, log.n * sizeof(EventC))
    stack.append((m, before, events))
    return events


def push_move(CoreState core, list stack, move):
    """Push ``move`` (a :class:`Move`, a move string or a code) on ``core``:
    appends ``(move, snapshot, events)`` to the undo ``stack`` and returns the
    events.  An illegal move raises :class:`IllegalMoveError`
    (:class:`GameOverError` once the hand is over) and changes nothing."""
    events = _push(core, stack, move)
    if events is None:
        raise IllegalMoveError(f"illegal move {coerce_move(move)}")
    return events


# Game's hot methods, bound into the class by game.py (``Game.push = game_push``):
# a Python method around them would cost a frame per call.

def game_push(game, move):
    """Make a move (a :class:`Move`, a move string or code) and run every forced
    step up to the next decision.  Returns the events it caused.  An illegal
    move raises :class:`IllegalMoveError` and changes nothing."""
    events = _push(<CoreState?>game._core, <list?>game._stack, move)
    if events is None:
        raise IllegalMoveError(game._illegal_reason(coerce_move(move)))
    return events


def game_is_over(game):
    """``True`` once the hand is over."""
    return (<CoreState?>game._core).s.phase == PHASE_OVER


def game_legal_moves(game):
    """The legal moves: a lazy, live :class:`LegalMoves` view."""
    cdef LegalMoves view = LegalMoves.__new__(LegalMoves)
    view._core = <CoreState?>game._core
    return view
