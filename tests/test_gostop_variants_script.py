"""scripts/gostop_variants.py: expectimax-v1 whose Go/Stop is another bot's."""

from __future__ import annotations

import pytest

from gostop_core import Game
from gostop_core.bots import make_bot

from conftest import SCRIPTS, load_script


@pytest.fixture(scope="module")
def variants():
    return load_script("gostop_variants")


def _decisions(seed: int):
    """(game, legal) at every decision of a greedy hand of seed ``seed``."""
    greedy = make_bot("greedy")
    game = Game("casual", seed=seed)
    while not game.is_over():
        legal = list(game.legal_moves)
        yield game, legal
        game.push(greedy.choose(game.view(game.turn), legal))


def test_go_stop_is_the_other_bots_and_the_rest_the_searchs(variants):
    bot = variants.NetGoStop(seed=3)
    neural, search = make_bot("neural", seed=3), make_bot("expectimax-v1", seed=3)
    gostops = cards = 0
    for seed in range(40):
        for game, legal in _decisions(seed):
            if len(legal) < 2:
                continue
            view = game.view(game.turn)
            if any(m.kind in ("go", "stop") for m in legal):
                assert bot.choose(view, legal) == neural.choose(view, legal)
                gostops += 1
            elif cards < 3:
                assert bot.choose(view, legal) == search.choose(view, legal)
                cards += 1
        if gostops >= 2 and cards >= 3:
            break
    assert gostops >= 2 and cards == 3


def test_the_plugin_plays_in_the_arena(variants):
    from gostop_core.arena import run_arena
    result = run_arena([f"{SCRIPTS / 'gostop_variants.py'}:NetGoStop", "greedy"], deals=1, workers=1)
    assert result.games == 2 and result.forfeits == [0, 0]
