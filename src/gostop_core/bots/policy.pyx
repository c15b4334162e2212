"""The learned playout policy and value, in C (docs/strength.md, "learned policy").

* **Policy**: a linear score over :data:`POLICY_FEATURES` features of each legal
  move, computed from the mover's own view only (its hand, the field, the
  piles, the counts: :c:func:`move_features`); the playout plays the move of
  highest score (ties: the first in generation order).  Feature 0 marks the
  greedy policy's choice, feature 1 is the greedy value of a capture, so the
  model can start from the greedy bot and correct it.
* **Value**: a linear estimate of the seat's terminal value (net points plus
  the win bonus of 2 for a won hand, minus it for a lost one) from public
  features of the state (:c:func:`value_features`), to cut playouts short.
* **Opponent model** (:c:func:`world_weight`): the likelihood, under the policy's
  softmax at ``temperature``, of the moves the opponents were seen to play,
  given a sampled deal of their hands.

The weights ship as ``learned.json`` next to this module (:func:`load_weights`
validates it); ``gostop train`` writes them.  Python reaches the C code through
:class:`LearnedPolicy`; the search calls it through a ``PlayoutModel`` capsule
(function pointers and the model's address), without Python objects in the
hot path.
"""
from libc.stdint cimport uint64_t, uint16_t, int32_t
from libc.math cimport exp, log, isfinite
from libc.string cimport memset

from gostop_core.cards cimport (
    GS_BIT, GS_MONTH_MASK, GS_NO_CARD, GS_MASK_BRIGHT, GS_MASK_ANIMAL, GS_MASK_RIBBON,
    gs_popcount, gs_lowest,
)
from gostop_core.rules cimport Rules, RulesC, rules_threshold
from gostop_core.scoring cimport score_total, junk_value
from gostop_core.movegen cimport (
    GameStateC, generate_moves, MAX_MOVES, MAX_PLAYERS, PHASE_OVER, PHASE_GO_STOP,
    MOVE_PLAY, MOVE_BONUS, MOVE_BOMB, MOVE_FLIP, MOVE_GO, MOVE_STOP, MOVE_SHAKE,
    MOVE_FLIP_ONLY, MOVE_SHOWDOWN, MOVE_ACCEPT, MOVE_REFUSE,
    move_kind, move_card, move_target,
)
from gostop_core.bots.search cimport (
    PlayoutModel, policy_move, greedy_values, card_worth, model_capsule,
)
from gostop_core.sampling cimport fill_public

import json
import math
import os

import numpy as np

from gostop_core.errors import GoStopError

NUM_POLICY_FEATURES = POLICY_FEATURES
NUM_VALUE_FEATURES = VALUE_FEATURES
MAX_OBS = MAX_OBSERVATIONS
#: Format tag of the weights file.
WEIGHTS_FORMAT = "gostop-learned/1"
#: The weights shipped with the package.
DEFAULT_WEIGHTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "learned.json")
DEFAULT_TEMPERATURE = 1.0
#: Names of the features, in order (docs/strength.md lists what each measures).
POLICY_FEATURE_NAMES = (
    "greedy_choice", "greedy_capture_value", "bonus", "shake", "bomb", "flip_only",
    "showdown", "accept", "refuse", "go", "go_score_margin", "go_opponent_score",
    "go_hand", "go_count", "go_stock", "discard_worth", "take_one", "take_choice",
    "take_stack", "score_gain", "unseen_month", "hand_month", "play_bright", "junk_gain",
)
VALUE_FEATURE_NAMES = (
    "bias", "score", "opponent_score", "goes", "opponent_goes", "hand", "opponent_hand",
    "stock", "junk", "animals", "ribbons", "brights", "opponent_junk", "opponent_animals",
    "opponent_ribbons", "opponent_brights",
)
assert len(POLICY_FEATURE_NAMES) == POLICY_FEATURES
assert len(VALUE_FEATURE_NAMES) == VALUE_FEATURES


class WeightsError(GoStopError, ValueError):
    """A learned-weights file that cannot be used: unreadable, not JSON, the
    wrong format tag, a missing header field, the wrong number of weights or a
    weight that is not a finite number."""


