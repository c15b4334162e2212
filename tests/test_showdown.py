"""Showdown (seed 003), an option of the rules object (docs/rules.md)."""

import random

from gostop_core import Game, IllegalMoveError, Rules
import pytest

from conftest import game_from

SEED_003 = ("Player can show down when player have the others' win-card. The card that when "
            "other player get, others win the game is called win-card.")


def _showdown_game():
    # Standard rules, 3 players.  Seat 1 holds 3 brights minus one: 1B and 3B captured,
    # so 8B would give it 3 points, the 3-player threshold.  Seat 0 holds 8B.
    return game_from(players=3, rules="standard+showdown=1", field="5J1 6J1 7J1",
                     hands=["8B 2J1", "4J1 9J1", "10J1 11J1"],
                     captured=["-", "1B 3B", "-"], stock="12A 12R 12D 2R")


def test_a_win_card_may_be_shown_down():
    """Seed 003: "Player can show down when player have the others' win-card." """
    g = _showdown_game()
    assert g.score(1).total < 3
    assert "showdown/8B" in g.legal_moves
    assert "showdown/2J1" not in g.legal_moves
    ev = g.push("showdown/8B")
    assert [e.kind for e in ev] == ["showdown"]
    assert g.phase == "showdown" and g.turn == 1
    assert set(map(str, g.legal_moves)) == {"accept", "refuse"}


def test_everyone_receives_the_showdown_nagari():
    """Seed 003: "If everyone says "Yes", the game will be Nagari game." """
    g = _showdown_game()
    g.push("showdown/8B")
    g.push("accept")
    assert g.turn == 2
    g.push("accept")
    out = g.outcome()
    assert out.winner is None and out.reason == "draw" and sum(out.chips) == 0


def test_a_refused_showdown_lays_the_win_card_down():
    """Seed 003: "If next player says "No", player lay down another player's win-card." """
    g = _showdown_game()
    g.push("showdown/8B")
    g.push("accept")
    g.push("refuse")
    assert g.turn == 0 and g.phase == "play"
    assert [str(m) for m in g.legal_moves] == ["8B"]
    with pytest.raises(IllegalMoveError):
        g.push("2J1")
    ev = g.push("8B")
    assert ev[0].kind == "played" and ev[0].card == "8B"
    assert "8B" in g.field


def test_showdown_is_off_unless_the_rules_say_so():
    """Seed 003: "The card that when other player get, others win the game is called win-card." """
    g = game_from(players=3, rules="standard", field="5J1 6J1 7J1",
                  hands=["8B 2J1", "4J1 9J1", "10J1 11J1"], captured=["-", "1B 3B", "-"],
                  stock="12A 12R 12D 2R")
    assert not any(m.kind == "showdown" for m in g.legal_moves)


def test_random_games_with_showdown_stay_consistent():
    """Seed 003: "Player can show down when player have the others' win-card." """
    rng = random.Random(3)
    rules = Rules("standard", showdown=1)
    answered = 0
    for seed in range(200):
        g = Game(rules, players=3, seed=seed)
        while not g.is_over():
            before = g.position()
            move = rng.choice(list(g.legal_moves))
            g.push(move)
            answered += move.kind in ("accept", "refuse")
            assert Game.from_position(g.position()).position() == g.position()
            g.pop()
            assert g.position() == before
            g.push(move)
        assert sum(g.outcome().chips) == 0
    assert answered > 50


def test_a_received_showdown_is_told_apart_from_a_played_out_hand():
    """Seed 003: "If everyone says "Yes", the game will be Nagari game." """
    g = _showdown_game()
    g.push("showdown/8B")
    g.push("accept")
    ev = g.push("accept")
    draw = [e for e in ev if e.kind == "draw"][0]
    assert draw.other == 1 and "showdown" in draw.describe()
