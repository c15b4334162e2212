"""Record files from an attacker (issue 27, points 1-4): memory stays bounded
whatever the file (bad lines are counted, not kept; the file is read a chunk at
a time; an over-long line is refused while it is read), records gostop writes
are JSON Lines any reader reads back (U+2028, U+2029, U+0085 escaped; lines
split on "\\n" only), and a write that fails (a full disk) is one line, exit
code 2, with the file left valid up to its last complete record."""

from __future__ import annotations

import errno
import io
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from gostop_cli.main import cli
from gostop_core import Game
from gostop_core import records
from gostop_core.records import (
    MAX_LINE, Decision, Record, RecordError, RecordWriteError, RecordWriter, Seat, iter_records,
    load_records, read_records, record_from_game,
)

ROOT = Path(__file__).resolve().parent.parent
GOOD = str(ROOT / "tests" / "records" / "good.jsonl")


def a_record(seed: int = 7, seats=("ann", "bob")) -> Record:
    game = Game("casual", 2, seed=seed)
    for _ in range(4):
        game.push(next(iter(game.legal_moves)))
    return record_from_game(game, list(seats), date="2026-12-01T00:00:00Z")


class Generated(io.TextIOBase):
    """A text file of ``size`` characters made of ``unit`` repeated, produced as
    it is read (so that the test itself holds none of it)."""

    def __init__(self, unit: str, size: int, tail: str = ""):
        self.unit, self.left, self.tail = unit, size, tail

    def read(self, n: int = -1) -> str:
        if self.left <= 0:
            tail, self.tail = self.tail, ""
            return tail
        n = self.left if n < 0 else min(n, self.left)
        self.left -= n
        return (self.unit * (n // len(self.unit) + 1))[:n]


def peak_while(func) -> int:
    """Peak bytes Python allocated while ``func`` ran."""
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# ---------------------------------------------------------------- 1. --skip-bad
def test_skip_bad_keeps_a_count_not_every_error(tmp_path):
    """Found: one error object kept per bad line (2 GB for a 3 MB file of `{}`).
    Now the first few are named and the rest counted."""
    path = tmp_path / "bad.jsonl"
    path.write_text(Path(GOOD).read_text().splitlines()[0] + "\n" + "{}\n" * 3000)
    result = CliRunner().invoke(cli, ["replay", str(path), "--skip-bad", "--position-at", "0"])
    assert result.exit_code == 0, result.output
    skipped = [ln for ln in result.stderr.splitlines() if "skipped" in ln]
    assert len(skipped) == 6  # five named, then the count of the others
    assert skipped[-1].endswith("skipped 2995 more bad record(s)")
    strict = CliRunner().invoke(cli, ["replay", str(path)])
    assert strict.exit_code == 2
    assert "(2999 more bad record(s); --skip-bad replays the good ones)" in strict.stderr


def test_memory_of_reading_does_not_grow_with_the_bad_lines(tmp_path):
    from gostop_cli.replay import open_records
    peaks = []
    for lines in (2_000, 20_000):
        path = tmp_path / f"bad{lines}.jsonl"
        path.write_text(Path(GOOD).read_text().splitlines()[0] + "\n" + "{}\n" * lines)
        peaks.append(peak_while(lambda: open_records(str(path), None, True, first_only=True)))
    # ten times the bad lines, about the same memory (well under a megabyte more)
    assert peaks[1] < peaks[0] + 1_000_000, peaks


# ---------------------------------------------------------------- 2. streaming
def test_a_flood_of_blank_lines_costs_no_memory():
    """Found: 200 MB of newlines took 1.9 GB before 'no record'."""
    peak = peak_while(lambda: list(iter_records(Generated("\n", 20_000_000))))
    assert peak < 2_000_000, peak
    assert list(iter_records(Generated(" \r\n\t\n", 2_000_000))) == []


def test_an_over_long_line_is_refused_while_it_is_read():
    """Found: a 200 MB single-line record peaked at 660 MB before its refusal.
    Now the line is dropped as it is read; the records after it are read."""
    line = a_record().to_json()
    handle = Generated("x", 5 * MAX_LINE, tail="\n" + line + "\n")
    peak = [None]

    def read():
        peak[0] = list(iter_records(handle, strict=False))
    used = peak_while(read)
    bad, good = peak[0]
    assert isinstance(bad, RecordError) and bad.kind == "json" and bad.line == 1
    assert f"more than {MAX_LINE:,} characters" in str(bad)
    assert good == a_record() and good.line == 2
    assert used < 3 * MAX_LINE * 4  # a few copies of the cap at most, not the 5 MB line


def test_line_numbers_count_every_line():
    line = a_record().to_json()
    text = "\n\n" + line + "\r\n" + "\n" * 5 + "x" * (MAX_LINE + 5) + "\n" + line + "\n  \n{}"
    out = read_records(text, strict=False)
    assert [getattr(o, "line", None) for o in out] == [3, 9, 10, 12]
    assert [type(o) for o in out] == [Record, RecordError, Record, RecordError]


def test_the_cap_is_documented():
    text = (ROOT / "docs" / "records.md").read_text()
    assert f"{MAX_LINE:,}" in text


def test_a_pretty_record_and_an_array_still_read():
    rec = a_record()
    assert read_records("\n" + rec.to_json(pretty=True) + "\n") == [rec]
    assert read_records("[" + rec.to_json() + ",\n" + rec.to_json() + "]") == [rec, rec]


def test_a_number_of_thousands_of_digits_is_a_record_error():
    """Found by the crash fuzzer: json reads numbers through int(), which refuses
    more than 4300 digits with a plain ValueError."""
    line = a_record().to_json().replace('"seed":', '"seed":' + "1" * 5000, 1)
    with pytest.raises(RecordError, match="too many digits") as info:
        read_records(line)
    assert info.value.kind == "json"


def test_text_that_is_not_utf8_is_one_error(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(a_record().to_json().encode() + b"\n\xff\xfe\n")
    result = CliRunner().invoke(cli, ["replay", str(path), "--position-at", "0"])
    assert result.exit_code == 2 and "not UTF-8 text" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------- 3. JSON Lines
def test_line_separators_in_names_are_escaped_and_read_back():
    """Found: a seat name with U+2028 was written raw, then split by
    str.splitlines() and reported as 'truncated JSON'."""
    rec = a_record(seats=("a\u2028b", "c\x85d\u2029e"))
    line = rec.to_json()
    assert not re.search("[\x85\u2028\u2029]", line)
    assert "\\u2028" in line and "\\u0085" in line and "\\u2029" in line
    assert len(line.splitlines()) == 1
    assert read_records(line)[0].seats == rec.seats
    assert read_records(rec.to_json(pretty=True)) == [rec]


def test_reading_splits_on_newline_only():
    """A raw U+2028 inside a record (another writer's) stays in the record."""
    rec = a_record()
    raw = json.dumps(rec.to_dict(), ensure_ascii=False).replace('"ann"', '"a\u2028nn"')
    assert read_records(raw + "\n")[0].seats[0] == Seat("a\u2028nn")


TEXT = st.text(max_size=40)  # any Unicode text (Hypothesis leaves out lone surrogates)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(rules=TEXT.filter(bool), start=TEXT, engine=TEXT, date=st.none() | TEXT,
       names=st.tuples(TEXT, TEXT), bots=st.tuples(st.none() | TEXT, st.none() | TEXT),
       moves=st.lists(st.tuples(TEXT, st.none() | TEXT), max_size=4),
       meta=st.dictionaries(TEXT.filter(lambda k: k not in records._KNOWN_KEYS), TEXT,
                            max_size=2),
       report=st.lists(TEXT, max_size=3), match_note=TEXT, pretty=st.booleans())
def test_every_string_field_round_trips_through_a_file(tmp_path_factory, rules, start, engine,
                                                       date, names, bots, moves, meta, report,
                                                       match_note, pretty):
    rec = Record(rules=rules, players=2, dealer=0, start=start,
                 decisions=tuple(Decision(i % 2, m, c) for i, (m, c) in enumerate(moves)),
                 outcome={"winner": None, "report": report}, seed=None,
                 seats=(Seat(names[0], bots[0]), Seat(names[1], bots[1])), engine=engine,
                 date=date, match={"seed": 1, "hand": 1, "note": match_note}, meta=meta)
    path = tmp_path_factory.mktemp("rt") / "one.jsonl"
    with RecordWriter(str(path)) as out:
        out.write(rec)
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n") and len(text.splitlines()) == 1  # one line for any reader
    assert [json.loads(ln) for ln in text.splitlines()] == [rec.to_dict()]
    assert load_records(str(path)) == [rec]
    assert read_records(rec.to_json(pretty=pretty)) == [rec]


def test_lone_surrogates_are_written_escaped(tmp_path):
    rec = a_record(seats=("\ud800x", "y"))
    path = tmp_path / "s.jsonl"
    with RecordWriter(str(path)) as out:  # a lone surrogate cannot be UTF-8: escaped
        out.write(rec)
    assert load_records(str(path)) == [rec]


# ---------------------------------------------------------------- 4. write errors
def test_a_failed_write_cuts_the_file_back_to_its_last_record(tmp_path, monkeypatch):
    path = tmp_path / "part.jsonl"
    first, second = a_record(1), a_record(2)
    with RecordWriter(str(path)) as out:
        out.write(first)
        real_write = os.write

        def half_then_full(fd, data):  # half a line lands, then the disk is full
            if len(data) > 10:
                return real_write(fd, bytes(data[:len(data) // 2]))
            raise OSError(errno.ENOSPC, "No space left on device")
        monkeypatch.setattr(records.os, "write", half_then_full)
        with pytest.raises(RecordWriteError, match="No space left on device"):
            out.write(second)
        monkeypatch.setattr(records.os, "write", real_write)
        assert out.written == 1
    assert load_records(str(path)) == [first]


def run_cli(*args: str, stdout=subprocess.PIPE, limit: int | None = None):
    def cap():  # a small "disk": writes past `limit` bytes fail (EFBIG, not a signal)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run([sys.executable, "-m", "gostop_cli", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120,
                          preexec_fn=cap if limit else None)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [
    ("arena", "greedy", "random", "--deals", "1", "--workers", "1", "--records", "/dev/full"),
    ("play", "--auto", "--quiet", "--no-pause", "--seed", "3", "--save", "/dev/full"),
])
def test_a_full_disk_is_one_line_and_exit_code_2(args):
    """Found: `gostop arena --records /dev/full` and `gostop play --save
    /dev/full` ended in an OSError traceback and exit code 1."""
    proc = run_cli(*args)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot write /dev/full: "), lines
    assert "No space left on device" in lines[0]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("deal", "--seed", "1"), ("rules", "casual"),
                                  ("perft", "--seed", "1", "--depth", "1")])
def test_output_on_a_full_disk_is_one_line_and_exit_code_2(args):
    with open("/dev/full", "w") as full:
        proc = run_cli(*args, stdout=full)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "Error: cannot write the output: No space left on device"]


def test_an_arena_stopped_by_a_full_disk_leaves_valid_records(tmp_path):
    path = tmp_path / "arena.jsonl"
    proc = run_cli("arena", "greedy", "random", "--deals", "30", "--workers", "1",
                   "--records", str(path), limit=20_000)
    assert proc.returncode == 2, proc.stderr
    assert "cannot write" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    kept = load_records(str(path), verify=True)  # strict: every line a whole record
    assert 0 < len(kept) < 60 and path.stat().st_size <= 20_000
    assert f"it holds the {len(kept)} complete record(s)" in proc.stderr


def test_selfplay_stopped_by_a_full_disk_leaves_no_half_shard(tmp_path):
    out = tmp_path / "selfplay"
    proc = run_cli("selfplay", "--bot", "random", "--games", "200", "--shard-size", "20",
                   "--workers", "1", "--out", str(out), limit=30_000)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: cannot write to {out}"), lines
    for shard in out.iterdir():  # whatever is there is whole (no half-written .tmp)
        assert not shard.name.endswith(".tmp"), shard.name
        if shard.suffix == ".jsonl":
            load_records(str(shard), verify=True)
