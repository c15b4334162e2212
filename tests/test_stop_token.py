"""Stopping one search: a :class:`~gostop_core.bots.search.StopToken` belongs to the
searches given it, so a stop asked of one (``gostop engine``'s ``stop``, a
request's deadline) never reaches another search in the same process, nor the
searches that come after it."""

from __future__ import annotations

import json
import threading
import time
import warnings

import pytest

from gostop_core import Game
from gostop_core.bots import ExpectimaxBot, GreedyBot, IsmctsBot
from gostop_core.bots import ismcts, search
from gostop_core.bots.external import SearchBotBackend, serve
from gostop_core.bots.ismcts import ismcts_fields
from gostop_core.bots.search import StopToken, search_fields
from gostop_core.notation import parse_view


def first_view(seed: int = 5) -> str:
    game = Game("casual", 2, seed=seed)
    return game.view(game.turn).to_str()


def test_a_set_token_stops_its_search_after_one_sample():
    rules, fields = parse_view(first_view())
    token = StopToken()
    token.set()
    result = search_fields(rules, fields, samples=64, seed=1, stop=token)
    assert result["stopped"] == "stop" and result["samples"] == 1
    token.clear()
    assert not token.is_set()
    again = search_fields(rules, fields, samples=64, seed=1, stop=token)
    assert again["stopped"] == "samples" and again["samples"] == 64


def test_a_token_stops_only_the_searches_given_it():
    rules, fields = parse_view(first_view())
    other = StopToken()
    other.set()
    mine = search_fields(rules, fields, samples=32, seed=1, stop=StopToken())
    untokened = search_fields(rules, fields, samples=32, seed=1)
    assert mine["stopped"] == untokened["stopped"] == "samples"
    assert mine["samples"] == untokened["samples"] == 32
    tree = ismcts_fields(rules, fields, iterations=500, seed=1, stop=StopToken())
    assert tree["stopped"] == "iterations" and tree["iterations"] == 500
    stopped = ismcts_fields(rules, fields, iterations=500, seed=1, stop=other)
    assert stopped["stopped"] == "stop" and stopped["iterations"] == 1


def test_a_stop_from_another_thread_ends_a_long_search_early():
    rules, fields = parse_view(first_view())
    token = StopToken()
    result: dict = {}

    def run():
        result.update(search_fields(rules, fields, depth=2, samples=1024, seed=3, stop=token))
    worker = threading.Thread(target=run)
    started = time.monotonic()
    worker.start()
    time.sleep(0.05)
    token.set()
    worker.join(30)
    assert not worker.is_alive()
    assert result["stopped"] == "stop" and 1 <= result["samples"] < 1024
    assert time.monotonic() - started < 10


def test_two_engines_in_one_process_do_not_stop_each_other():
    """The backend of one ``serve`` loop stopping (as its deadline does) leaves a
    search of another backend, and every later search, alone."""
    view = first_view()
    first = SearchBotBackend(ExpectimaxBot(seed=1, samples=32))
    second_bot = ExpectimaxBot(seed=1, samples=32)
    second = SearchBotBackend(second_bot)
    first.stop()
    ranked = second_bot.analyse(view)
    assert second_bot.last_stopped == "samples" and max(r.samples for r in ranked) == 32
    assert not search.stop_requested() and not ismcts.stop_requested()
    first.clear_stop()
    lone = ExpectimaxBot(seed=1, samples=16)
    lone.analyse(view)
    assert lone.last_stopped == "samples"
    tree = IsmctsBot(seed=1, iterations=300)
    SearchBotBackend(IsmctsBot(seed=1)).stop()
    tree.analyse(view)
    assert tree.last_iterations == 300
    del second


def test_a_request_past_its_deadline_leaves_later_searches_whole():
    """The defect of round 3: a deadline used to set a process-wide flag, and
    every later search in the process stopped after one sample."""
    class Slow(GreedyBot):
        def choose(self, view, legal):
            time.sleep(0.5)
            return legal[0]
    game = Game("casual", 2, seed=3)
    hello = {"type": "hello", "protocol": "gostop-bot/2"}
    out: list[str] = []
    serve(Slow(), [json.dumps(hello), json.dumps({"type": "request", "id": 1,
                                                  "view": game.view(game.turn).to_str(),
                                                  "time_ms": 50})], out.append)
    assert json.loads(out[1])["fallback"] is True
    rules, fields = parse_view(first_view())
    assert search_fields(rules, fields, samples=16, seed=2)["samples"] == 16


def test_the_process_wide_request_is_deprecated():
    with pytest.warns(DeprecationWarning, match="StopToken"):
        search.request_stop(True)
    try:
        assert search.stop_requested()
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            search.request_stop(False)
    assert not search.stop_requested()
    with pytest.warns(DeprecationWarning):
        ismcts.request_stop(False)
