"""The conformance test of a bot program (``gostop protocol-test``, docs/protocol.md).

:func:`run_conformance` starts the program as gostop would and checks, each
in a fresh process when the one before failed:

- ``handshake``: ``hello`` is answered by ``ready`` with a name (a version 1
  program that never answers is noted and tested as version 1);
- ``isready`` (version 2): ``readyok`` echoing each id, also twice in a row;
- ``play``: a whole hand of every preset and player count, the program
  playing every seat (only views and legal moves are sent, as in an arena),
  with ``newhand`` and ``end``; every answer legal and within ``time_ms``
  plus the one-second grace after which an arena forfeits (the slowest
  answer is reported, and the answers over ``time_ms`` counted);
- ``clock`` (version 2): a request with only ``remaining_ms`` and
  ``increment_ms``, answered in time;
- ``errors`` (version 2): an unknown message type is answered by an
  ``error`` echoing the id; a line that is no JSON, a
  line nested too deep and a line over the line cap get no reply that could
  be taken for another's and leave the program running;
- ``rules`` (version 2, for a program whose ``ready`` announces the
  ``"rules"`` feature): a view whose seat is not to move, a wrong ``legal``
  list and a ``legal`` list over the cap are refused; a request with the view
  alone, one with a starting view plus the moves and stock cards since, and
  one with a full position plus the moves since are answered with legal moves;
- ``analyse`` (version 2, feature ``"analyse"``): ``info`` lines, then an
  ``analysis`` ranking every legal move with a value;
- ``stop`` (version 2, feature ``"analyse"``): a long analysis ended by
  ``stop`` answers soon;
- ``setoption`` (version 2): every option set to its default is accepted, a
  value out of range and an unknown name are refused with an error;
- ``quit``: the program exits and leaves no process behind (one that left
  the process group included).

Each check passes or fails with one line saying why.
"""

from __future__ import annotations

import json
import random
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from gostop_core.errors import BotError, GoStopError
from gostop_core.game import Game
from gostop_core.notation import rules_to_token
from gostop_core.protocol import process, wire
from gostop_core.protocol.client import GRACE, EngineReplyError, Limit, SimpleEngine
from gostop_core.rules import Rules, preset_names

__all__ = ["Check", "Report", "run_conformance"]


@dataclass
class Check:
    """One check: its name, whether it passed (None: skipped), why, how long."""

    name: str
    passed: bool | None
    detail: str
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {"name": self.name, "passed": self.passed, "detail": self.detail,
                "seconds": round(self.seconds, 3)}


@dataclass
class Report:
    """Every check of one program."""

    command: list[str]
    checks: list[Check] = field(default_factory=list)
    protocol: str | None = None
    name: str | None = None
    slowest_ms: float | None = None

    @property
    def passed(self) -> bool:
        return all(c.passed is not False for c in self.checks) and bool(self.checks)

    def as_dict(self) -> dict:
        return {"command": self.command, "passed": self.passed, "protocol": self.protocol,
                "name": self.name, "slowest_ms": self.slowest_ms,
                "checks": [c.as_dict() for c in self.checks]}

    def lines(self) -> list[str]:
        out = [f"protocol test of {' '.join(self.command)}"]
        if self.name or self.protocol:
            out.append(f"  bot {self.name or '(no name)'}, protocol {self.protocol}")
        for c in self.checks:
            mark = {True: "pass", False: "FAIL", None: "skip"}[c.passed]
            out.append(f"  {mark}  {c.name:<10} {c.detail}")
        out.append("PASSED" if self.passed else "FAILED")
        return out


class _Failed(Exception):
    pass


def _games(presets: Sequence[str], seed: int) -> list[Game]:
    games = []
    for preset in presets:
        for players in Rules(preset).allowed_players():
            games.append(Game(preset, players, seed=seed))
    return games


