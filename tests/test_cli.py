"""The ``gostop`` command, driven through Click's test runner."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest
from click.testing import CliRunner

from gostop_core import FIELDS, Game, Move, preset_names
from gostop_core.bots import GreedyBot, play_game
from gostop_cli.main import cli
from gostop_cli.play import run_game


def runner() -> CliRunner:
    try:  # click < 8.2 mixes stderr into the output unless told not to
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def invoke(*args: str, input: str | None = None):
    return runner().invoke(cli, list(args), input=input, catch_exceptions=False)


# ---------------------------------------------------------------- the group
def test_version():
    result = invoke("--version")
    assert result.exit_code == 0
    assert re.fullmatch(r"gostop \d+\.\d+\.\d+\n", result.stdout)


@pytest.mark.parametrize("command", ["play", "deal", "perft", "score", "rules"])
def test_every_command_has_help_with_an_example(command):
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert f"gostop {command}" in result.stdout


def test_group_help_lists_commands():
    out = invoke("--help").stdout
    for command in ("play", "deal", "perft", "score", "rules"):
        assert command in out


# ---------------------------------------------------------------- deal
@pytest.mark.parametrize("seed,players,dealer", [(0, 2, 0), (7, 2, 1), (42, 3, 2), (99, 4, 3),
                                                 (2 ** 63, 2, 0)])
def test_deal_prints_the_seeded_position(seed, players, dealer):
    result = invoke("deal", "--seed", str(seed), "--players", str(players),
                    "--dealer", str(dealer))
    assert result.exit_code == 0
    text = result.stdout.strip()
    expected = Game(rules="casual", players=players, seed=seed, dealer=dealer)
    assert text == expected.position()
    assert Game.from_position(text) == expected


def test_deal_json():
    result = invoke("deal", "--seed", "5", "--players", "3", "--json")
    data = json.loads(result.stdout)
    assert {"position", "seed", "players", "rules"} <= set(data)
    assert data["seed"] == 5 and data["players"] == 3 and data["rules"] == "casual"
    assert data["position"] == Game(players=3, seed=5).position()


def test_deal_with_a_rules_override():
    result = invoke("deal", "--seed", "1", "--set", "threshold_2p=5", "--json")
    data = json.loads(result.stdout)
    assert data["rules"] == "casual+threshold_2p=5"
    assert Game.from_position(data["position"]).threshold() == 5


def test_deal_without_seed_names_the_random_seed():
    result = invoke("deal")
    assert result.exit_code == 0
    seed = int(re.search(r"# seed (\d+)", result.stderr).group(1))
    assert result.stdout.strip() == Game(seed=seed).position()


# ---------------------------------------------------------------- perft
@pytest.mark.parametrize("seed,players", [(0, 2), (3, 2), (11, 3), (5, 4)])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_matches_the_core(seed, players, depth):
    result = invoke("perft", "--seed", str(seed), "--players", str(players),
                    "--depth", str(depth))
    assert result.exit_code == 0
    nodes = int(re.search(r"Nodes searched: (\d+)", result.stdout).group(1))
    assert nodes == Game(players=players, seed=seed)._core.perft(depth, True)


@pytest.mark.parametrize("seed,players", [(1, 2), (8, 3), (13, 4)])
def test_perft_divide_sums_to_the_total(seed, players):
    game = Game(players=players, seed=seed)
    result = invoke("perft", "--seed", str(seed), "--players", str(players),
                    "--depth", "3", "--divide")
    lines = result.stdout.strip().splitlines()
    assert lines[-1].startswith("Nodes searched: ")
    total = int(lines[-1].split(": ")[1])
    split = dict(line.split(": ") for line in lines[:-1] if line)
    legal = {str(m) for m in game.legal_moves}
    assert set(split) == legal
    for move in split:
        assert Move.from_str(move) in game.legal_moves
    assert sum(int(v) for v in split.values()) == total == game._core.perft(3, True)


def test_perft_bulk_and_no_bulk_agree():
    bulk = invoke("perft", "--seed", "4", "--depth", "3", "--json")
    slow = invoke("perft", "--seed", "4", "--depth", "3", "--no-bulk", "--json")
    assert json.loads(bulk.stdout)["nodes"] == json.loads(slow.stdout)["nodes"]


def test_perft_json():
    data = json.loads(invoke("perft", "--seed", "2", "--depth", "2", "--json", "--divide").stdout)
    assert {"nodes", "seconds", "nodes_per_second", "divide"} <= set(data)
    assert data["nodes"] == sum(data["divide"].values())
    assert data["seconds"] >= 0
    plain = json.loads(invoke("perft", "--seed", "2", "--depth", "2", "--json").stdout)
    assert plain["divide"] is None and plain["nodes"] == data["nodes"]


def test_perft_from_a_position_string_and_from_stdin():
    game = Game(players=3, seed=21)
    for _ in range(3):
        game.push(next(iter(game.legal_moves)))
    position = game.position()
    expected = game._core.perft(3, True)
    a = invoke("perft", "--position", position, "--depth", "3")
    b = invoke("perft", "--position", "-", "--depth", "3", input=position + "\n")
    assert f"Nodes searched: {expected}" in a.stdout
    assert f"Nodes searched: {expected}" in b.stdout


def test_perft_depth_zero_is_one_node():
    assert "Nodes searched: 1" in invoke("perft", "--seed", "0", "--depth", "0").stdout


# ---------------------------------------------------------------- score
def test_score_three_brights_is_three_points():
    # seed 000: "3 brights = 3 points"
    result = invoke("score", "1B", "3B", "8B")
    assert result.exit_code == 0
    assert "total: 3" in result.stdout
    assert "brights: 3 card(s) -> 3" in result.stdout


def test_score_rain_bright_and_one_string():
    # seed 000: "but only 2 if one of them is the December Rain bright"
    result = invoke("score", "1B,3B, 12B")
    assert "total: 2" in result.stdout


def test_score_json():
    data = json.loads(invoke("score", "2A 4A 8A", "--json").stdout)
    assert data["total"] == 5 and data["godori_points"] == 5
    assert data["cards"] == ["2A", "4A", "8A"]


def test_score_other_presets():
    # standard rules: the rain ribbon does not count toward five ribbons
    casual = json.loads(invoke("score", "1R 4R 6R 7R 12R", "--json").stdout)
    standard = json.loads(invoke("score", "1R 4R 6R 7R 12R", "--rules", "standard",
                                 "--json").stdout)
    assert casual["total"] == 1 and standard["total"] == 0


# ---------------------------------------------------------------- rules
def test_rules_lists_every_field():
    out = invoke("rules").stdout
    for name in FIELDS:
        assert name in out
    assert "Playable" in out


@pytest.mark.parametrize("preset", preset_names())
def test_rules_json(preset):
    data = json.loads(invoke("rules", preset, "--json").stdout)
    assert set(data["fields"]) == set(FIELDS)
    assert data["playable"] is True
    assert data["fields"]["godori"]["description"]


# ---------------------------------------------------------------- bad input
BAD = [
    ("score", "13B"),
    ("score", "1B", "1B"),
    ("score", "X2", "--rules", "traditional"),
    ("score",),
    ("deal", "--players", "5"),
    ("deal", "--rules", "bogus"),
    ("deal", "--rules", "traditional", "--players", "4"),
    ("deal", "--set", "godori"),
    ("deal", "--set", "nosuchfield=1"),
    ("deal", "--set", "godori=500"),
    ("deal", "--dealer", "3"),
    ("deal", "--seed", "-1"),
    ("perft", "--position", "garbage"),
    ("perft", "--position", "gostop/1 rules=casual players=2"),
    ("perft", "--depth", "-1"),
    ("perft", "--depth", "0", "--divide"),
    ("perft", "--position", "x", "--seed", "3"),
    ("play", "--bot", "smart"),
    ("play", "--players", "3", "--bot", "greedy,random,random"),
    ("play", "--quiet"),
    ("play", "--players", "2", "--dealer", "2"),
    ("play", "--rules", "standard", "--set", "showdown=1"),
    ("nosuchcommand",),
]


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a) for a in BAD])
def test_bad_input_is_one_line_and_exit_2(args):
    result = runner().invoke(cli, list(args))
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.stderr


def test_duplicate_card_in_a_position_names_the_places():
    position = Game(seed=3).position()
    field = re.search(r"field=(\S+)", position).group(1)
    hand_card = re.search(r"hands=([^,|]+)", position).group(1)
    broken = position.replace(f"field={field}", f"field={field},{hand_card}")
    result = runner().invoke(cli, ["perft", "--position", broken])
    assert result.exit_code == 2
    assert result.stderr.strip() == \
        f"Error: hands: card {hand_card} appears twice (also in field)"


# ---------------------------------------------------------------- play
def outcome_line(output: str) -> str:
    match = re.search(r"(\S.*wins \d+ points.*|Draw: .*)", output)
    assert match, output[-2000:]
    return match.group(1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_auto_runs_a_whole_game(players):
    result = invoke("play", "--auto", "--players", str(players), "--seed", "17")
    assert result.exit_code == 0
    assert "Game over" in result.stdout
    outcome_line(result.stdout)
    # --auto puts greedy bots on every seat: the same game as the bots alone
    expected = play_game(Game(players=players, seed=17), [GreedyBot() for _ in range(players)])
    if expected.winner is None:
        assert "Draw:" in result.stdout
    else:
        assert f"Bot {expected.winner} (greedy) wins {expected.points} points" in result.stdout


def test_play_auto_quiet_prints_seed_and_outcome_only():
    result = invoke("play", "--auto", "--quiet", "--players", "3", "--seed", "4",
                    "--bot", "random,greedy,random")
    assert result.exit_code == 0
    assert "seed 4" in result.stdout and "Game over" in result.stdout
    assert "Turn 1" not in result.stdout


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("pause", [True, False])
def test_play_with_piped_input_to_the_end(players, pause):
    args = ["play", "--players", str(players), "--seed", str(30 + players)]
    if not pause:
        args.append("--no-pause")
    result = invoke(*args, input="1\n" * 400)
    assert result.exit_code == 0
    assert "Game over" in result.stdout
    outcome_line(result.stdout)
    if pause:
        assert "Press Enter to pass the turn" in result.stdout
    assert "Traceback" not in result.output


def test_play_random_seed_is_printed_for_replay():
    result = invoke("play", "--auto", "--quiet")
    seed = re.search(r"--seed (\d+)", result.stdout).group(1)
    again = invoke("play", "--auto", "--quiet", "--seed", seed)
    assert outcome_line(result.stdout) == outcome_line(again.stdout)


def test_play_end_of_input_ends_cleanly():
    result = invoke("play", "--seed", "3", input="1\n\n")
    assert result.exit_code == 0
    assert "End of input" in result.stdout
    assert "Game over" not in result.stdout
    assert "Traceback" not in result.output


def test_play_quit():
    result = invoke("play", "--seed", "3", input="q\n")
    assert result.exit_code == 0
    assert "You left the game" in result.stdout


def test_play_ctrl_c_exits_130(monkeypatch):
    def interrupted(prompt=""):
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    result = invoke("play", "--seed", "3")
    assert result.exit_code == 130
    assert "Interrupted" in result.stdout
    assert "Traceback" not in result.output


def test_play_bad_choices_reprompt_with_one_line():
    game = Game(seed=3)
    hand = set(game.hand(0).codes())
    missing = next(c for c in ("1B", "2A", "3B", "4A", "5A", "6A", "7A", "8B") if c not in hand)
    n = game.legal_moves.count()
    result = invoke("play", "--seed", "3", "--no-pause",
                    input=f"99\nnonsense\n{missing}\n1\n")
    out = result.stdout
    assert f"There is no choice 99: type a number from 1 to {n}" in out
    assert "Not a move:" in out
    assert f"Not possible: {missing} is not in your hand." in out
    assert "End of input" in out and result.exit_code == 0


def test_play_accepts_a_move_string():
    game = Game(seed=3)
    move = str(list(game.legal_moves)[-1])
    result = invoke("play", "--seed", "3", "--no-pause", input=f"{move.lower()}\n")
    card = move.split("/")[0]
    assert re.search(rf"You (banked the bonus card|played) {card}\b", result.stdout)


def test_board_shows_no_hidden_card():
    seed = 12
    game = Game(players=3, seed=seed)
    hidden = set(game.stock()) | set(game.hand(1).codes()) | set(game.hand(2).codes())
    result = invoke("play", "--players", "3", "--seed", str(seed), input="")
    first_screen = result.stdout.split("Choose")[0]
    shown = set(re.findall(r"\b(?:1[0-2]|[1-9])[BARJD]\d?\b|\bX[23]\b", first_screen))
    assert shown and not shown & hidden
    assert "D = dealer" in first_screen and "stock" in first_screen


def _human_flip_choice_game() -> Game:
    """A seeded game played with first-legal moves until seat 0 must choose
    what its flipped card takes."""
    for seed in range(500):
        game = Game(seed=seed)
        while not game.is_over():
            if game.phase == "flip" and game.turn == 0:
                return game
            game.push(next(iter(game.legal_moves)))
    raise AssertionError("no flip choice found")


def test_flip_choice_by_number_or_by_field_card(monkeypatch, capsys):
    game = _human_flip_choice_game()
    legal = list(game.legal_moves)
    target = legal[-1].target
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{target}\n"))
    code = run_game(game, [None, "greedy"], seed=0, pause=False)
    out = capsys.readouterr().out
    assert code == 0
    assert "matches two field cards: which one does it take?" in out
    assert re.search(rf"You took \S+ {target}\b|You took {target}\b", out)
