"""docs/protocol.md shows a real transcript of one hand: the messages of the
example bot program (examples/protocol/line_bot.py, seat 0) against greedy.  Run this
file (python tests/test_protocol_docs.py) to print the transcript again, and
``python tests/test_protocol_docs.py v2`` for the version 2 one."""

from __future__ import annotations

import sys
from pathlib import Path

from gostop_core import Game
from gostop_core.bots import GreedyBot, play_game
from gostop_core.bots.external import ExternalBot

ROOT = Path(__file__).resolve().parent.parent
BOT = Path(__file__).resolve().parent.parent / "examples" / "protocol" / "line_bot.py"
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




def test_the_example_programs_are_shown_verbatim():
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    for name in ("line_bot.py", "line_bot.js"):
        assert (BOT.parent / name).read_text(encoding="utf-8").rstrip("\n") in text, name


# ---------------------------------------------------------------- version 2

BEGIN2 = "<!-- transcript2: begin -->"
END2 = "<!-- transcript2: end -->"


def v2_session() -> list[str]:
    """The lines sent to `gostop engine --bot best` in the version 2 transcript."""
    import json

    from gostop_core.bots import GreedyBot
    game = Game("casual", 2, seed=2)
    seat = game.turn
    decision = Game("casual", 2, seed=1)  # a Go/Stop decision of seat 0 at turn 12
    greedy = GreedyBot()
    while decision.phase != "gostop":
        decision.push(greedy.choose(decision.view(decision.turn), list(decision.legal_moves)))
    start = Game("standard", 3, seed=4)
    position = start.position()
    moves = []
    for _ in range(3):
        move = next(iter(start.legal_moves))
        moves.append(str(move))
        start.push(move)
    messages = [
        {"type": "hello", "protocol": ["gostop-bot/1", "gostop-bot/2"], "engine": "my-driver"},
        {"type": "isready", "id": 1},
        {"type": "setoption", "id": 2, "name": "samples", "value": 16},
        {"type": "request", "id": 3, "view": game.view(seat).to_str()},
        {"type": "request", "id": 4, "view": game.view(1 - seat).to_str()},
        {"type": "analyse", "id": 5, "view": decision.view(decision.turn).to_str()},
        {"type": "request", "id": 6, "position": position, "moves": moves},
        {"type": "quit"},
    ]
    return [json.dumps(m) for m in messages]


def engine_answers(lines: list[str]) -> list[str]:
    import subprocess
    out = subprocess.run([sys.executable, "-m", "gostop_cli.main", "engine", "--bot", "best"],
                         input="\n".join(lines) + "\n", capture_output=True, text=True,
                         timeout=120, check=True)
    return out.stdout.splitlines()


def _masked(line: str) -> str:
    import re
    return re.sub(r'"time_ms": \d+', '"time_ms": 0', line)


def documented_v2() -> list[str]:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    block = text.split(BEGIN2, 1)[1].split(END2, 1)[0]
    return [ln for ln in block.splitlines() if ln.startswith(("> ", "< "))]


def test_the_version_2_transcript_is_what_gostop_engine_answers():
    docs = documented_v2()
    sent = [ln[2:] for ln in docs if ln.startswith("> ")]
    assert sent == v2_session()
    expected = [_masked(ln[2:]) for ln in docs if ln.startswith("< ")]
    assert [_masked(ln) for ln in engine_answers(sent)] == expected


def print_v2_transcript() -> None:
    """The transcript block: each message sent, then what the engine wrote
    for it (the engine is run once per prefix, so each answer follows the
    line it answers)."""
    lines = v2_session()
    shown = 0
    out: list[str] = []
    for i, line in enumerate(lines):
        out.append(f"> {line}")
        answers = engine_answers(lines[:i + 1] + ([] if i + 1 == len(lines) else
                                                  ['{"type": "quit"}']))
        out += [f"< {a}" for a in answers[shown:]]
        shown = len(answers)
    print("\n".join(out))


if __name__ == "__main__":
    if sys.argv[1:] == ["v2"]:
        print_v2_transcript()
    else:
        print("\n".join(transcript()))
