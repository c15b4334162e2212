"""Test helpers compiled against gostop's public C interface only: it cimports
every name core.pxd declares (a broken or missing declaration fails the build)
and exposes each function to Python for tests/test_capi.py."""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, int32_t
from libc.string cimport memset

from gostop_core cimport core
from gostop_core.core cimport (
    GameStateC, RulesC, ScoreC, ViewC, OutcomeC, MAX_PLAYERS, MAX_MOVES, GS_NO_CARD,
    GS_NUM_CARDS, GOSTOP_CAPI_VERSION, MOVE_TEXT_SIZE,
    PHASE_PLAY, PHASE_FLIP_CHOICE, PHASE_GO_STOP, PHASE_OVER, PHASE_SHOWDOWN,
    MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_GO, MOVE_STOP, MOVE_SHAKE,
    MOVE_FLIP_ONLY, MOVE_SHOWDOWN, MOVE_ACCEPT, MOVE_REFUSE,
    END_NONE, END_STOP, END_LAST_TURN_STOP, END_DRAW, END_CHONGTONG, END_THREE_PPEOK,
    END_FAMILY,
    state_copy, deal, generate_moves, is_legal, apply_move, to_move, phase, num_players,
    is_terminal, winner, outcome, score_pile, player_score, view_of, sample_state, move_text,
    random_below, rules_from, state_from_game, state_from_position, view_from_python,
    game_from_state, encode_move, move_kind, move_card, move_target, import_gostop,
)

import_gostop()

BUILT_VERSION = GOSTOP_CAPI_VERSION
PHASES = {"play": PHASE_PLAY, "flip": PHASE_FLIP_CHOICE, "gostop": PHASE_GO_STOP,
          "over": PHASE_OVER, "showdown": PHASE_SHOWDOWN}
KINDS = {"play": MOVE_PLAY, "bonus": MOVE_BONUS, "bomb": MOVE_BOMB, "flip": MOVE_FLIP,
         "go": MOVE_GO, "stop": MOVE_STOP, "shake": MOVE_SHAKE, "fliponly": MOVE_FLIP_ONLY,
         "showdown": MOVE_SHOWDOWN, "accept": MOVE_ACCEPT, "refuse": MOVE_REFUSE}
END_REASONS = {"": END_NONE, "stop": END_STOP, "last_turn_stop": END_LAST_TURN_STOP,
               "draw": END_DRAW, "chongtong": END_CHONGTONG, "three_ppeok": END_THREE_PPEOK,
               "family": END_FAMILY}


def check_import():
    return import_gostop()


def dealt(rules, int players, uint64_t seed, int dealer=0):
    """``deal`` then the Game at that state (None when deal refuses)."""
    cdef GameStateC s
    cdef RulesC r
    rules_from(rules, &r)
    if deal(&s, &r, players, seed, dealer) < 0:
        return None
    return game_from_state(&s, rules)


def facts(game):
    """What the kernels say of a Game's state."""
    cdef GameStateC s, c
    cdef RulesC r
    cdef uint16_t moves[MAX_MOVES]
    cdef OutcomeC out
    cdef int n, i
    state_from_game(game, &s, &r)
    state_copy(&c, &s)
    n = generate_moves(&c, &r, moves)
    res = dict(moves=[moves[i] for i in range(n)], to_move=to_move(&s), phase=phase(&s),
               players=num_players(&s), terminal=bool(is_terminal(&s)), winner=winner(&s),
               scores=[player_score(&s, &r, i) for i in range(num_players(&s))],
               bad_seat_score=player_score(&s, &r, num_players(&s)),
               legal=[bool(is_legal(&s, &r, moves[i])) for i in range(n)])
    if outcome(&s, &r, &out) == 0:
        res["outcome"] = dict(winner=out.winner, points=out.points, end_reason=out.end_reason,
                              score=[out.score[i] for i in range(num_players(&s))],
                              go_count=[out.go_count[i] for i in range(num_players(&s))],
                              chips=[out.chips[i] for i in range(num_players(&s))])
    else:
        res["outcome"] = None
    return res


def after(game, int code):
    """The Game after apply_move of a move code (the input game unchanged)."""
    cdef GameStateC s
    cdef RulesC r
    state_from_game(game, &s, &r)
    apply_move(&s, &r, <uint16_t>code)
    return game_from_state(&s, game.rules)


def position_roundtrip(str text):
    cdef GameStateC s
    cdef RulesC r
    state_from_position(text, &s, &r)
    return game_from_state(&s, text.split("rules=")[1].split()[0]).position()


def pile_score(rules, uint64_t pile):
    cdef RulesC r
    cdef ScoreC sc
    rules_from(rules, &r)
    total = score_pile(pile, &r, &sc)
    return total, score_pile(pile, &r, NULL), sc.brights, sc.junk


cdef dict view_dict(const ViewC* v):
    n = v.nplayers
    return dict(seat=v.seat, players=n, dealer=v.dealer, to_move=v.to_move, phase=v.phase,
                flip_card=None if v.flip_card == GS_NO_CARD else v.flip_card,
                hand=v.hand, field=v.field, captured=[v.captured[i] for i in range(n)],
                hand_count=[v.hand_count[i] for i in range(n)],
                go_count=[v.go_count[i] for i in range(n)], stock_count=v.stock_count,
                unseen=v.unseen, known=bytes((<char*>&v.known)[:sizeof(GameStateC)]))


def views(game, int seat):
    """The view of ``seat`` through view_of (from the full state) and through
    view_from_python (from the PlayerView)."""
    cdef GameStateC s
    cdef RulesC r, r2
    cdef ViewC a, b
    state_from_game(game, &s, &r)
    view_of(&s, &r, seat, &a)
    view_from_python(game.view(seat), &b, &r2)
    return view_dict(&a), view_dict(&b)


def bad_view(text):
    cdef ViewC v
    cdef RulesC r
    view_from_python(text, &v, &r)


def samples(game, int seat, int k, uint64_t seed):
    """``k`` states sampled from the seat's view, as Games."""
    cdef GameStateC s, w
    cdef RulesC r
    cdef ViewC v
    cdef uint64_t rng = seed
    state_from_game(game, &s, &r)
    view_of(&s, &r, seat, &v)
    out = []
    for _ in range(k):
        if sample_state(&v, &r, &rng, &w) < 0:
            raise ValueError("sample_state refused the view")
        out.append(game_from_state(&w, game.rules))
    return out


def text(int code, int size=MOVE_TEXT_SIZE):
    cdef char buf[64]
    cdef int n = move_text(<uint16_t>code, buf, size)
    return None if n < 0 else buf[:n].decode("ascii")


def encoding(int kind, int card, int target):
    cdef uint16_t m = encode_move(kind, card, target)
    return m, move_kind(m), move_card(m), move_target(m)


def randoms(uint64_t seed, uint32_t bound, int k):
    cdef uint64_t rng = seed
    return [random_below(&rng, bound) for _ in range(k)]
