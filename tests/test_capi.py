"""The public C interface (gostop_core/core.pxd) from outside the package.

Two extensions are compiled into a temporary directory against the installed
gostop, with the recipe of docs/cython.md: tests/capi/check_capi.pyx, which
cimports every name core.pxd declares and exposes each function, and the
example examples/cython_perft (perft, playouts and a flat Monte Carlo bot).
Their answers are compared with the Python API's."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import random
from pathlib import Path

import pytest

import gostop_core
from gostop_core import CardSet, Game, Move, PositionError, Rules, preset_names, score
from gostop_core.arena import net_points, rotation_seats
from gostop_core.bots import Bot, RandomBot, play_game
from gostop_core.testing.perft_suite import load_suite

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_SRC = ROOT / "src" / "gostop_core"
SUITES = sorted((ROOT / "tests" / "perft").glob("*.perft"))


def _builder():
    spec = importlib.util.spec_from_file_location(
        "build_extension", ROOT / "scripts" / "build_extension.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def capi(tmp_path_factory):
    return _builder().build_and_import(ROOT / "tests" / "capi",
                                       tmp_path_factory.mktemp("check_capi"), "check_capi")


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    return _builder().build_and_import(ROOT / "examples" / "cython_perft",
                                       tmp_path_factory.mktemp("cython_perft"), "cython_perft")


def _games():
    """Every preset and player count, a couple of seeds each."""
    for preset in preset_names():
        for players in Rules(preset).allowed_players():
            for seed in (1, 7):
                yield preset, players, seed


def _playthrough(game: Game, seed: int):
    """Yield the game before each decision of a random line, then the end."""
    rng = random.Random(seed)
    while not game.is_over():
        yield game
        game.push(rng.choice(list(game.legal_moves)))
    yield game


# ---------------------------------------------------------------- shipping
def test_every_pxd_and_header_is_installed():
    wanted = sorted(p.name for p in PACKAGE_SRC.iterdir() if p.suffix in (".pxd", ".h"))
    assert {"core.pxd", "gostop_cards.h", "movegen.pxd"} <= set(wanted)
    include = Path(gostop_core.get_include())
    assert [n for n in wanted if not (include / n).is_file()] == []
    files = {str(f).replace(os.sep, "/") for f in importlib.metadata.files("gostop") or ()}
    if any(f.startswith("gostop_core/") for f in files):  # a regular (not editable) install
        assert [n for n in wanted if f"gostop_core/{n}" not in files] == []


def test_get_include_is_the_package_directory():
    assert Path(gostop_core.get_include()) == Path(gostop_core.__file__).parent


# ---------------------------------------------------------------- version check
def test_the_build_matches_the_installed_version(capi):
    assert capi.BUILT_VERSION == gostop_core.core.CAPI_VERSION
    assert capi.check_import() == 0


def test_a_version_mismatch_is_an_import_error_naming_both(capi, monkeypatch):
    monkeypatch.setattr(gostop_core.core, "CAPI_VERSION", capi.BUILT_VERSION + 41)
    with pytest.raises(ImportError) as info:
        capi.check_import()
    assert str(capi.BUILT_VERSION + 41) in str(info.value)
    assert f"version {capi.BUILT_VERSION}" in str(info.value)


def test_a_state_size_mismatch_is_an_import_error(capi, monkeypatch):
    monkeypatch.setattr(gostop_core.core, "STATE_SIZE", gostop_core.core.STATE_SIZE + 8)
    with pytest.raises(ImportError, match="rebuild"):
        capi.check_import()


# ---------------------------------------------------------------- kernels
@pytest.mark.parametrize("preset,players,seed", list(_games()))
def test_deal_is_the_games_deal(capi, preset, players, seed):
    for dealer in range(players):
        assert capi.dealt(preset, players, seed, dealer) == Game(preset, players, seed, dealer)


def test_deal_refuses_bad_players_and_dealers(capi):
    assert capi.dealt("traditional", 4, 1) is None   # traditional plays 2 or 3
    assert capi.dealt("casual", 2, 1, dealer=2) is None
    assert capi.dealt("casual", 2, 1, dealer=-1) is None
    assert capi.dealt("casual", 5, 1) is None


def test_rules_from_refuses_an_unknown_preset(capi):
    with pytest.raises(gostop_core.RulesError):
        capi.dealt("no-such-rules", 2, 1)


@pytest.mark.parametrize("preset,players,seed", list(_games()))
def test_kernels_agree_with_the_game_along_a_random_line(capi, preset, players, seed):
    phases = capi.PHASES
    for g in _playthrough(Game(preset, players, seed), seed):
        f = capi.facts(g)
        assert f["moves"] == [m.code for m in g.legal_moves]
        assert all(f["legal"])
        assert f["phase"] == phases[g.phase]
        assert f["terminal"] == g.is_over()
        assert f["players"] == players
        assert f["scores"] == [g.score(p).total for p in range(players)]
        assert f["bad_seat_score"] == -1
        if not g.is_over():
            assert f["to_move"] == g.turn
            assert f["outcome"] is None and f["winner"] == -1
            code = f["moves"][0]
            expected = g.copy(stack=False)
            expected.push(Move.from_code(code))
            assert capi.after(g, code) == expected
    out = g.outcome()
    got = f["outcome"]
    assert got["winner"] == f["winner"] == (-1 if out.winner is None else out.winner)
    assert got["points"] == out.points
    assert got["score"] == list(out.scores)
    assert got["go_count"] == list(out.go_counts)
    assert got["chips"] == list(out.chips)
    reason = g._core.end_reason or ("draw" if out.winner is None else "stop")
    assert got["end_reason"] == capi.END_REASONS[reason]


def test_position_strings_round_trip(capi):
    for preset, players, seed in _games():
        g = Game(preset, players, seed)
        for _ in range(5):
            g.push(next(iter(g.legal_moves)))
        assert capi.position_roundtrip(g.position()) == g.position()
    with pytest.raises(PositionError):
        capi.position_roundtrip("gostop/1 rules=casual players=2 nonsense")


def test_pile_scores_match_score(capi):
    rng = random.Random(3)
    for preset in preset_names():
        for _ in range(50):
            pile = rng.getrandbits(50 if Rules(preset).bonus_cards else 48)
            s = score(CardSet(pile), preset)
            total, total_only, brights, junk = capi.pile_score(preset, pile)
            assert (total, total_only) == (s.total, s.total)
            assert brights == s.brights and junk == s.junk


# ---------------------------------------------------------------- player view
@pytest.mark.parametrize("preset,players,seed", list(_games()))
def test_the_c_view_is_the_player_view(capi, preset, players, seed):
    for g in _playthrough(Game(preset, players, seed), seed + 100):
        if g.is_over():
            break
        for seat in range(players):
            from_state, from_view = capi.views(g, seat)
            assert from_state == from_view
            v = g.view(seat)
            assert from_state["hand"] == v.hand.mask
            assert from_state["hand_count"] == list(v.hand_counts)
            assert from_state["stock_count"] == v.stock_count
            assert from_state["unseen"] == v.unseen.mask


def test_sampled_states_agree_with_the_view(capi):
    for preset, players, seed in _games():
        g = Game(preset, players, seed)
        for _ in range(3):
            g.push(next(iter(g.legal_moves)))
        if g.is_over():
            continue
        seat = g.turn
        view = g.view(seat).to_str()
        worlds = capi.samples(g, seat, 8, seed)
        for w in worlds:
            assert w.view(seat).to_str() == view
            Game.from_position(w.position())  # a valid position: every card once
            assert [m.code for m in w.legal_moves] == [m.code for m in g.legal_moves]
        hidden = {tuple(w.hand(q).mask for q in range(players) if q != seat) + tuple(w.stock())
                  for w in worlds}
        assert len(hidden) > 1


def test_a_bad_view_string_raises(capi):
    with pytest.raises(PositionError):
        capi.bad_view("gostop-view/1 rules=casual players=2 seat=5")


# ---------------------------------------------------------------- moves
def test_move_text_is_str_of_move(capi):
    seen = 0
    for preset, players, seed in _games():
        for g in _playthrough(Game(preset, players, seed), seed):
            for m in g.legal_moves:
                assert capi.text(m.code) == str(m)
                seen += 1
    assert seen > 500
    for text in ("bomb12", "shake10", "flip/11J2", "showdown/3B", "X3", "12J/12R", "fliponly",
                 "accept", "refuse"):
        try:
            m = Move.from_str(text)
        except gostop_core.MoveParseError:
            continue
        assert capi.text(m.code) == str(m)


def test_move_text_refuses_non_moves_and_short_buffers(capi):
    assert capi.text(0) is None                       # kind 0 is no move
    assert capi.text(Move.from_str("bomb9").code & ~(63 << 6)) is None   # bomb of month 0
    assert capi.text(Move.from_str("showdown/3B").code, 5) is None
    assert capi.text(Move.from_str("go").code, 3) == "go"
    assert capi.text(Move.from_str("go").code, 2) is None


def test_move_encoding_is_the_move_code(capi):
    for text in ("3B/3R", "bomb9", "flip/9R", "go", "X2"):
        m = Move.from_str(text)
        code = m.code
        kind, card, target = code >> 12, (code >> 6) & 63, code & 63
        assert capi.encoding(kind, card, target) == (code, kind, card, target)
    assert capi.KINDS[Move.from_str("3B").kind] == Move.from_str("3B").code >> 12


def test_random_below_is_deterministic_and_in_range(capi):
    a = capi.randoms(42, 7, 500)
    assert a == capi.randoms(42, 7, 500)
    assert set(a) == set(range(7))
    assert capi.randoms(42, 0, 3) == [0, 0, 0]


# ---------------------------------------------------------------- the docs' recipe
def _doc_block(text: str, lang: str, first_line: str) -> str:
    for block in text.split("```" + lang + "\n")[1:]:
        body = block.split("```")[0]
        if body.startswith(first_line):
            return body
    raise AssertionError(f"docs/cython.md has no {lang} block starting {first_line!r}")


def test_the_extension_of_docs_cython_md_builds_and_counts(tmp_path):
    """The .pyx and setup.py of docs/cython.md, copied as they are, build against
    the installed gostop and count the suite's leaves."""
    text = (ROOT / "docs" / "cython.md").read_text(encoding="utf-8")
    src = tmp_path / "src"
    src.mkdir()
    (src / "mysearch.pyx").write_text(_doc_block(text, "cython", "# mysearch.pyx"))
    (src / "setup.py").write_text(_doc_block(text, "python", "# setup.py"))
    mysearch = _builder().build_and_import(src, tmp_path / "build", "mysearch")
    ident, position, depth, count = next(e for e in _suite_entries() if e[2] == 4)
    assert mysearch.perft(position, depth) == count


