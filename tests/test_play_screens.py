"""What a person sees and may type in ``gostop play``: the legend and the
commands, hint values in the payout's units, the flow of the screens, cards in
words and colours, the rules line, practice take-backs and quitting a match.
Driven by scripted keys through Click's runner or ``run_game``."""

from __future__ import annotations

import io
import json
import os
import re
import sys

import pytest
from click.testing import CliRunner
from rich.console import Console

from gostop_core import Game, Match, Rules, preset_names
from gostop_core.bots import GreedyBot
from gostop_core.bots.analysis import hint_moves, public_line
from gostop_cli.board import KIND_STYLE, card_words, render_board, to_text
from gostop_cli.main import cli
from gostop_cli.play import run_game
from gostop_cli.prompt import COMMANDS

PRESET_PLAYERS = [(name, n) for name in preset_names() for n in Rules(name).allowed_players()]
LEGEND = re.compile(r"^\? hint · h help · b board · p position( · u take back)? · q quit$",
                    re.M)


def runner() -> CliRunner:
    try:  # click < 8.2 mixes stderr into the output unless told not to
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def invoke(*args: str, input: str | None = None, env: dict | None = None):
    return runner().invoke(cli, list(args), input=input, catch_exceptions=False, env=env)


def greedy_until(game: Game, stop) -> Game:
    """Play ``game`` with greedy bots until ``stop(game)`` holds (or it ends)."""
    bot = GreedyBot()
    while not game.is_over() and not stop(game):
        game.push(bot.choose(game.view(game.turn), list(game.legal_moves)))
    return game


def gostop_for_seat0(preset: str, players: int = 2) -> Game:
    """A hand where seat 0 decides Go or Stop."""
    for seed in range(300):
        game = greedy_until(Game(preset, players, seed=seed),
                            lambda g: g.phase == "gostop" and g.turn == 0)
        if not game.is_over():
            return game
    raise AssertionError("no Go/Stop decision for seat 0")


