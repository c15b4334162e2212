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


def with_captured(preset: str, seat0: list[str], seat1: list[str] = (), extra: str = "",
                  seed: int = 1) -> Game:
    """The deal of ``seed`` with ``seat0``/``seat1`` moved into the captured piles
    (from wherever they were dealt), and ``extra`` position tokens appended."""
    tokens = dict(t.split("=", 1) for t in Game(preset, 2, seed=seed).position().split()[1:])
    moved = set(seat0) | set(seat1)

    def strip(cards: str) -> str:
        kept = [c for c in cards.split(",") if c not in moved and c != "-"]
        return ",".join(kept) or "-"
    tokens["field"] = strip(tokens["field"])
    tokens["stock"] = strip(tokens["stock"])
    tokens["hands"] = "|".join(strip(h) for h in tokens["hands"].split("|"))
    piles = [strip(c) for c in tokens["captured"].split("|")]
    for i, cards in enumerate((seat0, seat1)):
        if cards:
            piles[i] = ",".join([c for c in piles[i].split(",") if c != "-"] + list(cards))
    tokens["captured"] = "|".join(piles)
    text = "gostop/1 " + " ".join(f"{k}={v}" for k, v in tokens.items())
    return Game.from_position(f"{text} {extra}".strip())


def test_set_progress_and_scores_are_on_the_board():
    game = with_captured("casual", ["2A", "4A", "1R", "2R", "1J1", "3J1", "11D"],
                         ["1B", "3B"])
    text = board_text(game.view(0), width=100, names=["You", "Bot 1"])
    # junk: 1J1, 3J1, 11D (2) and X2 (2), the bonus card the casual deal gave the dealer
    assert "You: godori 2/3 · hongdan 2/3 · ribbons 2/5 · animals 2/5 · junk 6/10" in text
    assert "Bot 1: brights 2/3" in text


def test_a_rain_ribbon_that_does_not_count_is_marked_with_the_reason():
    cards = ["12R", "4R"]
    standard = board_text(with_captured("standard", cards).view(0), width=100)
    assert "12R*" in standard
    assert "12R*: the rain ribbon counts toward no ribbon score under standard rules" in standard
    casual = board_text(with_captured("casual", cards).view(0), width=100)
    assert "12R*" not in casual and "rain ribbon" not in casual


def test_the_sake_cup_counted_as_junk_is_said_on_the_board():
    junk = ["1J1", "1J2", "2J1", "2J2", "3J1", "3J2", "4J1", "4J2"]
    game = with_captured("casual", ["9A"] + junk)
    text = board_text(game.view(0), width=120)
    assert "9A→pi" in text
    assert "9A→pi: the sake cup counts as 2 junk, not as an animal (it scores more so)" in text
    alone = board_text(with_captured("casual", ["9A", "1J1"]).view(0), width=120)
    assert "9A→pi" not in alone  # as an animal it scores no less: it stays an animal


def test_the_multipliers_in_force_are_on_the_board():
    game = with_captured("traditional", ["1J1"], extra="shaken=9|- stake=1")
    text = board_text(game.view(0), width=120, names=["You", "Bot 1"])
    assert "In force: You shook 9 (x2 if you win) · nagari stakes x2" in text
    # public: the other seat sees it too
    assert "In force: Seat 0 shook 9 (x2 if Seat 0 wins)" in board_text(game.view(1), width=120)
    plain = with_captured("traditional", ["1J1"])
    assert "In force" not in board_text(plain.view(0), width=120)
