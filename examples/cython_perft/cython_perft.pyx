"""Perft, random playouts and a flat Monte Carlo bot written against gostop's
public C interface (``gostop_core/core.pxd``) and nothing else of gostop's C.

>>> import cython_perft
>>> cython_perft.perft("gostop/1 rules=casual ...", 3)   # doctest: +SKIP
"""
from libc.stdint cimport uint64_t, uint16_t, int32_t

from gostop_core cimport core
from gostop_core.core cimport GameStateC, RulesC, ViewC, OutcomeC, MAX_MOVES, MAX_PLAYERS

from gostop_core.bots import Bot
from gostop_core.moves import Move

core.import_gostop()


cdef uint64_t count_leaves(const GameStateC* s, const RulesC* r, int depth) noexcept nogil:
    """Leaves at exactly ``depth`` decisions (the last level counted in bulk)."""
    cdef uint16_t moves[MAX_MOVES]
    cdef GameStateC child
    cdef uint64_t total = 0
    cdef int n, i
    if depth == 0:
        return 1
    n = core.generate_moves(s, r, moves)
    if depth == 1:
        return n
    for i in range(n):
        core.state_copy(&child, s)
        core.apply_move(&child, r, moves[i])
        total += count_leaves(&child, r, depth - 1)
    return total


def perft(str position, int depth):
    """Leaves ``depth`` decisions below a position string (as ``gostop perft``)."""
    cdef GameStateC s
    cdef RulesC r
    cdef uint64_t n
    if depth < 0:
        raise ValueError("depth must be >= 0")
    core.state_from_position(position, &s, &r)
    with nogil:
        n = count_leaves(&s, &r, depth)
    return n


cdef int play_out(GameStateC* s, const RulesC* r, uint64_t* rng) noexcept nogil:
    """Uniformly random decisions to the end of the hand."""
    cdef uint16_t moves[MAX_MOVES]
    cdef int n
    while not core.is_terminal(s):
        n = core.generate_moves(s, r, moves)
        core.apply_move(s, r, moves[core.random_below(rng, n)])
    return 0


def playouts(str position, int games, uint64_t seed=0):
    """Play ``games`` random hands from a position; ``(wins per seat, draws)``."""
    cdef GameStateC start, work
    cdef RulesC r
    cdef uint64_t rng = seed
    cdef long wins[MAX_PLAYERS]
    cdef long draws = 0
    cdef int g, p
    core.state_from_position(position, &start, &r)
    for p in range(MAX_PLAYERS):
        wins[p] = 0
    with nogil:
        for g in range(games):
            core.state_copy(&work, &start)
            play_out(&work, &r, &rng)
            p = core.winner(&work)
            if p < 0:
                draws += 1
            else:
                wins[p] += 1
    return [wins[p] for p in range(core.num_players(&start))], draws


cdef double hand_value(const GameStateC* s, const RulesC* r, int seat) noexcept nogil:
    """The seat's gain from a finished hand: + the winner's points, - when another won."""
    cdef OutcomeC out
    core.outcome(s, r, &out)
    if out.winner < 0:
        return 0.0
    return out.points if out.winner == seat else -out.points


cdef int flat_monte_carlo(const ViewC* v, const RulesC* r, int samples, uint64_t seed,
                          const uint16_t* legal, int nlegal, double* values) noexcept nogil:
    """For each legal move, the mean value of ``samples`` random hands played
    after it from states sampled from the view."""
    cdef GameStateC world, child
    cdef uint64_t rng = seed
    cdef int d, i
    for i in range(nlegal):
        values[i] = 0.0
    for d in range(samples):
        if core.sample_state(v, r, &rng, &world) < 0:
            return -1
        for i in range(nlegal):
            core.state_copy(&child, &world)
            core.apply_move(&child, r, legal[i])
            play_out(&child, r, &rng)
            values[i] += hand_value(&child, r, v.seat)
    for i in range(nlegal):
        values[i] /= samples
    return 0


def move_text(int code):
    """The text of a move code, as ``str(Move.from_code(code))``."""
    cdef char buf[core.MOVE_TEXT_SIZE]
    if code < 0 or code > 0xFFFF or core.move_text(<uint16_t>code, buf, sizeof(buf)) < 0:
        raise ValueError(f"{code:#06x} is not a move")
    return buf.decode("ascii")


class FlatMonteCarloBot(Bot):
    """Plays the move whose random continuations score best on average, the
    hidden cards sampled from its view (it never sees more than its view)."""

    name = "flat-mc"

    def __init__(self, seed=None, samples=32):
        if not 1 <= samples <= 100000:
            raise ValueError("samples must be 1..100000")
        self.seed = seed or 0
        self.samples = samples
        self.decisions = 0

    def choose(self, view, legal):
        cdef ViewC v
        cdef RulesC r
        cdef uint16_t codes[MAX_MOVES]
        cdef double values[MAX_MOVES]
        cdef int n = len(legal), i, best = 0, samples = self.samples, status
        cdef uint64_t seed
        if n == 0:
            raise ValueError("no legal move to choose from")
        if n == 1 or n > MAX_MOVES:
            return legal[0]
        core.view_from_python(view, &v, &r)
        for i in range(n):
            codes[i] = legal[i].code
        seed = (self.seed * 1000003 + self.decisions) & 0xFFFFFFFFFFFFFFFF
        self.decisions += 1
        with nogil:
            status = flat_monte_carlo(&v, &r, samples, seed, codes, n, values)
        if status < 0:
            raise ValueError("the view's card counts do not add up")
        for i in range(1, n):
            if values[i] > values[best]:
                best = i
        return legal[best]