def scripted(monkeypatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


# ---------------------------------------------------------------- 1. legend and commands
@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_every_decision_screen_has_the_legend(preset, players):
    out = invoke("play", "--rules", preset, "--players", str(players), "--seed", "4",
                 "--no-pause", input="1\n" * 400).stdout
    prompts = len(re.findall(r"^(Choose 1-\d+ or type a move|Type 1 \(or Enter\) to confirm): ",
                             out, re.M))
    assert prompts > 0
    assert len(LEGEND.findall(out)) == prompts


@pytest.mark.parametrize("word,expected", [
    ("hint", "Hint: all "), ("?", "Hint: all "),
    ("help", "Type the number of a choice, or a move"), ("h", "Cards: B bright"),
    ("position", "gostop-view/1 "), ("p", "gostop-view/1 "),
    ("board", "Your hand"),
])
def test_command_words_and_keys_are_accepted(word, expected):
    out = invoke("play", "--seed", "7", "--no-pause", input=f"{word}\n").stdout
    assert expected in out
    assert "unknown card code" not in out


def test_quit_word_leaves():
    result = invoke("play", "--seed", "7", input="quit\n")
    assert result.exit_code == 0 and "You left the game." in result.stdout


def test_position_hides_the_full_position_outside_practice():
    out = invoke("play", "--seed", "7", "--dealer", "0", input="p\n").stdout
    game = Match("casual", 2, 7, dealer=0).new_hand()
    assert game.view(0).to_str() in out
    assert game.position() not in out
    practice = invoke("play", "--seed", "7", "--dealer", "0", "--practice", input="p\n").stdout
    assert game.position() in practice


def test_help_names_every_command_in_the_same_words():
    out = invoke("play", "--seed", "7", input="help\n").stdout
    helptext = invoke("play", "--help").stdout
    docs = open(os.path.join(os.path.dirname(__file__), "..", "docs", "cli.md"),
                encoding="utf-8").read()
    for command in COMMANDS:
        keys = " or ".join(command.keys[:2])
        assert re.search(rf"{re.escape(keys)} +{re.escape(command.help)}", helptext), keys
        assert (f"| `{command.keys[0]}` | `{command.keys[1]}` | {command.help} |") in docs
        if command.name != "undo":  # offered with --practice only
            assert command.help in " ".join(out.split())


# ---------------------------------------------------------------- 2. values in payout units
def stop_pays(game: Game) -> int:
    """What a Stop now brings seat 0, as the Stop line of the menu says it: the
    points (casual), or what the opponents pay (chip rules)."""
    sv = game.view(0).stop_value
    return sv["base"] if game.rules.payment == 0 else sum(sv["pay"])


@pytest.mark.parametrize("preset", ["casual", "traditional", "standard"])
def test_a_stop_is_worth_what_it_pays(preset):
    game = gostop_for_seat0(preset)
    after = game.copy()
    after.push("stop")
    paid = after.outcome().chips[0] - game.view(0).chips[0]
    assert paid == stop_pays(game)
    ranked = {str(r.move): r.value for r in hint_moves(game.view(0), samples=16)}
    assert ranked["stop"] == pytest.approx(paid)
    result = invoke("hint", game.view(0).to_str(), "--samples", "16", "--json")
    data = json.loads(result.stdout)
    assert data["unit"] == ("points" if preset == "casual" else "chips")
    stop = next(m for m in data["moves"] if m["move"] == "stop")
    assert stop["value"] == pytest.approx(paid)


def test_chips_paid_earlier_in_the_hand_are_not_counted_again():
    # traditional, match seed 75: Bot 1's first-turn ppeok costs you 3 chips at once;
    # later a Stop would bring 36 (the menu: "Bot 1 pays 36"), and the hint says so
    match = Match("traditional", 2, 75)
    game = match.new_hand()
    game = greedy_until(game, lambda g: g.turn == 0 and g.view(0).chips[0] < 0
                        and g.phase == "gostop")
    if game.is_over():
        pytest.skip("no Go/Stop decision after chips were paid")
    ranked = {str(r.move): r.value for r in hint_moves(game.view(0), samples=8)}
    assert ranked["stop"] == pytest.approx(stop_pays(game))


def test_the_in_game_hint_of_a_stop_matches_the_menu(monkeypatch, capsys):
    game = gostop_for_seat0("casual")
    sv = game.view(0).stop_value
    scripted(monkeypatch, "hint\nq\n")
    run_game(game, [None, "greedy"], seed=0, pause=False)
    out = capsys.readouterr().out
    assert f"win {sv['base']} points" in out
    value = re.search(r"^\s+\d+\) stop +([+-]\d+\.\d\d)   ", out, re.M).group(1)
    assert float(value) == pytest.approx(sv["base"])


# ---------------------------------------------------------------- 3. every move, public lines
def test_the_in_game_hint_lists_every_move_and_no_hidden_card(monkeypatch, capsys):
    game = Match("casual", 2, 7, dealer=0).new_hand()
    legal = [str(m) for m in game.legal_moves]
    scripted(monkeypatch, "?\nq\n")
    run_game(game, [None, "greedy"], seed=0, pause=False)
    out = capsys.readouterr().out
    assert f"Hint: all {len(legal)} moves" in out
    rows = re.findall(r"^\s+\d+\) (\S+) +[+-]\d+\.\d\d   (.*)$", out, re.M)
    assert sorted(m for m, _ in rows) == sorted(legal)
    view = game.view(0)
    known = set(view.hand.codes()) | set(view.field.codes())
    for _, line in rows:
        for token in line.replace("Bot 1", "Bot1").split():
            if token in ("flip", "Bot1", "?"):
                continue
            cards = re.findall(r"\d+[BARJDX]\d?|X\d", token)
            assert cards and set(cards) <= known, (token, line)


def test_public_line_hides_sampled_cards():
    line = ["3B", "flip:5A", "p1:4R/4A", "flip:X3", "7J1", "10A"]
    assert public_line(line, ["You", "Bot 1"], known=["3B", "7J1"]) == [
        "3B", "flip", "Bot 1", "flip", "7J1", "?"]
    assert public_line(line)[:3] == ["3B", "flip", "p1"]


def test_gostop_hint_text_shows_no_sampled_card():
    position = Game("casual", 2, seed=7).position()
    out = invoke("hint", position, "--samples", "8").stdout
    assert "flip:" not in out and "p1:" not in out
    assert "values: expected net points from here" in out


def test_the_in_game_hint_is_keyed_by_the_menu_numbers(monkeypatch, capsys):
    # gostop play --seed 7 (issue 25): the hint listed "2. 7J2" while menu item 2) was
    # 3J2; now each hinted move carries its menu number, best first
    game = Match("casual", 2, 7).new_hand()
    legal = list(game.legal_moves)
    scripted(monkeypatch, "?\nq\n")
    run_game(game, [None, "greedy"], seed=0, pause=False)
    out = capsys.readouterr().out
    assert "The numbers are the menu's" in out
    hint = out[out.index("Hint: all"):]
    rows = re.findall(r"^\s+(\d+)\) (\S+) +([+-]\d+\.\d\d)   ", hint, re.M)
    assert len(rows) == len(legal)
    for number, move, _ in rows:
        assert str(legal[int(number) - 1]) == move
    values = [float(v) for _, _, v in rows]
    assert values == sorted(values, reverse=True)


# ---------------------------------------------------------------- 4. flow
def test_between_turns_the_wait_says_continue():
    out = invoke("play", "--seed", "5", input="1\n" * 400).stdout
    assert "Press Enter to continue (q quits)" in out
    assert "pass the turn" not in out


def test_a_bot_dealer_moves_after_you_have_seen_the_board():
    out = invoke("play", "--seed", "5", "--dealer", "1", input="1\n" * 400).stdout
    assert out.index("Your hand") < out.index("Turn 1 · Bot 1")


def test_one_choice_is_confirmed_not_chosen_from_1_to_1():
    # The search starts at seed 25, the first standard deal (of seeds 0-39) in
    # which always playing menu item 1 meets a single-choice decision.
    for seed in range(25, 40):
        out = invoke("play", "--rules", "standard", "--seed", str(seed), "--no-pause",
                     input="1\n" * 400).stdout
        assert "Choose 1-1 " not in out
        if "Type 1 (or Enter) to confirm" in out:
            return
    pytest.skip("no single-choice decision in these deals")


def test_the_final_board_owes_no_flip_only_turn():
    game = greedy_until(Game("standard", 2, seed=0), lambda g: False)
    assert "flip-only" not in to_text(render_board(game))


def test_the_bomb_is_explained_once():
    # traditional, seed 2: greedy bots, the winner shook and dropped a bomb
    game = greedy_until(Game("traditional", 2, seed=2), lambda g: False)
    from gostop_cli.board import report_renderables
    from rich.console import Group
    text = to_text(Group(*report_renderables(game, game.outcome(), ["You", "Bot 1"])))
    assert text.count("bomb counts as a shake") == 1


def test_a_go_with_an_empty_hand_is_explained():
    from gostop_cli.narration import Narrator
    from gostop_core import Move
    for seed in range(400):
        game = greedy_until(Game("casual", 2, seed=seed),
                            lambda g: g.phase == "gostop" and not len(g.hand(g.turn)))
        if not game.is_over():
            view = game.view(game.turn)
            text = Narrator(game, ["You", "Bot 1"]).describe(view, Move("go"))
            assert "your hand is empty" in text and "can only" in text
            return
    pytest.skip("no Go/Stop decision with an empty hand in these deals")


# ---------------------------------------------------------------- 5. cards
def test_cards_in_words():
    assert card_words("11D") == "Nov double junk"
    assert card_words("12B") == "Dec bright, rain"
    assert card_words("8B", korean=True) == "8월 공산 광"  # the Korean table's name
    out = invoke("play", "--rules", "traditional", "--seed", "75", "--dealer", "0",
                 input="").stdout
    assert re.search(r"\(\w{3} (junk|bright|animal|ribbon|double junk)", out)
    korean = invoke("play", "--rules", "traditional", "--seed", "75", "--dealer", "0",
                    "--korean", input="").stdout
    assert "월" in korean and "바닥  " in korean


def test_card_colours_suit_dark_and_light_terminals():
    """No text in a colour that vanishes on a dark or on a light background
    (white, black, yellow, cyan); borders may be coloured."""
    pale = re.compile(r"\b(white|black|yellow|bright_\w+|cyan)\b|\bon ")
    for kind, style in KIND_STYLE.items():
        assert not pale.search(style), (kind, style)
    src = os.path.join(os.path.dirname(__file__), "..", "src", "gostop_cli")
    for name in os.listdir(src):
        if name.endswith(".py"):
            text = open(os.path.join(src, name), encoding="utf-8").read()
            for style in re.findall(r'(?<!border_)style="([^"]*)"', text):
                assert not pale.search(style), (name, style)


def test_no_color_is_respected(monkeypatch):
    game = Game("standard", 2, seed=3)
    buf = io.StringIO()
    Console(file=buf, force_terminal=True, color_system="truecolor").print(render_board(game))
    assert re.search(r"\x1b\[[0-9;]*3[0-9;]*m", buf.getvalue())  # coloured by default
    monkeypatch.setenv("NO_COLOR", "1")
    buf = io.StringIO()
    Console(file=buf, force_terminal=True, color_system="truecolor").print(render_board(game))
    assert not re.search(r"\x1b\[(\d+;)*(3[0-7]|38|9[0-7])(;\d+)*m", buf.getvalue())


# ---------------------------------------------------------------- 6. presets in words
@pytest.mark.parametrize("preset", preset_names())
def test_the_first_screen_says_which_rules_are_in_force(preset):
    out = invoke("play", "--rules", preset, "--seed", "1", input="").stdout
    assert re.search(rf"^Rules: {preset}, \S", out, re.M)
    assert not re.search(r"seeds? 0\d\d", out)


def test_no_user_text_names_a_preset_by_its_seed():
    root = os.path.join(os.path.dirname(__file__), "..")
    paths = [os.path.join(root, "README.md"), os.path.join(root, "docs", "cli.md")]
    src = os.path.join(root, "src", "gostop_cli")
    paths += [os.path.join(src, f) for f in os.listdir(src) if f.endswith(".py")]
    for path in paths:
        text = open(path, encoding="utf-8").read()
        assert not re.search(r"\bseeds? 0\d\d", text), path
        assert not re.search(r"\bissue \d+\b|work item", text, re.I), path


# ---------------------------------------------------------------- 9. practice and quitting
def test_practice_takes_back_the_last_decision(monkeypatch, capsys):
    game = Match("casual", 2, 7, dealer=0).new_hand()
    start = game.position()
    scripted(monkeypatch, "1\n\nu\nq\n")
    run_game(game, [None, "greedy"], seed=0, pause=True, practice=True)
    out = capsys.readouterr().out
    assert "Taken back: your " in out
    assert game.position() == start and not game.move_stack


def test_take_back_needs_practice():
    out = invoke("play", "--seed", "7", input="u\nq\n").stdout
    assert "'u' is not available here." in out
    result = invoke("play", "--practice", "--auto")
    assert result.exit_code == 2


def test_a_match_asks_before_quitting():
    result = invoke("play", "--hands", "3", "--seed", "7", "--no-pause", input="q\nn\nq\ny\n")
    out = result.stdout
    assert "Leave the match in hand 1 of 3?" in out
    assert "The match goes on." in out
    assert "You left the game." in out and result.exit_code == 0
    single = invoke("play", "--seed", "7", input="q\n").stdout
    assert "Leave the match" not in single and "You left the game." in single


# ---------------------------------------------------------------- in a real terminal
def pty_session(keys: list[str], env: dict[str, str], args: tuple[str, ...] = ()) -> str:
    """Run ``gostop play`` in a pseudo-terminal, typing each of ``keys`` once the
    output has settled; returns everything it printed."""
    import pty
    import select
    import subprocess
    import time
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gostop_cli", "play", "--seed", "7", "--dealer", "0", *args],
        stdin=slave, stdout=slave, stderr=slave, close_fds=True,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm-256color", **env})
    os.close(slave)
    out = b""

    def read(seconds: float) -> None:
        nonlocal out
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                out += chunk

    try:
        read(3.0)
        for key in keys:
            os.write(master, key.encode() + b"\r")
            read(1.5)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return out.decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_in_a_terminal_cards_are_coloured_unless_no_color():
    coloured = pty_session(["help", "quit"], {})
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", coloured)
    assert "Cards: B bright" in text and "You left the game." in text
    assert re.search(r"\x1b\[[0-9;]*38;5;\d+[0-9;]*m", coloured)  # 256-colour kinds
    plain = pty_session(["help", "quit"], {"NO_COLOR": "1"})
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", plain)
    assert "Cards: B bright" in text and "You left the game." in text
    assert not re.search(r"\x1b\[(\d+;)*(3[0-7]|38|9[0-7])(;\d+)*m", plain)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_in_a_terminal_practice_takes_back_a_move():
    out = pty_session(["3", "", "u", "quit"], {}, ("--practice",))
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out)
    chosen = re.search(r"\n\s*3\) (\S+)", plain).group(1)  # the third choice of the menu
    assert re.search(rf"Taken back: your {re.escape(chosen)}\b", plain)
    first_prompt = re.search(r"Choose 1-\d+ or type a move", plain).group(0)
    assert plain.count(first_prompt) >= 2


