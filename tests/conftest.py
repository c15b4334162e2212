"""Shared helpers for the engine tests.

``make_position`` writes a position string by hand from the cards a test cares
about; every other card of the pack is put somewhere harmless (by default at the
bottom of the stock, below the cards the test placed on top), so each scenario
controls exactly what is on the field, in the hands and on top of the stock.
"""

from __future__ import annotations

import importlib.util
import os
import random
import re
import signal
import sys
import warnings
from pathlib import Path

import pytest

from gostop_core import CardSet, Game
from gostop_core.cards import CARD_CODES
from gostop_core.notation import rules_from_token

# Test modules import these helpers with ``from conftest import ...``.
sys.path.insert(0, os.path.dirname(__file__))

# A runner that starts the suite in the background leaves SIGINT ignored, and the
# commands the Ctrl-C tests start would inherit that; with a handler here, they
# start with the default disposition again (exec resets handlers, not SIG_IGN).
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

#: The seed texts and the rules matrix live in the workplace's shared/ folder
#: beside the repository (``../shared``); GOSTOP_SHARED names another place.
REPO = Path(__file__).resolve().parent.parent
SHARED_DIR = Path(os.environ.get("GOSTOP_SHARED") or REPO.parent / "shared")


def _seed_path(number: str) -> str:
    """The seed text ``number`` (its file is ``NNN_<hash>.txt``), or where it would be."""
    found = sorted((SHARED_DIR / "seeds").glob(f"{number}_*.txt"))
    return str(found[0] if found else SHARED_DIR / "seeds" / f"{number}.txt")


#: Every seed text by its number (000 casual, 001 traditional, 002-004 standard,
#: 004 ending with the family variant).
SEED_PATHS = {number: _seed_path(number) for number in ("000", "001", "002", "003", "004")}
SEED_000_PATH = SEED_PATHS["000"]
MATRIX_PATH = str(SHARED_DIR / "docs" / "rules-matrix.md")
#: The sources a quote check wanted and could not read (reported at the end of the run).
_MISSING_SOURCES: set[str] = set()


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
    if "played=" not in extra:
        played = _turns_had(players, turn, phase, turns, extra)
        if any(played):
            parts.append("played=" + ",".join(map(str, played)))
    return " ".join(parts)


def _turns_had(players: int, turn: int, phase: str, turns: int, extra: str) -> list[int]:
    """``played=`` as the parser wants it at least (docs/notation.md, "turns
    played"): 1 for each seat whose turn has come among the ``turns`` completed
    (counted back from the seat to move) and for the seat whose turn is under way
    at a Go/Stop decision."""
    found = re.search(r"(?:^| )sitter=(\d)", extra)
    sitter = int(found.group(1)) if found else None
    order = [(turn + i) % players for i in range(players) if (turn + i) % players != sitter]
    played = [0] * players
    for rank, p in enumerate(order):
        if (turns >= len(order) - rank if rank else turns >= len(order)) or (
                phase == "gostop" and p == turn):
            played[p] = 1
    return played


def swap_hidden(text: str) -> str:
    """The same position with the first card of seat 1's hand swapped with the
    last card of the stock: seat 0's view does not change (the hidden-card
    tests of the bots)."""
    tokens = dict(t.split("=", 1) for t in text.split()[1:])
    hands = [h.split(",") for h in tokens["hands"].split("|")]
    stock = tokens["stock"].split(",")
    hands[1][0], stock[-1] = stock[-1], hands[1][0]
    tokens["hands"] = "|".join(",".join(h) for h in hands)
    tokens["stock"] = ",".join(stock)
    return "gostop/1 " + " ".join(f"{k}={v}" for k, v in tokens.items())


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
        _MISSING_SOURCES.add(path)
        return None


def pytest_terminal_summary(terminalreporter, config):
    """Say so when the verbatim-quote checks could not read their sources (a
    clone without ``../shared``): those checks were skipped, not passed.  And
    print the seed of the random order (pytest-randomly), which ``-q`` keeps
    out of the header, so that a failing order can be run again."""
    seed = config.getoption("randomly_seed", default=None) \
        if config.pluginmanager.hasplugin("randomly") else None
    if isinstance(seed, int):
        terminalreporter.write_line(f"tests in random order: --randomly-seed={seed} "
                                    "repeats it, -p no:randomly turns it off")
    if _MISSING_SOURCES:
        terminalreporter.write_line(
            f"quote checks skipped for {len(_MISSING_SOURCES)} source(s) not found "
            f"(e.g. {sorted(_MISSING_SOURCES)[0]}); set GOSTOP_SHARED to the shared/ folder",
            yellow=True)


