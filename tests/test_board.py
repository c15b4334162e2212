"""The board module: a pure drawing of a view or a full game, shared by
``gostop play`` and anything else that shows a position."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gostop_core import Game, Rules, preset_names
from gostop_core.bots import GreedyBot
from gostop_cli.board import board_text, render_board

PRESET_PLAYERS = [(name, n) for name in preset_names() for n in Rules(name).allowed_players()]


def played_game(preset: str, players: int, seed: int, decisions: int) -> Game:
    """A game after ``decisions`` greedy decisions (fewer if the hand ends)."""
    game = Game(preset, players, seed=seed)
    bot = GreedyBot()
    for _ in range(decisions):
        if game.is_over():
            break
        seat = game.turn
        assert seat is not None
        game.push(bot.choose(game.view(seat), list(game.legal_moves)))
    return game


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_a_view_shows_its_own_hand_and_no_other(preset, players):
    game = played_game(preset, players, seed=3, decisions=6)
    for seat in range(players):
        text = board_text(game.view(seat), width=200)
        own = game.hand(seat).codes()
        line = next(ln for ln in text.splitlines() if "'s hand" in ln)
        assert all(code in line for code in own)
        assert text.count("'s hand") == 1
        # a card held only by another seat appears nowhere on the board
        visible = set(game.field.codes()) | set(own)
        for s in range(players):
            visible |= set(game.captured(s).codes())
        for other in range(players):
            if other == seat:
                continue
            for code in game.hand(other).codes():
                if code not in visible:
                    assert f" {code} " not in f" {text} ".replace("\n", " ")


def test_the_same_board_from_the_view_and_from_the_game():
    game = played_game("standard", 3, seed=11, decisions=5)
    for seat in range(3):
        assert board_text(game.view(seat)) == board_text(game, seat=seat)


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_open_hands_show_every_hand(preset, players):
    game = played_game(preset, players, seed=5, decisions=4)
    names = [f"P{s}" for s in range(players)]
    text = board_text(game, open_hands=True, names=names, width=200)
    for s in range(players):
        line = next(ln for ln in text.splitlines() if f"P{s}'s hand" in ln)
        for code in game.hand(s).codes():
            assert code in line


def test_a_view_cannot_open_the_hands_and_keeps_its_seat():
    game = Game("casual", 2, seed=1)
    with pytest.raises(ValueError, match="cannot show the other hands"):
        render_board(game.view(0), open_hands=True)
    with pytest.raises(ValueError, match="seat 0's view"):
        render_board(game.view(0), seat=1)
    with pytest.raises(ValueError, match="not a seat"):
        render_board(game, seat=2)


def test_drawing_does_not_change_the_game():
    game = played_game("traditional", 2, seed=2, decisions=3)
    before = game.position()
    board_text(game, open_hands=True, color=True)
    board_text(game.view(1))
    assert game.position() == before


def test_the_board_names_the_person_and_the_seat_to_move():
    game = Game("casual", 2, seed=9)
    text = board_text(game, names=["You", "Bot 1"], labels=["You", "Bot 1 (greedy)"])
    assert "Your hand" in text
    assert "to play: You" in text
    over = played_game("casual", 2, seed=9, decisions=200)
    assert over.is_over()
    assert "to play: -" in board_text(over)
    assert "flip-only turn" not in board_text(over)


@pytest.mark.parametrize("first", ["gostop_cli.analysis", "gostop_cli.play", "gostop_cli.board",
                                   "gostop_cli.prompt", "gostop_cli.main"])
def test_every_cli_module_imports_on_its_own(first):
    """No import circle: each module imports first in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", f"import {first}"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


def test_the_board_module_reads_no_input():
    import gostop_cli.board as board
    import gostop_cli.narration as narration
    for module in (board, narration):
        source = open(module.__file__, encoding="utf-8").read()
        assert "input(" not in source and "prompt" not in source.replace("prompt.py", "")