# ---------------------------------------------------------------- features
cdef inline int active_seats(const GameStateC* s) noexcept nogil:
    return s.nplayers - (1 if s.sitter >= 0 else 0)


cdef int best_opponent(const GameStateC* s, const RulesC* r, int seat) noexcept nogil:
    """The other seat in play with the highest score (ties: the lowest seat)."""
    cdef int q, best = -1
    cdef int32_t v, best_v = -1
    for q in range(s.nplayers):
        if q == seat or q == s.sitter:
            continue
        v = score_total(s.captured[q], r)
        if v > best_v:
            best_v = v
            best = q
    return best


cdef uint64_t taken_by(const GameStateC* s, const RulesC* r, uint16_t move) noexcept nogil:
    """The cards a play, a flip choice or a banked bonus card moves to the
    mover's pile at once (as far as the mover can see: the flip of a play is
    not known yet)."""
    cdef int kind = move_kind(move), card = move_card(move), target = move_target(move), k
    cdef uint64_t same, taken = 0
    if kind == MOVE_PLAY:
        same = s.field & GS_MONTH_MASK(card // 4 + 1)
        k = gs_popcount(same)
        if k == 0:
            return 0
        if k == 3 and r.field_stacks:
            return same | GS_BIT(card)
        return GS_BIT(card) | GS_BIT(target if target != GS_NO_CARD else gs_lowest(same))
    if kind == MOVE_FLIP:
        if s.played_card != GS_NO_CARD and s.played_target != GS_NO_CARD:
            taken = GS_BIT(s.played_card) | GS_BIT(s.played_target)
        if s.flip_card != GS_NO_CARD:
            taken |= GS_BIT(s.flip_card)
        return taken | GS_BIT(target)
    if kind == MOVE_BONUS and card < 50:
        return GS_BIT(card)
    return 0


cdef void move_features(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                        double* out) noexcept nogil:
    """``out[i * POLICY_FEATURES + j]``: feature j of move i, from what the seat
    to move sees (its own hand, the field, the piles, the public counters)."""
    cdef double gv[MAX_MOVES]
    cdef int p = s.to_move, i, kind, card, k, month, opp, gi, thr
    cdef int32_t score = score_total(s.captured[p], r), opp_score = 0, junk0
    cdef uint64_t visible, unseen, same, bit, taken, pile = s.captured[p]
    cdef double* f
    if n <= 0:
        return
    if n > MAX_MOVES:
        n = MAX_MOVES
    greedy_values(s, r, moves, n, gv)
    if s.phase == PHASE_GO_STOP:
        gi = policy_move(s, r, moves, n)  # the greedy rule of thumb, no values
    else:
        # policy_move's choice from the same values: the first of the highest
        gi = 0
        for i in range(1, n):
            if gv[i] > gv[gi]:
                gi = i
    thr = rules_threshold(r, active_seats(s))
    opp = best_opponent(s, r, p)
    if opp >= 0:
        opp_score = score_total(s.captured[opp], r)
    visible = s.field | s.hand[p]
    for i in range(s.nplayers):
        visible |= s.captured[i]
    if s.flip_card != GS_NO_CARD:
        visible |= GS_BIT(s.flip_card)
    unseen = ((<uint64_t>1 << (50 if r.bonus_cards else 48)) - 1) & ~visible
    junk0 = junk_value(pile, r)
    for i in range(n):
        f = out + i * POLICY_FEATURES
        memset(f, 0, POLICY_FEATURES * sizeof(double))
        kind = move_kind(moves[i])
        card = move_card(moves[i])
        f[0] = 1.0 if i == gi else 0.0
        if kind == MOVE_PLAY or kind == MOVE_FLIP or kind == MOVE_BOMB:
            f[1] = gv[i] / 10.0
        f[2] = kind == MOVE_BONUS
        f[3] = kind == MOVE_SHAKE
        f[4] = kind == MOVE_BOMB
        f[5] = kind == MOVE_FLIP_ONLY
        f[6] = kind == MOVE_SHOWDOWN
        f[7] = kind == MOVE_ACCEPT
        f[8] = kind == MOVE_REFUSE
        if kind == MOVE_GO:
            f[9] = 1.0
            f[10] = (score - thr) / 7.0
            f[11] = opp_score / 7.0
            f[12] = gs_popcount(s.hand[p]) / 10.0
            f[13] = s.go_count[p]
            f[14] = (s.stock_len - s.stock_pos) / 20.0
        if kind == MOVE_PLAY and card < 48:
            month = card // 4 + 1
            bit = GS_BIT(card)
            same = s.field & GS_MONTH_MASK(month)
            k = gs_popcount(same)
            if k == 0:
                f[15] = card_worth(card) / 5.0
            elif k == 1:
                f[16] = 1.0
            elif k == 2:
                f[17] = 1.0
            else:
                f[18] = 1.0
            f[20] = gs_popcount(unseen & GS_MONTH_MASK(month)) / 3.0
            f[21] = gs_popcount(s.hand[p] & GS_MONTH_MASK(month) & ~bit)
            f[22] = 1.0 if bit & GS_MASK_BRIGHT else 0.0
        if kind == MOVE_PLAY or kind == MOVE_FLIP:
            taken = taken_by(s, r, moves[i])
            if taken:
                f[19] = score_total(pile | taken, r) - score
                f[23] = (junk_value(pile | taken, r) - junk0) / 5.0


cdef void value_features(const GameStateC* s, const RulesC* r, int seat, double* out) noexcept nogil:
    """Public features of ``s`` seen from ``seat`` (and its strongest opponent)."""
    cdef int opp = best_opponent(s, r, seat), q, k
    cdef int side[2]
    side[0] = seat
    side[1] = opp
    memset(out, 0, VALUE_FEATURES * sizeof(double))
    out[0] = 1.0
    out[7] = (s.stock_len - s.stock_pos) / 20.0
    for k in range(2):
        q = side[k]
        if q < 0:
            continue
        out[1 + k] = score_total(s.captured[q], r) / 7.0
        out[3 + k] = s.go_count[q]
        out[5 + k] = gs_popcount(s.hand[q]) / 10.0
        out[8 + 4 * k] = junk_value(s.captured[q], r) / 10.0
        out[9 + 4 * k] = gs_popcount(s.captured[q] & GS_MASK_ANIMAL) / 5.0
        out[10 + 4 * k] = gs_popcount(s.captured[q] & GS_MASK_RIBBON) / 5.0
        out[11 + 4 * k] = gs_popcount(s.captured[q] & GS_MASK_BRIGHT) / 3.0


cdef void move_scores(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                      const LearnedModel* m, double* scores) noexcept nogil:
    cdef double feats[MAX_MOVES * POLICY_FEATURES]
    cdef int i, j
    cdef double v
    move_features(s, r, moves, n, feats)
    for i in range(n):
        v = 0.0
        for j in range(POLICY_FEATURES):
            v += m.policy[j] * feats[i * POLICY_FEATURES + j]
        scores[i] = v


cdef int learned_move(const GameStateC* s, const RulesC* r, const uint16_t* moves, int n,
                      const void* model) noexcept nogil:
    """The index of the move of highest learned score (ties: the first)."""
    cdef double scores[MAX_MOVES]
    cdef int i, best = 0
    if n <= 1:
        return 0
    if n > MAX_MOVES:
        n = MAX_MOVES
    move_scores(s, r, moves, n, <const LearnedModel*>model, scores)
    for i in range(1, n):
        if scores[i] > scores[best]:
            best = i
    return best


cdef double learned_value(const GameStateC* s, const RulesC* r, int seat, const void* model) noexcept nogil:
    """The learned estimate of ``seat``'s terminal value from ``s``."""
    cdef const LearnedModel* m = <const LearnedModel*>model
    cdef double f[VALUE_FEATURES]
    cdef double v = 0.0
    cdef int j
    value_features(s, r, seat, f)
    for j in range(VALUE_FEATURES):
        v += m.value[j] * f[j]
    return v


cdef double softmax_logp(const double* scores, int n, int found,
                         double temperature) noexcept nogil:
    """log of move ``found``'s probability under the softmax of the ``n``
    ``scores`` at ``temperature`` (the opponent models': this policy's and the
    network's, :mod:`gostop_core.neural.playout`)."""
    cdef double top = scores[0], total = 0.0
    cdef int i
    for i in range(1, n):
        if scores[i] > top:
            top = scores[i]
    for i in range(n):
        total += exp((scores[i] - top) / temperature)
    return (scores[found] - top) / temperature - log(total)


cdef double observation_logp(const Observation* o, uint64_t hand, const RulesC* r,
                             const LearnedModel* m) noexcept nogil:
    """log P(the observed move | the seat held ``hand`` then) under the policy's
    softmax at ``m.temperature``; a move the hand could not have made counts
    as very unlikely (log 1e-13)."""
    cdef GameStateC st = o.state
    cdef uint16_t moves[MAX_MOVES]
    cdef double scores[MAX_MOVES]
    cdef int n, i, found = -1
    st.hand[o.seat] = hand
    n = generate_moves(&st, r, moves)
    for i in range(n):
        if moves[i] == o.move:
            found = i
    if found < 0:
        return IMPOSSIBLE_LOGP
    if n == 1:
        return 0.0
    move_scores(&st, r, moves, n, m, scores)
    return softmax_logp(scores, n, found, m.temperature)


cdef double world_weight(const GameStateC* world, const RulesC* r, const void* model) noexcept nogil:
    """The likelihood of every observed opponent move given the hands of
    ``world`` (each seat's hand then = its hand now + the cards it laid down
    since), relative: exp of the summed log-probabilities."""
    cdef const LearnedModel* m = <const LearnedModel*>model
    cdef int k
    cdef double logp = 0.0
    for k in range(m.nobs):
        logp += observation_logp(&m.obs[k], world.hand[m.obs[k].seat] | m.obs[k].since, r, m)
    return exp(logp)


cdef int check_observation(dict fields, move, since) except -1:
    """ValueError unless ``(fields, move, since)`` is an observed decision:
    ``fields`` the searching seat's view when another seat was to move (not a
    finished hand), ``move`` a move code, ``since`` a mask of cards."""
    seat = fields["to_move"]
    if seat == fields["seat"] or not 0 <= seat < fields["nplayers"]:
        raise ValueError("an observation is another seat's decision")
    if fields["phase"] == PHASE_OVER:
        raise ValueError("an observation is a decision, not a finished hand")
    if not 0 <= move < 65536 or not 0 <= since < (1 << 50):
        raise ValueError("bad observed move or cards")
    return 0


cdef void fill_observation(Observation* o, dict fields, move, since):
    """``o`` from an observed decision that :func:`check_observation` passed."""
    fill_public(&o.state, fields, fields["seat"])
    o.seat = fields["to_move"]
    o.move = move
    o.since = since


# ---------------------------------------------------------------- Python side


def _finite_list(value, count: int, what: str) -> list:
    if not isinstance(value, list) or len(value) != count:
        raise WeightsError(f"{what}: a list of {count} numbers")
    for x in value:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise WeightsError(f"{what}: {x!r} is not a finite number")
    return [float(x) for x in value]


def check_weights(data) -> dict:
    """The weights document ``data`` (parsed JSON) validated field by field:
    ``{"format", "header": {"command", "seeds": [first, last], "games",
    "versions": {name: version}}, "policy_features", "value_features",
    "policy", "value", "temperature"}``.  Raises :class:`WeightsError`."""
    if not isinstance(data, dict):
        raise WeightsError("the weights file holds no JSON object")
    if data.get("format") != WEIGHTS_FORMAT:
        raise WeightsError(f"format {data.get('format')!r}: expected {WEIGHTS_FORMAT!r}")
    header = data.get("header")
    if not isinstance(header, dict):
        raise WeightsError("no header object")
    if not isinstance(header.get("command"), str) or not header["command"]:
        raise WeightsError("header: no command")
    seeds = header.get("seeds")
    if (not isinstance(seeds, list) or len(seeds) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in seeds)
            or not 0 <= seeds[0] <= seeds[1] < 1_000_000):
        raise WeightsError("header: seeds must be [first, last] below 1,000,000")
    games = header.get("games")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise WeightsError("header: games must be a count")
    versions = header.get("versions")
    if not isinstance(versions, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in versions.items()):
        raise WeightsError("header: versions must map names to version strings")
    if data.get("policy_features") != list(POLICY_FEATURE_NAMES):
        raise WeightsError("policy_features: not the features this engine computes")
    if data.get("value_features") != list(VALUE_FEATURE_NAMES):
        raise WeightsError("value_features: not the features this engine computes")
    temperature = data.get("temperature")
    if (isinstance(temperature, bool) or not isinstance(temperature, (int, float))
            or not math.isfinite(temperature) or temperature <= 0):
        raise WeightsError("temperature must be a positive number")
    return {"header": header,
            "policy": _finite_list(data.get("policy"), POLICY_FEATURES, "policy"),
            "value": _finite_list(data.get("value"), VALUE_FEATURES, "value"),
            "temperature": float(temperature)}


