"""The perft counts published in docs/perft.md are what the engine counts today,
with and without bulk counting."""

from pathlib import Path

from gostop_core import Game

DOC = Path(__file__).resolve().parent.parent / "docs" / "perft.md"


def published_rows():
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 9 and cells[0] in ("casual", "traditional", "standard", "family"):
            rows.append((cells[0], int(cells[1]), int(cells[2]), [int(c) for c in cells[3:]]))
    return rows


def test_table_is_there():
    assert len(published_rows()) == 20


def test_published_counts_match_the_engine():
    for preset, players, seed, counts in published_rows():
        game = Game(preset, players=players, seed=seed)
        for depth, expected in enumerate(counts[:5], start=1):
            assert game.perft(depth) == expected, (preset, players, seed, depth)
        assert game.perft(4, bulk=False) == counts[3]


def test_worked_example():
    text = DOC.read_text(encoding="utf-8")
    position = next(line for line in text.splitlines() if line.startswith("gostop/1") and "turns=18" in line)
    game = Game.from_position(position)
    assert [game.perft(d) for d in range(1, 6)] == [2, 6, 6, 8, 0]
    assert {str(m): n for m, n in game.divide(4).items()} == {"1B": 4, "2A": 4}