# ---------------------------------------------------------------- 7. first screen, stale texts
def test_the_first_screen_names_the_rules_and_how_to_get_matgo():
    out = invoke("play", "--seed", "7", input="q\n").stdout
    head = out[:out.index("You are seat 0")]
    assert "Rules: casual, quick screen rules" in head
    assert "Matgo, the full Korean rules: gostop play --rules standard" in head
    standard = invoke("play", "--seed", "7", "--rules", "standard", input="q\n").stdout
    assert "Rules: standard, the full Korean rules (Matgo)" in standard
    assert "gostop play --rules standard" not in standard


def test_the_help_names_the_best_bot_not_a_greedy_one():
    for args in ([], ["play"]):
        out = invoke(*args, "--help").stdout
        assert "against a greedy bot" not in out
        assert "against the best bot" in out


@pytest.mark.parametrize("preset", ["standard", "traditional"])
def test_four_players_under_a_two_or_three_player_preset_says_what_to_set(preset):
    result = invoke("play", "--rules", preset, "--players", "4")
    assert result.exit_code == 2
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1
    assert "--set allow_4p=1 --set gwangpalli=1" in err
    result = invoke("play", "--rules", preset, "--players", "4", "--set", "gwangpalli=1")
    assert result.exit_code == 2
    assert "set both: --set allow_4p=1 --set gwangpalli=1" in result.stderr
    # and what it says works
    result = invoke("play", "--rules", preset, "--players", "4", "--set", "allow_4p=1",
                    "--set", "gwangpalli=1", "--auto", "--quiet", "--seed", "3")
    assert result.exit_code == 0, result.output