class _Runner:
    def __init__(self, command: list[str], time_ms: int, timeout: float, seed: int,
                 presets: Sequence[str], log: Callable[[str, str], None] | None):
        self.command = command
        self.time_ms = time_ms
        self.timeout = timeout
        self.seed = seed
        self.presets = list(presets)
        self.log = log
        self.engine: SimpleEngine | None = None
        self.report = Report(command)
        self.answers: list[float] = []
        self.features: set[str] = set()

    # ---- the program
    def start(self) -> SimpleEngine:
        if self.engine is None:
            engine = SimpleEngine.popen(self.command, timeout=self.timeout, wait_ready=False,
                                        log=self.log)
            self.engine = engine
            if self.report.protocol == wire.PROTOCOL_V2:
                try:
                    engine.wait_ready(self.timeout)
                except BotError:
                    self.engine = None
                    raise
        return self.engine

    def drop(self) -> None:
        if self.engine is not None:
            self.engine.kill()
            self.engine = None

    @property
    def v2(self) -> bool:
        return self.report.protocol == wire.PROTOCOL_V2

    def send_raw(self, line: str) -> None:
        engine = self.start()
        if engine.log:
            engine.log(">", line[:200])
        engine.transport.send(line, timeout=self.timeout)

    def next_message(self, wait: float) -> dict:
        """The next non-info line of the program, as a message."""
        engine = self.start()
        deadline = time.monotonic() + wait
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Failed(f"no answer within {wait:g} s")
            try:
                line = engine._receive(left)
            except BotError as exc:
                raise _Failed(str(exc)) from None
            if not line.strip():
                continue
            try:
                message = wire.decode(line)
            except wire.MessageError as exc:
                raise _Failed(f"the program wrote {line[:80]!r} ({exc})") from None
            if message["type"] == "info":
                continue
            return message

    def expect_error(self, id: int, what: str) -> None:
        message = self.next_message(self.timeout)
        while message.get("type") == "option":  # an earlier setoption acknowledged
            message = self.next_message(self.timeout)
        if message.get("type") != "error" or message.get("id") != id:
            raise _Failed(f"{what}: expected an error with id {id}, got "
                          f"{json.dumps(message)[:120]}")

    def expect_alive(self, what: str, allowed_error: int | None = None) -> None:
        """isready answered by readyok with its id, and nothing before it
        (but an error echoing ``allowed_error``)."""
        engine = self.start()
        id = engine._new_id()
        self.send_raw(wire.encode({"type": "isready", "id": id}))
        message = self.next_message(self.timeout)
        # an error for a line whose id could not be read (id null) may come first
        # too; then the readyok
        for _ in range(3):
            if message.get("type") == "error" and message.get("id") is None or (
                    allowed_error is not None and message.get("type") in ("error", "readyok")
                    and message.get("id") == allowed_error):
                message = self.next_message(self.timeout)
        if message.get("type") != "readyok" or message.get("id") != id:
            raise _Failed(f"after {what}: expected readyok with id {id}, got "
                          f"{json.dumps(message)[:120]}")

    # ---- running a check
    def check(self, name: str, body: Callable[[], str], needs_v2: bool = False,
              feature: str | None = None) -> None:
        if needs_v2 and not self.v2:
            self.report.checks.append(Check(name, None, "needs protocol version 2"))
            return
        if feature is not None and feature not in self.features:
            self.report.checks.append(Check(name, None, f"the bot does not announce the "
                                                        f"{feature!r} feature in ready"))
            return
        started = time.monotonic()
        try:
            detail = body()
            passed = True
        except _Failed as exc:
            detail, passed = str(exc), False
            self.drop()
        except EngineReplyError as exc:
            detail, passed = str(exc), False
        except (BotError, GoStopError, ValueError) as exc:
            detail, passed = f"{type(exc).__name__}: {exc}", False
            self.drop()
        self.report.checks.append(Check(name, passed, " ".join(detail.split())[:300],
                                        time.monotonic() - started))

    # ---- the checks
    def handshake(self) -> str:
        engine = SimpleEngine.popen(self.command, timeout=self.timeout, wait_ready=False,
                                    log=self.log)
        self.engine = engine
        try:
            engine.wait_ready(self.timeout)
        except BotError as exc:
            self.engine = None
            if "no ready" in str(exc):
                self.report.protocol = wire.PROTOCOL_V1
                return (f"no ready line within {self.timeout:g} s: tested as a version 1 "
                        "program (version 2 requires ready)")
            raise _Failed(str(exc)) from None
        self.report.protocol = engine.protocol
        self.report.name = engine.name
        self.features = set(engine.features)
        if not engine.name:
            raise _Failed("the ready line gives no name")
        if engine.protocol not in wire.PROTOCOLS:
            raise _Failed(f"ready names an unknown protocol {engine.protocol!r}")
        return f"ready: {engine.name!r}, {engine.protocol}, {len(engine.options)} option(s)"

    def isready(self) -> str:
        engine = self.start()
        seconds = engine.ping()
        a, b = engine._new_id(), engine._new_id()
        self.send_raw(wire.encode({"type": "isready", "id": a}))
        self.send_raw(wire.encode({"type": "isready", "id": b}))
        got = [self.next_message(self.timeout), self.next_message(self.timeout)]
        if [(m.get("type"), m.get("id")) for m in got] != [("readyok", a), ("readyok", b)]:
            raise _Failed(f"two isready (ids {a}, {b}) answered {json.dumps(got)[:160]}")
        return f"readyok echoes each id ({seconds * 1000:.1f} ms)"

    def play(self) -> str:
        limit = Limit(time=self.time_ms / 1000)
        decisions = 0
        slowest = 0.0
        where = ""
        late: list[str] = []
        for game in _games(self.presets, self.seed):
            engine = self.start()
            token = rules_to_token(game.rules)
            for seat in range(game.players):
                engine.new_hand(game.view(seat), 1, token)
            rng = random.Random(self.seed)
            while not game.is_over():
                result = engine.play(game, limit)
                decisions += 1
                here = (f"request {engine._next_id - 1}, {game.rules.preset} "
                        f"{game.players}p turn {game.turns}")
                if result.seconds > slowest:
                    slowest = result.seconds
                    where = here
                if result.seconds * 1000 > self.time_ms:
                    late.append(f"{result.seconds * 1000:.0f} ms ({here})")
                self.answers.append(result.seconds)
                # the program's move most of the time, a random one sometimes:
                # positions it would not reach by itself
                legal = list(game.legal_moves)
                game.push(result.move if rng.random() < 0.8 else rng.choice(legal))
            outcome = game.outcome()
            assert outcome is not None
            for seat in range(game.players):
                engine.end_hand(game.view(seat), outcome)
        self.report.slowest_ms = round(slowest * 1000, 1)
        if late:
            # every answer must come within the limit: an arena on a quiet
            # machine forfeits only past the grace, but a bot late here is late
            raise _Failed(f"{len(late)} of {decisions} answers over time_ms={self.time_ms}, "
                          f"the first {late[0]}; slowest {slowest * 1000:.0f} ms ({where})")
        return (f"{decisions} answers in {len(_games(self.presets, self.seed))} hands "
                f"({', '.join(self.presets)}; every player count), every one legal and within "
                f"time_ms; slowest {slowest * 1000:.0f} ms of {self.time_ms} ({where})")

    def clock(self) -> str:
        engine = self.start()
        game = Game("casual", 2, seed=self.seed + 1)
        remaining = 20 * self.time_ms
        result = engine.play(game, Limit(remaining=remaining / 1000, increment=0.0))
        if result.seconds * 1000 > remaining / 2:
            raise _Failed(f"with remaining_ms={remaining} the answer took "
                          f"{result.seconds * 1000:.0f} ms, more than half the clock")
        return f"remaining_ms={remaining}: answered in {result.seconds * 1000:.0f} ms"

    def errors(self) -> str:
        engine = self.start()
        game = Game("casual", 2, seed=self.seed)
        seat = game.turn
        assert seat is not None
        cases: list[tuple[str, dict[str, Any]]] = [
            ("an unknown message type", {"type": "chess-move"}),
        ]
        for what, message in cases:
            id = engine._new_id()
            self.send_raw(wire.encode(dict(message, id=id, time_ms=self.time_ms)))
            self.expect_error(id, what)
        # lines that cannot be parsed: no stray reply, still running
        self.send_raw("this is not json")
        self.expect_alive("a line that is no JSON")
        for what, line in [
                ("a line nested 10000 deep", '{"type": "isready", "id": %d, "x": '
                 + "[" * 10000 + "]" * 10000 + "}"),
                (f"a line over {wire.MAX_LINE} bytes", '{"type": "isready", "id": %d, "pad": "'
                 + "x" * (wire.MAX_LINE + 10) + '"}')]:
            id = engine._new_id()
            self.send_raw(line.replace("%d", str(id), 1))
            # an error echoing the id, or its readyok (a program without these caps
            # may read the line whole), is allowed; anything else is not
            self.expect_alive(what, allowed_error=id)
        return ("an unknown message type refused with its id; garbage, a 10000-deep line and "
                "an over-long line get no stray reply and leave it running")

    def rules(self) -> str:
        engine = self.start()
        game = Game("casual", 2, seed=self.seed)
        seat = game.turn
        assert seat is not None
        view = game.view(seat).to_str()
        refusals: list[tuple[str, dict[str, Any]]] = [
                ("a view whose seat is not to move",
                 {"type": "request", "view": game.view(1 - seat).to_str()}),
                ("a wrong legal list", {"type": "request", "view": view, "legal": ["go"]}),
                ("a legal list over the cap",
                 {"type": "request", "view": view,
                  "legal": [str(m) for m in game.legal_moves] * (wire.MAX_LIST // 2 + 1)})]
        for what, message in refusals:
            id = engine._new_id()
            self.send_raw(wire.encode(dict(message, id=id, time_ms=self.time_ms)))
            self.expect_error(id, what)
        # a request with the view only: the program finds the legal moves itself
        id = engine._new_id()
        self.send_raw(wire.encode({"type": "request", "id": id, "view": view,
                                   "time_ms": self.time_ms}))
        message = self.next_message(self.time_ms / 1000 + 1.0)
        legal = {str(m) for m in game.legal_moves}
        if message.get("type") != "move" or message.get("id") != id or \
                message.get("move") not in legal:
            raise _Failed(f"a request with the view only: expected a legal move with id {id}, "
                          f"got {json.dumps(message)[:120]}")
        position = Game("standard", 3, seed=self.seed)
        start = position.position()
        moves = []
        for _ in range(3):
            move = next(iter(position.legal_moves))
            moves.append(str(move))
            position.push(move)
        id = engine._new_id()
        self.send_raw(wire.encode({"type": "request", "id": id, "position": start,
                                   "moves": moves, "time_ms": self.time_ms}))
        message = self.next_message(self.time_ms / 1000 + 1.0)
        if message.get("type") != "move" or message.get("id") != id or \
                message.get("move") not in {str(m) for m in position.legal_moves}:
            raise _Failed(f"a request with a position and moves: expected a legal move with id "
                          f"{id}, got {json.dumps(message)[:120]}")
        # a starting view plus every seat's moves and the stock cards seen since
        game = Game("standard", 3, seed=self.seed)
        seat = game.turn
        start_view = game.view(seat).to_str()
        moves, stock = [], []
        while True:
            move = next(iter(game.legal_moves))
            for event in game.push(move):
                if event.kind == "flipped":
                    stock.append(event.card)
                elif event.kind == "drawn":
                    stock.append(event.card if event.player == seat else None)
            moves.append(str(move))
            if game.is_over() or game.turn == seat:
                break
        if not game.is_over():
            id = engine._new_id()
            self.send_raw(wire.encode({"type": "request", "id": id, "view": start_view,
                                       "moves": moves, "stock": stock,
                                       "time_ms": self.time_ms}))
            message = self.next_message(self.time_ms / 1000 + 1.0)
            if message.get("type") != "move" or message.get("id") != id or \
                    message.get("move") not in {str(m) for m in game.legal_moves}:
                raise _Failed(f"a request with a starting view plus moves: expected a legal "
                              f"move with id {id}, got {json.dumps(message)[:120]}")
        return ("a view whose seat is not to move, a wrong legal list and one over the cap "
                "refused; a view alone, a starting view plus moves and a position plus moves "
                "answered with legal moves")

    def analyse(self) -> str:
        engine = self.start()
        game = Game("standard", 3, seed=self.seed)
        legal = {str(m) for m in game.legal_moves}
        result = engine.analyse(game, Limit(time=max(self.time_ms, 200) / 1000))
        ranked = {str(entry.get("move")) for entry in result.moves if isinstance(entry, dict)}
        if ranked != legal:
            raise _Failed(f"the analysis ranks {sorted(ranked)}, the legal moves are "
                          f"{sorted(legal)}")
        if not all(isinstance(e.get("value"), (int, float)) for e in result.moves):
            raise _Failed("a ranked move has no value")
        if not result.info:
            raise _Failed("no info line while analysing")
        return (f"{len(result.info)} info line(s), then every legal move ranked; best "
                f"{result.move} ({result.samples} samples, {result.nodes} nodes)")

    def stop(self) -> str:
        engine = self.start()
        game = Game("casual", 2, seed=self.seed + 2)
        id = engine._new_id()
        seat = game.turn
        assert seat is not None
        self.send_raw(wire.encode({"type": "analyse", "id": id,
                                   "view": game.view(seat).to_str(), "time_ms": 60_000}))
        time.sleep(0.2)
        self.send_raw(wire.encode({"type": "stop"}))
        started = time.monotonic()
        message = self.next_message(2.0)
        took = time.monotonic() - started
        if message.get("id") != id or message.get("type") != "analysis":
            raise _Failed(f"after stop: expected the analysis of request {id}, got "
                          f"{json.dumps(message)[:120]}")
        return f"a 60 s analysis answered {took * 1000:.0f} ms after stop"

    def setoption(self) -> str:
        engine = self.start()
        options = dict(engine.options)
        if options:
            engine.configure({o.name: o.default for o in options.values()})
        spins = [o for o in options.values() if o.type in ("spin", "float") and o.max is not None]
        refused = 0
        for option in spins[:1]:
            id = engine._new_id()
            above = float(option.max or 0) + 1
            self.send_raw(wire.encode({"type": "setoption", "id": id, "name": option.name,
                                       "value": above}))
            self.expect_error(id, f"{option.name}={above:g} (above max)")
            refused += 1
        id = engine._new_id()
        self.send_raw(wire.encode({"type": "setoption", "id": id, "name": "no-such-option",
                                   "value": 1}))
        self.expect_error(id, "an unknown option")
        self.expect_alive("setoption")
        return (f"{len(options)} option(s) set to their defaults; "
                f"{refused + 1} bad setoption refused with errors")

    def quit(self) -> str:
        engine = self.start()
        transport = engine.transport
        proc = getattr(transport, "proc", None)
        token = getattr(transport, "token", None)
        if proc is None:
            return "not a process: nothing to check"
        engine.drain()
        transport.send(wire.encode({"type": "quit"}), timeout=self.timeout)
        try:
            proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.drop()
            raise _Failed("the program did not exit within 2 s of quit") from None
        time.sleep(0.2)
        since = process._spawned.get(proc.pid, 0)
        alive = (process.processes_with_token(token) if token else set()) | (
            process.adopted_orphans(since) if process.subreaper_active() else set())
        left = sorted(alive - process._dead(alive))
        self.drop()
        if left:
            raise _Failed(f"the program exited but left {len(left)} process(es) running "
                          f"(pids {', '.join(map(str, left))}), which gostop killed")
        return "exited after quit, no process left behind"


def run_conformance(command: Sequence[str], time_ms: int = 100, timeout: float = 5.0,
                    seed: int = 1, presets: Sequence[str] | None = None,
                    log: Callable[[str, str], None] | None = None) -> Report:
    """Run every check against the program ``command`` (an argument vector);
    ``time_ms`` the time per move the ``play`` check allows, ``timeout`` the
    seconds any other answer may take, ``presets`` the presets played (all by
    default)."""
    runner = _Runner(list(command), time_ms, timeout, seed,
                     presets or preset_names(), log)
    try:
        runner.check("handshake", runner.handshake)
        runner.check("isready", runner.isready, needs_v2=True)
        runner.check("play", runner.play)
        runner.check("clock", runner.clock, needs_v2=True)
        runner.check("errors", runner.errors, needs_v2=True)
        runner.check("rules", runner.rules, needs_v2=True, feature="rules")
        runner.check("analyse", runner.analyse, needs_v2=True, feature="analyse")
        runner.check("stop", runner.stop, needs_v2=True, feature="analyse")
        runner.check("setoption", runner.setoption, needs_v2=True)
        runner.check("quit", runner.quit)
    finally:
        runner.drop()
    return runner.report
