"""The C game state with its rules as a Python object (:class:`CoreState`): the
thin boundary that :mod:`gostop_core.game` and the environments wrap.  Every
method checks its arguments and calls the kernels of :mod:`gostop_core.movegen`
(deal, legal moves, apply, perft, playouts) and :mod:`gostop_core.settlement`."""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int16_t, int32_t, int64_t
from libc.string cimport memset, memcpy
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE

from gostop_core.cards cimport GS_BIT, GS_NO_CARD, GS_NUM_MONTH_CARDS, gs_popcount
from gostop_core.rules cimport RulesC, Rules
from gostop_core.guard cimport (
    GS_ASSERT, GS_PAY_CAP, GS_CHIPS_CAP, gs_poll_begin, gs_interrupted, gs_raise_if_interrupted,
)
from gostop_core.movegen cimport (
    EventLog, GameStateC, MAX_MOVES, MAX_PLAYERS, PHASE_OVER, SettlementC, apply_move,
    clear_state, deal_cards, generate_moves, is_legal, perft_count, player_score,
    random_playout, state_in_range, movegen_poll_begin, movegen_raise_if_interrupted, seen_by,
)
from gostop_core.settlement cimport settle

from gostop_core.errors import IllegalMoveError, GameOverError, RulesError
from gostop_core.movegen import (
    END_REASON_NAMES as _END_REASON_NAMES, SETTLE_REASON_NAMES as _SETTLE_REASON_NAMES, _in_main_thread,
)


