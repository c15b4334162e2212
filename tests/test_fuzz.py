"""Fuzzing with Hypothesis: every parser and every command of the CLI takes
random and mutated input without crashing.

"Without crashing" means: the input is accepted, or refused with one of the
engine's own errors (a ``GoStopError`` subclass, a ``SuiteError``); the CLI
answers with exit code 0, or 1 for a suite count that does not match, or 2 with
one ``Error:`` line on stderr, and never a traceback.  Position strings are
mutated from real ones (the perft suites and positions of random games): tokens
deleted, duplicated, swapped, renamed, card codes changed or moved, numbers
changed; when a mutated position still parses, the engine plays it
(``tests/fuzz/targets.py``: legal moves, perft(1), views, pushes and pops).

The targets are shared with the coverage-guided atheris harness
``tests/fuzz/fuzz_parsers.py`` (docs/testing.md, "Fuzzing").  The default run
takes about 30 s; the examples at the end are the crashes fuzzing found, fixed.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, example, given, settings, strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent / "fuzz"))

from targets import (  # noqa: E402
    EXPECTED, MOVE_WORDS, ODD_TEXT, RandomChooser, check_cards, check_move, check_position, check_suite_text,
    check_view, mutate_position, seed_positions, seed_views,
)
from gostop_cli.main import cli  # noqa: E402
from gostop_core import FIELDS, Game, GoStopError, Move, PositionError, preset_names  # noqa: E402
from gostop_core.cards import CARD_CODES, card_index  # noqa: E402

#: Examples per test in the default run (about 30 s in all); FUZZ_SCALE=10 runs ten times more.
SCALE = float(os.environ.get("FUZZ_SCALE", "1"))


def fuzz(examples: int) -> settings:
    return settings(max_examples=max(1, int(examples * SCALE)), deadline=None,
                    suppress_health_check=list(HealthCheck))


class DataChooser:
    """The random choices of the shared mutators, drawn by Hypothesis."""

    def __init__(self, data):
        self.data = data

    def int(self, lo: int, hi: int) -> int:
        return self.data.draw(st.integers(lo, hi))


# text close to what the parsers read: their own alphabet, separators and words
PIECES = st.sampled_from(CARD_CODES + ODD_TEXT + MOVE_WORDS + (
    "rules=", "players=", "field=", "hands=", "stock=", "phase=", "casual", "traditional",
    "standard", "family", "X2", "X3", "J", "B", "A", "R", "D", "10", "11", "12"))
NEAR_TEXT = st.lists(PIECES, max_size=12).map("".join)
ANY_TEXT = st.one_of(st.text(max_size=60), NEAR_TEXT,
                     st.text(alphabet="0123456789XBARJDxbarjd,| -/:²", max_size=30))


# ---------------------------------------------------------------- cards and moves
@fuzz(400)
@given(ANY_TEXT)
@example("²B")
@example("1" * 5000)
@example("0012B")
def test_card_codes_and_card_sets(text):
    check_cards(text)


@fuzz(150)
@given(st.lists(st.sampled_from(CARD_CODES + ("13B", "1J", "x2", " 3b ", "-", "")),
                max_size=8),
       st.sampled_from([" ", ",", ", ", "  "]))
def test_card_lists(codes, sep):
    check_cards(sep.join(codes))


@fuzz(400)
@given(st.one_of(ANY_TEXT, st.builds(lambda a, b: a + b, st.sampled_from(MOVE_WORDS), ANY_TEXT)))
@example("bomb²")
@example("shake٣")
@example("bomb1" + "0" * 5000)
def test_move_strings(text):
    check_move(text)


# ---------------------------------------------------------------- positions and views
@fuzz(200)
@given(ANY_TEXT.map(lambda t: "gostop/1 " + t))
def test_position_parser_on_random_text(text):
    check_position(text)


@fuzz(1200)
@given(st.data())
def test_mutated_positions(data):
    c = DataChooser(data)
    text = mutate_position(data.draw(st.sampled_from(seed_positions())), c,
                           gentle=data.draw(st.booleans()))
    game = check_position(text, c, pushes=data.draw(st.integers(0, 30)))
    event("played by the engine" if game is not None else "refused by the parser")


@fuzz(300)
@given(st.data())
def test_mutated_views(data):
    c = DataChooser(data)
    check_view(mutate_position(data.draw(st.sampled_from(seed_views())), c))


def test_seed_positions_are_real():
    """The mutations start from real positions that parse, of every preset."""
    positions = seed_positions()
    assert len(positions) > 150
    presets = {Game.from_position(p).rules.preset.split("+")[0] for p in positions}
    assert presets == set(preset_names())
    assert {Game.from_position(p).phase for p in positions} >= {"play", "flip", "gostop", "over"}


# ---------------------------------------------------------------- perft suites
SUITE_LINES = st.one_of(
    st.sampled_from(["", "#", "# comment", "id x", "id", "perft 1 12", "perft 2 130", "perft",
                     "perft 1", "perft -1 2", "perft 1 x", "deal casual 2 1", "deal casual 2",
                     "deal casual 5 1", "deal bogus 2 1", "deal family 4 3 3", "deal casual 2 1 9",
                     "deal casual 2 99999999999999999999999", "position", "bogus line",
                     "id y # note", "perft 1 12 # note", "position -"]),
    st.sampled_from(seed_positions()[:20]).map(lambda p: "position " + p),
    ANY_TEXT,
)


@fuzz(300)
@given(st.lists(SUITE_LINES, max_size=10))
def test_suite_parser(lines):
    check_suite_text("\n".join(lines))


@fuzz(60)
@given(st.data())
def test_suite_parser_with_mutated_positions(data):
    c = DataChooser(data)
    position = mutate_position(data.draw(st.sampled_from(seed_positions())), c)
    check_suite_text(f"id m\nposition {position}\nperft 1 3\n")


# ---------------------------------------------------------------- the CLI
def runner() -> CliRunner:
    try:  # click < 8.2 mixes stderr into the output unless told not to
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def assert_clean(result, args) -> None:
    """Exit 0, or 1 for a suite mismatch, or 2 with one ``Error:`` line; never a traceback."""
    where = f"gostop {' '.join(args)!r}"
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{where} raised {result.exception!r}"
    assert "Traceback" not in result.stdout + result.stderr, where
    assert result.exit_code in (0, 1, 2), f"{where} exited {result.exit_code}"
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), f"{where}: {result.stderr!r}"
    if result.exit_code == 1:
        assert args[:1] == ["perft"] and "--suite" in args, where


NUMBERS = st.sampled_from(["0", "1", "2", "3", "4", "5", "-1", "7", "x", "", "2.5",
                           str(2 ** 64 - 1), str(2 ** 64), "99999999999999999999999", "²"])
RULE_SETS = st.one_of(
    st.builds(lambda k, v: f"{k}={v}", st.sampled_from(sorted(FIELDS) + ["bogus", ""]),
              st.one_of(NUMBERS, st.sampled_from(["true", "off", "yes"]))),
    ANY_TEXT)
OPTIONS = {
    "deal": ["--seed", "--players", "--rules", "--set", "--dealer", "--json"],
    "perft": ["--position", "--seed", "--players", "--rules", "--set", "--dealer", "--depth",
              "--divide", "--no-bulk", "--reference", "--json", "--max-depth", "--suite"],
    "score": ["--rules", "--set", "--json"],
    "rules": ["--set", "--changed", "--json"],
}
FLAGS = {"--json", "--divide", "--no-bulk", "--reference", "--changed"}


@st.composite
def command_lines(draw, tmp: Path):
    command = draw(st.sampled_from(sorted(OPTIONS)))
    args = [command]
    for _ in range(draw(st.integers(0, 5))):
        option = draw(st.sampled_from(OPTIONS[command] + ["--bogus", "-"]))
        args.append(option)
        if option in FLAGS:
            continue
        if option in ("--seed", "--players", "--dealer"):
            args.append(draw(NUMBERS))
        elif option in ("--depth", "--max-depth"):
            args.append(draw(st.sampled_from(["0", "1", "2", "-1", "65", "x"])))
        elif option == "--rules":
            args.append(draw(st.sampled_from(list(preset_names()) + ["bogus", ""])))
        elif option == "--set":
            args.append(draw(RULE_SETS))
        elif option == "--position":
            args.append(draw(st.one_of(
                st.sampled_from(seed_positions()),
                st.builds(_mutated, st.sampled_from(seed_positions()),
                          st.randoms(use_true_random=False)),
                ANY_TEXT)))
        elif option == "--suite":
            path = tmp / f"s{draw(st.integers(0, 3))}.perft"
            text = "\n".join(draw(st.lists(SUITE_LINES, max_size=6)))
            path.write_text(text, encoding="utf-8")
            args.append(str(path))
    if command == "score":
        args += draw(st.lists(st.one_of(st.sampled_from(CARD_CODES), ANY_TEXT), max_size=6))
    elif command == "rules" and draw(st.booleans()):
        args.insert(1, draw(st.sampled_from(list(preset_names()) + ["bogus"])))
    # keep every count small: the depth is at most 2 unless a suite is checked
    if command == "perft":
        if "--suite" in args:
            args += ["--max-depth", "1"]
        elif "--depth" not in args:
            args += ["--depth", "1"]
    return args


def _mutated(position: str, rnd) -> str:
    chooser = RandomChooser()
    chooser.rng = rnd
    return mutate_position(position, chooser)


@fuzz(800)
@given(st.data())
def test_cli_with_random_arguments(tmp_path_factory, data):
    tmp = tmp_path_factory.mktemp("cli", numbered=True)
    args = data.draw(command_lines(tmp))
    result = runner().invoke(cli, args, input=data.draw(st.sampled_from(
        ["", seed_positions()[0], "garbage\n"])))
    assert_clean(result, args)
    event(f"{args[0]}: exit {result.exit_code}")


# ---------------------------------------------------------------- what fuzzing found
@pytest.mark.parametrize("code", ["²B", "9²J1", "1" * 5000, "٣B"])
def test_found_card_codes_with_odd_digits(code):
    # these raised ValueError from int() while explaining the bad code
    with pytest.raises(GoStopError, match="unknown card code"):
        card_index(code)


@pytest.mark.parametrize("text", ["bomb²", "shake٣", "bomb1" + "0" * 5000])
def test_found_bomb_and_shake_with_odd_digits(text):
    with pytest.raises(GoStopError, match="write (bomb|shake) and the month"):
        Move.from_str(text)


@pytest.mark.parametrize("change, key", [
    (" forced=", "forced"), (" forced=-", "forced"), (" pending=3B/-", "pending"),
    (" stackbonus=-:3", "stackbonus"), (" stackbonus=X2,X3:3", "stackbonus"),
])
def test_found_empty_cards_in_optional_keys(change, key):
    # an empty card list where one card is needed raised IndexError
    text = Game("traditional", 2, seed=3).position() + change
    with pytest.raises(PositionError, match=f"^{key}: "):
        Game.from_position(text)


def test_found_flip_phase_without_a_card():
    text = Game("traditional", 2, seed=3).position().replace("phase=play", "phase=flip:-")
    with pytest.raises(PositionError, match="^phase: expected one card"):
        Game.from_position(text)


def test_found_a_seat_to_move_without_a_card():
    # seat 1 is to move with an empty hand while the hand goes on: no legal move, not over
    game = Game("casual", 2, seed=1)
    hands = re.search(r"hands=(\S+)", game.position()).group(1)
    first, second = hands.split("|")
    # seat 1's cards go to its captured pile (a hand never holds more than it was dealt)
    text = game.position().replace(f"hands={hands}", f"hands={first}|-")
    captured = re.search(r"captured=(\S+)", text).group(1)
    mine, theirs = captured.split("|")
    pile = second if theirs == "-" else f"{theirs},{second}"
    text = text.replace(f"captured={captured}", f"captured={mine}|{pile}").replace("turn=0", "turn=1")
    with pytest.raises(PositionError, match="seat 1 is to move but has no legal move"):
        Game.from_position(text)


# ---------------------------------------------------------------- crash safety
# tests/fuzz/crash_fuzz.py: inputs at and past every field's limit, each run in a
# worker process so that a signal or a hang is caught (docs/testing.md).
def test_crash_fuzzer_catches_a_signal():
    import crash_fuzz
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(crash_fuzz.__file__).parent)] + sys.path)
    w = crash_fuzz.Worker(env)
    word, detail = w.ask({"kind": "selftest", "text": "SIGSEGV"}, timeout=60)
    assert word == "signal" and detail.startswith("SIGSEGV")


def test_crash_fuzzer_catches_too_much_memory():
    """The worker's peak RSS is checked after every input (and its data segment
    capped): an input that takes more than the bound is a finding."""
    import crash_fuzz
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(crash_fuzz.__file__).parent)] + sys.path)
    w = crash_fuzz.Worker(env, memory_mb=150)
    word, detail = w.ask({"kind": "memtest", "text": "200"}, timeout=60)
    assert word == "memory" and "more than 150 MB" in detail
    w = crash_fuzz.Worker(env, memory_mb=150)
    word, detail = w.ask({"kind": "memtest", "text": "400"}, timeout=60)  # past the cap
    assert word == "finding" and "MemoryError" in detail
    w.close()


def test_crash_fuzzer_short_run():
    """Structured inputs at and past every field's limit, and hostile record
    files and record fields, self-play manifests, training data and SVG
    arguments, each in a worker process: no signal, no hang, no
    exception but the engine's refusals, memory under the bound."""
    import crash_fuzz
    result = crash_fuzz.fuzz(int(900 * float(os.environ.get("FUZZ_SCALE", "1"))), seed=0,
                             max_line=50_000)
    assert result["signals"] == 0 and result["hangs"] == 0
    assert result["findings"] == [], result["findings"][:3]
    assert result["accepted"] > 20 and result["refused"] > 100
    for kind in crash_fuzz.SEEDED:  # record files and fields, manifests, training data, SVG
        assert result["by_kind"][kind] > 10, (kind, result["by_kind"])
    assert 0 < result["peak_rss_mb"] < crash_fuzz.MEMORY_MB
