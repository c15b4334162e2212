"""The web table's hand-over report says what each preset counts (points, chips,
balances), with one multiplier line, in English and in Korean; and the core's
display helpers it and the boards share (gostop_core.display): the captured
piles grouped, the baks a seat risks and the multipliers in force, checked
against the scoring and the settlement the engine applies."""

from __future__ import annotations

import re
import warnings

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra")

from conftest import card_points, family_balances, game_from, not_first_turn  # noqa: E402
from gostop_core import CardSet, Game, Rules, score  # noqa: E402
from gostop_core.bots import GreedyBot  # noqa: E402
from gostop_core.cards import CARD_CODES, card_kind  # noqa: E402
from gostop_core.display import (  # noqa: E402
    PILES, bak_risks, family_target, group_captured, multipliers_in_force,
)
from gostop_web.state import outcome_state, view_state  # noqa: E402

NAMES = ["Player 0", "Bot 1 (greedy)", "Bot 2 (greedy)", "Bot 3 (greedy)"]


def finished(preset: str, players: int, seed: int) -> Game:
    game = Game(preset, players, seed=seed)
    bots = [GreedyBot(seed + q) for q in range(players)]
    while not game.is_over():
        game.push(bots[game.turn].choose(game.view(game.turn), list(game.legal_moves)))
    return game


def first_won(preset: str, players: int) -> Game:
    """The first seeded greedy hand of ``preset`` that somebody wins."""
    for seed in range(200):
        game = finished(preset, players, seed)
        if game.outcome().winner is not None and game.outcome().reason != "family":
            return game
    raise AssertionError("no won hand in 200 deals")


def report(game: Game, korean: bool = False) -> list[str]:
    names = NAMES[:game.players]
    state = outcome_state(game.outcome(), names, game.view(0))
    return state["report_ko" if korean else "report"]


# ------------------------------------------------------------------ what each preset counts
def test_casual_reports_points_and_no_chips():
    game = first_won("casual", 2)
    out = game.outcome()
    lines = report(game)
    assert not any(line.startswith("chips") for line in lines)
    assert lines[-1] == f"points: {NAMES[out.winner]} scores {out.points} (nobody pays)"
    ko = report(game, korean=True)
    assert not any(line.startswith("칩") for line in ko) and ko[-1].startswith("점수: ")


@pytest.mark.parametrize("preset, players", [("traditional", 2), ("traditional", 3),
                                             ("standard", 2), ("standard", 3)])
def test_chip_presets_report_each_payment_with_its_multiplier(preset, players):
    game = first_won(preset, players)
    out = game.outcome()
    lines = report(game)
    settlement = out.settlement
    for q in range(players):
        if q == out.winner:
            continue
        line = next(x for x in lines if x.strip().startswith(f"{NAMES[q]} pays "))
        pay, base, mult = map(int, re.search(r"pays (\d+) chips = (\d+) x(\d+)", line).groups())
        assert (pay, base, mult) == (settlement["pay"][q], out.points, settlement["multiplier"][q])
    # one multiplier line, with every payer's total
    (mults,) = [x for x in lines if x.startswith("multipliers: ")]
    for q in range(players):
        if q != out.winner:
            assert f"{NAMES[q]} x{settlement['multiplier'][q]}" in mults
    chips = lines[-1]
    assert chips == "chips: " + ", ".join(f"{NAMES[q]} {c:+d}" for q, c in enumerate(out.chips))
    assert sum(out.chips) == 0  # what one pays another collects
    assert report(game, korean=True)[-1].startswith("칩: ")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_family_reports_the_target_each_seat_points_and_balances(players):
    """Seed 004: "For two players, this number is 120. For three players, this number is
    80. For four players, this number is 60." (the break-even target), and each
    balance as the family oracle of tests/conftest.py counts it."""
    game = finished("family", players, 3)
    out = game.outcome()
    lines = report(game)
    target = {2: 120, 3: 80, 4: 60}[players]
    assert f"break-even target: {target} card points (240 / {players})" in lines
    assert family_target(game.rules, players) == target
    piles = [game.captured(q).codes() for q in range(players)]
    assert list(out.chips) == family_balances(piles)
    for q in range(players):
        line = next(x for x in lines if x.strip().startswith(f"{NAMES[q]}: "))
        points, balance = re.search(r": (\d+) card points.*balance ([+-]\d+)", line).groups()
        assert int(points) == card_points(piles[q]) and int(balance) == out.chips[q]
    assert lines[-1].startswith("balances: ") and not any("chips" in x for x in lines)
    ko = report(game, korean=True)
    assert f"본전: 패 점수 {target} (240 / {players})" in ko and ko[-1].startswith("잔액: ")