def load_weights(path=None) -> dict:
    """The validated weights of the file ``path`` (default: the shipped
    ``learned.json``); raises :class:`WeightsError` for an unreadable or bad file."""
    path = DEFAULT_WEIGHTS if path is None else os.fspath(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(1 << 20)
            if fh.read(1):
                raise WeightsError(f"{path}: larger than 1 MiB")
    except OSError as exc:
        raise WeightsError(f"{path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise WeightsError(f"{path}: not JSON ({exc})") from None
    try:
        return check_weights(data)
    except WeightsError as exc:
        raise WeightsError(f"{path}: {exc}") from None


cdef int _own_state(Rules rules, dict fields, GameStateC* st) except -1:
    """The public state of a view with the seat's own hand; the seat must be
    the one to move (the features are the mover's)."""
    if fields["phase"] == PHASE_OVER:
        raise ValueError("the hand is over")
    if fields["to_move"] != fields["seat"]:
        raise ValueError(f"seat {fields['seat']} is not the one to move")
    fill_public(st, fields, fields["seat"])
    return 0


cdef int _counted_state(dict fields, GameStateC* st) except -1:
    """The public state of a view; each hidden hand is stand-in bits of its size
    (the value features count a hidden hand's cards, nothing more)."""
    cdef int q, count
    fill_public(st, fields, fields["seat"])
    for q in range(st.nplayers):
        if q != fields["seat"]:
            count = fields["hand_counts"][q]
            if count < 0 or count > 50:
                raise ValueError(f"seat {q} holds {count} cards")
            st.hand[q] = (<uint64_t>1 << count) - 1
    return 0


def view_features(Rules rules, dict fields):
    """``(codes, features)`` of the legal moves of a view's seat (which must be
    the one to move; ``parse_view`` fields): the move codes in generation order
    and a float64 array of shape (moves, NUM_POLICY_FEATURES)."""
    cdef GameStateC st
    cdef uint16_t moves[MAX_MOVES]
    cdef double feats[MAX_MOVES * POLICY_FEATURES]
    cdef int n, i, j
    _own_state(rules, fields, &st)
    n = generate_moves(&st, &rules.c, moves)
    move_features(&st, &rules.c, moves, n, feats)
    out = np.empty((n, POLICY_FEATURES), dtype=np.float64)
    cdef double[:, ::1] o = out
    for i in range(n):
        for j in range(POLICY_FEATURES):
            o[i, j] = feats[i * POLICY_FEATURES + j]
    return [moves[i] for i in range(n)], out


def view_value_features(Rules rules, dict fields):
    """The value features (float64 array of NUM_VALUE_FEATURES) of a view, for
    its seat; every one is public."""
    cdef GameStateC st
    cdef double f[VALUE_FEATURES]
    _counted_state(fields, &st)
    value_features(&st, &rules.c, fields["seat"], f)
    return np.array([f[j] for j in range(VALUE_FEATURES)], dtype=np.float64)


cdef class LearnedPolicy:
    """Learned weights held in C for the search (:meth:`capsule`), with the
    opponent model's observations (:meth:`set_observations`)."""
    cdef LearnedModel m
    cdef PlayoutModel hooks
    cdef readonly dict header

    def __cinit__(self):
        memset(&self.m, 0, sizeof(LearnedModel))
        self.hooks.pick = learned_move
        self.hooks.value = learned_value
        self.hooks.weight = world_weight
        self.hooks.data = &self.m

    def __init__(self, policy, value, double temperature=DEFAULT_TEMPERATURE, header=None):
        policy = _finite_list(list(policy), POLICY_FEATURES, "policy")
        value = _finite_list(list(value), VALUE_FEATURES, "value")
        if not (isfinite(temperature) and temperature > 0):
            raise WeightsError("temperature must be a positive number")
        for j in range(POLICY_FEATURES):
            self.m.policy[j] = policy[j]
        for j in range(VALUE_FEATURES):
            self.m.value[j] = value[j]
        self.m.temperature = temperature
        self.header = dict(header or {})

    @classmethod
    def load(cls, path=None):
        """The policy of a weights file (default: the shipped one)."""
        w = load_weights(path)
        return cls(w["policy"], w["value"], w["temperature"], w["header"])

    @property
    def policy_weights(self) -> tuple:
        return tuple(self.m.policy[j] for j in range(POLICY_FEATURES))

    @property
    def value_weights(self) -> tuple:
        return tuple(self.m.value[j] for j in range(VALUE_FEATURES))

    @property
    def temperature(self) -> float:
        return self.m.temperature

    @property
    def observations(self) -> int:
        return self.m.nobs

    def capsule(self):
        """A ``PlayoutModel`` capsule for ``search_fields(model=...)``; it points
        into this object and keeps it alive."""
        return model_capsule(&self.hooks, self)

    def clear_observations(self) -> None:
        self.m.nobs = 0

    def set_observations(self, Rules rules, observations) -> None:
        """The opponents' decisions the next searches weigh their deals by:
        ``(fields, move, since)`` each, ``fields`` the searching seat's view
        (``parse_view`` fields) when another seat was to move, ``move`` the code
        it played, ``since`` the mask of the cards that seat laid down from its
        hand from then on (this move's included).  The last MAX_OBS are kept."""
        cdef int k = 0
        items = list(observations)[-MAX_OBSERVATIONS:]
        for fields, move, since in items:
            check_observation(fields, move, since)   # all first: a bad one changes nothing
        for fields, move, since in items:
            fill_observation(&self.m.obs[k], fields, move, since)
            k += 1
        self.m.nobs = k

    def scores(self, Rules rules, dict fields):
        """``(codes, scores)``: the learned score of each legal move of the view's seat."""
        cdef GameStateC st
        cdef uint16_t moves[MAX_MOVES]
        cdef double sc[MAX_MOVES]
        cdef int n
        _own_state(rules, fields, &st)
        n = generate_moves(&st, &rules.c, moves)
        move_scores(&st, &rules.c, moves, n, &self.m, sc)
        return [moves[i] for i in range(n)], [sc[i] for i in range(n)]

    def choice(self, Rules rules, dict fields) -> int:
        """The move code the learned playout policy plays in the view."""
        cdef GameStateC st
        cdef uint16_t moves[MAX_MOVES]
        cdef int n
        _own_state(rules, fields, &st)
        n = generate_moves(&st, &rules.c, moves)
        if n == 0:
            raise ValueError("no legal move")
        return moves[learned_move(&st, &rules.c, moves, n, &self.m)]

    def value(self, Rules rules, dict fields) -> float:
        """The learned value of a view for its seat."""
        cdef GameStateC st
        _counted_state(fields, &st)
        return learned_value(&st, &rules.c, fields["seat"], &self.m)

    def weight(self, Rules rules, dict fields, hands) -> float:
        """The opponent model's weight of a deal: ``hands`` maps each other seat
        to the mask of its hand now (over the view ``fields``)."""
        cdef GameStateC st
        fill_public(&st, fields, fields["seat"])
        for q, mask in hands.items():
            st.hand[q] = mask
        return world_weight(&st, &rules.c, &self.m)