# ---------------------------------------------------------------- the example
def _suite_entries(max_leaves: int = 200_000):
    """(position, depth, count) of the suites, the counts up to ``max_leaves``."""
    for path in SUITES:
        for e in load_suite(path):
            for depth, count in e.counts:
                if count <= max_leaves:
                    yield e.id, e.position, depth, count


def test_example_perft_matches_the_suites(example):
    checked = 0
    for ident, position, depth, count in _suite_entries():
        assert example.perft(position, depth) == count, (ident, depth)
        checked += 1
    assert checked >= 200


def test_example_perft_refuses_bad_input(example):
    with pytest.raises(PositionError):
        example.perft("gostop/1 garbage", 2)
    with pytest.raises(ValueError):
        example.perft(Game().position(), -1)


def test_example_playouts_are_the_cores(example):
    for preset, players, seed in _games():
        g = Game(preset, players, seed)
        assert example.playouts(g.position(), 300, seed) == tuple(
            g._core.random_playouts(300, seed))


def test_example_move_text(example):
    g = Game("standard", 3, 5)
    assert [example.move_text(m.code) for m in g.legal_moves] == [str(m) for m in g.legal_moves]
    with pytest.raises(ValueError):
        example.move_text(0)


def test_example_bot_plays_a_small_arena(example):
    """The flat Monte Carlo bot, a Bot subclass, against the random bot on
    duplicate deals (each deal played with the seats swapped)."""
    bot = example.FlatMonteCarloBot(seed=1, samples=24)
    assert isinstance(bot, Bot)
    rules = Rules("casual")
    totals = [0, 0]
    for deal in range(8):
        for rotation in range(2):
            seats = rotation_seats(2, rotation)
            bots = [bot if seats[s] == 0 else RandomBot(seed=deal * 2 + rotation)
                    for s in range(2)]
            g = Game(rules, 2, seed=deal)
            outcome = play_game(g, bots)
            assert g.is_over()
            points = net_points(outcome, rules, 2)
            for s in range(2):
                totals[seats[s]] += points[s]
    assert bot.decisions > 16
    assert totals[0] > totals[1]
