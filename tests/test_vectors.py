"""Rule vectors: JSON scenarios under ``tests/vectors/``, each played on BOTH engines.

A vector names one rule row of ``docs/rules.md`` and the seed (or rules-matrix) line
it comes from, gives a start (a position string, a seeded deal or a seeded match) and
the moves to play, and pins what must follow: the events of every move, the captured
piles, the scores, the chips, the phase, the legal moves, the full position after the
moves, the outcome and what a Stop is worth.  The files are written by the
maintainer's tool ``tests/vectors/make_vectors.py`` (expected results from the
reference engine, each vector checked against the core before it is written); this
module loads every file and plays it on the compiled core (``Game``) and on the
pure-Python reference (``ReferenceGame``), and checks every quote word for word
against its seed file.  The format is described in ``docs/testing.md``, "Rule vectors".
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import quote_sources
from gostop_core import CardSet, Game, Rules
from gostop_core.cards import CARD_CODES
from gostop_core.match import Match, hand_seed
from gostop_core.notation import format_position, parse_position, rules_from_token
from gostop_core.testing.reference import ReferenceGame

VECTOR_DIR = Path(__file__).parent / "vectors"
RULES_DOC = Path(__file__).parent.parent / "docs" / "rules.md"
MIN_VECTORS = 300
SOURCE_LABEL = {"000": "Seed 000", "001": "Seed 001", "002": "Seed 002", "003": "Seed 003",
                "004": "Seed 004", "matrix": "Matrix"}
SETTLEMENT_KEYS = ("winner", "base", "score", "pay", "multiplier", "sake_cup_as_junk",
                   "bridge_as_junk")


# ---------------------------------------------------------------- loading
def vector_files() -> list[Path]:
    return sorted(VECTOR_DIR.glob("*/*.json"))


def load_vectors() -> list[dict]:
    out = []
    for path in vector_files():
        with open(path, encoding="utf-8") as fh:
            vector = json.load(fh)
        vector["_file"] = str(path.relative_to(VECTOR_DIR))
        out.append(vector)
    return out


def rule_rows() -> tuple[set[str], set[str]]:
    """The first-column names of the rule tables of docs/rules.md: (every row of the
    casual table and the rule-family tables, the rule-family rows alone)."""
    text = RULES_DOC.read_text(encoding="utf-8")
    casual = text.split("## Every rule family")[0]
    families = text.split("## Every rule family")[1].split("## The rules object")[0]

    def rows(part: str) -> set[str]:
        names = set()
        for line in part.splitlines():
            m = re.match(r"\|\s*([^|]+?)\s*\|", line)
            if m and not set(m.group(1)) <= set("-") and m.group(1) != "rule":
                names.add(m.group(1))
        return names
    fam = rows(families)
    return rows(casual) | fam, fam


# ---------------------------------------------------------------- observing an engine
def event_row(kind, player, card, other, cards) -> list:
    return [kind, player, card, other, list(cards)]


def core_event(e) -> list:
    return event_row(e.kind, e.player, e.card, e.other, CardSet(e.cards).codes())


def ref_event(e) -> list:
    return event_row(e.kind, e.player, e.card, e.other, e.cards)


def _settlement(st: dict | None) -> dict | None:
    if st is None:
        return None
    return {k: (list(st[k]) if isinstance(st[k], (list, tuple)) else st[k])
            for k in SETTLEMENT_KEYS}


def observe_core_game(g: Game, rules: Rules) -> dict:
    n = g.players
    obs = {
        "captured": {str(p): g.captured(p).codes() for p in range(n)},
        "scores": [g.score(p).total for p in range(n)],
        "chips": [g.chips(p) for p in range(n)],
        "phase": g.phase,
        "turn": g.turn,
        "legal": sorted(str(m) for m in g.legal_moves),
        "position": g.position(),
        "outcome": None,
        "settlement": None,
    }
    o = g.outcome()
    if o is not None:
        obs["outcome"] = {"winner": o.winner, "points": o.points, "reason": o.reason,
                          "chips": list(o.chips), "scores": list(o.scores),
                          "go_counts": list(o.go_counts)}
        if rules.payment == 1 and o.reason in ("stop", "last_turn_stop"):
            obs["settlement"] = _settlement(o.settlement)
    elif g.phase == "gostop" and rules.payment == 1:
        obs["settlement"] = _settlement(g.stop_value())
    return obs


def observe_ref_game(r: ReferenceGame, rules: Rules) -> dict:
    s = r.s
    n = s.nplayers
    fields = r.to_fields()
    obs = {
        "captured": {str(p): [c for c in CARD_CODES if c in s.seats[p].pile] for p in range(n)},
        "scores": [r.score(p) for p in range(n)],
        "chips": [seat.chips for seat in s.seats],
        "phase": s.phase,
        "turn": None if s.phase == "over" else s.to_move,
        "legal": sorted(r.legal_moves()),
        "position": format_position(rules, fields),
        "outcome": None,
        "settlement": None,
    }
    o = r.outcome()
    if o is not None:
        obs["outcome"] = {"winner": o.winner, "points": o.points, "reason": o.reason,
                          "chips": list(o.chips), "scores": list(o.scores),
                          "go_counts": list(o.go_counts)}
        if rules.payment == 1 and o.reason in ("stop", "last_turn_stop"):
            obs["settlement"] = _settlement(r.settlement(o.winner))
    elif s.phase == "gostop" and rules.payment == 1:
        obs["settlement"] = _settlement(r.settlement(s.to_move))
    return obs


def _hand_start_core(vector: dict) -> tuple[Game, Rules, list]:
    deal = vector.get("deal")
    if deal:
        rules = rules_from_token(deal["rules"])
        g = Game(rules, deal["players"], deal["seed"], deal.get("dealer", 0),
                 deal.get("stake", 0))
        return g, rules, [core_event(e) for e in g.deal_events()]
    g = Game.from_position(vector["position"])
    return g, g.rules, []


def _hand_start_ref(vector: dict) -> tuple[ReferenceGame, Rules, list]:
    deal = vector.get("deal")
    if deal:
        rules = rules_from_token(deal["rules"])
        r = ReferenceGame(rules, deal["players"], deal["seed"], deal.get("dealer", 0),
                          deal.get("stake", 0))
        return r, rules, [ref_event(e) for e in r.deal_events]
    rules, fields = parse_position(vector["position"])
    return ReferenceGame.from_fields(rules, fields), rules, []


def observe_core(vector: dict) -> dict:
    """What the compiled core does with the vector (same shape as ``expect``)."""
    if vector.get("match"):
        return observe_core_match(vector)
    g, rules, deal_events = _hand_start_core(vector)
    start = g.position()
    events = [[core_event(e) for e in g.push(m)] for m in vector["moves"]]
    obs = {"events": events, **observe_core_game(g, rules)}
    if vector.get("deal"):
        obs["deal_events"] = deal_events
        obs["start"] = start
    return obs


def observe_reference(vector: dict) -> dict:
    """What the reference engine does with the vector (same shape as ``expect``)."""
    if vector.get("match"):
        return observe_ref_match(vector)
    r, rules, deal_events = _hand_start_ref(vector)
    start = format_position(rules, r.to_fields())
    events = [[ref_event(e) for e in r.push(m)] for m in vector["moves"]]
    obs = {"events": events, **observe_ref_game(r, rules)}
    if vector.get("deal"):
        obs["deal_events"] = deal_events
        obs["start"] = start
    return obs


# ---------------------------------------------------------------- matches
def _outcome_row(winner, points, reason, chips) -> dict:
    return {"winner": winner, "points": points, "reason": reason, "chips": list(chips)}


def observe_core_match(vector: dict) -> dict:
    spec = vector["match"]
    rules = rules_from_token(spec["rules"])
    m = Match(rules, spec["players"], spec["seed"], dealer=spec.get("dealer"),
              daytime=spec.get("daytime", False))
    out = {"first_dealer": m.dealer, "dealer_draw": list(m.dealer_draw), "hands": []}
    for moves in vector["hands"]:
        g = m.new_hand()
        row = {"dealer": g.dealer, "stake": g.stake_doublings, "start": g.position()}
        for move in moves:
            g.push(move)
        m.record(g)
        o = g.outcome()
        row["outcome"] = _outcome_row(o.winner, o.points, o.reason, o.chips)
        out["hands"].append(row)
    out["ledger"] = list(m.ledger)
    out["next_dealer"] = m.dealer
    return out


def _draw_rank(card: str, night: bool) -> tuple[int, int]:
    """docs/rules.md, dealer: the highest month deals (001), the earliest at night
    and the latest by day (003); a tie of month goes to the card listed first in its
    month (bright, animal, ribbon, junk)."""
    month = int(re.match(r"\d+", card).group())
    place = CARD_CODES.index(card) - (month - 1) * 4
    return (-month if night else month, -place)


def observe_ref_match(vector: dict) -> dict:
    """A match played hand by hand on the reference engine, the dealer and the stake
    of each hand worked out here from docs/rules.md (dealer, nagari, matches)."""
    spec = vector["match"]
    rules = rules_from_token(spec["rules"])
    n = spec["players"]
    draw: list[str] = []
    if spec.get("dealer") is not None:
        dealer = spec["dealer"]
    elif rules.dealer_rule == 0:
        dealer = 0
    else:
        # every player draws one card of a seeded shuffle of the 48 month cards
        order = sorted(range(48), key=lambda c: hand_seed(spec["seed"], -1 - c))
        draw = [CARD_CODES[c] for c in order[:n]]
        night = rules.dealer_rule == 2 and not spec.get("daytime", False)
        dealer = max(range(n), key=lambda p: _draw_rank(draw[p], night))
    out = {"first_dealer": dealer, "dealer_draw": draw, "hands": []}
    ledger = [0] * n
    streak = 0
    for index, moves in enumerate(vector["hands"]):
        stake = streak if rules.nagari_doubling else 0
        r = ReferenceGame(rules, n, hand_seed(spec["seed"], index), dealer, stake)
        row = {"dealer": dealer, "stake": stake, "start": format_position(rules, r.to_fields())}
        for move in moves:
            r.push(move)
        o = r.outcome()
        assert o is not None, "a match hand must be played to its end"
        row["outcome"] = _outcome_row(o.winner, o.points, o.reason, o.chips)
        out["hands"].append(row)
        ledger = [a + b for a, b in zip(ledger, o.chips)]
        if o.reason == "draw":
            streak += 1          # nagari: the same dealer deals again
        else:
            streak = 0
            if o.winner is not None and rules.dealer_rule != 0:
                dealer = o.winner    # the winner deals the next hand
    out["ledger"] = ledger
    out["next_dealer"] = dealer
    return out


# ---------------------------------------------------------------- comparing
def differences(expect: dict, got: dict) -> list[str]:
    out = []
    for key in sorted(set(expect) | set(got)):
        if expect.get(key) != got.get(key):
            out.append(f"{key}: expected {expect.get(key)!r}, got {got.get(key)!r}")
    return out


def check_quote(vector: dict, sources: dict) -> None:
    line = vector["seed_line"]
    label = SOURCE_LABEL[line["source"]]
    text = sources[label]
    if text is None:
        pytest.skip(f"{label} text not available")
    quote = " ".join(line["quote"].split())
    assert quote in text, f"{vector['id']}: {quote!r} is not {label} text"


# ---------------------------------------------------------------- the tests
VECTORS = load_vectors()
IDS = [v["id"] for v in VECTORS]


def test_vector_count_and_ids():
    assert len(VECTORS) >= MIN_VECTORS, f"only {len(VECTORS)} rule vectors"
    assert len(set(IDS)) == len(IDS), "a vector id is used twice"
    for v in VECTORS:
        preset, _, _ = v["id"].partition("/")
        assert v["_file"].split("/")[0] == preset, f"{v['id']} lies in {v['_file']}"
        start = (v.get("deal") or v.get("match") or {}).get("rules") or v["position"].split()[1][6:]
        assert start.split("+")[0] == preset, f"{v['id']}: rules {start} are not {preset}"


def test_every_vector_names_a_rule_row_and_every_family_row_has_vectors():
    every_row, family_rows = rule_rows()
    named = {v["rule"] for v in VECTORS}
    unknown = named - every_row
    assert not unknown, f"rule names that are no row of docs/rules.md: {sorted(unknown)}"
    missing = family_rows - named
    assert not missing, f"rule rows with no vector: {sorted(missing)}"


def test_every_quote_is_verbatim_seed_text():
    sources = quote_sources()
    for v in VECTORS:
        check_quote(v, sources)


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_vector_on_the_core(vector):
    got = observe_core(vector)
    diff = differences(vector["expect"], got)
    assert not diff, f"{vector['id']} ({vector['_file']}), core:\n" + "\n".join(diff)


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_vector_on_the_reference(vector):
    got = observe_reference(vector)
    diff = differences(vector["expect"], got)
    assert not diff, f"{vector['id']} ({vector['_file']}), reference:\n" + "\n".join(diff)
