"""gostop_core.svg: every card drawn, every picture distinct, boards well formed for
every preset and player count, a seat's board holding nothing the seat may not see,
the notebook hooks and ``gostop svg``."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import gostop_core
from gostop_core import Game, PlayerView, Rules, preset_names, svg
from gostop_core.bots import GreedyBot
from gostop_core.cards import CARD_CODES
from gostop_cli.main import cli

SVG_NS = "{http://www.w3.org/2000/svg}"
PRESET_PLAYERS = [(name, n) for name in preset_names() for n in Rules(name).allowed_players()]


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG_NS}svg"
    return root


def symbol_ids(root: ET.Element) -> set[str]:
    return {s.get("id") for s in root.iter(f"{SVG_NS}symbol")}


def use_refs(root: ET.Element) -> list[str]:
    return [u.get("href") for u in root.iter(f"{SVG_NS}use")]


def played_to(preset: str, players: int, seed: int, plies: int) -> Game:
    """A game of ``preset`` played by greedy bots for ``plies`` moves (or to its end)."""
    game = Game(preset, players, seed=seed)
    bot = GreedyBot()
    for _ in range(plies):
        if game.is_over():
            break
        game.push(bot.choose(game.view(game.turn), list(game.legal_moves)))
    return game


@pytest.mark.parametrize("code", CARD_CODES)
def test_every_card_renders_as_wellformed_svg(code):
    root = parse(svg.card(code, size=90))
    assert root.get("width") == "90"
    assert symbol_ids(root) == {svg.card_symbol_id(code)}
    assert use_refs(root) == [f"#{svg.card_symbol_id(code)}"]
    # the code is written on the card, so the notation can be learnt from it
    assert code in "".join(root.itertext())


def test_card_codes_are_case_insensitive_and_bad_codes_refused():
    assert svg.card("11d") == svg.card("11D")
    with pytest.raises(gostop_core.CardCodeError):
        svg.card("13B")
    with pytest.raises(gostop_core.CardCodeError):
        svg.card_symbol_id("1J")


def _body(code: str) -> str:
    """The picture of a card without its corner labels (month number, code)."""
    symbol = svg.card_symbol(code)
    symbol = re.sub(r'<g class="gostop-label">.*?</g>', "", symbol)
    symbol = re.sub(r"<title>.*?</title>", "", symbol)
    return symbol.replace(code, "CODE")  # ids (clip paths) name the card


def test_two_cards_never_share_a_picture():
    bodies = {}
    for code in CARD_CODES:
        body = _body(code)
        assert body not in bodies, f"{code} looks like {bodies.get(body)}"
        bodies[body] = code
    assert _body("1B") != svg.back()


def test_kind_marks():
    # brights carry the 光 mark, double junk its 2, ribbons their band colour
    for code in CARD_CODES:
        symbol = svg.card_symbol(code)
        assert ("gostop-bright-mark" in symbol) == code.endswith("B"), code
        assert ("光" in symbol) == code.endswith("B"), code
        assert ("gostop-double-mark" in symbol) == code.endswith("D"), code
    band = {"red": "#d62828", "blue": "#1c4fa0"}
    writing = 'stroke="#111111"'
    for code in ("1R", "2R", "3R"):                  # hongdan: red, with writing
        assert band["red"] in svg.card_symbol(code) and writing in svg.card_symbol(code)
    for code in ("4R", "5R", "7R"):                  # chodan: red, plain
        symbol = svg.card_symbol(code)
        assert band["red"] in symbol and writing not in symbol and band["blue"] not in symbol
    for code in ("6R", "9R", "10R"):                 # cheongdan: blue
        assert band["blue"] in svg.card_symbol(code)


def test_card_defs_and_back():
    root = parse(f'<svg xmlns="http://www.w3.org/2000/svg">{svg.card_defs()}</svg>')
    assert symbol_ids(root) == {svg.card_symbol_id(c) for c in CARD_CODES} | {svg.BACK_ID}
    root = parse(svg.back(size=40))
    assert use_refs(root) == [f"#{svg.BACK_ID}"]


def test_colours_are_parameters():
    assert "#123456" in svg.back(colors={"back": "#123456"})
    with pytest.raises(ValueError, match="unknown colour"):
        svg.back(colors={"bak": "#123456"})


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_boards_parse_for_every_preset_and_player_count(preset, players):
    for plies in (0, 9, 400):
        game = played_to(preset, players, seed=players * 11, plies=plies)
        root = parse(svg.board(game))
        # a Game shows every hand face up
        for q in range(players):
            for code in game.hand(q).codes():
                assert f"#{svg.card_symbol_id(code)}" in use_refs(root)
        for seat in range(players):
            parse(svg.board(game.view(seat)))
            parse(svg.board(game, seat=seat, size=None))


def _visible(view: PlayerView) -> set[str]:
    seen = set(view.hand.codes()) | set(view.field.codes())
    for pile in view.captured:
        seen |= set(pile.codes())
    if view.flip_card:
        seen.add(view.flip_card)
    return seen


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_a_seats_board_holds_nothing_the_seat_may_not_see(preset, players):
    rng = random.Random(f"svg-leak-{preset}-{players}")
    for _ in range(4):
        game = played_to(preset, players, seed=rng.randrange(10 ** 6), plies=rng.randrange(30))
        for seat in range(players):
            view = game.view(seat)
            visible = _visible(view)
            hidden = {c for c in CARD_CODES if c not in visible}
            for text in (svg.board(view), svg.board(game, seat=seat)):
                root = parse(text)
                named = {r[1:] for r in use_refs(root)} | symbol_ids(root)
                shown = {n[len("gostop-card-"):] for n in named if n != svg.BACK_ID}
                assert shown == visible, (preset, players, seat)
                words = set(re.findall(r"\b(?:1[0-2]|[1-9])[BARJD]\d?\b|\bX[23]\b",
                                       "".join(root.itertext())))
                assert not words & hidden, (words & hidden)
                for code in hidden:
                    assert svg.card_symbol_id(code) not in text
            # the same picture for positions that differ only in hidden cards
            assert svg.board(view) == svg.board(PlayerView.from_str(view.to_str()))


def test_view_cannot_be_drawn_for_another_seat():
    view = Game("casual", 2, seed=3).view(0)
    with pytest.raises(ValueError, match="seat 0"):
        svg.board(view, seat=1)
    with pytest.raises(IndexError):
        svg.board(Game("casual", 2, seed=3), seat=2)
    with pytest.raises(TypeError):
        svg.board("gostop/1 ...")


def test_lastmove_is_highlighted():
    game = Game("casual", 2, seed=7)
    move = list(game.legal_moves)[0]
    plain = svg.board(game.view(0))
    assert "gostop-lastmove" not in plain
    game.push(move)
    marked = svg.board(game.view(1), lastmove=move)
    assert "gostop-lastmove" in marked
    assert svg.board(game.view(1), lastmove=str(move)) == marked


def test_defs_can_be_left_out_for_a_page_that_embeds_them_once():
    game = Game("standard", 3, seed=5)
    root = parse(svg.board(game.view(0), defs=False))
    assert symbol_ids(root) == set()
    assert all(r[1:] in {svg.card_symbol_id(c) for c in CARD_CODES} | {svg.BACK_ID}
               for r in use_refs(root))


def test_board_shows_scores_counts_and_rules():
    game = played_to("standard", 3, seed=21, plies=30)
    view = game.view(1)
    text = "".join(parse(svg.board(view)).itertext())
    assert "standard rules" in text
    assert f"stock {view.stock_count}" in text
    for q in range(3):
        assert f"seat {q}" in text
        assert f"{view.scores[q]} pt" in text
    for q in (0, 2):
        assert f"hand {view.hand_counts[q]}" in text


def test_rain_ribbon_marked_when_it_does_not_count():
    # 12R in a captured pile: under standard it counts for nothing, and the board says so
    position = ("gostop/1 rules=standard players=2 dealer=0 turn=0 phase=play turns=0 "
                "field=1J1,3R,4R,7A,7R,8J2,9A,11J2 hands=1B,5J1,5J2,7J1,9J1,10J2,11B,11D,11J1,"
                "12D|1R,2R,3B,3J1,4A,6R,7J2,8A,12A,2J2 captured=12R|- stock=5A,1J2,4J1,12B,X2,"
                "9J2,10J1,10R,6J1,2A,5R,6A,10A,2J1,9R,6J2,3J2,X3,8J1,8B,4J2 go=0,0 lastgo=0,0 "
                "fliponly=0,0")
    text = "".join(parse(svg.board(Game.from_position(position))).itertext())
    assert "12R counts 0 under standard" in text
    counted = Game.from_position(position.replace("rules=standard",
                                                  "rules=standard+rain_ribbon_counts=1"))
    assert "12R counts 0" not in "".join(parse(svg.board(counted)).itertext())


def test_repr_svg_after_import_gostop_core():
    game = Game("casual", 3, seed=2)
    assert parse(game._repr_svg_()) is not None
    assert game._repr_svg_() == svg.board(game)
    view = game.view(1)
    assert view._repr_svg_() == svg.board(view)


def test_card_sheet_holds_every_card_and_a_back():
    root = parse(svg.card_sheet())
    assert symbol_ids(root) == {svg.card_symbol_id(c) for c in CARD_CODES} | {svg.BACK_ID}


# --- gostop svg -----------------------------------------------------------------

def runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def test_cli_svg_of_a_position_and_a_seat(tmp_path):
    game = played_to("traditional", 3, seed=4, plies=12)
    out = tmp_path / "board.svg"
    result = runner().invoke(cli, ["svg", game.position(), "--seat", "2", "--size", "640",
                                   "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text == svg.board(game, seat=2, size=640) + "\n"
    assert parse(text).get("width") == "640"


def test_cli_svg_of_a_view_to_stdout():
    view = Game("casual", 4, seed=8).view(3)
    result = runner().invoke(cli, ["svg", view.to_str()])
    assert result.exit_code == 0
    assert result.output == svg.board(view) + "\n"


def test_cli_svg_cards():
    result = runner().invoke(cli, ["svg", "--card", "8b", "--size", "120"])
    assert result.exit_code == 0 and result.output == svg.card("8B", size=120) + "\n"
    result = runner().invoke(cli, ["svg", "--card", "all"])
    assert result.exit_code == 0 and parse(result.output) is not None


@pytest.mark.parametrize("args,message", [
    (["nonsense"], "must start with"),
    (["--card", "13B"], "13B"),
    ([], "missing POSITION_OR_VIEW"),
    (["--seat", "1", "VIEW"], "seat 0's view"),
    (["--seat", "3", "POSITION"], "--seat 3"),
    (["--size", "3", "POSITION"], "--size"),
])
def test_cli_svg_bad_input_exits_2_with_one_line(args, message):
    game = Game("casual", 2, seed=1)
    args = [game.view(0).to_str() if a == "VIEW" else game.position() if a == "POSITION" else a
            for a in args]
    result = runner().invoke(cli, ["svg", *args])
    assert result.exit_code == 2
    err = result.stderr if hasattr(result, "stderr") else result.output
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], err


def test_cli_svg_help_has_an_example():
    result = runner().invoke(cli, ["svg", "--help"])
    assert result.exit_code == 0
    assert "gostop svg" in result.output and "-o board.svg" in result.output


def test_cards_name_their_zone_for_a_page_to_click():
    game = played_to("casual", 4, seed=13, plies=10)
    view = game.view(2)
    root = parse(svg.board(view))
    zones: dict[str, set[str]] = {}
    counts = {}
    for g in root.iter(f"{SVG_NS}g"):
        if g.get("class") == "gostop-card":
            zones.setdefault(g.get("data-zone"), set()).add(g.get("data-card"))
        if g.get("class") == "gostop-backs":
            counts[g.get("data-zone")] = int(g.get("data-count"))
    assert zones["hand-2"] == set(view.hand.codes())
    assert zones.get("field", set()) == set(view.field.codes())
    for q in range(4):
        assert zones.get(f"captured-{q}", set()) == set(view.captured[q].codes())
    assert counts == {"stock": view.stock_count,
                      **{f"hand-{q}": view.hand_counts[q] for q in (0, 1, 3)}}


def test_korean_labels():
    game = played_to("standard", 3, seed=21, plies=30)
    view = game.view(1)
    english = "".join(parse(svg.board(view)).itertext())
    korean = "".join(parse(svg.board(view, korean=True)).itertext())
    assert "standard rules" in english and "standard 규칙" in korean
    for word in ("자리 1 (나)", f"더미 {view.stock_count}", "바닥", "광 "):
        assert word in korean, word
    labels = [t for t in parse(svg.board(view, korean=True)).itertext()
              if not re.fullmatch(r"\s*|\d+|\+|×[23]|光|.*: .*|(?:1[0-2]|[1-9])[BARJD]\d?|X[23]|"
                                  r"a hidden card", t)]
    assert not [t for t in labels if re.search(r"[A-Za-z]{3,}", t.replace("standard", ""))]


def test_every_package_of_the_source_tree_is_shipped():
    """pyproject.toml lists its packages by name: gostop_core.svg (and any other
    package with an __init__.py) must be there, or a wheel leaves it out."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    src = root / "src"
    found = {".".join(p.parent.relative_to(src).parts) for p in src.rglob("__init__.py")
             if "__pycache__" not in p.parts and not p.parent.name.endswith(".egg-info")}
    assert "gostop_core.svg" in found
    assert found <= listed, sorted(found - listed)


def test_family_boards_count_no_junk_toward_a_score():
    # family rules score card points (brights, ribbons, animals): junk has no threshold
    game = played_to("family", 4, seed=13, plies=20)
    text = "".join(parse(svg.board(game)).itertext())
    assert re.search(r"junk \d+", text)
    assert not re.search(r"junk \d+/\d+", text) and "godori" not in text
    casual = "".join(parse(svg.board(played_to("casual", 4, seed=13, plies=20))).itertext())
    assert re.search(r"junk \d+/10", casual)
