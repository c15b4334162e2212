"""The one hand driver (gostop_core.driver.HandDriver): every loop that lets
bots play a hand (``play_game``, ``Match``, the arena, ``gostop play``, the
Gymnasium and OpenSpiel adapters) gives each bot the same hooks: ``start_hand``
once, ``observe`` for every move of another seat (in order), ``end_hand`` once;
and the error policies decide what a failing bot costs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_core import Game, Match
from gostop_core.bots import GreedyBot, RandomBot, play_game
from gostop_core.driver import BotForfeit, HandDriver
from gostop_core.errors import BotTimeoutError, IllegalMoveError
from gostop_core.match import play_with_bots

RECORDER = str(Path(__file__).parent / "bots" / "hook_recorder.py") + ":HookRecorder"


@pytest.fixture
def hook_log(tmp_path, monkeypatch):
    path = tmp_path / "hooks.jsonl"
    monkeypatch.setenv("GOSTOP_HOOK_LOG", str(path))

    def read():
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines()]
    return read


def recorder():
    from bots.hook_recorder import HookRecorder  # tests/bots, on the path by conftest
    return HookRecorder()


def hands_of(entries):
    """The log cut into hands, per seat: [{seat: [entries]}], a hand per start."""
    hands: list[dict] = []
    previous = None
    for entry in entries:
        kind, seat = entry[0], entry[1]
        if kind == "start" and (previous is None or previous == "end"):
            hands.append({})
        hands[-1].setdefault(seat, []).append(entry)
        previous = kind
    return hands


def check_hand(per_seat: dict, moves: list[tuple[int, str]]):
    """Each recording seat: start first, end last, once each; it observed exactly
    the other seats' moves and chose exactly its own, in the order played."""
    for seat, entries in per_seat.items():
        assert entries[0] == ["start", seat] and entries[-1] == ["end", seat]
        assert [e[0] for e in entries].count("start") == 1
        assert [e[0] for e in entries].count("end") == 1
        middle = entries[1:-1]
        assert [(e[0], e[2]) for e in middle] == [
            ("choose" if s == seat else "observe", m) for s, m in moves]


def moves_of(game: Game) -> list[tuple[int, str]]:
    """(seat, move) of every decision of a finished game, from the move stack."""
    replay = game.copy()
    stack = list(replay.move_stack)
    for _ in stack:
        replay.pop()
    out = []
    for move in stack:
        out.append((replay.turn, str(move)))
        replay.push(move)
    return out


def test_play_game_gives_every_hook(hook_log):
    game = Game("standard", 3, seed=8)
    play_game(game, [recorder(), GreedyBot(), recorder()])
    (hand,) = hands_of(hook_log())
    assert sorted(hand) == [0, 2]
    check_hand(hand, moves_of(game))


def test_match_gives_every_hook_in_every_hand(hook_log):
    match = Match("casual", 2, seed=4)
    play_with_bots(match, [recorder(), RandomBot(seed=2)], hands=3)
    hands = hands_of(hook_log())
    assert len(hands) == 3
    for hand, record in zip(hands, match.hands):
        game = Game("casual", 2, seed=record.seed, dealer=record.dealer)
        for move in record.moves:
            game.push(move)
        check_hand(hand, moves_of(game))


def test_the_arena_gives_every_hook(hook_log):
    from gostop_core.arena.games import DealPlayer
    player = DealPlayer([RECORDER, "greedy"], "casual", 2, seed=11, move_time=5.0)
    results = [player.play_game(0, rotation) for rotation in (0, 1)]
    hands = hands_of(hook_log())
    assert len(hands) == 2
    for hand, (_, game) in zip(hands, results):
        check_hand(hand, moves_of(game))


def test_gostop_play_gives_every_hook(hook_log, tmp_path):
    save = tmp_path / "game.json"
    result = CliRunner().invoke(cli, ["play", "--auto", "--quiet", "--seed", "5",
                                      "--bot", RECORDER, "--save", str(save)])
    assert result.exit_code == 0, result.output
    (hand,) = hands_of(hook_log())
    from gostop_core.records import read_records
    with open(save, encoding="utf-8") as fh:
        (record,) = list(read_records(fh))
    check_hand(hand, moves_of(record.to_game()))


def test_the_gymnasium_opponents_observe_the_learner(hook_log):
    pytest.importorskip("gymnasium")
    from gostop_core.envs.gym_env import GoStopEnv
    env = GoStopEnv(players=2, opponent=[recorder()], seat=0)
    obs, info = env.reset(seed=3)
    done = False
    while not done:
        action = int(obs["action_mask"].nonzero()[0][0])
        obs, _, done, _, _ = env.step(action)
    (hand,) = hands_of(hook_log())
    check_hand(hand, moves_of(env.game))