@pytest.fixture(autouse=True)
def _no_process_wide_state_left():
    """Fail a test that leaves process-wide state behind for the tests after it
    in the same process: the searches' deprecated module-wide stop request, the
    SIGINT handler, the working directory.  The state is put back, so that one
    leak fails one test, not every later one."""
    from gostop_core.bots import ismcts, search
    handler = signal.getsignal(signal.SIGINT)
    cwd = os.getcwd()
    yield
    left = []
    for module in (search, ismcts):
        if module.stop_requested():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                module.request_stop(False)
            left.append(f"{module.__name__}.request_stop(True) was never cleared")
    if signal.getsignal(signal.SIGINT) is not handler:
        signal.signal(signal.SIGINT, handler)
        left.append("the SIGINT handler was changed")
    moved = os.getcwd()
    if moved != cwd:
        os.chdir(cwd)
        left.append(f"the working directory moved to {moved}")
    if left:
        pytest.fail("process-wide state left behind: " + "; ".join(left), pytrace=False)


def seed_000_text() -> str | None:
    """The seed 000 text with whitespace collapsed, or None when it is not available."""
    return _read_collapsed(SEED_000_PATH)


def matrix_text() -> str | None:
    """The rules matrix with whitespace collapsed, or None when it is not available."""
    return _read_collapsed(MATRIX_PATH)


def seed_text(number: str) -> str | None:
    """Seed ``number`` (``"000"`` .. ``"004"``) with whitespace collapsed, or None
    when it is not available."""
    return _read_collapsed(SEED_PATHS[number])


_QUOTE = re.compile(r'(Seed 00[0-4]|Matrix): "([^"]+)"')


def source_quotes(obj) -> list[tuple[str, str]]:
    """The ``Seed 000: "..."`` .. ``Seed 004: "..."`` and ``Matrix: "..."`` quotes of
    a docstring (or text), as (source, quote) with whitespace collapsed."""
    text = obj if isinstance(obj, str) else (getattr(obj, "__doc__", None) or "")
    return [(src, " ".join(q.split())) for src, q in _QUOTE.findall(text)]


def quote_sources() -> dict[str, str | None]:
    """Each quotable source by its docstring label (``Seed 001``, ``Matrix`` ...)."""
    out: dict[str, str | None] = {f"Seed {n}": seed_text(n) for n in SEED_PATHS}
    out["Matrix"] = matrix_text()
    return out


def check_seed_quotes(module_globals: dict, need_seed: bool = True, need=None) -> int:
    """Every ``test_*`` function of a module quotes seed 000 (or, with
    ``need_seed=False``, at least the rules matrix), and every quote is verbatim
    text of its source.  ``need`` (a label such as ``"Seed 001"`` or a tuple of
    labels) replaces the seed 000 requirement: every test must then quote one of
    those sources.  Returns the number of quotes checked against a source."""
    sources = quote_sources()
    if isinstance(need, str):
        need = (need,)
    count = 0
    for name, obj in module_globals.items():
        if not name.startswith("test_") or not callable(obj):
            continue
        quotes = source_quotes(obj)
        if need:
            assert any(src in need for src, _ in quotes), \
                f"{name} quotes none of {', '.join(need)}"
        elif need_seed:
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


# ------------------------------------------------------------------ helpers for the rule families

def events_of(events, kind: str) -> list:
    """The events of one kind."""
    return [e for e in events if e.kind == kind]


def not_first_turn(players: int) -> str:
    """The position token that marks every seat as having played a turn already
    (so that first-turn chip rules stay out of a scenario)."""
    return "played=" + ",".join(["1"] * players)


def core_places(fields: dict) -> list[tuple[str, int]]:
    """Every place a card can be, read from ``CoreState.to_fields()``: the field
    (bonus cards sitting with a ppeok stack are on it too), each hand, each captured
    pile, the stock, the flipped card waiting for a choice, and the flipped bonus
    cards waiting for the turn's captures (``turn_bonus``)."""
    out = [("field", fields["field"])]
    for p in range(fields["nplayers"]):
        out.append((f"hand{p}", fields["hands"][p]))
        out.append((f"captured{p}", fields["captured"][p]))
    stock = 0
    for c in fields["stock"]:
        assert not stock >> c & 1, f"{CARD_CODES[c]} twice in the stock"
        stock |= 1 << c
    out.append(("stock", stock))
    if fields["flip_card"] is not None:
        out.append(("flip", 1 << fields["flip_card"]))
    out.append(("turn_bonus", fields["turn_bonus"]))
    return out