def test_a_month_shaken_then_bombed_doubles_once_in_the_report():
    """Seed 001: "If the winner showed 3 cards of the same month before the start of
    play, then each opponent must pay double." (Matrix, shaking: "a month shaken and
    later bombed is one set, one double").  The position of
    test_scenarios_traditional.test_shaken_then_bombed_month_is_one_double."""
    g = game_from(rules="traditional", players=2, field="9J2 5J1",
                  hands=["9A 9R 9J1 7A", "1J1 2J1"],
                  captured=["1R 2R 3R 4R 5R 7R", "1B 2J2"], stock="11J1 12D")
    g.push("shake9")
    g.push("bomb9")
    during = multipliers_in_force(g.view(1), 0)  # what seat 1 sees of seat 0
    assert during.total == 2 and [p.months for p in during.parts] == [(9,)]
    g.push("stop")
    lines = report(g)
    assert "  Bot 1 (greedy) pays 18 chips = 9 x2 (shaken or bombed month 9 x2)" in lines
    assert "multipliers: shaken or bombed month 9 x2 · in total: Bot 1 (greedy) x2" in lines
    assert "배수: 흔들기·폭탄 9월 x2 · 합계: 봇 1 (욕심쟁이) x2" in report(g, korean=True)


# ------------------------------------------------------------------ Korean
LATIN = re.compile(r"[A-Za-z]+")
#: a card code (9A, 11J2, X2) or a multiplier (x2), standing free of other Latin letters
CODE = re.compile(r"(?<![A-Za-z0-9])(?:(?:1[0-2]|[1-9])[BARJD]\d?|X[23]|x\d+)(?![A-Za-z0-9])")


@pytest.mark.parametrize("preset, players", [("casual", 3), ("traditional", 3),
                                             ("standard", 2), ("family", 4)])
def test_the_korean_report_has_no_english_word_but_card_codes(preset, players):
    for seed in range(4):
        lines = report(finished(preset, players, seed), korean=True)
        words = LATIN.findall(CODE.sub("", "\n".join(lines)))
        assert words == [], (seed, lines)


# ------------------------------------------------------------------ gostop_core.display
def random_piles(rules: Rules, count: int = 300):
    import random
    rnd = random.Random(7)
    deck = [c for c in CARD_CODES if rules.bonus_cards or card_kind(c) != "X"]
    for _ in range(count):
        yield CardSet(" ".join(rnd.sample(deck, rnd.randint(1, 30))))


@pytest.mark.parametrize("rules", [Rules("casual"), Rules("standard"), Rules("traditional"),
                                   Rules("family"), Rules("family", rain_ribbon_counts=0)],
                         ids=["casual", "standard", "traditional", "family", "family-12R"])
