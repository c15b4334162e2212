"""Bot specifications (gostop_core.bots.plugins): built-in names, Python files and
modules, the gostop.bots entry points, cmd: programs; the example bot of
docs/bots.md."""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path

import pytest

from gostop_core import BotSpecError, Game
from gostop_core.bots import Bot, GreedyBot, make_bot, play_game
from gostop_core.bots.plugins import ENTRY_POINT_GROUP, resolve_bot, split_command
from gostop_core.bots.external import ExternalBot

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "capture_bot.py"


def test_builtin_names_resolve_case_insensitively():
    spec = resolve_bot(" Greedy ")
    assert (spec.kind, spec.text, spec.trusted) == ("builtin", "greedy", True)
    assert isinstance(spec.make(1), GreedyBot)
    assert resolve_bot("expectimax:depth=2,samples=4").make(0).samples == 4


def test_builtin_settings_keep_the_case_of_a_path(tmp_path):
    """Names, keys and choices are case-insensitive; a weights path is not
    (a file Run/A.npz is not run/a.npz on a case-sensitive file system)."""
    from gostop_core.neural.network import DEFAULT_WEIGHTS
    from gostop_cli.main import split_bot_names
    weights = tmp_path / "Run" / "A.npz"
    weights.parent.mkdir()
    weights.write_bytes(DEFAULT_WEIGHTS.read_bytes())
    spec = resolve_bot(f" Neural:Weights={weights},GoStop=Search ")
    assert spec.text == f"neural:weights={weights},gostop=Search"   # values as written
    bot = spec.make(1)
    assert (bot.weights, bot.gostop) == (str(weights), "search")
    assert make_bot(f"NEURAL-SEARCH:weights={weights}").weights == str(weights)
    assert split_bot_names(f"Neural:weights={weights},Gostop=search, Greedy") == \
        [f"neural:weights={weights},gostop=search", "greedy"]
    with pytest.raises(ValueError, match="not a network weights file"):
        resolve_bot(f"neural:weights={str(weights).lower()}")


def test_bad_builtin_settings_fail_when_resolved():
    with pytest.raises(ValueError, match="samples"):
        resolve_bot("expectimax:samples=0")


def test_file_spec_loads_the_example_bot_of_the_docs():
    spec = resolve_bot(f"{EXAMPLE}:CaptureBot")
    assert spec.kind == "file" and not spec.trusted and not spec.external
    bot = spec.make(seed=3)
    assert bot.name == "capture"
    game = Game("casual", 2, seed=11)
    play_game(game, [bot, GreedyBot()])
    # the hooks ran: one hand, and the win counted when the bot won it
    assert bot.hands == 1
    assert bot.wins == (1 if game.outcome().winner == 0 else 0)


def test_the_docs_show_the_example_bot_verbatim():
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    assert EXAMPLE.read_text(encoding="utf-8") in text


def test_relative_file_spec_and_make_bot(monkeypatch):
    monkeypatch.chdir(ROOT)
    bot = make_bot("docs/examples/capture_bot.py:CaptureBot", seed=1)
    assert bot.name == "capture"


def test_module_spec(tmp_path, monkeypatch):
    pkg = tmp_path / "mybots"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "simple.py").write_text(
        "from gostop_core.bots import Bot\n"
        "class First(Bot):\n"
        "    name = 'first'\n"
        "    def choose(self, view, legal):\n"
        "        return legal[0]\n"
        "def factory(seed=None):\n"
        "    return First()\n"
        "NOT_A_BOT = 3\n"
        "class Plain:\n"
        "    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert resolve_bot("mybots.simple:First").kind == "module"
    assert make_bot("mybots.simple:First").name == "first"
    assert make_bot("mybots.simple:factory", seed=5).name == "first"
    for bad, message in (("mybots.simple:Missing", "no 'Missing'"),
                         ("mybots.simple:NOT_A_BOT", "not a bot class"),
                         ("mybots.simple:Plain", "not a subclass"),
                         ("mybots.nothere:First", "cannot import")):
        with pytest.raises(BotSpecError, match=message):
            resolve_bot(bad)
    sys.modules.pop("mybots.simple", None)
    sys.modules.pop("mybots", None)


def test_file_spec_errors(tmp_path):
    with pytest.raises(BotSpecError, match="no bot file"):
        resolve_bot(f"{tmp_path}/none.py:Bot")
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(BotSpecError, match="RuntimeError: boom"):
        resolve_bot(f"{broken}:Anything")


class _EntryPoint:
    def __init__(self, name, obj):
        self.name = name
        self.group = ENTRY_POINT_GROUP
        self._obj = obj

    def load(self):
        if isinstance(self._obj, Exception):
            raise self._obj
        return self._obj


class _Installed(Bot):
    name = "installed"

    def __init__(self, seed=None):
        self.seed = seed

    def choose(self, view, legal):
        return legal[-1]


def test_entry_point_group(monkeypatch):
    def fake_entry_points(group=None, **kw):
        assert group == ENTRY_POINT_GROUP
        return [_EntryPoint("somebot", _Installed), _EntryPoint("badbot", ImportError("gone"))]

    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points)
    spec = resolve_bot("somebot")
    assert spec.kind == "entry_point"
    bot = make_bot("somebot", seed=9)
    assert isinstance(bot, _Installed) and bot.seed == 9
    with pytest.raises(BotSpecError, match="loading the installed bot 'badbot' failed"):
        resolve_bot("badbot")
    with pytest.raises(BotSpecError, match="installed: badbot, somebot"):
        resolve_bot("nobody")


def test_entry_point_from_a_real_dist_info(tmp_path, monkeypatch):
    """An installed distribution (a dist-info with entry_points.txt) registers
    a bot that the arena then plays."""
    (tmp_path / "tinybot.py").write_text(
        "from gostop_core.bots import Bot\n"
        "class Tiny(Bot):\n"
        "    name = 'tiny'\n"
        "    def choose(self, view, legal):\n"
        "        return legal[0]\n")
    info = tmp_path / "tinybot-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tinybot\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[gostop.bots]\ntinybot = tinybot:Tiny\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from gostop_core.arena import run_arena
    result = run_arena(["tinybot", "greedy"], deals=1, players=2, workers=1)
    assert result.bots == ["tinybot", "greedy"] and result.games == 2
    sys.modules.pop("tinybot", None)


def test_cmd_spec_does_not_start_the_program():
    spec = resolve_bot(f"cmd:{sys.executable} -c 'import sys'")
    assert spec.kind == "command" and spec.external
    assert spec.command == (sys.executable, "-c", "import sys")
    bot = spec.make()
    assert isinstance(bot, ExternalBot) and not bot.running and bot.starts == 0


@pytest.mark.parametrize("command, message", [
    ("", "needs a command"),
    ("no-such-program-here --x", "not on PATH"),
    ("./no/such/file", "not an executable file"),
    ("python3 'unclosed", "bad command"),
])
def test_cmd_spec_errors(command, message):
    with pytest.raises(BotSpecError, match=message):
        split_command(command)


def test_unknown_names_are_one_line_value_errors():
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        make_bot("nobody")
    with pytest.raises(BotSpecError):
        resolve_bot("a:b:c")