def test_the_replay_says_you_play(tmp_path):
    saved = tmp_path / "games.jsonl"
    invoke("play", "--seed", "5", "--no-pause", "--save", str(saved), input="1\n" * 400)
    out = invoke("replay", str(saved), input="\n\n\n\nq\n").stdout
    assert "You play" in out
    assert "You plays" not in out


# ---------------------------------------------------------------- 8. fewer Enters: --redraw
@pytest.mark.parametrize("players", [3, 4])
def test_redraw_needs_no_enter_between_your_moves(players):
    result = invoke("play", "--players", str(players), "--seed", "7", "--redraw",
                    "--bot", "greedy", input="1\n" * 400)
    out = result.stdout
    assert result.exit_code == 0 and "Hand over" in out
    # the only prompts are your decisions: no Enter between them
    assert "Press Enter" not in out
    prompts = re.findall(r"^(?:Choose 1-\d+ or type a move|Type 1 \(or Enter\) to confirm): ",
                         out, re.M)
    assert len(prompts) == len(re.findall(r"^\S.*: \d+$", out, re.M))
    # every bot turn is told on the next screen, once, in the panel of the turns since
    # your last move
    bot_turns = re.findall(r"^│ Turn \d+ · Bot \d \(greedy\): ", out, re.M)
    assert bot_turns and len(bot_turns) == len(set(bot_turns))
    assert "Since your last move" in out
    assert "Turn 2 · Bot 1" not in out.split("Since your last move")[0]


