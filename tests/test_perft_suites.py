"""The perft suites in tests/perft/: the core matches every published count, and
the pure-Python reference agrees at the small depths (the suite files were written
only where both engines agreed; tests/perft/make_suites.py)."""

from pathlib import Path

import pytest

from gostop_core.testing.perft_suite import SuiteError, check_suite, load_suite, parse_suite

SUITES = sorted((Path(__file__).resolve().parent / "perft").glob("*.perft"))


def test_suites_are_there():
    names = {p.name for p in SUITES}
    assert {"deals.perft", "tricky.perft"} <= names
    entries = [e for p in SUITES for e in load_suite(p)]
    assert len(entries) >= 80
    assert max(d for e in entries for d, _ in e.counts) >= 5


@pytest.mark.parametrize("path", SUITES, ids=lambda p: p.name)
def test_core_matches_every_count(path):
    results = check_suite(load_suite(path))
    bad = [(r.entry.id, r.depth, r.expected, r.core, r.first_difference()) for r in results if not r.ok]
    assert not bad


@pytest.mark.parametrize("path", SUITES, ids=lambda p: p.name)
def test_reference_agrees_at_small_depths(path):
    results = check_suite(load_suite(path), reference=True, max_depth=3)
    bad = [(r.entry.id, r.depth, r.expected, r.core, r.reference, r.first_difference())
           for r in results if not r.ok]
    assert not bad


@pytest.mark.slow
@pytest.mark.parametrize("path", SUITES, ids=lambda p: p.name)
def test_reference_agrees_at_every_depth(path):
    results = check_suite(load_suite(path), reference=True)
    assert all(r.ok for r in results)


def test_a_wrong_count_reports_both_divides():
    entries = parse_suite("id wrong\ndeal casual 2 1\nperft 2 131\n")
    (result,) = check_suite(entries)
    assert not result.ok and result.core == 130
    assert sum(result.divide_core.values()) == 130
    assert result.divide_core == result.divide_reference
    assert result.first_difference() is None


@pytest.mark.parametrize("text, where", [
    ("id x\nperft 1 2\n", "no position"),
    ("id x\ndeal casual 2\n", ":2:"),
    ("id x\ndeal casual 2 1\nperft one 2\n", ":3:"),
    ("id x\nposition gostop/1 rules=casual\n", ":2:"),
    ("id x\nfoo bar\n", "unknown line"),
])
def test_malformed_suites_say_where(text, where):
    with pytest.raises(SuiteError, match=where):
        parse_suite(text, "t.perft")