def test_grouped_piles_count_as_the_score_counts(rules):
    """The groups hold every card once; the ribbons that count, the animals and the
    junk (1, 2 or 3 a card) add up to the score's counts.  Under family scoring every
    ribbon has card points whatever ``rain_ribbon_counts`` says, so 12R is never
    marked uncounted there (the boards disagreed on it)."""
    for pile in random_piles(rules):
        sc = score(pile, rules)
        g = group_captured(pile, rules)
        assert sorted(c for p in PILES for c in g.piles[p]) == sorted(pile.codes())
        assert len(g.piles["brights"]) == sc.brights
        assert len(g.piles["animals"]) == sc.animals
        assert len(set(g.piles["ribbons"]) - g.uncounted) == sc.ribbons
        if rules.family_scoring:
            assert g.uncounted == frozenset()
            assert sc.ribbon_points == rules.family_ribbon * len(g.piles["ribbons"])


def test_the_boards_draw_the_core_grouping():
    """The web frame, the terminal board and the SVG board put 12R and 9A where the
    core's grouping does (standard: 12R counts for nothing, 9A can be junk)."""
    from gostop_cli.board import board_text
    from gostop_core import svg
    pile = "12R 9A 1J1 2J1 3J1 4J1 5J1 6J1 7J1 8J1 9J1"
    g = game_from(rules="standard", players=2, captured=[pile, ""], field="1B 3B",
                  hands=["8B", "4A"], stock="5A 6A", extra=not_first_turn(2))
    grouped = group_captured(g.captured(0), g.rules)
    assert "9A" in grouped.piles["junk"] and grouped.uncounted == {"12R"}
    state = view_state(g.view(0))["seats"][0]["captured"]
    assert state["piles"]["junk"] == list(grouped.piles["junk"])
    assert state["uncounted"] == ["12R"]
    text = board_text(g.view(0), names=["You", "Bot 1"])
    assert "9A→pi" in text and "12R*" in text
    drawing = svg.board(g.view(0))
    assert "12R counts 0 under standard" in drawing and "9A counted as junk" in drawing


def test_baks_at_risk_are_the_baks_the_settlement_charges():
    """For every loser of many greedy hands: a bak the settlement charges was shown as
    a risk the turn before (from the view), and a shown risk is charged whenever the
    winner's score is of the matching kind (Seed 001: "Pi-bak - If the winner has a
    set of at least 10 "junk" (pi) cards, then any opponent with fewer than 5 "junk"
    cards must pay double.")."""
    charged = {"pi_bak": 0, "gwang_bak": 0, "go_bak": 0}
    for preset, players in (("standard", 2), ("traditional", 2), ("traditional", 3)):
        for seed in range(60):
            game = finished(preset, players, seed)
            out = game.outcome()
            if out.winner is None or not out.settlement:
                continue
            ws = out.winner_score
            view = game.view((out.winner + 1) % players)  # a loser's view
            for q in range(players):
                if q == out.winner:
                    continue
                risks = {r.name for r in bak_risks(view, q)}
                why = set(out.settlement["reasons"][q])
                for bak in charged:
                    if bak in why:
                        charged[bak] += 1
                        assert bak in risks, (preset, seed, q, bak)
                assert ("gwang_bak" in why) == ("gwang_bak" in risks and ws.bright_points > 0)
                assert ("go_bak" in why) == ("go_bak" in risks)
                if "pi_bak" in risks and ws.junk_points > 0:
                    assert "pi_bak" in why
    assert all(charged.values()), charged  # each kind was met


def test_no_baks_where_the_preset_has_none():
    for preset in ("casual", "family"):
        game = Game(preset, 3, seed=1)
        assert all(bak_risks(game.view(0), q) == () for q in range(3))
        assert multipliers_in_force(game.view(0), 0).total == 1