def test_scroll_waits_after_every_turn_as_before():
    out = invoke("play", "--players", "3", "--seed", "7", "--scroll", "--bot", "greedy",
                 input="1\n" * 400).stdout
    assert "Press Enter to continue (q quits)" in out
    assert "Since your last move" not in out


def test_redraw_is_the_default_only_at_a_terminal(monkeypatch):
    from gostop_cli import main as main_module
    assert main_module.on_a_terminal() is False  # the test runner's streams are no terminal
    out = invoke("play", "--players", "3", "--seed", "7", input="1\n" * 400).stdout
    assert "Press Enter to continue" in out


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_the_screens_fit_80_columns(preset, players):
    out = invoke("play", "--rules", preset, "--players", str(players), "--seed", "9",
                 "--redraw", "--bot", "greedy", input="1\n" * 400,
                 env={"COLUMNS": "80"}).stdout
    assert "Hand over" in out or "Standings" in out
    too_wide = [line for line in out.splitlines() if len(line) > 80]
    assert too_wide == []


# ---------------------------------------------------------------- 9. --korean, the whole screen
#: English words a Korean screen may keep: what the player types (moves and command
#: keys), the preset and bot names, and the command line it quotes.
TYPED = {"casual", "traditional", "standard", "family", "greedy", "best", "gostop", "play",
         "rules", "Enter", "hint", "help", "board", "position", "quit", "undo", "flip",
         "fliponly", "stop", "shake", "bomb", "view"}


