"""The public C interface for other people's Cython extensions.

The declarations are in ``core.pxd`` (see docs/cython.md); this module compiles
them, so an extension that ``cimport``\\ s them calls these functions through
the module's C-API table, whose signatures Cython checks when the extension is
imported.  From Python the module only tells the interface's version:

>>> from gostop_core import core
>>> core.CAPI_VERSION >= 1
True
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int32_t
from libc.string cimport memset

from gostop_core.cards cimport GS_BIT, GS_NO_CARD, GS_NUM_CARDS, GS_NUM_MONTH_CARDS, gs_popcount, gs_lowest
from gostop_core.rules cimport RulesC, Rules
from gostop_core.scoring cimport ScoreC
from gostop_core cimport scoring as _scoring
from gostop_core cimport movegen as _mg
from gostop_core.movegen cimport (
    GameStateC, MAX_PLAYERS, PHASE_OVER, bounded, seen_by,
    MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_GO, MOVE_STOP, MOVE_SHAKE,
    MOVE_FLIP_ONLY, MOVE_SHOWDOWN, MOVE_ACCEPT, MOVE_REFUSE,
)
from gostop_core cimport sampling as _sampling
from gostop_core.state cimport CoreState


#: The version of the C interface in ``core.pxd`` (checked by ``import_gostop()``).
CAPI_VERSION = GOSTOP_CAPI_VERSION
#: ``sizeof(GameStateC)`` in this build (``import_gostop()`` checks it too).
STATE_SIZE = sizeof(GameStateC)

# Card codes as C strings, for move_text (filled once at import).
cdef char CODES[GS_NUM_CARDS][4]


cdef int fill_codes() except -1:
    from gostop_core.cards import CARD_CODES
    cdef int i, k
    for i, code in enumerate(CARD_CODES):
        b = code.encode("ascii")
        for k in range(4):
            CODES[i][k] = b[k] if k < len(b) else 0
    return 0


fill_codes()


# ---------------------------------------------------------------- kernels
cdef void state_copy(GameStateC* dst, const GameStateC* src) noexcept nogil:
    """``dst`` becomes a copy of ``src`` (the undo of copy-make)."""
    dst[0] = src[0]


cdef int deal(GameStateC* s, const RulesC* r, int nplayers, uint64_t seed, int dealer) noexcept nogil:
    """Deal a hand from ``seed`` as ``Game(rules, nplayers, seed, dealer)`` does.
    Returns 0, or -1 (``s`` untouched) when the rules do not allow ``nplayers``
    or ``dealer`` is not a seat."""
    cdef int allowed = ((nplayers == 2 and r.allow_2p) or (nplayers == 3 and r.allow_3p)
                        or (nplayers == 4 and r.allow_4p))
    if not allowed or dealer < 0 or dealer >= nplayers:
        return -1
    _mg.deal_cards(s, r, nplayers, seed, dealer, 0, NULL)
    return 0


cdef int generate_moves(const GameStateC* s, const RulesC* r, uint16_t* out) noexcept nogil:
    """Write the legal moves to ``out`` (room for MAX_MOVES) and return how many;
    0 when the hand is over."""
    if s.phase == PHASE_OVER:
        return 0
    return _mg.generate_moves(s, r, out)


cdef bint is_legal(const GameStateC* s, const RulesC* r, uint16_t move) noexcept nogil:
    """Whether ``move`` is one of :c:func:`generate_moves`'s moves."""
    if s.phase == PHASE_OVER:
        return False
    return _mg.is_legal(s, r, move)


cdef void apply_move(GameStateC* s, const RulesC* r, uint16_t move) noexcept nogil:
    """Play a legal move and the forced steps after it, up to the next decision
    (copy the state first to keep the position before it).  The move must be
    legal: an illegal one leaves an unspecified state."""
    _mg.apply_move(s, r, move, NULL)


cdef int to_move(const GameStateC* s) noexcept nogil:
    """The seat whose decision it is."""
    return s.to_move


cdef int phase(const GameStateC* s) noexcept nogil:
    """PHASE_PLAY, PHASE_FLIP_CHOICE, PHASE_GO_STOP, PHASE_SHOWDOWN or PHASE_OVER."""
    return s.phase


cdef int num_players(const GameStateC* s) noexcept nogil:
    return s.nplayers


cdef bint is_terminal(const GameStateC* s) noexcept nogil:
    """Whether the hand is over."""
    return s.phase == PHASE_OVER


cdef int winner(const GameStateC* s) noexcept nogil:
    """The seat that won a finished hand; -1 for a drawn hand or while it is on
    (cheaper than :c:func:`outcome`, which also scores every pile)."""
    if s.phase != PHASE_OVER:
        return -1
    return s.winner


cdef int outcome(const GameStateC* s, const RulesC* r, OutcomeC* out) noexcept nogil:
    """Fill ``out`` and return 0 when the hand is over; -1 while it is on."""
    cdef int p
    if s.phase != PHASE_OVER:
        return -1
    memset(out, 0, sizeof(OutcomeC))
    out.winner = s.winner
    out.points = s.points
    out.end_reason = s.end_reason
    for p in range(s.nplayers):
        out.score[p] = _mg.player_score(s, r, p)
        out.go_count[p] = s.go_count[p]
        out.chips[p] = s.chips[p]
    return 0


