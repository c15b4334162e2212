"""Arguments of the wrong type are refused at the public API's door with an
``ArgumentTypeError`` (a ``GoStopError`` and a ``TypeError``) that names the
argument, instead of being converted silently (``2.0`` players, a ``True`` seat,
``perft(1.5)``) or failing deep inside; the game is left unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from gostop_core import (
    ArgumentTypeError, CardCodeError, CardSet, Game, GoStopError, Match, Move, MoveParseError,
    Rules, RulesError, score,
)
from gostop_core.errors import CardTypeError, MoveTypeError, RulesTypeError

GAME = Game("casual", 2, seed=1)

CASES = [
    # (call, error class, words the message must contain)
    (lambda: Game(players=2.0), ArgumentTypeError, "players"),
    (lambda: Game(players=True), ArgumentTypeError, "players"),
    (lambda: Game(players="2"), ArgumentTypeError, "players"),
    (lambda: Game(seed="x"), ArgumentTypeError, "seed"),
    (lambda: Game(seed=1.0), ArgumentTypeError, "seed"),
    (lambda: Game(seed=False), ArgumentTypeError, "seed"),
    (lambda: Game(dealer=1.0), ArgumentTypeError, "dealer"),
    (lambda: Game(stake_doublings="1"), ArgumentTypeError, "stake_doublings"),
    (lambda: Game(rules=5), RulesTypeError, "rules"),
    (lambda: Game(rules=b"casual"), RulesTypeError, "bytes"),
    (lambda: GAME.perft(1.5), ArgumentTypeError, "depth"),
    (lambda: GAME.perft(True), ArgumentTypeError, "depth"),
    (lambda: GAME.perft(2, bulk="yes"), ArgumentTypeError, "bulk"),
    (lambda: GAME.divide("1"), ArgumentTypeError, "depth"),
    (lambda: Move("bomb", month=1.5), MoveTypeError, "month"),
    (lambda: Move("shake", month=True), MoveTypeError, "month"),
    (lambda: Move("bomb", month="9"), MoveTypeError, "month"),
    (lambda: Move(1), MoveTypeError, "kind"),
    (lambda: Move.from_code(1.5), MoveTypeError, "move code"),
    (lambda: Move.from_code(True), MoveTypeError, "move code"),
    (lambda: Move.from_str(b"go"), MoveTypeError, "bytes"),
    (lambda: Match(seed="x"), ArgumentTypeError, "seed"),
    (lambda: Match(seed=1.5), ArgumentTypeError, "seed"),
    (lambda: Match(players=2.0), ArgumentTypeError, "players"),
    (lambda: Match(dealer=1.0), ArgumentTypeError, "dealer"),
    (lambda: Match(daytime="yes"), ArgumentTypeError, "daytime"),
    (lambda: Match(rules=None), RulesTypeError, "rules"),
    (lambda: Match().play(1.5, lambda g: next(iter(g.legal_moves))), ArgumentTypeError, "hands"),
    (lambda: score(b"1"), CardTypeError, "bytes"),
    (lambda: score(1.5), CardTypeError, "float"),
    (lambda: score(None), CardTypeError, "NoneType"),
    (lambda: score("1B", rules=5), RulesTypeError, "preset"),
    (lambda: CardSet(b"1B"), CardTypeError, "bytes"),
    (lambda: CardSet([1.5]), CardTypeError, "float"),
    (lambda: Rules(5), RulesTypeError, "preset"),
    (lambda: Rules(["casual"]), RulesTypeError, "preset"),
    (lambda: Rules("casual", godori="5"), RulesTypeError, "godori"),
    (lambda: Rules("casual", threshold_2p=7.0), RulesTypeError, "threshold_2p"),
    (lambda: Rules("casual", bomb=None), RulesTypeError, "bomb"),
    (lambda: GAME.push(None), MoveTypeError, "NoneType"),
    (lambda: GAME.push(1.5), MoveTypeError, "float"),
    (lambda: GAME.push(True), MoveTypeError, "bool"),
    (lambda: GAME.push_str(5), MoveTypeError, "int"),
    (lambda: GAME.view(1.0), ArgumentTypeError, "player"),
    (lambda: GAME.view(True), ArgumentTypeError, "player"),
    (lambda: GAME.view("0"), ArgumentTypeError, "player"),
    (lambda: GAME.hand(1.0), ArgumentTypeError, "player"),
    (lambda: GAME.captured(None), ArgumentTypeError, "player"),
    (lambda: GAME.score(0.0), ArgumentTypeError, "player"),
    (lambda: GAME.go_count(False), ArgumentTypeError, "player"),
    (lambda: GAME.chips("1"), ArgumentTypeError, "player"),
    (lambda: GAME.flip_only_turns(0.5), ArgumentTypeError, "player"),
    (lambda: GAME.shaken_months(1.0), ArgumentTypeError, "player"),
]


@pytest.mark.parametrize("call,error,words", CASES)
def test_wrong_types_raise_a_clear_type_error(call, error, words):
    before = GAME.position()
    with pytest.raises(error, match=words) as info:
        call()
    assert isinstance(info.value, TypeError) and isinstance(info.value, GoStopError)
    assert GAME.position() == before and GAME.move_stack == []


def test_type_errors_are_also_the_older_errors():
    # code written against the older errors keeps catching them
    assert issubclass(RulesTypeError, RulesError) and issubclass(RulesTypeError, ValueError)
    assert issubclass(CardTypeError, CardCodeError)
    assert issubclass(MoveTypeError, MoveParseError)


@pytest.mark.parametrize("seat", [2, -1, 7])
def test_a_seat_that_does_not_exist_is_an_index_error(seat):
    for call in (GAME.view, GAME.hand, GAME.captured, GAME.score, GAME.go_count, GAME.chips):
        with pytest.raises(IndexError, match=f"no seat {seat}"):
            call(seat)


def test_integers_of_other_kinds_are_whole_numbers():
    # numpy integers (what an environment's arrays hold) are whole numbers, not floats
    g = Game("casual", np.int64(2), seed=np.uint32(5), dealer=np.int8(1))
    assert g.players == 2 and g.seed == 5 and type(g.seed) is int and g.dealer == 1
    assert g.perft(np.int16(2)) == g.perft(2)
    assert g.hand(np.int64(0)) == g.hand(0)
    code = next(iter(g.legal_moves)).code
    assert Move.from_code(np.uint16(code)).code == code
    assert Move("bomb", month=np.int64(9)) == Move.from_str("bomb9")
    assert Match("casual", 2, seed=np.int64(3)).seed == 3


def test_booleans_stay_valid_for_rules_toggles():
    # rules fields are 0/1 toggles or numbers; True/False are the toggles' values
    assert Rules("casual", bomb=True).bomb == 1


def test_views_made_without_a_game_fail_cleanly():
    # the Cython classes read C memory: one made by __new__ alone must not crash
    from gostop_core.gameloop import Events, LegalMoves
    lm = LegalMoves.__new__(LegalMoves)
    for call in (lambda: list(lm), lambda: len(lm), lambda: "go" in lm, lambda: bool(lm)):
        with pytest.raises(ValueError, match="no game"):
            call()
    with pytest.raises(AttributeError):
        LegalMoves(object())  # no game: no state to read
    empty = Events.__new__(Events)
    assert len(empty) == 0 and list(empty) == [] and empty == []
    with pytest.raises(ValueError, match="wrong size"):
        Events(b"123", 0)
    with pytest.raises(TypeError):
        Events("not events", 0)
