"""The expectimax search and bot: legal answers from views under every preset and
player count, no reading of hidden cards, exact flip probabilities, ``gostop hint``."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_core import Game, Rules
from gostop_core.bots import ExpectimaxBot, GreedyBot, RandomBot, make_bot, play_game
from gostop_core.cards import CARD_CODES
from gostop_core.notation import parse_view
from gostop_core.rules import PRESETS
from gostop_core.search import CHANCE_SEAT, chance_distribution, search_fields

PRESET_PLAYERS = [(name, n) for name in PRESETS for n in Rules(name).allowed_players()]


def small_bot(seed: int = 0) -> ExpectimaxBot:
    return ExpectimaxBot(seed, depth=2, samples=2)


def positions_along(game: Game, rng: random.Random, every: int = 3):
    """Play random moves, yielding the game at every ``every``-th decision."""
    i = 0
    while not game.is_over():
        if i % every == 0:
            yield game
        game.push(rng.choice(list(game.legal_moves)))
        i += 1


# ---------------------------------------------------------------- legality
@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_search_returns_legal_moves_from_views(preset, players):
    rng = random.Random(players * 31 + len(preset))
    phases = set()
    for seed in range(4):
        game = Game(preset, players, seed=seed, dealer=seed % players)
        for g in positions_along(game, rng):
            seat = g.turn
            legal = list(g.legal_moves)
            ranked = small_bot(seed).analyse(g.view(seat))
            assert sorted(str(r.move) for r in ranked) == sorted(str(m) for m in legal)
            assert all(r.line and r.line[0] == str(r.move) for r in ranked)
            assert [r.value for r in ranked] == sorted((r.value for r in ranked), reverse=True)
            move = small_bot(seed).choose(g.view(seat), legal)
            assert move in legal
            phases.add(g.phase)
    assert "play" in phases


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_expectimax_plays_whole_games(preset, players):
    for seed in range(2):
        bots = [small_bot(seed) if i == seed % players else
                (GreedyBot() if i % 2 else RandomBot(seed + i)) for i in range(players)]
        game = Game(preset, players, seed=100 + seed)
        outcome = play_game(game, bots)
        assert game.is_over() and outcome == game.outcome()


def test_every_decision_kind_is_searched():
    """Flip choices and Go/Stop are max nodes of the searching seat."""
    seen = set()
    rng = random.Random(5)
    for seed in range(60):
        game = Game("casual", 2, seed=seed)
        while not game.is_over() and len(seen) < 3:
            if game.phase in ("flip", "gostop") and game.phase not in seen:
                ranked = small_bot().analyse(game.view(game.turn))
                assert {str(r.move) for r in ranked} == {str(m) for m in game.legal_moves}
                seen.add(game.phase)
            game.push(rng.choice(list(game.legal_moves)))
        if len(seen) == 2:
            break
    assert seen == {"flip", "gostop"}


def test_make_bot_expectimax():
    bot = make_bot("expectimax", seed=3)
    assert isinstance(bot, ExpectimaxBot) and bot.name == "expectimax"
    assert make_bot("expectimax:1").depth == 1


def test_search_needs_the_seat_to_move():
    game = Game(seed=2)
    rules, fields = parse_view(game.view(1).to_str())
    with pytest.raises(ValueError, match="not the one to move"):
        search_fields(rules, fields)


# ---------------------------------------------------------------- hidden information
def _permute_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position with the other hands and the stock dealt again from
    their cards (same counts): ``seat``'s view is unchanged."""
    f = game._core.to_fields()
    hidden = [c for q in range(game.players) if q != seat
              for c in range(50) if f["hands"][q] >> c & 1] + list(f["stock"])
    rng.shuffle(hidden)
    k = 0
    for q in range(game.players):
        if q == seat:
            continue
        count = bin(f["hands"][q]).count("1")
        f["hands"][q] = sum(1 << c for c in hidden[k:k + count])
        k += count
    f["stock"] = hidden[k:]
    from gostop_core.notation import format_position
    return Game.from_position(format_position(game.rules, f))


