"""One settings table per bot class (gostop_core.bots.settings): the
specifications (``name:key=value``), the options of ``gostop engine``
(``setoption``), the web lobby's bounds and ``gostop bots`` all come from it,
and agree with it setting by setting."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_core.bots import make_bot
from gostop_core.bots.external import SearchBotBackend
from gostop_core.bots.registry import SETTINGS_PREFIXES, builtin_classes
from gostop_core.bots.settings import Setting, lobby_bounds, settings_of

#: Built-in names with a settings table, and a value of each setting's kind
#: that differs from its default.
BOT_CLASSES = builtin_classes()
TABLED = sorted(name for name, cls in BOT_CLASSES.items()
                if settings_of(cls) and f"{name}:" in SETTINGS_PREFIXES)


def other_value(setting: Setting):
    """A value in bounds, not the default (for a path: none is tried)."""
    if setting.kind == "switch":
        return not setting.default
    if setting.kind in ("choice", "level"):
        return next(c for c in setting.choices if c != setting.default)
    if setting.kind == "int":
        low = int(setting.low)
        return low if low != setting.default else low + 1
    if setting.kind == "float":
        for value in (1.5, 2.5, 0.5, 0.25):
            if value != setting.default and (setting.high is None or value <= setting.high) \
                    and (setting.low is None or value >= setting.low):
                return value
        raise AssertionError(f"no value to try for {setting.name}")
    return None


def spec_text(value) -> str:
    return ("1" if value else "0") if isinstance(value, bool) else str(value)


def every_setting():
    for name in TABLED:
        for setting in settings_of(BOT_CLASSES[name]):
            if setting.kind != "path":
                yield pytest.param(name, setting, id=f"{name}-{setting.name}")


@pytest.mark.parametrize("name,setting", list(every_setting()))
def test_a_spec_sets_every_setting_of_the_table(name, setting):
    value = other_value(setting)
    bot = make_bot(f"{name}:{setting.name}={spec_text(value)}")
    assert getattr(bot, setting.attribute) == value


@pytest.mark.parametrize("name,setting", list(every_setting()))
def test_a_spec_refuses_what_the_table_refuses(name, setting):
    bad = {"switch": "2", "choice": "nope", "level": "9", "int": "x", "float": "x"}[setting.kind]
    with pytest.raises(ValueError, match=f"bad {name} setting '{setting.name}="):
        make_bot(f"{name}:{setting.name}={bad}")
    if setting.high is not None and setting.kind in ("int", "float"):
        with pytest.raises(ValueError, match="must be"):
            too_big = setting.high * 2 + 1
            make_bot(f"{name}:{setting.name}={int(too_big) if setting.kind == 'int' else too_big}")


@pytest.mark.parametrize("name", ["expectimax", "ismcts", "best"])
def test_the_engine_options_are_the_live_settings_of_the_table(name):
    bot = make_bot(name)
    backend = SearchBotBackend(bot)
    options = {o.name: o for o in backend.options()}
    live = [s for s in settings_of(type(bot)) if s.live and s.kind != "path"]
    assert list(options) == [s.name for s in live]
    for setting in live:
        option = options[setting.name]
        assert option.default == getattr(bot, setting.attribute)
        if setting.kind in ("int", "float"):
            assert (option.min, option.max) == (setting.low, setting.high)
        value = other_value(setting)
        backend.set_option(setting.name, value)  # setoption changes the bot itself
        assert getattr(bot, setting.attribute) == value


def test_ismcts_nodes_prior_and_widen_can_be_set_by_setoption():
    """The drift of round 5: three ismcts settings had no option."""
    backend = SearchBotBackend(make_bot("ismcts"))
    backend.set_option("nodes", 4096)
    backend.set_option("prior", 3.0)
    backend.set_option("widen", 2.0)
    assert (backend.bot.nodes, backend.bot.prior, backend.bot.widen) == (4096, 3.0, 2.0)


@pytest.mark.parametrize("name", TABLED)
def test_the_lobby_bounds_leave_out_paths_and_keep_within_the_table(name):
    table = settings_of(BOT_CLASSES[name])
    bounds = lobby_bounds(BOT_CLASSES[name])
    assert set(bounds) == {s.name for s in table if s.kind != "path"}
    for setting in table:
        if setting.kind in ("int", "float"):
            low, most = bounds[setting.name]
            assert low == setting.low and most <= setting.high


def test_gostop_bots_lists_the_tables():
    result = CliRunner().invoke(cli, ["bots", "--json"])
    assert result.exit_code == 0, result.output
    listed = json.loads(result.output)
    assert set(listed) == set(BOT_CLASSES)
    assert listed["expectimax-v1"] == []  # the fixed baseline takes no settings
    for name in TABLED:
        rows = listed[name]
        table = settings_of(BOT_CLASSES[name])
        assert [r["name"] for r in rows] == [s.name for s in table]
        assert [r["values"] for r in rows] == [s.bounds_text() for s in table]
    assert [r["default"] for r in listed["best"] if r["name"] == "samples"] == [256]
    text = CliRunner().invoke(cli, ["bots", "ismcts"]).output
    assert "widen" in text and "nodes" in text
    bad = CliRunner().invoke(cli, ["bots", "nope"])
    assert bad.exit_code == 2 and "no built-in bot" in bad.output


def test_the_web_lobby_caps_are_the_tables_caps():
    """The lobby refuses what the table's cap refuses, and no setting naming a file."""
    pytest.importorskip("starlette")
    from gostop_web.botspecs import BotPolicy, BotRefused, page_settings
    policy = BotPolicy()
    for name in TABLED:
        table = settings_of(BOT_CLASSES[name])
        assert set(page_settings(name)) == {s.name for s in table if s.kind != "path"}
        for setting in table:
            if setting.kind == "path":
                with pytest.raises(BotRefused, match="not offered"):
                    policy.check(f"{name}:{setting.name}=/etc/passwd")
            elif setting.kind in ("int", "float") and setting.cap is not None:
                value = int(setting.cap) if setting.kind == "int" else setting.cap
                more = ",samples=64" if setting.name == "depth" else ""  # depth 2's own cap
                assert policy.check(f"{name}:{setting.name}={value}{more}")
                over = value + 1
                with pytest.raises(BotRefused, match="at most|must be"):
                    policy.check(f"{name}:{setting.name}={over}{more}")
