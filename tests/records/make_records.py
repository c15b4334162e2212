#!/usr/bin/env python
"""Write the record fixtures of ``tests/records/`` (a maintainer's tool, not a test).

    python tests/records/make_records.py

``good.jsonl`` holds three whole hands played by the greedy bot (casual with 2
players, standard with 3, family with 4); each ``bad-*.jsonl`` file is the first
of them with one fault of one kind of :class:`gostop_core.RecordError`, made by
the edit named in :data:`FAULTS`; ``mixed.jsonl`` puts good and bad lines
together for ``--skip-bad``.  The date is fixed so the files do not change from
one run to the next.
"""

from __future__ import annotations

import json
from pathlib import Path

from gostop_core import Game
from gostop_core.records import record_from_game
from gostop_core.bots import make_bot, play_game

HERE = Path(__file__).resolve().parent
DATE = "2026-01-01T00:00:00Z"
GAMES = (("casual", 2, 7), ("standard", 3, 11), ("family", 4, 5))


def good_records() -> list[dict]:
    out = []
    for preset, players, seed in GAMES:
        game = Game(preset, players, seed=seed)
        play_game(game, [make_bot("greedy") for _ in range(players)])
        seats = [(f"greedy {p}", "greedy") for p in range(players)]
        out.append(record_from_game(game, seats, date=DATE).to_dict())
    return out


def _illegal(rec: dict) -> str:
    # decision 3 plays the last card of the stock: in nobody's hand
    stock = rec["start"].split(" stock=")[1].split(" ")[0].split(",")
    rec["decisions"][2]["move"] = stock[-1]
    return "illegal"


def _wrong_seat(rec: dict) -> str:
    d = rec["decisions"][3]
    d["seat"] = (d["seat"] + 1) % rec["players"]
    return "wrong_seat"


def _position(rec: dict) -> str:
    rec["rules"] = "standard"  # the start position is a casual deal
    return "position"


def _outcome(rec: dict) -> str:
    rec["outcome"]["points"] += 1
    return "outcome_mismatch"


def _format(rec: dict) -> str:
    rec["format"] = "gostop-record/9"
    return "format"


FAULTS = {"bad-illegal-move.jsonl": _illegal, "bad-wrong-seat.jsonl": _wrong_seat,
          "bad-position.jsonl": _position, "bad-outcome.jsonl": _outcome,
          "bad-unknown-format.jsonl": _format}


def line(rec: dict) -> str:
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":"))


def main() -> None:
    good = good_records()
    (HERE / "good.jsonl").write_text("".join(line(r) + "\n" for r in good), encoding="utf-8")
    bad_lines = {}
    for name, fault in FAULTS.items():
        rec = json.loads(line(good[0]))
        fault(rec)
        bad_lines[name] = line(rec)
        (HERE / name).write_text(line(rec) + "\n", encoding="utf-8")
    truncated = line(good[0])[:200]
    bad_lines["bad-truncated.jsonl"] = truncated
    (HERE / "bad-truncated.jsonl").write_text(truncated + "\n", encoding="utf-8")
    # good, truncated, good, illegal, good
    mixed = [line(good[0]), truncated, line(good[1]), bad_lines["bad-illegal-move.jsonl"],
             line(good[2])]
    (HERE / "mixed.jsonl").write_text("\n".join(mixed) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