def test_the_openspiel_arena_shows_the_gostop_bot_every_move(hook_log):
    pytest.importorskip("pyspiel")
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    from gostop_core.envs import openspiel_arena
    game = pyspiel.load_game("python_gostop", {"rules": "casual", "players": 2})
    order = np.random.default_rng(1).permutation(48)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    searcher = ismcts.ISMCTSBot(game, evaluator, 5.0, 8, random_state=np.random.RandomState(1))
    bot = recorder()
    openspiel_arena.play_hand(game, order, {0: searcher, 1: "gostop"}, bot)
    (hand,) = hands_of(hook_log())
    assert list(hand) == [1]
    kinds = [e[0] for e in hand[1]]
    assert kinds[0] == "start" and kinds[-1] == "end" and "observe" in kinds and "choose" in kinds


# ---------------------------------------------------------------- the error policies

class Broken(GreedyBot):
    def choose(self, view, legal):
        raise RuntimeError("out of cheese")


class Illegal(GreedyBot):
    def choose(self, view, legal):
        return "not a move"


def test_raise_lets_the_bots_exception_through_with_the_game_unchanged():
    game = Game("casual", 2, seed=1)
    driver = HandDriver(game, [Broken(), GreedyBot()])
    before = game.position()
    with pytest.raises(RuntimeError, match="cheese"):
        driver.play()
    assert game.position() == before


def test_forfeit_names_the_seat_and_the_reason():
    game = Game("casual", 2, seed=1)
    first = game.turn
    bots = [GreedyBot(), GreedyBot()]
    bots[first] = Broken()
    with pytest.raises(BotForfeit) as caught:
        HandDriver(game, bots, policy="forfeit").play()
    assert caught.value.seat == first and caught.value.reason == "error"
    assert caught.value.detail == "error: RuntimeError: out of cheese"
    bots[first] = Illegal()
    with pytest.raises(BotForfeit, match="not one of the legal moves") as caught:
        HandDriver(Game("casual", 2, seed=1), bots, policy="forfeit").play()
    assert caught.value.reason == "illegal"


def test_trusted_forfeits_on_a_bot_error_and_raises_a_bug():
    class TimesOut(GreedyBot):
        def choose(self, view, legal):
            raise BotTimeoutError("no move within 1 s")
    game = Game("casual", 2, seed=1)
    first = game.turn
    bots = [GreedyBot(), GreedyBot()]
    bots[first] = TimesOut()
    with pytest.raises(BotForfeit) as caught:
        HandDriver(game, bots, policy="trusted").play()
    assert caught.value.reason == "timeout"
    bots[first] = Broken()
    with pytest.raises(RuntimeError):
        HandDriver(Game("casual", 2, seed=1), bots, policy="trusted").play()


def test_a_seat_without_a_bot_is_played_from_outside():
    game = Game("casual", 2, seed=6)
    person = game.turn
    bots = [recorder_free() for _ in range(2)]
    bots[person] = None
    driver = HandDriver(game, bots)
    driver.start()
    with pytest.raises(ValueError, match="no bot is to move"):
        driver.choose()
    with pytest.raises(IllegalMoveError):
        driver.push("stop")  # not legal at the first decision: nothing observed, nothing played
    assert game.move_stack == []
    while not game.is_over():
        if driver.bot_to_move() is None:
            driver.push(next(iter(game.legal_moves)))
        else:
            driver.play_bots()
    assert driver.ended


def recorder_free():
    return GreedyBot()


def test_resync_tells_the_bots_the_hand_again(hook_log):
    game = Game("casual", 2, seed=9)
    bots = [recorder(), recorder()]
    driver = HandDriver(game, bots)
    for _ in range(4):
        driver.push(driver.choose())
    game.pop()
    game.pop()
    driver.resync()
    driver.play()
    entries = hook_log()
    restart = max(i for i, e in enumerate(entries) if e[0] == "start" and e[1] == 0)
    tail = entries[restart:]
    # after the restart each seat saw the two moves kept, then the rest of the hand
    per_seat: dict = {}
    for e in tail:
        per_seat.setdefault(e[1], []).append(e)
    moves = moves_of(game)
    for seat, items in per_seat.items():
        seen = [(e[0], e[2]) for e in items[1:-1] if e[0] in ("choose", "observe")]
        expected = [("observe", m) for s, m in moves[:2] if s != seat] + [
            ("choose" if s == seat else "observe", m) for s, m in moves[2:]]
        assert seen == expected


def test_the_web_table_gives_every_hook(hook_log):
    """``gostop serve``: a person's moves reach the table's bot through
    ``observe``, and the bot's hand begins and ends."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor
    pytest.importorskip("starlette")
    from gostop_web.tables import Table

    async def run():
        with ThreadPoolExecutor(1) as pool:
            table = Table.create("casual", 2, [None, RECORDER], executor=pool, move_delay=0,
                                 seed=3)
            for _ in range(200):
                g = table.game
                if g.is_over():
                    break
                if g.turn == 0:
                    await table.play(0, str(next(iter(g.legal_moves))))
                else:
                    table.wake_bots()
                    await table._bot_task
            return table.game
    game = asyncio.run(run())
    assert game.is_over()
    (hand,) = hands_of(hook_log())
    check_hand(hand, moves_of(game))