def assert_core_conserved(core, pack: int) -> dict:
    """Every card of the pack (a mask) is in exactly one place of the C state; the
    stack-bonus months point at bonus cards on the field.  Returns the fields."""
    f = core.to_fields()
    seen = 0
    total = 0
    for name, mask in core_places(f):
        assert seen & mask == 0, f"{CardSet(seen & mask)} also in {name}"
        seen |= mask
        total += bin(mask).count("1")
    assert seen == pack, f"missing {CardSet(pack & ~seen)}, extra {CardSet(seen & ~pack)}"
    assert total == bin(pack).count("1")
    for b, month in enumerate(f["stack_bonus"]):
        if month:
            assert f["field"] >> (48 + b) & 1, "a stack bonus card must lie on the field"
            assert f["field"] & (0xF << ((month - 1) * 4)), "a stack bonus card sits with a stack"
    return f


def stop_game(*, rules: str, players: int = 2, captured, winner: int = 0, go=None,
              extra: str = "", **kwargs) -> Game:
    """A position where ``winner`` decides Go or Stop with these captured piles
    (every other card in the stock), after ``winner`` says Stop."""
    go = go or [0] * players
    lastgo = [0] * players
    g = game_from(rules=rules, players=players, captured=captured, turn=winner,
                  phase="gostop", go=go, lastgo=lastgo,
                  extra=" ".join(x for x in (not_first_turn(players), extra) if x), **kwargs)
    g.push("stop")
    return g


# ------------------------------------------------------------------ a family-scoring oracle
# Written from seed 004 alone: bright 20, ribbon 5 (all ten), animal 10 (all nine),
# junk 0; hongdan / cheongdan 30, all four of May, October or December 20, all four of
# November 40, each paid by every other player; the break-even target 240 / players.

FAMILY_CARD_POINTS = {"B": 20, "R": 5, "A": 10, "J": 0, "D": 0}
FAMILY_SETS = [({"1R", "2R", "3R"}, 30), ({"6R", "9R", "10R"}, 30),
               ({"5A", "5R", "5J1", "5J2"}, 20), ({"10A", "10R", "10J1", "10J2"}, 20),
               ({"12B", "12A", "12R", "12D"}, 20), ({"11B", "11D", "11J1", "11J2"}, 40)]


def card_points(codes) -> int:
    """Family card points of a pile given as card codes (the kind letter decides)."""
    return sum(FAMILY_CARD_POINTS[c.rstrip("0123456789")[-1]] for c in codes)


def set_bonus(codes) -> int:
    """The family set bonus a pile collects from each other player."""
    codes = set(codes)
    return sum(value for cards, value in FAMILY_SETS if cards <= codes)


def family_balances(piles) -> list[int]:
    """Balance = own points + bonus x (players - 1) - every other player's bonus -
    240 / players."""
    piles = [list(p) for p in piles]
    n = len(piles)
    bonus = [set_bonus(p) for p in piles]
    return [card_points(p) + bonus[q] * (n - 1) - (sum(bonus) - bonus[q]) - 240 // n
            for q, p in enumerate(piles)]


#: The repository's scripts/ folder (the scripts are files, not a package).
SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def load_script(name: str):
    """``scripts/NAME.py`` imported as a module, for the tests of the scripts."""
    spec = importlib.util.spec_from_file_location(f"{name}_script", SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bank_position(seed: int):
    """``(game, bank)`` at the first decision of a greedy casual 2-player hand of
    ``seed`` where a bonus card can be banked, or None."""
    from gostop_core import Game
    from gostop_core.bots.simple import GreedyBot
    greedy = GreedyBot()
    game = Game("casual", 2, seed=seed)
    while not game.is_over():
        legal = list(game.legal_moves)
        banks = [m for m in legal if m.kind == "bonus"]
        if banks:
            return game, banks[0]
        game.push(greedy.choose(game.view(game.turn), legal))
    return None
