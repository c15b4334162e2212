"""docs/protocol.md shows a real transcript of one hand: the messages of the
example bot program (tests/bots/line_bot.py, seat 0) against greedy.  Run this
file (python tests/test_protocol_docs.py) to print the transcript again."""

from __future__ import annotations

import sys
from pathlib import Path

from gostop_core import Game
from gostop_core.bots import GreedyBot, play_game
from gostop_core.bots.external import ExternalBot

ROOT = Path(__file__).resolve().parent.parent
BOT = Path(__file__).resolve().parent / "bots" / "line_bot.py"
BEGIN = "<!-- transcript: begin -->"
END = "<!-- transcript: end -->"


def transcript() -> list[str]:
    """Every line of one casual hand (seed 2), ``> `` to the bot, ``< `` from it."""
    lines: list[str] = []
    bot = ExternalBot([sys.executable, str(BOT)], log=lambda d, line: lines.append(f"{d} {line}"))
    try:
        play_game(Game("casual", 2, seed=2), [bot, GreedyBot()])
    finally:
        bot.close()
    return lines


def documented() -> list[str]:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    block = text.split(BEGIN, 1)[1].split(END, 1)[0]
    return [ln for ln in block.splitlines() if ln.startswith(("> ", "< "))]


def test_the_documented_transcript_is_real():
    real = transcript()
    docs = documented()
    # gostop's lines in order, and the bot's lines in order (when the bot's
    # ready line is read depends on timing, so only each side's order counts)
    assert [x for x in docs if x[0] == ">"] == [x for x in real if x[0] == ">"]
    assert [x for x in docs if x[0] == "<"] == [x for x in real if x[0] == "<"]


if __name__ == "__main__":
    print("\n".join(transcript()))


def test_the_example_programs_are_shown_verbatim():
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    for name in ("line_bot.py", "line_bot.js"):
        assert (BOT.parent / name).read_text(encoding="utf-8").rstrip("\n") in text, name
