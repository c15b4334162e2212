"""Crash-fuzzer targets for the files of self-play and training and for the SVG
functions' arguments (issue 32).  Each builds its input from a seed in the
worker, feeds it to the reader or the drawing, and returns ``accepted`` or
``refused``; anything else (a traceback that is not the engine's refusal, an
SVG that does not parse) escapes as a finding."""

from __future__ import annotations

import copy
import json
import math
import os
import random
import tempfile
import xml.etree.ElementTree as ET
from typing import Any

# Values a field is replaced by: wrong types, bounds, deep nesting, huge numbers.
ODD_VALUES: tuple[Any, ...] = (
    None, True, False, -1, 0, 2 ** 63, 1.5, float("nan"), float("inf"), "", "x", "1", [],
    {}, [1], {"a": 1}, "\ud800", "9" * 5000)


def _deep(rng: random.Random) -> str:
    depth = rng.choice((50, 1000, 100_000))
    return rng.choice("[{") * depth if rng.random() < 0.5 else "[" * depth + "]" * depth


def _odd(rng: random.Random) -> Any:
    # a copy: a shared list or dict put in two places would make the document circular
    return copy.deepcopy(rng.choice(ODD_VALUES))


def _mutate(doc: Any, rng: random.Random, edits: int) -> Any:
    """``doc`` with ``edits`` random fields (at any depth) deleted or replaced."""
    for _ in range(edits):
        node, key = doc, None
        path = []
        while isinstance(node, (dict, list)) and node and rng.random() < 0.7:
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            path.append((node, key))
            node = node[key]
        if not path:
            return _odd(rng)
        parent, key = path[-1]
        if isinstance(parent, dict) and rng.random() < 0.3:
            del parent[key]
        else:
            parent[key] = _odd(rng)
    return doc


def _text(doc: Any, rng: random.Random) -> str:
    text = json.dumps(doc)
    roll = rng.random()
    if roll < 0.08:
        return _deep(rng)
    if roll < 0.16:
        return text[:rng.randrange(len(text) + 1)]  # truncated
    return text


# ---------------------------------------------------------------- self-play manifests
def run_manifest(seed: int) -> str:
    """A self-play manifest, real then damaged, read by the resume check."""
    from gostop_core.arena import selfplay
    from gostop_core.errors import GoStopError
    rng = random.Random(seed)
    settings = selfplay._settings("greedy", "casual", "casual", 2, 0, 2, 5.0)
    shards = [{"file": selfplay.shard_name(i), "first": 2 * i, "games": 2,
               "forfeits": rng.randrange(3), "bytes": rng.randrange(10 ** 6),
               "sha256": "0" * 64} for i in range(rng.randrange(1, 5))]
    doc = dict(settings, games=8, finished_games=2 * len(shards), forfeits=0,
               complete=False, shards=shards)
    text = _text(_mutate(doc, rng, rng.randrange(4)), rng)
    folder = tempfile.mkdtemp(prefix="gostop-fuzz-manifest-")
    path = os.path.join(folder, selfplay.MANIFEST)
    try:
        with open(path, "w", encoding="utf-8", errors="backslashreplace") as fh:
            fh.write(text)
        try:
            done = selfplay._load_manifest(path, settings)
        except GoStopError:
            return "refused"
        for first, entry in done.items():
            assert type(first) is int and all(type(entry[k]) is int for k in
                                               ("first", "games", "forfeits", "bytes"))
        return "accepted"
    finally:
        os.unlink(path)
        os.rmdir(folder)


# ---------------------------------------------------------------- training data
def _decision(rng: random.Random) -> dict:
    from gostop_core import Game
    game = Game("casual", players=2, seed=rng.randrange(10 ** 6))
    for _ in range(rng.randrange(6)):
        if game.is_over():
            break
        game.push(rng.choice(list(game.legal_moves)))
    seat = game.turn if not game.is_over() else 0
    moves = [m.code for m in game.legal_moves] or [0]
    return {"seat": seat, "view": game.view(seat).to_str(), "moves": moves,
            "values": [round(rng.uniform(-9, 9), 4) for _ in moves], "choice": moves[0]}


def run_training(seed: int) -> str:
    """A training data file of one to three lines, real then damaged, read and
    turned into the fit's arrays."""
    from gostop_core.bots import training
    from gostop_core.errors import GoStopError
    rng = random.Random(seed)
    lines = []
    for _ in range(rng.randrange(1, 4)):
        game = {"seed": rng.randrange(10 ** 6), "players": 2,
                "decisions": [_decision(rng) for _ in range(rng.randrange(1, 3))],
                "net": [3, -3], "winner": rng.choice((0, 1, None))}
        lines.append(_text(_mutate(game, rng, rng.randrange(3)), rng))
    fd, path = tempfile.mkstemp(prefix="gostop-fuzz-train-", suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as fh:
            fh.write("\n".join(lines) + "\n")
        try:
            arrays = training.decision_arrays([path])
        except GoStopError:
            return "refused"
        assert arrays["games"] == len(arrays["seeds"])
        return "accepted"
    finally:
        os.unlink(path)


# ---------------------------------------------------------------- SVG arguments
_SIZES = (60, 800, 16, 1, 1e6, 1e6 + 1, 0, -1, 0.5, float("nan"), float("inf"),
          -float("inf"), 1e308, "800", None, True, [800])
_CARDS = (0, 49, 50, -1, -50, True, "1B", "11d", "X3", "x9", "", "1B ", None, 1.0, b"1B")
_COLOURS = ("#fff", "#a0b1c2", "red", "rgb(1, 2, 3)", "hsl(1,2%,3%)", '"/><script>x</script>',
            "a&b", "<", "", "red;fill:x", "url(#x)", 5, None, "\ud800", "#" + "f" * 9)


def run_svg(seed: int) -> str:
    """One SVG drawing from arbitrary arguments: refused with a documented error,
    or an SVG that parses, holds no script and has a finite width in range."""
    from gostop_core import Game, svg
    from gostop_core.errors import GoStopError
    from gostop_core.svg.cards import DEFAULT_COLORS
    rng = random.Random(seed)
    what = rng.choice(("card", "back", "sheet", "board", "view"))
    size = rng.choice(_SIZES) if rng.random() < 0.7 else rng.uniform(-10, 3000)
    colors = {rng.choice(sorted(DEFAULT_COLORS)): rng.choice(_COLOURS)
              for _ in range(rng.randrange(3))}
    if rng.random() < 0.05:
        colors = rng.choice(("red", ["red"], {"no such key": "red"}))
    try:
        if what == "card":
            text = svg.card(rng.choice(_CARDS), size=size, colors=colors)
        elif what == "back":
            text = svg.back(size=size, colors=colors)
        elif what == "sheet":
            text = svg.card_sheet(size=size, colors=colors,
                                  columns=rng.choice((10, 1, 0, -1, 1000, True, 2.5)))
        else:
            game = Game(rng.choice(("casual", "family")), players=3, seed=rng.randrange(1000))
            source = game if what == "board" else game.view(rng.randrange(3))
            text = svg.board(source, size=size, colors=colors, korean=rng.random() < 0.5)
    except (GoStopError, ValueError):  # the documented refusals
        return "refused"
    root = ET.fromstring(text)
    assert not any(el.tag.endswith("script") for el in root.iter()), "a script element"
    width = root.get("width")
    assert width is None or (math.isfinite(float(width)) and 1 <= float(width) <= 10 ** 6), width
    return "accepted"