cdef int32_t score_pile(uint64_t pile, const RulesC* r, ScoreC* out) noexcept nogil:
    """The points of a captured pile (a card mask); with ``out`` not NULL, the
    breakdown too (the flexible cards counted the way that scores most)."""
    if out == NULL:
        return _scoring.score_total(pile, r)
    return _scoring.score_pile(pile, r, out)


cdef int32_t player_score(const GameStateC* s, const RulesC* r, int seat) noexcept nogil:
    """The card score of a seat's captured pile, -1 for a seat not in the game."""
    if seat < 0 or seat >= s.nplayers:
        return -1
    return _mg.player_score(s, r, seat)


cdef inline uint64_t pack_mask(const RulesC* r) noexcept nogil:
    return (<uint64_t>1 << (GS_NUM_CARDS if r.bonus_cards else GS_NUM_MONTH_CARDS)) - 1


cdef void finish_view(ViewC* v, const RulesC* r) noexcept nogil:
    """Fill the view's fields from its public state ``known`` and hand counts."""
    cdef GameStateC* k = &v.known
    cdef uint64_t visible
    cdef int q
    v.nplayers = k.nplayers
    v.dealer = k.dealer
    v.to_move = k.to_move
    v.phase = k.phase
    v.flip_card = k.flip_card
    v.hand = k.hand[v.seat]
    v.field = k.field
    v.stock_count = k.stock_len
    visible = seen_by(k, v.seat)  # and the cards of other hands whose place is public
    for q in range(k.nplayers):
        v.captured[q] = k.captured[q]
        v.go_count[q] = k.go_count[q]
        visible |= k.hand[q]
    v.unseen = pack_mask(r) & ~visible


cdef inline void place_public_cards(GameStateC* k, const GameStateC* full, int seat) noexcept nogil:
    """Cards of hidden hands whose holder is public: the card a refused showdown
    forces its asker to play, and the win-card a showdown showed."""
    if full.forced_card != GS_NO_CARD and full.to_move != seat and full.to_move >= 0:
        k.hand[full.to_move] |= GS_BIT(full.forced_card) & full.hand[full.to_move]
    if (full.showdown_card != GS_NO_CARD and full.showdown_caller >= 0
            and full.showdown_caller != seat):
        k.hand[full.showdown_caller] |= GS_BIT(full.showdown_card) & full.hand[full.showdown_caller]


cdef void view_of(const GameStateC* s, const RulesC* r, int seat, ViewC* out) noexcept nogil:
    """What ``seat`` sees of the full state ``s`` (as ``Game.view(seat)``)."""
    cdef int q
    memset(out, 0, sizeof(ViewC))
    out.seat = seat
    out.known = s[0]
    for q in range(s.nplayers):
        out.hand_count[q] = gs_popcount(s.hand[q])
        if q != seat:
            out.known.hand[q] = 0
    place_public_cards(&out.known, s, seat)
    out.known.stock_len = s.stock_len - s.stock_pos
    out.known.stock_pos = 0
    memset(out.known.stock, 0, sizeof(out.known.stock))
    finish_view(out, r)


cdef int sample_state(const ViewC* v, const RulesC* r, uint64_t* rng, GameStateC* out) noexcept nogil:
    """A full state agreeing with the view: the unseen cards dealt at random to
    the hidden hands (as many as each holds) and the stock.  Returns 0, or -1
    when the view's counts do not add up (nothing written)."""
    cdef uint8_t pool[GS_NUM_CARDS]
    cdef int need[MAX_PLAYERS]
    cdef int npool = 0, q, total = 0
    cdef uint64_t rest = v.unseen
    while rest:
        pool[npool] = gs_lowest(rest)
        npool += 1
        rest &= rest - 1
    for q in range(MAX_PLAYERS):
        need[q] = 0
    for q in range(v.nplayers):
        if q != v.seat:
            need[q] = v.hand_count[q] - gs_popcount(v.known.hand[q])
            if need[q] < 0:
                return -1
            total += need[q]
    if total + v.known.stock_len != npool:
        return -1
    _sampling.determinize(&v.known, out, pool, npool, need, v.seat, rng)
    return 0


# The word each move kind starts with (indexed by MOVE_*; a play or a bonus card has none).
cdef const char* KIND_WORDS[MOVE_REFUSE + 1]
KIND_WORDS[:] = [b"", b"", b"", b"bomb", b"flip/", b"go", b"stop", b"shake", b"fliponly",
                 b"showdown/", b"accept", b"refuse"]