@pytest.mark.parametrize("preset,players", [("casual", 2), ("casual", 4), ("traditional", 3),
                                            ("standard", 2), ("family", 4)])
def test_search_never_reads_hidden_cards(preset, players):
    rng = random.Random(11)
    checked = 0
    for seed in range(3):
        game = Game(preset, players, seed=seed)
        for g in positions_along(game, rng, every=4):
            if g._core.to_fields().get("forced_card") is not None or g.phase == "showdown":
                continue
            seat = g.turn
            other = _permute_hidden(g, seat, rng)
            assert other.view(seat).to_str() == g.view(seat).to_str()
            if other.position() == g.position():
                continue
            a = small_bot(seed).analyse(g.view(seat))
            b = small_bot(seed).analyse(other.view(seat))
            assert [(str(r.move), r.value, r.line) for r in a] == \
                   [(str(r.move), r.value, r.line) for r in b]
            checked += 1
    assert checked >= 3


# ---------------------------------------------------------------- chance nodes
@pytest.mark.parametrize("preset,players", [("casual", 2), ("casual", 3), ("traditional", 2),
                                            ("family", 4)])
def test_flip_probabilities_sum_to_one(preset, players):
    game = Game(preset, players, seed=4)
    for _ in range(3):
        game.push(next(iter(game.legal_moves)))
    view = game.view(game.turn)
    rules, fields = parse_view(view.to_str())
    one = chance_distribution(rules, fields, samples=1, seed=1)
    assert len(one) == view.stock_count
    assert all(abs(p - 1 / view.stock_count) < 1e-12 for p in one.values())
    many = chance_distribution(rules, fields, samples=64, seed=2)
    assert abs(sum(many.values()) - 1.0) < 1e-9
    # only unseen cards can be turned, each as likely as any other
    assert set(many) <= set(view.unseen)
    assert all(CARD_CODES[c] in view.unseen.codes() for c in many)


# ---------------------------------------------------------------- gostop hint
def test_hint_json_ranks_every_legal_move():
    game = Game(seed=7)
    runner = CliRunner()
    result = runner.invoke(cli, ["hint", game.position(), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    legal = sorted(str(m) for m in game.legal_moves)
    assert sorted(m["move"] for m in data["moves"]) == legal
    values = [m["value"] for m in data["moves"]]
    assert values == sorted(values, reverse=True)
    assert data["best"] == data["moves"][0]["move"]
    assert all(m["line"][0] == m["move"] for m in data["moves"])
    assert data["seat"] == 0 and data["depth"] == ExpectimaxBot.DEPTH


def test_hint_from_a_view_string_matches_the_position():
    game = Game(seed=9)
    runner = CliRunner()
    a = json.loads(runner.invoke(cli, ["hint", game.position(), "--json"]).output)
    b = json.loads(runner.invoke(cli, ["hint", game.view(0).to_str(), "--json"]).output)
    assert a["moves"] == b["moves"]
    text = runner.invoke(cli, ["hint", game.view(0).to_str(), "--depth", "1"])
    assert text.exit_code == 0 and "depth 1" in text.output
    assert text.output.count("\n") == 1 + len(list(game.legal_moves))


def test_hint_errors():
    game = Game(seed=9)
    runner = CliRunner()
    result = runner.invoke(cli, ["hint", game.view(1).to_str()])
    assert result.exit_code == 2 and "seat 0 is to move" in result.output
    result = runner.invoke(cli, ["hint", "gostop/1 nonsense"])
    assert result.exit_code == 2


def test_principal_line_names_flips_and_opponents():
    game = Game(seed=3)
    ranked = ExpectimaxBot(0, samples=1).analyse(game.view(0))
    line = ranked[0].line
    assert any(e.startswith("flip:") for e in line)
    assert any(e.startswith("p1:") for e in line)
    assert CHANCE_SEAT == 7