cdef class CoreState:
    """The C game state with its rules: the thin boundary the Python API wraps.

    Moves are ``int`` codes here (see :mod:`gostop_core.moves` for objects).
    The attributes are declared in movegen.pxd (the search reads the C state)."""

    def __cinit__(self):
        clear_state(&self.s)

    @staticmethod
    def deal(Rules rules, int nplayers, seed, int dealer=0, int stake_doublings=0):
        """A freshly dealt state and the deal's events.  ``stake_doublings`` carries
        the nagari doublings of a match into this hand's payment."""
        cdef CoreState st = CoreState()
        cdef EventLog log
        cdef uint64_t seed64
        rules.check_players(nplayers)
        rules.check_engine_support()
        if not 0 <= dealer < nplayers:
            raise RulesError(f"dealer {dealer} is not a seat of a {nplayers}-player game")
        if not isinstance(seed, int) or seed < 0 or seed >= 2 ** 64:
            raise ValueError(f"seed must be an integer 0 <= seed < 2**64, got {seed!r}")
        if not 0 <= stake_doublings <= 20:
            raise ValueError("stake_doublings must be 0..20")
        seed64 = seed
        log.n = 0
        st.rules = rules
        deal_cards(&st.s, &rules.c, nplayers, seed64, dealer, stake_doublings, &log)
        return st, _events(&log)

    def copy(self):
        cdef CoreState st = CoreState()
        st.s = self.s
        st.rules = self.rules
        return st

    def snapshot(self):
        """The state as bytes (for undo stacks)."""
        return PyBytes_FromStringAndSize(<char*>&self.s, sizeof(GameStateC))

    def restore(self, bytes data):
        """Go back to a :meth:`snapshot`.  Bytes that are no snapshot of a state
        (a seat, a phase, a card or a stock index out of range) raise
        :class:`ValueError` and change nothing."""
        cdef GameStateC st
        if PyBytes_GET_SIZE(data) != sizeof(GameStateC):
            raise ValueError("snapshot of the wrong size")
        memcpy(&st, PyBytes_AS_STRING(data), sizeof(GameStateC))
        if not state_in_range(&st):
            raise ValueError("not a snapshot of a game state (a field is out of range)")
        self.s = st

    def legal_moves(self):
        """Legal move codes in generation order."""
        cdef uint16_t moves[MAX_MOVES]
        cdef int n = generate_moves(&self.s, &self.rules.c, moves), i
        return [moves[i] for i in range(n)]

    def count_moves(self):
        cdef uint16_t moves[MAX_MOVES]
        return generate_moves(&self.s, &self.rules.c, moves)

    def is_legal(self, int move):
        if move < 0 or move > 0xFFFF:
            return False
        return is_legal(&self.s, &self.rules.c, <uint16_t>move)

    def apply(self, int move):
        """Apply a legal move code; returns its events.  An illegal move raises
        :class:`IllegalMoveError` and changes nothing."""
        cdef EventLog log
        if self.s.phase == PHASE_OVER:
            raise GameOverError("the hand is over: no more moves")
        if move < 0 or move > 0xFFFF or not is_legal(&self.s, &self.rules.c, <uint16_t>move):
            raise IllegalMoveError(f"illegal move code {move:#06x}")
        log.n = 0
        apply_move(&self.s, &self.rules.c, <uint16_t>move, &log)
        return _events(&log)

    def push(self, int move):
        """:meth:`apply` for an undo stack: ``(snapshot, turns, events)``, the state
        and completed turns before the move and its events, in one call.  An illegal
        move raises :class:`IllegalMoveError` and changes nothing."""
        cdef EventLog log
        if self.s.phase == PHASE_OVER:
            raise GameOverError("the hand is over: no more moves")
        if move < 0 or move > 0xFFFF or not is_legal(&self.s, &self.rules.c, <uint16_t>move):
            raise IllegalMoveError(f"illegal move code {move:#06x}")
        before = PyBytes_FromStringAndSize(<char*>&self.s, sizeof(GameStateC))
        turns = self.s.turns
        log.n = 0
        apply_move(&self.s, &self.rules.c, <uint16_t>move, &log)
        return before, turns, _events(&log)

    def apply_unchecked(self, int move):
        """Apply without the legality check or events (for trusted loops)."""
        apply_move(&self.s, &self.rules.c, <uint16_t>move, NULL)

    def perft(self, int depth, bint bulk=True):
        cdef uint64_t n
        cdef GameStateC root = self.s  # copied with the GIL: another thread may push meanwhile
        if depth < 0:
            raise ValueError("depth must be >= 0")
        movegen_poll_begin(_in_main_thread())  # perft_count polls in movegen's own poll state
        with nogil:
            n = perft_count(&root, &self.rules.c, depth, bulk)
        movegen_raise_if_interrupted()
        return n

    def divide(self, int depth, bint bulk=True):
        """``[(move_code, leaves)]`` for each legal move (depth >= 1)."""
        cdef uint16_t moves[MAX_MOVES]
        cdef GameStateC child
        cdef int n, i
        cdef uint64_t c
        if depth < 1:
            raise ValueError("divide needs depth >= 1")
        n = generate_moves(&self.s, &self.rules.c, moves)
        out = []
        movegen_poll_begin(_in_main_thread())
        for i in range(n):
            child = self.s
            apply_move(&child, &self.rules.c, moves[i], NULL)
            with nogil:
                c = perft_count(&child, &self.rules.c, depth - 1, bulk)
            movegen_raise_if_interrupted()
            movegen_poll_begin(_in_main_thread())
            out.append((moves[i], c))
        return out

    def random_playouts(self, int games, seed=0):
        """Play ``games`` random games from this state in C; returns
        ``(wins_per_seat, draws)``."""
        cdef GameStateC work, start
        cdef uint16_t moves[MAX_MOVES]
        cdef uint64_t rng = seed
        cdef int g, w
        cdef long wins[MAX_PLAYERS]
        cdef long draws = 0
        memset(wins, 0, sizeof(wins))
        if games < 0:
            raise ValueError("games must be >= 0")
        if self.s.phase != PHASE_OVER and generate_moves(&self.s, &self.rules.c, moves) == 0:
            raise ValueError("no legal move and the hand is not over: nothing to play out")
        start = self.s  # copied with the GIL: another thread may push meanwhile
        gs_poll_begin(_in_main_thread())
        with nogil:
            for g in range(games):
                work = start
                w = random_playout(&work, &self.rules.c, &rng)
                if gs_interrupted():
                    break
                if w < 0:
                    draws += 1
                else:
                    wins[w] += 1
        gs_raise_if_interrupted()
        return [wins[i] for i in range(self.s.nplayers)], draws

    def seen_by(self, int seat):
        """The cards ``seat`` sees, as a mask (``seen_by`` of gamestate.pxd: the
        field, its hand, every captured pile, the flipped card waiting for a
        choice, the flipped bonus cards waiting for the turn's captures)."""
        return seen_by(&self.s, self._seat(seat))

    def score(self, int player):
        return player_score(&self.s, &self.rules.c, self._seat(player))

    def settlement(self, int winner):
        """What each opponent would pay ``winner`` if the hand ended now with its
        Stop: ``{"base", "score", "pay", "multiplier", "reasons"}``."""
        cdef SettlementC st
        settle(&self.s, &self.rules.c, self._seat(winner), &st)
        n = self.s.nplayers
        return dict(
            winner=winner, base=st.base, score=st.score,
            pay=[st.pay[q] for q in range(n)],
            multiplier=[st.multiplier[q] if q != winner else 1 for q in range(n)],
            reasons=[[name for bit, name in _SETTLE_REASON_NAMES.items() if st.reasons[q] & bit]
                     for q in range(n)],
            sake_cup_as_junk=bool(st.sake_as_junk), bridge_as_junk=bool(st.bridge_as_junk),
        )

    # ---- read access (all masks as Python ints)
    @property
    def nplayers(self): return self.s.nplayers
    @property
    def dealer(self): return self.s.dealer
    @property
    def to_move(self): return self.s.to_move
    @property
    def phase(self): return self.s.phase
    @property
    def field(self): return self.s.field
    @property
    def flip_card(self): return None if self.s.flip_card == GS_NO_CARD else self.s.flip_card
    @property
    def winner(self): return None if self.s.winner < 0 else self.s.winner
    @property
    def points(self): return self.s.points
    @property
    def turns(self): return self.s.turns
    @property
    def stock_pos(self): return self.s.stock_pos
    @property
    def end_reason(self): return _END_REASON_NAMES[self.s.end_reason]
    @property
    def sitter(self): return None if self.s.sitter < 0 else self.s.sitter
    @property
    def stake_doublings(self): return self.s.stake_doublings
    def chips(self, int p): return self.s.chips[self._seat(p)]
    def shaken_months(self, int p):
        return [m for m in range(1, 13) if self.s.shaken[self._seat(p)] & (1 << m)]
    def bombs(self, int p): return self.s.bombs[self._seat(p)]
    def ppeoks(self, int p): return self.s.ppeoks[self._seat(p)]

    def hand(self, int p): return self.s.hand[self._seat(p)]
    def captured(self, int p): return self.s.captured[self._seat(p)]
    def go_count(self, int p): return self.s.go_count[self._seat(p)]
    def last_go_score(self, int p): return self.s.last_go_score[self._seat(p)]
    def flip_only(self, int p): return self.s.flip_only[self._seat(p)]

    def stock(self):
        """Cards still in the stock, top first."""
        return [self.s.stock[i] for i in range(self.s.stock_pos, self.s.stock_len)]

    cdef int _seat(self, int p) except -1:
        if not 0 <= p < self.s.nplayers:
            raise IndexError(f"no seat {p} in a {self.s.nplayers}-player game")
        return p

    def to_fields(self):
        """Every field of the state as plain Python data."""
        n = self.s.nplayers
        return dict(
            nplayers=n, dealer=self.s.dealer, to_move=self.s.to_move, phase=self.s.phase,
            flip_card=self.flip_card, winner=self.winner, points=self.s.points,
            turns=self.s.turns, field=self.s.field,
            hands=[self.s.hand[p] for p in range(n)],
            captured=[self.s.captured[p] for p in range(n)],
            stock=self.stock(),
            go_counts=[self.s.go_count[p] for p in range(n)],
            last_go_scores=[self.s.last_go_score[p] for p in range(n)],
            flip_only=[self.s.flip_only[p] for p in range(n)],
            played_card=None if self.s.played_card == GS_NO_CARD else self.s.played_card,
            played_target=None if self.s.played_target == GS_NO_CARD else self.s.played_target,
            turn_bonus=self.s.turn_bonus, turn_flags=self.s.turn_flags,
            stack_bonus=[self.s.stack_bonus_month[b] for b in range(2)],
            end_reason=self.s.end_reason, stake_doublings=self.s.stake_doublings,
            sitter=None if self.s.sitter < 0 else self.s.sitter,
            showdown_caller=None if self.s.showdown_caller < 0 else self.s.showdown_caller,
            showdown_card=None if self.s.showdown_card == GS_NO_CARD else self.s.showdown_card,
            forced_card=None if self.s.forced_card == GS_NO_CARD else self.s.forced_card,
            shaken=[self.s.shaken[p] for p in range(n)],
            bombs=[self.s.bombs[p] for p in range(n)],
            ppeoks=[self.s.ppeoks[p] for p in range(n)],
            turns_played=[self.s.turns_played[p] for p in range(n)],
            chips=[self.s.chips[p] for p in range(n)],
        )

    @staticmethod
    def from_fields(Rules rules, dict f):
        """Build a state from :meth:`to_fields` data.  The caller (the notation
        parser) validates card placement; this checks only the C ranges."""
        cdef CoreState st = CoreState()
        cdef int p, n = f["nplayers"], i
        rules.check_engine_support()
        st.rules = rules
        st.s.nplayers = n
        st.s.dealer = f["dealer"]
        st.s.to_move = f["to_move"]
        st.s.phase = f["phase"]
        st.s.flip_card = GS_NO_CARD if f["flip_card"] is None else f["flip_card"]
        st.s.winner = -1 if f["winner"] is None else f["winner"]
        st.s.points = f["points"]
        st.s.turns = f["turns"]
        st.s.field = f["field"]
        stock = f["stock"]
        if len(stock) > 50:
            raise ValueError("stock longer than the pack")
        st.s.stock_len = len(stock)
        st.s.stock_pos = 0
        for i in range(len(stock)):
            st.s.stock[i] = stock[i]
        for p in range(n):
            st.s.hand[p] = f["hands"][p]
            st.s.captured[p] = f["captured"][p]
            st.s.go_count[p] = f["go_counts"][p]
            st.s.last_go_score[p] = f["last_go_scores"][p]
            st.s.flip_only[p] = f["flip_only"][p]
            st.s.shaken[p] = f.get("shaken", [0] * n)[p]
            st.s.bombs[p] = f.get("bombs", [0] * n)[p]
            st.s.ppeoks[p] = f.get("ppeoks", [0] * n)[p]
            st.s.turns_played[p] = f.get("turns_played", [0] * n)[p]
            st.s.chips[p] = f.get("chips", [0] * n)[p]
        pc = f.get("played_card")
        pt = f.get("played_target")
        st.s.played_card = GS_NO_CARD if pc is None else pc
        st.s.played_target = GS_NO_CARD if pt is None else pt
        st.s.turn_bonus = f.get("turn_bonus", 0)
        st.s.turn_flags = f.get("turn_flags", 0)
        sb = f.get("stack_bonus", [0, 0])
        st.s.stack_bonus_month[0] = sb[0]
        st.s.stack_bonus_month[1] = sb[1]
        st.s.end_reason = f.get("end_reason", 0)
        sitter = f.get("sitter")
        st.s.sitter = -1 if sitter is None else sitter
        caller = f.get("showdown_caller")
        st.s.showdown_caller = -1 if caller is None else caller
        card = f.get("showdown_card")
        st.s.showdown_card = GS_NO_CARD if card is None else card
        card = f.get("forced_card")
        st.s.forced_card = GS_NO_CARD if card is None else card
        st.s.stake_doublings = f.get("stake_doublings", 0)
        if not state_in_range(&st.s):
            raise ValueError("a field of the state is out of range")
        return st

    def __eq__(self, other):
        if not isinstance(other, CoreState):
            return NotImplemented
        return self.to_fields() == (<CoreState>other).to_fields() and self.rules == (<CoreState>other).rules

    def __hash__(self):
        f = self.to_fields()
        return hash(tuple(tuple(v) if isinstance(v, list) else v for v in f.values()))



cdef list _events(EventLog* log):
    cdef int i
    return [(log.ev[i].kind, log.ev[i].player, log.ev[i].card, log.ev[i].other, log.ev[i].cards)
            for i in range(log.n)]
