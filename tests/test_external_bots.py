"""Bots we did not write, in the arena and in `gostop play`: example bot
programs (Python, and JavaScript when node is installed) and the example
Python bot of docs/bots.md play every preset with 2-4 players; deliberately
broken bots lose by forfeit, are restarted, and leave no process behind,
Ctrl-C and SIGTERM included."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_core.bots import external as protocol
from gostop_core.arena import run_arena
from gostop_core.bots.external import live_bot_pids

ROOT = Path(__file__).resolve().parent.parent
BOTS = Path(__file__).resolve().parent / "bots"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "protocol"
PY = shlex.quote(sys.executable)
LINE_BOT = f"cmd:{PY} {EXAMPLES / 'line_bot.py'}"
NODE = shutil.which("node")
JS_BOT = f"cmd:{NODE} {EXAMPLES / 'line_bot.js'}"
CAPTURE = f"{ROOT / 'docs' / 'examples' / 'capture_bot.py'}:CaptureBot"
ENGINE = f"cmd:{PY} -m gostop_cli engine --bot greedy"

PRESET_PLAYERS = [("casual", 2), ("casual", 3), ("casual", 4), ("traditional", 2),
                  ("traditional", 3), ("standard", 2), ("standard", 3), ("family", 2),
                  ("family", 3), ("family", 4)]


def broken(mode: str, *extra: str) -> str:
    return f"cmd:{PY} {BOTS / 'broken_bot.py'} {mode} " + " ".join(extra)


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its parent counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # pragma: no cover - no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def wait_gone(pids, seconds: float = 5.0) -> list[int]:
    deadline = time.monotonic() + seconds
    left = [p for p in pids if alive(p)]
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [p for p in left if alive(p)]
    return left


@pytest.fixture
def pid_file(tmp_path, monkeypatch):
    path = tmp_path / "pids"
    path.write_text("")
    monkeypatch.setenv("BOT_PID_FILE", str(path))
    yield path
    _kill_leftovers(path)  # after the test's own checks: only a failed test leaves any


def read_pids(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()]


@pytest.fixture(autouse=True)
def no_bot_left():
    yield
    assert live_bot_pids() == []


# ---------------------------------------------------------------- example bots
@pytest.mark.parametrize("preset, players", PRESET_PLAYERS)
def test_example_bots_play_every_preset(preset, players):
    entries = [LINE_BOT, CAPTURE, "greedy", JS_BOT if NODE else LINE_BOT][:players]
    result = run_arena(entries, deals=1, players=players, rules=preset, workers=1, seed=3)
    assert result.games == players
    assert result.forfeits == [0] * players, result.forfeit_games
    assert all(r.forfeit is None for r in result.records)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_javascript_bot_against_greedy_in_worker_processes():
    result = run_arena([JS_BOT, "greedy"], deals=4, players=2, workers=2, seed=1)
    assert result.games == 8 and result.forfeits == [0, 0]


def test_a_python_program_gets_only_its_view_and_restarts_for_nothing(pid_file):
    """One process per entry, kept alive across the hands of the arena."""
    result = run_arena([broken("fine"), "greedy"], deals=3, players=2, workers=1)
    assert result.forfeits == [0, 0]
    pids = read_pids(pid_file)
    assert len(pids) == 1
    assert wait_gone(pids) == []


@pytest.mark.parametrize("preset, players", [("casual", 2), ("standard", 3), ("family", 4),
                                             ("traditional", 2)])
def test_gostop_engine_plays_exactly_like_the_bot_it_serves(preset, players):
    """greedy behind the protocol (gostop engine: the view rebuilt from its
    string) makes the same moves as greedy."""
    entries = [ENGINE] + ["random"] * (players - 1)
    served = run_arena(entries, deals=2, players=players, rules=preset, workers=1, seed=4)
    direct = run_arena(["greedy"] + entries[1:], deals=2, players=players, rules=preset,
                       workers=1, seed=4)
    assert [r.points for r in served.records] == [r.points for r in direct.records]
    assert served.forfeits == [0] * players


# ---------------------------------------------------------------- broken programs
@pytest.fixture
def quick(monkeypatch):
    """A short grace so that hanging bots cost little test time."""
    monkeypatch.setattr(protocol, "GRACE", 0.2)


@pytest.mark.parametrize("mode, reason", [
    ("crash", "crash: the bot's process ended (exit code 3); its last error line: Traceback"),
    ("hang", "timeout: no move within 0.5 s"),
    ("noflush", "timeout: no move within 0.5 s"),
    ("garbage", "protocol: the bot answered 'I think I will play the pine bright', which is not a move"),
    ("flood", "protocol: the bot wrote a line longer than 65536 bytes"),
    ("flood-lines", "protocol: the bot wrote more than 1048576 bytes for one move"),
    ("illegal", "illegal: the bot answered"),
    ("grandchild", "timeout: no move within 0.5 s"),
])
def test_a_broken_program_forfeits_every_game(mode, reason, pid_file, quick):
    # reading 1 MB of lines takes the client longer than 0.5 s on a loaded machine:
    # the floods get the time to be caught as floods, not as late answers
    move_time = 3.0 if mode.startswith("flood") else 0.5
    result = run_arena([broken(mode), "greedy"], deals=1, players=2, workers=1,
                       move_time=move_time)
    assert result.games == 2
    assert result.forfeits == [2, 0]
    for r in result.records:
        assert r.forfeit == 0 and r.reason.startswith(reason), r.reason
        # the forfeit pays the casual Stop threshold (7 points with 2 players)
        assert r.points == (-7, 7) and r.winner == 1
    assert result.mean_points == [-7.0, 7.0]
    pids = read_pids(pid_file)
    # one process per game: the program is restarted after each forfeit
    assert len(pids) == (4 if mode == "grandchild" else 2)
    assert wait_gone(pids) == []


def test_a_program_that_fails_once_loses_one_game_and_the_arena_goes_on(tmp_path, pid_file):
    marker = tmp_path / "crashed-once"
    result = run_arena([broken("crash", str(marker)), "greedy"], deals=3, players=2, workers=1)
    assert result.forfeits == [1, 0]
    assert [r.forfeit for r in result.records] == [0, None, None, None, None, None]
    assert result.forfeit_games == [{"deal": 0, "rotation": 0, "bot": 0,
                                     "reason": result.records[0].reason}]
    assert len(read_pids(pid_file)) == 2  # the first process, then its restart
    assert wait_gone(read_pids(pid_file)) == []


def test_three_players_forfeit_pays_each_opponent(pid_file, quick):
    result = run_arena([broken("garbage"), "greedy", "random"], deals=1, players=3,
                       rules="traditional", workers=1)
    assert result.forfeits == [3, 0, 0]
    for r in result.records:
        assert r.winner is None and r.forfeit == 0
        assert r.points == (-6, 3, 3)  # traditional, 3 players: threshold 3 to each
    assert result.draw_rate == 0.0


def test_broken_programs_in_worker_processes(pid_file, quick):
    result = run_arena([broken("hang"), broken("illegal"), "greedy"], deals=2, players=3,
                       workers=2, move_time=0.3)
    assert result.forfeits[2] == 0 and sum(result.forfeits) == 6
    assert wait_gone(read_pids(pid_file)) == []


# ---------------------------------------------------------------- broken Python bots
BROKEN_PY = '''
import time
from gostop_core.bots import Bot

class Raises(Bot):
    def choose(self, view, legal):
        raise KeyError("no idea")

class Illegal(Bot):
    def choose(self, view, legal):
        return "3B"

class Slow(Bot):
    def choose(self, view, legal):
        time.sleep(0.4)
        return legal[0]

class Exits(Bot):
    def choose(self, view, legal):
        raise SystemExit(4)

class Vanishes(Bot):
    def choose(self, view, legal):
        import os
        os._exit(1)

class BadStart(Bot):
    def start_hand(self, view):
        raise RuntimeError("cannot start")
    def choose(self, view, legal):
        return legal[0]
'''


@pytest.mark.parametrize("cls, reason", [
    ("Raises", "error: KeyError: 'no idea'"),
    ("Illegal", "illegal: the bot answered '3B', which is not one of the legal moves"),
    ("Slow", "timeout: no move within 0.1 s"),
    ("BadStart", "error: RuntimeError: cannot start"),
    ("Exits", "error: SystemExit: 4"),
])
def test_a_broken_python_bot_forfeits(tmp_path, cls, reason, quick):
    path = tmp_path / "broken_bots.py"
    path.write_text(BROKEN_PY)
    result = run_arena([f"{path}:{cls}", "greedy"], deals=2, players=2, workers=2,
                       move_time=0.1)
    assert result.forfeits == [4, 0]
    assert {r.reason for r in result.records} == {reason}


# ---------------------------------------------------------------- the command line
def test_arena_cli_reports_forfeits(pid_file, quick):
    result = CliRunner().invoke(cli, ["arena", broken("garbage"), "greedy", "--deals", "1",
                                      "--workers", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].endswith("forfeits 2") and lines[2].endswith("forfeits 0")
    assert "forfeit: deal 0 rotation 0" in result.output and "not a move" in result.output


def test_arena_cli_rejects_a_missing_program():
    result = CliRunner().invoke(cli, ["arena", "cmd:./no/such/bot", "greedy"])
    assert result.exit_code == 2
    assert "not an executable file" in result.output


def test_play_with_a_program_and_a_python_bot():
    result = CliRunner().invoke(cli, ["play", "--auto", "--quiet", "--players", "3", "--hands",
                                      "2", "--seed", "5", "--bot", f"{LINE_BOT},{CAPTURE}"])
    assert result.exit_code == 0, result.output
    assert "final points" in result.output


def test_play_with_a_broken_program_ends_the_match(pid_file, quick):
    result = CliRunner().invoke(cli, ["play", "--auto", "--quiet", "--seed", "5", "--bot",
                                      broken("crash"), "--move-time", "1"])
    assert result.exit_code == 2
    assert "Bot 1" in result.output and "loses by forfeit: crash" in result.output
    assert wait_gone(read_pids(pid_file)) == []


@pytest.mark.parametrize("mode, reason", [
    ("hang", "timeout: no move within 0.5 s"),
    ("noflush", "timeout: no move within 0.5 s"),
    ("garbage", "protocol: the bot answered 'I think I will play the pine bright'"),
    ("flood", "protocol: the bot wrote a line longer than 65536 bytes"),
    ("flood-lines", "protocol: the bot wrote more than 1048576 bytes for one move"),
    ("illegal", "illegal: the bot answered"),
    ("grandchild", "timeout: no move within 0.5 s"),
])
def test_play_survives_what_the_arena_survives(mode, reason, pid_file, quick):
    """The arena's hostile programs under 'gostop play': one line naming the
    forfeit, exit code 2, no traceback, and no process of the bot left."""
    result = CliRunner().invoke(cli, ["play", "--auto", "--quiet", "--seed", "5", "--bot",
                                      broken(mode), "--move-time", "0.5"])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [ln for ln in result.output.splitlines() if "loses by forfeit" in ln]
    assert len(lines) == 1 and reason in lines[0], result.output
    assert lines[0].endswith("the match is abandoned.")
    assert "Traceback (most recent call last)" not in result.output
    assert wait_gone(read_pids(pid_file)) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="subreapers are Linux's")
def test_adopted_orphans_are_ended_and_adoption_stops(tmp_path):
    import ctypes

    from gostop_cli import children
    assert children.become_subreaper()
    note = tmp_path / "pid"
    # a parent that starts a child in a session of its own, then exits at once
    subprocess.run([sys.executable, "-c",
                    "import subprocess, sys; p = subprocess.Popen(['sleep', '60'], "
                    "start_new_session=True); open(sys.argv[1], 'w').write(str(p.pid))",
                    str(note)], check=True, timeout=30)
    orphan = int(note.read_text())
    assert alive(orphan)
    assert children.end_orphans() == [orphan]
    assert wait_gone([orphan]) == []
    state = ctypes.c_int(-1)
    libc = ctypes.CDLL("libc.so.6")
    assert libc.prctl(37, ctypes.byref(state), 0, 0, 0) == 0  # PR_GET_CHILD_SUBREAPER
    assert state.value == 0 and children.end_orphans() == []


def test_play_ends_a_process_that_left_the_bots_group(pid_file):
    """A bot's child in a session of its own (out of the group gostop ends with
    the bot) still goes when 'gostop play' ends: gostop adopted it (a subreaper)."""
    args = [sys.executable, "-m", "gostop_cli", "play", "--auto", "--quiet", "--seed", "5",
            "--bot", broken("escape"), "--move-time", "0.5"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert "loses by forfeit: timeout" in proc.stdout and "Traceback" not in proc.stderr
    pids = read_pids(pid_file)
    assert len(pids) == 2  # the bot and the child that escaped its group
    assert wait_gone(pids) == []


# ---------------------------------------------------------------- signals
def _kill_leftovers(path: Path) -> None:
    """When a test fails, the bots it started must not outlive it."""
    for pid in read_pids(path):
        if alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:  # pragma: no cover
                pass


def _wait_for_pids(path: Path, count: int, seconds: float = 20.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pids = read_pids(path)
        if len(pids) >= count:
            return pids
        time.sleep(0.05)
    raise AssertionError(f"no bot started within {seconds} s")


@pytest.mark.parametrize("sig, workers", [(signal.SIGINT, 1), (signal.SIGINT, 2),
                                          (signal.SIGTERM, 1), (signal.SIGTERM, 2)])
def test_interrupted_arena_leaves_no_process(pid_file, sig, workers):
    """Ctrl-C (SIGINT to the whole foreground group) or SIGTERM to gostop while
    bots hang: gostop exits promptly and every bot process is gone."""
    args = [sys.executable, "-m", "gostop_cli", "arena", broken("hang"), broken("hang"),
            "--deals", "4", "--workers", str(workers), "--move-time", "60"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        pids = _wait_for_pids(pid_file, 1)
        time.sleep(0.3)
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:  # pragma: no cover - the test failed
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode in (130, 143, 128 + sig), err
    assert b"Traceback" not in err, err
    assert wait_gone(read_pids(pid_file)) == [], pids


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_play_leaves_no_process(pid_file, sig):
    args = [sys.executable, "-m", "gostop_cli", "play", "--auto", "--quiet", "--seed", "3",
            "--players", "3", "--bot", broken("hang"), "--move-time", "60"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        _wait_for_pids(pid_file, 2)
        time.sleep(0.3)
        os.killpg(proc.pid, sig)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:  # pragma: no cover - the test failed
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode in (130, 143), err
    assert b"Traceback" not in err, err
    assert wait_gone(read_pids(pid_file)) == []


def test_a_python_bot_finds_no_hidden_card_in_its_view(tmp_path):
    """Even the view object's private parts hold no hidden card: what a plug-in
    bot is handed pickles to the same bytes as a view rebuilt from the view
    string alone, which holds only the seat's information."""
    path = tmp_path / "peek.py"
    path.write_text(
        "import pickle\n"
        "from gostop_core.bots import Bot\n"
        "SEEN = []\n"
        "class Peek(Bot):\n"
        "    def choose(self, view, legal):\n"
        "        SEEN.append((view.to_str(), pickle.dumps(view), sorted(vars(view))))\n"
        "        return legal[0]\n")
    import pickle
    from gostop_core import Game, PlayerView
    from gostop_core.bots.plugins import _FILE_MODULES
    run_arena([f"{path}:Peek", "greedy"], deals=1, players=2, workers=1, seed=6)
    seen = _FILE_MODULES[str(path)].SEEN
    assert seen
    game = Game("casual", 2, seed=6, dealer=0)
    assert seen[0][0] == game.view(0).to_str()
    for text, pickled, attributes in seen:
        assert pickled == pickle.dumps(PlayerView.from_str(text))
        assert "_fields" not in attributes



def test_a_python_bot_that_ends_its_worker_stops_the_arena(tmp_path):
    """A worker process that disappears (os._exit in a Python bot) cannot be
    blamed on one game: the arena stops with one error instead of waiting."""
    from gostop_core import BotError
    path = tmp_path / "broken_bots.py"
    path.write_text(BROKEN_PY)
    started = time.monotonic()
    with pytest.raises(BotError, match="a worker process died"):
        run_arena([f"{path}:Vanishes", "greedy"], deals=4, players=2, workers=2)
    assert time.monotonic() - started < 20
