"""Go-Stop as an OpenSpiel game: ``pyspiel.load_game("python_gostop", {...})``.

>>> import pyspiel, gostop_core.envs.openspiel
>>> game = pyspiel.load_game("python_gostop", {"rules": "casual", "players": 2})
>>> state = game.new_initial_state()

Importing this module registers the game.  Parameters: ``rules``, a preset
name (``casual``, ``traditional``, ``standard``, ``family``), and ``players``
(2-4, as the preset allows).

Chance is explicit.  The deal is one chance node per card: each seat's hand
in turn, then the field, every outcome an undealt card with equal probability
(a bonus card dealt to the field goes to the dealer and one more field card is
dealt, where the rules say so; four of a month on the field deals again).
The stock has no hidden order: whenever a decision would turn up or draw a
stock card, a chance node first picks that card among the cards still in the
stock, with equal probability, for as many cards as the decision's forced
steps read (a flipped bonus card flips again, forced flip-only turns flip too).

Decisions use the action table of :mod:`gostop_core.envs.actions`.  Returns
are :mod:`gostop_core.envs.rewards` (points under casual rules, chips or
balances otherwise); the game says ``ZERO_SUM`` only where every hand's
returns sum to zero (casual with two players, every other preset), else
``GENERAL_SUM``.

Observations come from the seat's view only: the observation string is
:meth:`PlayerView.to_str`, the tensor :meth:`PlayerView.to_array`; the
information state adds the public decisions so far (string) or each seat's
count of each action (tensor).  :meth:`GoStopState.resample_from_infostate`
deals the cards a seat cannot see again at random, keeping every card another
seat has shown (a shake, a showdown) in that seat's hand.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from gostop_core.cards import CARD_CODES
from gostop_core.envs.actions import NUM_ACTIONS, SHAKE, SHOWDOWN, action_name, check_rules
from gostop_core.envs.rewards import hand_rewards, is_zero_sum
from gostop_core.envs.vector import legal_action_codes, stock_to_position
from gostop_core.game import ARRAY_LENGTH, Game
from gostop_core.state import CoreState
from gostop_core.moves import Move
from gostop_core.notation import format_position
from gostop_core.rules import Rules

_DEFAULTS = {"rules": "casual", "players": 2}
#: A bound on any hand's result in points or chips (loose: real hands stay far below).
UTILITY_BOUND = 1_000_000.0
#: Information-state tensor: the view, then each seat's (from this one) action counts.
INFO_TENSOR_SIZE = ARRAY_LENGTH + 4 * NUM_ACTIONS


def _game_type(utility) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name="python_gostop",
        long_name="Python Go-Stop",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
    )


# Registered as general-sum (true of the family); each game instance states
# its own utility, zero-sum where it is.
_GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _month_with_four(cards: int) -> int:
    for m in range(1, 13):
        if cards >> (4 * (m - 1)) & 0xF == 0xF:
            return m
    return 0


_MONTH_CARDS = (1 << 48) - 1
_BONUS = (1 << 48) | (1 << 49)


class _GameBox:
    """Holds the hand's Game: OpenSpiel clones states with ``copy.deepcopy``
    (a Game copies itself, without its undo stack) and serializes them with
    pickle (a Game's position string)."""

    __slots__ = ("game",)

    def __init__(self, game: Game | None):
        self.game = game

    def __deepcopy__(self, memo):
        return _GameBox(None if self.game is None else self.game.copy(stack=False))

    def __reduce__(self):
        # pickled as the position string (a Game itself does not pickle)
        return (_unbox, (None if self.game is None else self.game.position(),))


def _unbox(position: str | None) -> _GameBox:
    return _GameBox(None if position is None else Game.from_position(position))


class GoStopGame(pyspiel.Game):
    """One hand of Go-Stop under a preset, for 2-4 players."""

    def __init__(self, params=None):
        p = {**_DEFAULTS, **(params or {})}
        self.rules = Rules(str(p["rules"]))
        self.players = int(p["players"])
        self.rules.check_players(self.players)
        check_rules(self.rules, self.players)
        if self.rules.gwangpalli:  # pragma: no cover - no preset plays it
            raise pyspiel.SpielError("gwangpalli (a seat sitting out) is not modelled here")
        zero_sum = is_zero_sum(self.rules, self.players)
        hand = self.rules.hand_size(self.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=50,
            num_players=self.players,
            min_utility=-UTILITY_BOUND,
            max_utility=UTILITY_BOUND,
            utility_sum=0.0 if zero_sum else None,
            # per seat and card: a play, a flip choice, Go/Stop, a shake, a showdown
            # ask and answers; generous on purpose
            max_game_length=self.players * (hand + 4) * 8)
        utility = (pyspiel.GameType.Utility.ZERO_SUM if zero_sum
                   else pyspiel.GameType.Utility.GENERAL_SUM)
        super().__init__(_game_type(utility), info, {"rules": self.rules.preset,
                                                     "players": self.players})

    def new_initial_state(self):
        return GoStopState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return GoStopObserver(iig_obs_type, params)


class GoStopState(pyspiel.State):
    """A hand in progress: the deal's chance nodes, then the decisions, with a
    chance node before each stock card a decision's forced steps read."""

    def __init__(self, game):
        super().__init__(game)
        self._rules: Rules = game.rules
        self._n: int = game.players
        self._hand_size = self._rules.hand_size(self._n)
        self._field_size = self._rules.field_size(self._n)
        self._pack = (1 << (50 if self._rules.bonus_cards else 48)) - 1
        self._reset_deal()
        self._box = _GameBox(None)
        self._pending = None      # the Move waiting for its stock cards
        self._fixed = 0           # stock cards fixed for it so far
        self._decisions: list[tuple[int, str]] = []     # public: (seat, move)
        self._counts = np.zeros((self._n, NUM_ACTIONS), dtype=np.float32)
        self._shown = [0] * self._n  # cards a seat showed and still holds
        self._legal: dict | None = None

    @property
    def _game(self) -> Game | None:
        return self._box.game

    @_game.setter
    def _game(self, game: Game) -> None:
        self._box = _GameBox(game)

    def _reset_deal(self):
        self._hands = [0] * self._n
        self._field = 0
        self._dealer_bonus = 0

    # ------------------------------------------------------------ the deal
    def _deal_target(self):
        for p in range(self._n):
            if bin(self._hands[p]).count("1") < self._hand_size:
                return p
        return "field"

    def _undealt(self) -> int:
        dealt = self._field | self._dealer_bonus
        for h in self._hands:
            dealt |= h
        return self._pack & ~dealt

    def _deal_card(self, card: int) -> None:
        target = self._deal_target()
        if target != "field":
            self._hands[target] |= 1 << card
        elif (1 << card) & _BONUS and self._rules.bonus_to_dealer:
            self._dealer_bonus |= 1 << card     # the field gets one more card
        else:
            self._field |= 1 << card
        if bin(self._field).count("1") < self._field_size:
            return
        if self._rules.four_on_field_redeal and _month_with_four(self._field & _MONTH_CARDS):
            self._reset_deal()  # a void deal: the same dealer deals again
            return
        self._start_play()

    def _start_play(self) -> None:
        n, r = self._n, self._rules
        chips = [0] * n
        winner, points, phase, end = None, 0, 0, 0
        playing = range(n)  # no preset seats a gwangpalli sitter (GoStopGame checks)
        if r.chongtong:
            holders = [p for p in playing if _month_with_four(self._hands[p] & _MONTH_CARDS)]
            if holders:
                phase, end = 3, 4  # over, chongtong
                if len(holders) < len(playing):
                    amount = r.chongtong_chips or r.threshold(len(playing))
                    winner, points = holders[0], amount
                    for p in holders:
                        for q in playing:
                            if q not in holders:
                                chips[q] -= amount
                                chips[p] += amount
        stock = list(_bits(self._undealt()))
        fields = dict(
            nplayers=n, dealer=0, to_move=0, phase=phase, flip_card=None, winner=winner,
            points=points, turns=0, field=self._field, hands=list(self._hands),
            captured=[self._dealer_bonus if p == 0 else 0 for p in range(n)], stock=stock,
            go_counts=[0] * n, last_go_scores=[0] * n, flip_only=[0] * n, chips=chips,
            end_reason=end, sitter=None)
        self._game = Game.from_position(format_position(r, CoreState.from_fields(r, fields).to_fields()))

    # ------------------------------------------------------------ the protocol
    def current_player(self):
        if self._game is None or self._pending is not None:
            return pyspiel.PlayerId.CHANCE
        if self._game.is_over():
            return pyspiel.PlayerId.TERMINAL
        return self._game.turn

    def _table(self) -> dict:
        if self._legal is None:
            game = self._game
            assert game is not None
            self._legal = {a: Move.from_code(code) for a, code
                           in legal_action_codes(game.core_state).items()}
        return self._legal

    def _legal_actions(self, player):
        return sorted(self._table())

    def chance_outcomes(self):
        if self._game is None:
            cards = list(_bits(self._undealt()))
        else:
            cards = self._game.core_state.stock()[self._fixed:]
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def _apply_action(self, action):
        action = int(action)
        if self._game is None:
            self._deal_card(action)
            return
        core = self._game.core_state
        if self._pending is not None:
            stock_to_position(core, self._fixed, action)
            self._fixed += 1
        else:
            seat = self._game.turn
            move = self._table().get(action)
            if move is None:
                raise pyspiel.SpielError(f"action {action} is not legal here")
            self._legal = None
            self._decisions.append((seat, str(move)))
            self._counts[seat, action] += 1
            if SHAKE <= action < SHAKE + 12:
                month = action - SHAKE + 1
                self._shown[seat] |= core.hand(seat) & (0xF << (4 * (month - 1)))
            elif SHOWDOWN <= action < SHOWDOWN + 10:
                self._shown[seat] |= 1 << CARD_CODES.index(move.card)
            self._pending, self._fixed = move, 0
        trial = core.copy()
        trial.apply_unchecked(self._pending.code)
        if trial.stock_pos - core.stock_pos <= self._fixed:
            self._game.push(self._pending)  # every card it reads is fixed
            self._pending = None
            for p in range(self._n):        # shown cards leave the hand when played
                self._shown[p] &= self._game.core_state.hand(p)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            what = "deal" if self._game is None else "stock"
            return f"{what} {CARD_CODES[action]}"
        move = self._table().get(action) if self._game is not None and not self._game.is_over() else None
        return str(move) if move is not None else action_name(action)

    def is_terminal(self):
        return self._game is not None and self._pending is None and self._game.is_over()

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self._n
        return [float(x) for x in hand_rewards(self._game)]

    def __str__(self):
        if self._game is None:
            hands = " | ".join(" ".join(CARD_CODES[c] for c in _bits(h)) for h in self._hands)
            return f"dealing: {hands} | field {' '.join(CARD_CODES[c] for c in _bits(self._field))}"
        return self._game.position()

    # ------------------------------------------------------------ views
    def view_string(self, player: int) -> str:
        """What ``player`` sees now, as text."""
        if self._game is None:
            own = " ".join(CARD_CODES[c] for c in _bits(self._hands[player]))
            return f"seat {player}, the deal in progress; own cards: {own}"
        return self._game.view(player).to_str()

    def view_array(self, player: int) -> np.ndarray:
        """What ``player`` sees now, as :meth:`PlayerView.to_array`."""
        if self._game is None:
            out = np.zeros(ARRAY_LENGTH, dtype=np.float32)
            for c in _bits(self._hands[player]):
                out[c] = 1.0
            return out
        return self._game.view(player).to_array()

    def public_decisions(self) -> list[tuple[int, str]]:
        """Every decision made so far, ``(seat, move)``: all of them are public."""
        return list(self._decisions)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one: the cards it cannot
        see dealt again at random among the other hands and the stock (cards
        another seat has shown stay in that seat's hand)."""
        clone = self.clone()
        game = self._game
        if game is None:
            return clone
        seed = int(probability_sampler() * 2 ** 53) if probability_sampler is not None else None
        rng = np.random.default_rng(seed)
        fields = game.core_state.to_fields()
        stock = fields["stock"]
        keep = stock[:self._fixed] if self._pending is not None else []
        others = [q for q in range(self._n) if q != player_id]
        pool = [c for c in stock[len(keep):]]
        for q in others:
            pool += [c for c in _bits(fields["hands"][q] & ~self._shown[q])]
        pool = list(rng.permutation(sorted(pool)))
        for q in others:
            need = bin(fields["hands"][q]).count("1") - bin(self._shown[q]).count("1")
            fields["hands"][q] = self._shown[q] | sum(1 << int(c) for c in pool[:need])
            pool = pool[need:]
        fields["stock"] = keep + sorted(int(c) for c in pool)
        clone._game = Game.from_position(format_position(self._rules, fields))
        clone._legal = None
        return clone


class GoStopObserver:
    """Observations from one seat's view (the PyObserver protocol): a tensor
    and a string; with ``perfect_recall`` the public decisions too."""

    def __init__(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("only a seat's own view (public and its private cards) is provided")
        size = INFO_TENSOR_SIZE if self.perfect_recall else ARRAY_LENGTH
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"view": self.tensor[:ARRAY_LENGTH]}
        if self.perfect_recall:
            self.dict["decisions"] = self.tensor[ARRAY_LENGTH:].reshape(4, NUM_ACTIONS)

    def set_from(self, state: GoStopState, player: int) -> None:
        self.tensor.fill(0)
        self.dict["view"][:] = state.view_array(player)
        if self.perfect_recall:
            n = state._n
            for k in range(n):
                self.dict["decisions"][k] = state._counts[(player + k) % n]

    def string_from(self, state: GoStopState, player: int) -> str:
        text = state.view_string(player)
        if self.perfect_recall:
            text += "\ndecisions: " + " ".join(f"{s}:{m}" for s, m in state._decisions)
        return text


pyspiel.register_game(_GAME_TYPE, GoStopGame)