cdef int move_text(uint16_t move, char* buf, int size) noexcept nogil:
    """Write the move's text (as ``str(Move)``: ``3B/3R``, ``bomb9``, ``go``...)
    and a NUL to ``buf``; returns its length, or -1 (``buf`` untouched) when
    ``move`` is no move or ``size`` is too small (MOVE_TEXT_SIZE is always enough)."""
    cdef char tmp[MOVE_TEXT_SIZE]
    cdef int n = 0, kind = move >> 12, card = (move >> 6) & 63, target = move & 63, i
    cdef const char* word
    if kind < MOVE_PLAY or kind > MOVE_REFUSE:
        return -1
    word = KIND_WORDS[kind]
    i = 0
    while word[i]:
        tmp[n] = word[i]
        n += 1
        i += 1
    if kind == MOVE_BOMB or kind == MOVE_SHAKE:
        if card < 1 or card > 12:
            return -1
        if card >= 10:
            tmp[n] = c'1'
            n += 1
        tmp[n] = <char>(c'0' + card % 10)
        n += 1
    elif kind == MOVE_FLIP:
        if target >= GS_NUM_CARDS:
            return -1
        n = append_code(tmp, n, target)
    elif kind == MOVE_SHOWDOWN or kind == MOVE_PLAY or kind == MOVE_BONUS:
        if card >= GS_NUM_CARDS:
            return -1
        n = append_code(tmp, n, card)
        if kind == MOVE_PLAY and target != GS_NO_CARD:
            if target >= GS_NUM_CARDS:
                return -1
            tmp[n] = c'/'
            n += 1
            n = append_code(tmp, n, target)
    if n + 1 > size:
        return -1
    for i in range(n):
        buf[i] = tmp[i]
    buf[n] = 0
    return n


cdef inline int append_code(char* buf, int n, int card) noexcept nogil:
    cdef int k = 0
    while k < 4 and CODES[card][k]:
        buf[n] = CODES[card][k]
        n += 1
        k += 1
    return n


cdef uint32_t random_below(uint64_t* rng, uint32_t bound) noexcept nogil:
    """A uniform integer in ``[0, bound)`` from the engine's generator
    (splitmix64; the same numbers on every machine).  ``*rng`` is the state:
    seed it with any value, one per thread."""
    if bound == 0:
        return 0
    return bounded(rng, bound)


# ---------------------------------------------------------------- boundary
cdef int rules_from(object rules, RulesC* out) except -1:
    """Fill ``out`` from a :class:`~gostop_core.rules.Rules` or a preset name;
    raises RulesError for an unknown preset or rules the engine does not play."""
    cdef Rules rr = rules if isinstance(rules, Rules) else Rules(rules)
    rr.check_engine_support()
    out[0] = rr.c
    return 0


cdef int state_from_game(object game, GameStateC* s, RulesC* r) except -1:
    """Copy a :class:`~gostop_core.game.Game`'s current state and rules."""
    from gostop_core.game import Game
    if not isinstance(game, Game):
        raise TypeError(f"expected a Game, got {type(game).__name__}")
    cdef CoreState core = game._core
    s[0] = core.s
    r[0] = core.rules.c
    return 0


cdef int state_from_position(str text, GameStateC* s, RulesC* r) except -1:
    """Parse a position string (``Game.position()``); raises PositionError
    naming the wrong part, with ``s`` and ``r`` untouched."""
    from gostop_core.game import Game
    return state_from_game(Game.from_position(text), s, r)


cdef int view_from_python(object view, ViewC* v, RulesC* r) except -1:
    """Fill ``v`` and ``r`` from a :class:`~gostop_core.game.PlayerView` or a
    view string (``PlayerView.to_str()``); raises PositionError for a bad
    string, with ``v`` and ``r`` untouched."""
    from gostop_core.notation import parse_view
    cdef GameStateC known
    cdef ViewC tmp
    cdef int q, seat
    cdef uint64_t visible
    cdef Rules rules
    text = view if isinstance(view, str) else view.to_str()
    rules, fields = parse_view(text)
    rules.check_engine_support()
    seat = fields["seat"]
    _sampling.fill_public(&known, fields, seat)
    # a card whose holder is public goes to that hand (as in the search)
    visible = seen_by(&known, seat)
    for card, owner in ((known.forced_card, known.to_move),
                        (known.showdown_card, known.showdown_caller)):
        if card != GS_NO_CARD and owner >= 0 and owner != seat and not visible & GS_BIT(card):
            known.hand[owner] |= GS_BIT(card)
    memset(&tmp, 0, sizeof(ViewC))
    tmp.seat = seat
    tmp.known = known
    for q in range(known.nplayers):
        tmp.hand_count[q] = fields["hand_counts"][q]
    finish_view(&tmp, &rules.c)
    v[0] = tmp
    r[0] = rules.c
    return 0


cdef object game_from_state(const GameStateC* s, object rules):
    """A :class:`~gostop_core.game.Game` at state ``s`` (no move history);
    ``rules`` is the Rules object or preset name the state was played under."""
    from gostop_core.game import Game
    cdef CoreState core = CoreState()
    core.rules = rules if isinstance(rules, Rules) else Rules(rules)
    core.s = s[0]
    return Game._from_core(core)