def english_words(screen: str) -> set[str]:
    """Words of three or more Latin letters on a screen, card codes and typed words aside."""
    text = re.sub(r"(?<![A-Za-z0-9])((1[0-2]|[1-9])[BARJD]\d?|X[23])(?![A-Za-z0-9])", " ",
                  screen)
    text = re.sub(r"gostop-view/1 .*", "", text)  # the view string 'p' prints
    return {w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in TYPED}


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
@pytest.mark.parametrize("flow", ["--redraw", "--scroll"])
def test_korean_translates_the_whole_screen(preset, players, flow):
    out = invoke("play", "--rules", preset, "--players", str(players), "--seed", "11",
                 "--korean", flow, "--bot", "greedy", "--hands", "2",
                 input="1\n" * 600).stdout
    assert "판 끝" in out and "순위" in out  # the hand and the match were played out
    assert english_words(out) == set(), sorted(english_words(out))
    # column heads, prompts and events are Korean
    for word in ("이름", "손패", "바닥", "내 차례:", "중에서 고르거나 수를 입력", "점수"):
        assert word in out, word


def test_korean_commands_hint_and_help():
    out = invoke("play", "--seed", "7", "--korean", "--scroll",
                 input="?\nh\nb\nzz\n99\nq\n").stdout
    assert english_words(out) == set(), sorted(english_words(out))
    assert "힌트: 가능한 수" in out and "번호는 메뉴의 번호" in out
    assert "? 힌트 · h 도움말 · b 판 · p 포지션 · q 끝내기" in out
    assert "99번 선택지는 없음" in out


def test_a_take_back_under_redraw_tells_no_turn_taken_back():
    out = invoke("play", "--players", "3", "--seed", "7", "--redraw", "--practice", "--bot",
                 "greedy", input="2\nu\n2\nq\n").stdout
    assert "Taken back: your" in out
    after = out[out.index("Taken back: your"):]
    # the next screen comes after your decision again, with only the turns since it
    assert "Since your last move" in after
    panels = after.split("Since your last move")[1:]
    for panel in panels:
        turns = re.findall(r"^│ Turn (\d+) · ", panel.split("╰")[0], re.M)
        assert turns == sorted(set(turns), key=int)


def test_korean_showdowns():
    # standard with the showdown option, seeds 1-6: showdowns are asked and answered
    out = "".join(invoke("play", "--rules", "standard", "--set", "showdown=1", "--players", "3",
                         "--seed", str(seed), "--korean", "--scroll", "--bot", "greedy",
                         input="1\n" * 400).stdout for seed in range(1, 7))
    assert "쇼다운" in out
    assert english_words(out) <= {"showdown", "accept", "refuse"}, english_words(out)