def test_bak_risks_read_only_the_public_view():
    """Two games that differ only in the hidden cards (hands, stock) give every seat
    the same risks."""
    a = game_from(rules="standard", players=2, captured=["1J1", "2A"], field="3B 4A",
                  hands=["5A 6A", "7A 8A"], stock="9A 10A 11B", go=[1, 0],
                  extra=not_first_turn(2))
    b = game_from(rules="standard", players=2, captured=["1J1", "2A"], field="3B 4A",
                  hands=["9A 10A", "11B 8A"], stock="5A 6A 7A", go=[1, 0],
                  extra=not_first_turn(2))
    for q in range(2):
        assert bak_risks(a.view(0), q) == bak_risks(b.view(1), q)
    names = {r.name for r in bak_risks(a.view(0), 0)}
    assert names == {"pi_bak", "gwang_bak", "go_bak"}
    # the terminal board (gostop play's screen) says the same, in both languages
    from gostop_cli.board import board_text
    text = board_text(a.view(0), names=["You", "Bot 1"])
    assert "At risk: You pi-bak (junk 1/6), gwang-bak (no bright), go-bak (1 Go called)" in text
    korean = board_text(a.view(0), names=["You", "Bot 1"], korean=True)
    assert "박 위험: 나 피박 (피 1/6), 광박 (광 없음), 고박 (1고)" in korean


# ------------------------------------------------------------------ what the page is sent
def test_each_legal_move_comes_with_what_the_page_needs():
    """Traditional, seat 0's first turn holding three Septembers with the fourth on
    the field: a shake and a bomb of month 9 are buttons with their month; 7A
    matching two field cards is one move per field card it may take."""
    from gostop_web.state import move_options
    g = game_from(rules="traditional", players=2, field="9J2 7J1 7J2 5J1",
                  hands=["9A 9R 9J1 7A", "1J1 2J1"], stock="11J1 12D")
    options = {o["move"]: o for o in move_options(g.legal_moves)}
    assert set(options) == {str(m) for m in g.legal_moves}
    assert options["shake9"]["kind"] == "shake" and options["shake9"]["month"] == 9
    assert (options["bomb9"]["label"], options["bomb9"]["label_ko"]) == ("Bomb 9", "폭탄 9월")
    takes = sorted(o["target"] for o in options.values() if o["card"] == "7A")
    assert takes == ["7J1", "7J2"]
    assert all(o["kind"] == "play" for o in options.values() if o["card"] == "7A")


def test_a_ppeok_stack_is_sent_as_one_group_of_the_field():
    """Seed 001's rules keep a ppeok as a stack of three on the field (Matrix:
    traditional ``field_stacks``): the frame's field groups hold it as one stack."""
    g = game_from(rules="traditional", players=2, field="3B 3R 3J1 5J1 5J2",
                  hands=["9A 9R", "1J1 2J1"], stock="11J1 12D", extra=not_first_turn(2))
    assert g.rules.field_stacks
    groups = view_state(g.view(0))["field_groups"]
    stacks = [grp for grp in groups if grp["stack"]]
    assert stacks == [{"month": 3, "cards": ["3B", "3R", "3J1"], "stack": True}]
    assert {"month": 5, "cards": ["5J1", "5J2"], "stack": False} in groups


def test_the_frames_sent_are_each_seat_own_state():
    """A broadcast builds the public part of a position once and each seat's frame
    on it: every frame sent reads back as that seat's (or the watcher's) own state,
    built alone, over hands of standard for three seats (bonus cards: a card drawn
    after one is its drawer's alone) to the report."""
    import asyncio
    import json
    import random
    from gostop_web.tables import Table

    class Sink:
        closed = False

        def __init__(self, seat):
            self.seat, self.sent = seat, []

        def send_nowait(self, data):
            self.sent.append(data)

    async def run():
        table = Table.create("standard", 3, [None, None, None], move_delay=0, seed=9)
        sinks = [Sink(0), Sink(1), Sink(2), Sink(None)]
        for sink in sinks:
            table.join(sink)
        rng = random.Random(4)
        drawn = 0
        for hand in range(3):
            if hand:
                await table.next_hand(0)
            g = table.game
            while not g.is_over():
                await table.play(g.turn, str(rng.choice(list(g.legal_moves))))
                drawn += any(ev.kind == "drawn" for ev in table.last_events)
                for sink in sinks:
                    assert json.loads(sink.sent[-1]) == table.state_for(sink.seat)
        return sinks, drawn

    sinks, drawn = asyncio.run(run())
    assert drawn > 0  # a private draw was among the frames checked
    last = json.loads(sinks[0].sent[-1])
    assert last["outcome"]["report"][-1].startswith("chips: ")
    assert json.loads(sinks[3].sent[-1])["view"]["hand"] is None


