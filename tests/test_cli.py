"""The ``gostop`` command, driven through Click's test runner."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gostop_core import FIELDS, Game, Match, Move, Rules, preset_names
from gostop_core.bots import GreedyBot, capture_timing, visible_capture
from gostop_core.cards import card_month
from gostop_core.match import play_with_bots
from gostop_cli.main import cli
from gostop_cli.play import run_game
from gostop_core.testing.perft_suite import load_suite

#: (preset, players) for every player count each preset allows.
PRESET_PLAYERS = [(name, n) for name in preset_names() for n in Rules(name).allowed_players()]


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


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_deal_and_perft_accept_every_preset(preset, players):
    for seed in (0, 5):
        expected = Game(preset, players, seed=seed, dealer=1)
        result = invoke("deal", "--rules", preset, "--players", str(players), "--seed", str(seed),
                        "--dealer", "1")
        assert result.exit_code == 0, result.stderr
        text = result.stdout.strip()
        assert text == expected.position() and f"rules={preset}" in text
        assert Game.from_position(text) == expected
        perft = invoke("perft", "--rules", preset, "--players", str(players), "--seed", str(seed),
                       "--dealer", "1", "--depth", "3")
        assert perft.exit_code == 0
        assert f"Nodes searched: {expected.perft(3)}" in perft.stdout
        piped = invoke("perft", "--position", "-", "--depth", "2", "--divide", input=text)
        assert f"Nodes searched: {expected.perft(2)}" in piped.stdout


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


@pytest.mark.parametrize("args", [["casual"], ["traditional"], ["standard"], ["family"],
                                  ["casual", "--set", "gwangpalli=1"],
                                  ["standard", "--set", "showdown=1"]])
def test_rules_says_every_preset_is_playable(args):
    out = invoke("rules", *args).stdout
    assert "Playable: the engine implements every value above." in out
    assert "Not playable" not in out


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
    ("play", "--hands", "0"),
    ("play", "--rules", "traditional", "--players", "4"),
    ("play", "--rules", "standard", "--set", "showdown=2"),
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
REPORT_HEAD = re.compile(r"(You|Bot \d) (called Stop|reached the threshold on the last turn|"
                         r"held four of a month \(chongtong\)|made a third ppeok): \d+ point\(s\)|"
                         r"(?:nobody stopped|everyone received the showdown): the hand is drawn "
                         r"\(nagari\)|"
                         r"the stock is gone: card points against the break-even target")


def flat(output: str) -> str:
    """The output as one line: panel borders dropped and blanks collapsed, so
    that a check does not depend on where the 80-column screen wrapped."""
    return " ".join(output.replace("│", " ").split())


def report_heads(output: str) -> list[str]:
    return [m.group(0) for m in REPORT_HEAD.finditer(output)]


def first_hand(preset: str, seed: int, players: int = 2, dealer: int | None = 0) -> Game:
    """The first hand of the match ``gostop play --seed SEED --dealer 0`` deals."""
    return Match(preset, players, seed, dealer=dealer).new_hand()


def greedy_match(preset: str, players: int, seed: int, hands: int) -> Match:
    """The match ``gostop play --auto`` plays (greedy bots on every seat)."""
    match = Match(preset, players, seed)
    play_with_bots(match, [GreedyBot() for _ in range(players)], hands)
    return match


def final_ledger(output: str) -> dict[str, int]:
    line = re.search(r"^final (?:ledger|points): (.*)$", output, re.M).group(1)
    return {name: int(value) for name, value in re.findall(r"(Bot \d) \(\w+\) ([+-]?\d+)", line)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_auto_runs_a_whole_game(players):
    result = invoke("play", "--auto", "--players", str(players), "--seed", "17", "--bot", "greedy")
    assert result.exit_code == 0
    out = result.stdout
    assert "Hand over" in out and "Standings" in out
    # --auto puts greedy bots on every seat: the same hand as the bots alone
    match = greedy_match("casual", players, 17, 1)
    outcome = match.hands[0].outcome
    assert report_heads(out) == [outcome.report(["Bot 0", "Bot 1", "Bot 2", "Bot 3"])[0]]
    points = "Points won this hand: " + ", ".join(
        f"Bot {p} {c:+d}" if c else f"Bot {p} 0" for p, c in enumerate(outcome.chips))
    assert points in out


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_play_auto_quiet_plays_a_match_under_every_preset(preset, players):
    result = invoke("play", "--auto", "--quiet", "--rules", preset, "--players", str(players),
                    "--seed", "8", "--hands", "3", "--bot", "greedy")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0] == f"Go-Stop (고스톱) · {preset} rules · {players} players · 3 hands · seed 8"
    assert [line.split(" · ")[0] for line in lines[1:4]] == ["hand 1", "hand 2", "hand 3"]
    assert len(lines) == 5 and "Turn" not in result.stdout
    match = greedy_match(preset, players, 8, 3)
    ledger = final_ledger(result.stdout)
    assert ledger == {f"Bot {p}": c for p, c in enumerate(match.ledger)}
    for i, rec in enumerate(match.hands):
        assert lines[1 + i].startswith(f"hand {i + 1} · dealer Bot {rec.dealer}")
    if preset != "casual":  # chips change hands: they sum to zero
        assert sum(ledger.values()) == 0
        assert all(sum(rec.outcome.chips) == 0 for rec in match.hands)


def _match_with_a_nagari(preset: str, players: int) -> int:
    for seed in range(200):
        match = greedy_match(preset, players, seed, 2)
        if match.hands[0].outcome.reason == "draw":
            return seed
    raise AssertionError("no drawn first hand found")


def test_nagari_doubles_the_next_hand():
    seed = _match_with_a_nagari("traditional", 3)
    quiet = invoke("play", "--auto", "--quiet", "--rules", "traditional", "--players", "3",
                   "--seed", str(seed), "--hands", "2", "--bot", "greedy").stdout
    assert "nagari (nobody stopped), the next payment doubles" in quiet
    assert re.search(r"^hand 2 · dealer Bot \d · stakes x2: ", quiet, re.M)
    full = invoke("play", "--auto", "--rules", "traditional", "--players", "3",
                  "--seed", str(seed), "--hands", "2", "--bot", "greedy").stdout
    assert "The next hand's payment is doubled (nagari)." in full
    assert "stakes x2 (1 nagari before)" in full  # on the board of hand 2
    match = greedy_match("traditional", 3, seed, 2)
    winner = match.hands[1].outcome.winner
    if winner is not None and match.hands[1].outcome.reason == "stop":
        assert "nagari: stakes doubled by a drawn hand before" in full


def test_play_auto_quiet_prints_seed_and_outcome_only():
    result = invoke("play", "--auto", "--quiet", "--players", "3", "--seed", "4",
                    "--bot", "random,greedy,random")
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    assert "seed 4" in lines[0] and len(lines) == 3
    assert lines[1].startswith("hand 1 · dealer Bot 0: ")
    assert lines[2].startswith("final points: ")
    assert "Turn 1" not in result.stdout


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("pause", [True, False])
def test_play_with_piped_input_to_the_end(players, pause):
    args = ["play", "--players", str(players), "--seed", str(30 + players)]
    if not pause:
        args.append("--no-pause")
    result = invoke(*args, input="1\n" * 400)
    assert result.exit_code == 0
    assert "Hand over" in result.stdout and "Standings" in result.stdout
    assert len(report_heads(result.stdout)) == 1
    if pause:
        assert "Press Enter to continue" in result.stdout
    assert "Traceback" not in result.output


def test_play_a_match_waits_between_hands_and_ends_with_standings():
    result = invoke("play", "--rules", "standard", "--seed", "2", "--hands", "2", "--no-pause",
                    input="1\n" * 400)
    out = result.stdout
    assert result.exit_code == 0
    assert "Hand 1 of 2" in out and "Hand 2 of 2" in out
    assert "Ledger after hand 1 of 2" in out and "Press Enter to deal hand 2" in out
    assert "Final standings after 2 hands" in out
    assert len(report_heads(out)) == 2
    assert out.index("Ledger after hand 1") < out.index("Press Enter to deal hand 2") \
        < out.index("Hand 2 of 2 ")


def test_play_random_seed_is_printed_for_replay():
    result = invoke("play", "--auto", "--quiet")
    seed = re.search(r"--seed (\d+)", result.stdout).group(1)
    again = invoke("play", "--auto", "--quiet", "--seed", seed)
    assert result.stdout.splitlines()[2:] == again.stdout.splitlines()[1:]


def test_play_end_of_input_ends_cleanly():
    result = invoke("play", "--seed", "3", input="1\n\n")
    assert result.exit_code == 0
    assert "End of input" in result.stdout
    assert "Hand over" not in result.stdout
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
    game = first_hand("casual", 3)
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
    game = first_hand("casual", 3)
    move = str(list(game.legal_moves)[-1])
    result = invoke("play", "--seed", "3", "--no-pause", input=f"{move.lower()}\n")
    card = move.split("/")[0]
    assert re.search(rf"You (banked the bonus card|played|placed) {card}\b", result.stdout)


@pytest.mark.parametrize("preset", ["casual", "traditional"])
def test_board_shows_no_hidden_card(preset):
    seed = 12
    game = first_hand(preset, seed, players=3)
    hidden = set(game.stock()) | set(game.hand(1).codes()) | set(game.hand(2).codes())
    result = invoke("play", "--rules", preset, "--players", "3", "--seed", str(seed),
                    "--dealer", "0", input="")
    first_screen = result.stdout.split("Choose")[0]
    shown = set(re.findall(r"\b(?:1[0-2]|[1-9])[BARJD]\d?\b|\bX[23]\b", first_screen))
    assert shown and not shown & hidden
    assert "D = dealer" in first_screen and "stock" in first_screen


def _seed_where(preset: str, test, players: int = 2) -> tuple[int, Game]:
    for seed in range(400):
        game = first_hand(preset, seed, players)
        if not game.is_over() and test(game):
            return seed, game
    raise AssertionError("no such deal found")


def test_traditional_board_marks_stacks_and_describes_waiting_pairs():
    def stack_and_pair(game):
        months = [card_month(c) for c in game.field.codes()]
        return any(months.count(m) == 3 for m in months) and any(
            capture_timing(game.view(0), m) == "after_flip" for m in game.legal_moves)

    seed, game = _seed_where("traditional", stack_and_pair)
    out = invoke("play", "--rules", "traditional", "--seed", str(seed), "--dealer", "0",
                 input="").stdout
    assert re.search(r"\[\S+ \S+ \S+\] stack", out)
    view = game.view(0)
    move = next(m for m in game.legal_moves if capture_timing(view, m) == "after_flip")
    target = visible_capture(view, move)[1]
    assert re.search(rf"{re.escape(str(move))} +place {move.card} \([A-Z][a-z]+ [\w ,()]+\) on "
                     rf"{target} \([A-Z][a-z]+ [\w ,()]+\), captured after the flip", flat(out))
    assert "Go/Stop at 7 points" in out and "Chips" in out


def test_piped_traditional_game_with_a_shake():
    seed, game = _seed_where("traditional", lambda g: any(m.kind == "shake" for m in g.legal_moves))
    shake = next(m for m in game.legal_moves if m.kind == "shake")
    result = invoke("play", "--rules", "traditional", "--seed", str(seed), "--dealer", "0",
                    input=f"{shake}\n" + "1\n" * 400)
    out = result.stdout
    assert result.exit_code == 0
    assert re.search(rf"{shake} +shake: show \S+ \S+ \S+; doubles your payment if you win",
                     flat(out))
    assert f"You shook month {shake.month}" in out
    assert f"shook {shake.month}" in out  # the board shows the shake
    assert len(report_heads(out)) == 1 and "Standings" in out
    assert re.search(r"^│ Chips this hand: You [+-]?\d+, Bot 1 [+-]?\d+", out, re.M)
    if re.search(r"^│ You (called Stop|reached the threshold)", out, re.M):
        assert re.search(r"Bot 1 pays \d+ \(x\d+: [^)]*shake", out)
        assert "shake: the winner shook (x2 per shake)" in out


def test_piped_standard_game_with_a_bomb_and_a_flip_only_turn():
    def bomb_then_fliponly(game):
        bombs = [m for m in game.legal_moves if m.kind == "bomb"]
        if not bombs:
            return False
        game.push(bombs[0])
        bot = GreedyBot()
        while not game.is_over() and game.turn != 0:
            game.push(bot.choose(game.view(game.turn), list(game.legal_moves)))
        return not game.is_over() and Move("fliponly") in game.legal_moves

    seed, _ = _seed_where("standard", bomb_then_fliponly)
    game = first_hand("standard", seed)
    bomb = next(m for m in game.legal_moves if m.kind == "bomb")
    result = invoke("play", "--rules", "standard", "--seed", str(seed), "--dealer", "0",
                    "--no-pause", input=f"{bomb}\nfliponly\n" + "1\n" * 400)
    out = flat(result.stdout)
    assert result.exit_code == 0
    assert "you then owe 2 flip-only turns, to use when you like" in out
    assert "You dropped a bomb" in out
    assert "fliponly flip-only turn: play no card, only flip the stock (2 owed after your bomb)" \
        in out
    assert "You: a flip-only turn (after the bomb)" in out
    assert "1 bomb" in out  # the board shows it
    assert len(report_heads(out)) == 1


def test_family_board_and_report():
    result = invoke("play", "--rules", "family", "--players", "3", "--seed", "4", "--no-pause",
                    input="1\n" * 400)
    out = result.stdout
    assert result.exit_code == 0
    assert "card points, break-even 80" in out
    assert "No Go/Stop: the stock is played out" in out
    assert report_heads(out) == ["the stock is gone: card points against the break-even target"]
    assert re.search(r"Player +Brights +Ribbons +Animals +Card points +Set bonus +Balance", out)
    assert "balance = card points - 80 (240 / 3)" in out
    assert "Balance this hand: You" in out
    assert "Go or Stop" not in out


def _human_flip_choice_game(preset: str = "casual") -> Game:
    """A seeded game played with first-legal moves until seat 0 must choose
    what its flipped card takes (under traditional rules: with a pair waiting)."""
    for seed in range(500):
        game = Game(preset, seed=seed)
        while not game.is_over():
            if game.phase == "flip" and game.turn == 0:
                view = game.view(0)
                if preset == "casual" or (view.played_card and view.played_target):
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


def test_flip_choice_shows_the_waiting_pair(monkeypatch, capsys):
    game = _human_flip_choice_game("traditional")
    view = game.view(0)
    monkeypatch.setattr(sys, "stdin", io.StringIO("b\n1\n"))
    run_game(game, [None, "greedy"], seed=0, pause=False)
    out = capsys.readouterr().out
    assert (f"(Your {view.played_card} waits on {view.played_target}: the pair is taken once "
            "this flip is settled.)") in out
    assert f"[{view.played_target}+{view.played_card}] pair waits for the flip" in out
    assert f"You took the waiting pair {view.played_target} {view.played_card}" in out


def test_showdown_answered_at_the_keyboard():
    # standard rules with the showdown of 003: a random bot asks, you refuse
    result = invoke("play", "--rules", "standard", "--set", "showdown=1", "--players", "3",
                    "--seed", "2", "--dealer", "0", "--bot", "random", "--no-pause",
                    input="refuse\n1\n" * 300)
    out = flat(result.stdout)
    assert result.exit_code == 0
    card = re.search(r"Bot \d asks for a showdown, showing (\S+), another player's win-card: "
                     r"receive it or refuse\?", out).group(1)
    assert "refuse refuse the showdown: the asker must lay the card down" in out
    assert f"You refuse the showdown: {card} must be laid down" in out
    assert len(report_heads(result.stdout)) == 1


def test_gwangpalli_seat_sits_out():
    quiet = invoke("play", "--auto", "--quiet", "--players", "4", "--set", "gwangpalli=1",
                   "--seed", "3", "--hands", "2")
    assert quiet.exit_code == 0 and quiet.stdout.count("\nhand ") == 2
    full = invoke("play", "--auto", "--players", "4", "--set", "gwangpalli=1", "--seed", "3")
    assert "sits out" in full.stdout


# ---------------------------------------------------------------- perft --reference, --suite
SUITE_DIR = Path(__file__).resolve().parent / "perft"


@pytest.mark.parametrize("args", [("--seed", "1"), ("--seed", "6", "--players", "3"),
                                  ("--rules", "traditional", "--seed", "2"),
                                  ("--rules", "family", "--players", "4", "--seed", "9")])
def test_perft_reference_counts_what_the_core_counts(args):
    core = invoke("perft", *args, "--depth", "3")
    ref = invoke("perft", *args, "--depth", "3", "--reference")
    assert ref.exit_code == 0, ref.stderr
    assert ref.stdout == core.stdout and core.stdout.startswith("Nodes searched: ")
    data = json.loads(invoke("perft", *args, "--depth", "2", "--reference", "--json",
                             "--divide").stdout)
    plain = json.loads(invoke("perft", *args, "--depth", "2", "--json", "--divide").stdout)
    assert data["engine"] == "reference" and plain["engine"] == "core"
    assert data["nodes"] == plain["nodes"] and data["divide"] == plain["divide"]


def test_perft_reference_from_a_position_in_the_middle_of_a_hand():
    game = Game("standard", 3, seed=12)
    for _ in range(5):
        game.push(next(iter(game.legal_moves)))
    position = game.position()
    result = invoke("perft", "--position", "-", "--depth", "3", "--reference", "--divide",
                    input=position)
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == f"Nodes searched: {game.perft(3)}"
    assert {k: int(v) for k, v in (line.split(": ") for line in lines[:-2])} == \
        {str(m): n for m, n in game.divide(3).items()}


def test_perft_suite_passes(tmp_path):
    result = invoke("perft", "--suite", str(SUITE_DIR / "tricky.perft"), "--max-depth", "2")
    assert result.exit_code == 0, result.stdout
    lines = result.stdout.strip().splitlines()
    entries = load_suite(SUITE_DIR / "tricky.perft")
    checks = sum(1 for e in entries for d, _ in e.counts if d <= 2)
    assert len(lines) == checks + 1
    assert all(re.match(r"ok +\S+ +depth +[0-2] +\d+ +\d+\.\d{3} s$", line) for line in lines[:-1])
    assert re.fullmatch(rf"tricky\.perft: {checks} counts of {len(entries)} entries checked with "
                        r"the core: all ok \(\d+\.\d\d s\)", lines[-1])
    both = invoke("perft", "--suite", str(SUITE_DIR / "deals.perft"), "--max-depth", "2",
                  "--reference")
    assert both.exit_code == 0
    assert "checked with the core and the reference engine: all ok" in both.stdout


def test_perft_suite_mismatch_prints_both_divides_and_exits_1(tmp_path):
    path = tmp_path / "wrong.perft"
    path.write_text("id right\ndeal casual 2 1\nperft 1 12\n\n"
                    "id wrong\ndeal casual 2 1\nperft 2 131\n")
    result = invoke("perft", "--suite", str(path), "--reference")
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    assert out[0].startswith("ok        right  depth  1          12")
    assert out[1].startswith("MISMATCH  wrong  depth  2  expected 131, core 130, reference 130")
    assert out[2] == ("    the engines' divides agree: the count in the file is wrong "
                      "(or both engines are)")
    assert out[3].split() == ["move", "core", "reference"]
    divide = {str(m): n for m, n in Game(seed=1).divide(2).items()}
    rows = [row.split() for row in out[4:4 + len(divide)]]
    assert rows == [[m, str(n), str(n)] for m, n in divide.items()]
    assert sum(divide.values()) == 130
    assert out[-1].startswith("wrong.perft: 2 counts of 2 entries checked with the core and the "
                              "reference engine: 1 MISMATCH (")
    data = json.loads(invoke("perft", "--suite", str(path), "--json").stdout)
    assert data["mismatches"] == 1 and data["checks"] == 2 and data["engine"] == "core"
    bad = data["results"][1]
    assert not bad["ok"] and bad["core"] == 130 and sum(bad["divide_core"].values()) == 130
    assert bad["divide_core"] == bad["divide_reference"] and bad["first_difference"] is None


def test_perft_suite_names_the_first_move_where_the_engines_differ(tmp_path, monkeypatch):
    from gostop_core.testing.reference import ReferenceGame
    real = ReferenceGame.legal_moves
    # a broken reference: it never lets seat 1 play 3B
    monkeypatch.setattr(ReferenceGame, "legal_moves", lambda self: [
        m for m in real(self) if not (self.s.to_move == 1 and m.startswith("3B"))])
    path = tmp_path / "s.perft"
    path.write_text("id seed1\ndeal casual 2 1\nperft 1 12\nperft 2 130\n")
    result = invoke("perft", "--suite", str(path), "--reference")
    assert result.exit_code == 1
    out = result.stdout
    assert "MISMATCH  seed1  depth  2  expected 130, core 130, reference 118" in out
    first = re.search(r"first move where the engines differ: (\S+): core (\d+), "
                      r"reference (\d+)", out)
    assert first is not None and first.group(2) == "11" and first.group(3) == "10"
    assert re.search(rf"^    {re.escape(first.group(1))} +11 +10  <- differs$", out, re.M)


@pytest.mark.parametrize("text, message", [
    ("id x\ndeal casual 2\n", "Error: s.perft:2: expected 'deal PRESET PLAYERS SEED [DEALER]'"),
    ("id x\nperft 1 2\n", "Error: s.perft:1: entry 'x' has no position"),
    ("id x\ndeal casual 2 1\nperft one 2\n", "Error: s.perft:3: DEPTH must be a number 0..64, got 'one'"),
    ("id x\nposition gostop/1 rules=casual\n", "Error: s.perft:2: "),
    ("id x\ndeal casual 5 1\nperft 1 1\n", "Error: s.perft:2: "),
])
def test_perft_suite_malformed_is_one_line_exit_2(tmp_path, text, message):
    path = tmp_path / "s.perft"
    path.write_text(text)
    result = runner().invoke(cli, ["perft", "--suite", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), result.stderr


@pytest.mark.parametrize("args", [
    ("perft", "--suite", "/no/such/file.perft"),
    ("perft", "--suite", "-", "--depth", "3"),
    ("perft", "--suite", "-", "--seed", "3"),
    ("perft", "--suite", "-", "--divide"),
    ("perft", "--max-depth", "3"),
])
def test_perft_suite_bad_arguments(args):
    result = runner().invoke(cli, list(args), input="")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")


def test_perft_suite_not_utf8_is_one_line(tmp_path):
    path = tmp_path / "bin.perft"
    path.write_bytes(b"id \xff\xfe\n")
    result = runner().invoke(cli, ["perft", "--suite", str(path)])
    assert result.exit_code == 2 and result.stderr.startswith("Error: cannot read bin.perft")


# ---------------------------------------------------------------- play --reference
@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_play_reference_auto_quiet_runs_a_match(preset, players):
    args = ("play", "--auto", "--quiet", "--rules", preset, "--players", str(players),
            "--seed", "5", "--hands", "3", "--bot", "greedy")
    plain = invoke(*args)
    checked = invoke(*args, "--reference")
    assert checked.exit_code == 0, checked.stderr
    lines = checked.stdout.strip().splitlines()
    assert lines[:-1] == plain.stdout.strip().splitlines()   # the same match
    decisions = sum(len(rec.moves) for rec in greedy_match(preset, players, 5, 3).hands)
    assert lines[-1] == (f"reference engine: agreed with the core on all {decisions} decisions "
                         "of 3 hands (legal moves, state, events, outcome)")


def test_play_reference_one_hand_with_the_board():
    result = invoke("play", "--auto", "--reference", "--seed", "17")
    assert result.exit_code == 0
    assert "Hand over" in result.stdout
    assert result.stdout.strip().splitlines()[-1].endswith(
        "decisions of 1 hand (legal moves, state, events, outcome)")


def test_play_reference_at_the_keyboard():
    result = invoke("play", "--reference", "--seed", "4", "--no-pause", input="1\n" * 40)
    assert result.exit_code == 0
    assert "reference engine: agreed with the core on all" in result.stdout


def test_play_reference_disagreement_stops_with_exit_1(monkeypatch):
    from gostop_core.testing.reference import ReferenceGame
    real = ReferenceGame.legal_moves
    monkeypatch.setattr(ReferenceGame, "legal_moves",
                        lambda self: [m for m in real(self) if m != "go"])
    result = runner().invoke(cli, ["play", "--auto", "--quiet", "--reference", "--seed", "1",
                                   "--hands", "20", "--rules", "traditional"])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and re.match(
        r"Error: the core and the reference engine disagree after decision \d+ \(\S+\): "
        r"legal moves differ: core go stop, reference stop$", lines[0]), result.stderr
    assert "Traceback" not in result.stderr
