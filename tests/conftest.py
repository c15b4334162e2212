"""Shared helpers for the engine tests.

``make_position`` writes a position string by hand from the cards a test cares
about; every other card of the pack is put somewhere harmless (by default at the
bottom of the stock, below the cards the test placed on top), so each scenario
controls exactly what is on the field, in the hands and on top of the stock.
"""

from __future__ import annotations

import os
import random
import re
import sys

import pytest

from gostop_core import CardSet, Game
from gostop_core.cards import CARD_CODES
from gostop_core.notation import rules_from_token

# Test modules import these helpers with ``from conftest import ...``.
sys.path.insert(0, os.path.dirname(__file__))

SEED_000_PATH = "/work/shared/seeds/000_5f4a65387dd302ab.txt"
MATRIX_PATH = "/work/shared/docs/rules-matrix.md"


def _canon(code: str) -> str:
    """Canonical spelling of one card code (validates it)."""
    (index,) = list(CardSet([code]))
    return CARD_CODES[index]


def _list(cards) -> list[str]:
    if cards is None:
        return []
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return [_canon(c) for c in cards if c != "-"]


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run the tests marked slow (or select them with -m slow)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow") or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow or -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def make_position(*, players: int = 2, field=None, hands=None, captured=None, stock=None,
                  rules: str = "casual", dealer: int = 0, turn: int = 0, phase: str = "play",
                  turns: int = 0, go=None, lastgo=None, fliponly=None, fill: str = "stock",
                  extra: str = "") -> str:
    """A position string with the named cards placed; the rest of the pack goes to
    ``fill``: ``"stock"`` (below the given stock cards, in pack order) or
    ``"handN"`` / ``"capturedN"`` for seat N.

    ``phase`` may be ``"flip:9A"``: the flipped card is then out of every list.
    """
    hands = [_list(h) for h in (hands or [[]] * players)]
    captured = [_list(c) for c in (captured or [[]] * players)]
    assert len(hands) == players and len(captured) == players
    field = _list(field)
    stock = _list(stock)
    placed = field + stock + [c for h in hands for c in h] + [c for cap in captured for c in cap]
    if ":" in phase:
        placed.append(_canon(phase.split(":", 1)[1]))
    assert len(placed) == len(set(placed)), f"a card is placed twice: {sorted(placed)}"
    pack = 50 if rules_from_token(rules).bonus_cards else 48
    rest = [c for c in CARD_CODES[:pack] if c not in placed]
    if fill == "stock":
        stock = stock + rest
    elif fill.startswith("hand"):
        hands[int(fill[4:])] += rest
    elif fill.startswith("captured"):
        captured[int(fill[8:])] += rest
    else:  # pragma: no cover - misuse of the helper
        raise ValueError(fill)

    def cl(cards):
        return ",".join(cards) or "-"

    go = go or [0] * players
    lastgo = lastgo or [0] * players
    fliponly = fliponly or [0] * players
    parts = [
        "gostop/1", f"rules={rules}", f"players={players}", f"dealer={dealer}", f"turn={turn}",
        f"phase={phase}", f"turns={turns}", f"field={cl(field)}",
        "hands=" + "|".join(cl(h) for h in hands),
        "captured=" + "|".join(cl(c) for c in captured),
        f"stock={cl(stock)}",
        "go=" + ",".join(map(str, go)),
        "lastgo=" + ",".join(map(str, lastgo)),
        "fliponly=" + ",".join(map(str, fliponly)),
    ]
    if extra:
        parts.append(extra)
    return " ".join(parts)


def game_from(**kwargs) -> Game:
    """``Game.from_position(make_position(**kwargs))``."""
    return Game.from_position(make_position(**kwargs))


def pack_mask(game: Game) -> int:
    return (1 << (50 if game.rules.bonus_cards else 48)) - 1


def places(game: Game) -> list[tuple[str, int]]:
    """Every place a card can be, as (name, mask)."""
    out = [("field", int(game.field))]
    for p in range(game.players):
        out.append((f"hand{p}", int(game.hand(p))))
        out.append((f"captured{p}", int(game.captured(p))))
    stock = 0
    for code in game.stock():
        stock |= 1 << CARD_CODES.index(code)
    out.append(("stock", stock))
    if game.flip_card is not None:
        out.append(("flip", 1 << CARD_CODES.index(game.flip_card)))
    return out


def assert_cards_conserved(game: Game) -> None:
    """Every card of the pack is in exactly one place."""
    seen = 0
    total = 0
    for name, mask in places(game):
        assert seen & mask == 0, f"{CardSet(seen & mask)} also in {name}"
        seen |= mask
        total += bin(mask).count("1")
    assert seen == pack_mask(game), f"missing: {CardSet(pack_mask(game) & ~seen)}"
    assert total == bin(pack_mask(game)).count("1")


def random_game(players: int, seed: int, move_seed: int | None = None, *, rules="casual",
                dealer: int = 0, check=None) -> Game:
    """Play a whole hand with uniformly random legal moves; ``check(game)`` runs
    after the deal and after every move."""
    g = Game(rules=rules, players=players, seed=seed, dealer=dealer)
    rng = random.Random(seed if move_seed is None else move_seed)
    if check:
        check(g)
    while not g.is_over():
        g.push(rng.choice(list(g.legal_moves)))
        if check:
            check(g)
    return g


def _read_collapsed(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as fh:
            return " ".join(fh.read().split())
    except OSError:
        return None


def seed_000_text() -> str | None:
    """The seed 000 text with whitespace collapsed, or None when it is not available."""
    return _read_collapsed(SEED_000_PATH)


def matrix_text() -> str | None:
    """The rules matrix with whitespace collapsed, or None when it is not available."""
    return _read_collapsed(MATRIX_PATH)


_QUOTE = re.compile(r'(Seed 000|Matrix): "([^"]+)"')


def source_quotes(obj) -> list[tuple[str, str]]:
    """The ``Seed 000: "..."`` and ``Matrix: "..."`` quotes of a docstring (or text),
    as (source, quote) with whitespace collapsed."""
    text = obj if isinstance(obj, str) else (getattr(obj, "__doc__", None) or "")
    return [(src, " ".join(q.split())) for src, q in _QUOTE.findall(text)]


def check_seed_quotes(module_globals: dict, need_seed: bool = True) -> int:
    """Every ``test_*`` function of a module quotes seed 000 (or, with
    ``need_seed=False``, at least the rules matrix), and every quote is verbatim
    text of its source.  Returns the number of quotes checked against a source."""
    sources = {"Seed 000": seed_000_text(), "Matrix": matrix_text()}
    count = 0
    for name, obj in module_globals.items():
        if not name.startswith("test_") or not callable(obj):
            continue
        quotes = source_quotes(obj)
        if need_seed:
            assert any(src == "Seed 000" for src, _ in quotes), f"{name} names no seed 000 line"
        else:
            assert quotes, f"{name} names neither a seed 000 line nor a rules-matrix line"
        for src, q in quotes:
            text = sources[src]
            if text is None:
                continue
            assert q in text, f"{name}: {q!r} is not {src} text"
            count += 1
    return count