def test_one_table_of_korean_card_names_for_every_front_end():
    """The Korean card names come from gostop_core.korean alone: the compiled
    cards module, the SVG titles, the terminal's words and the page's names agree."""
    import xml.etree.ElementTree as ET
    with warnings.catch_warnings():  # Starlette suggests httpx2, which the extra need not have
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from gostop_cli.board import card_words
    from gostop_core import svg
    from gostop_core.cards import card_name, card_month
    from gostop_core.korean import card_name_ko
    from gostop_web import create_app
    assert card_name_ko("1B") == "송학 광" and card_name_ko("11D") == "오동 쌍피"
    with TestClient(create_app(), base_url="http://127.0.0.1") as client:
        page_names = client.get("/api/presets").json()["card_names_ko"]
        picture = client.get("/cards/2A.svg?lang=ko").text
    assert "<title>2A: 매조 꾀꼬리</title>" in picture
    for code in CARD_CODES:
        name = card_name_ko(code)
        assert card_name(code, korean=True) == name == page_names[code]
        title = ET.fromstring(svg.card(code, korean=True)).find(
            ".//{http://www.w3.org/2000/svg}title").text
        assert title == f"{code}: {name}"
        if card_month(code):
            assert card_words(code, korean=True) == f"{card_month(code)}월 {name}"


def test_the_boards_agree_on_12r_under_family_scoring():
    """Family scoring with ``rain_ribbon_counts=0``, where the boards once disagreed:
    12R still has its card points, so no board marks it as counting for nothing."""
    from gostop_cli.board import board_text
    from gostop_core import svg
    g = game_from(rules="family+rain_ribbon_counts=0", players=2,
                  captured=["12R 12D 1R 1J1 2R 2J1", ""], field="1B 3B", hands=["8B", "4A"],
                  stock="5A 6A", extra=not_first_turn(2))
    assert not g.rules.rain_ribbon_counts and g.rules.family_scoring
    assert score(g.captured(0), g.rules).ribbons == 3
    assert group_captured(g.captured(0), g.rules).uncounted == frozenset()
    assert view_state(g.view(0))["seats"][0]["captured"]["uncounted"] == []
    assert "12R*" not in board_text(g.view(0), names=["You", "Bot 1"])
    assert "12R counts 0" not in svg.board(g.view(0))


def test_the_go_caller_paying_the_third_share_is_said_with_its_sum():
    """Seed 001: "If the player that called "Go" fails to score a point and the
    opponent(s) reach(es) the minimum points in the same round, the player must pay
    double." (Matrix, traditional 3 players: the Go caller also pays the third
    player's share.)  The greedy hand of seed 18 ends so."""
    game = finished("traditional", 3, 18)
    out = game.outcome()
    reasons = out.settlement["reasons"]
    caller = next(q for q in range(3) if "pays_third" in reasons[q])
    other = next(q for q in range(3) if "covered_by_go_caller" in reasons[q])
    share = out.settlement["base"] * out.settlement["multiplier"][other]
    lines = report(game)
    said = next(x for x in lines if x.strip().startswith(f"{NAMES[caller]} pays "))
    assert f"+ {share} (the third seat's share)" in said
    assert out.settlement["pay"][caller] == (out.settlement["base"]
                                             * out.settlement["multiplier"][caller] + share)
    assert any(x.strip().startswith(f"{NAMES[other]} pays 0 chips = 0 (") for x in lines)
