"""Self-play: one bot on every seat, many games, their records on disk.

Game ``g`` of a run is the deal of seed ``seed + g`` (dealer 0) played by the
bot on every seat, the bot of seat ``s`` seeded as the arena seeds it, so a run
is the same on every machine and with every backend.  The games are cut into
shards of ``shard_size`` consecutive games; each shard is a JSON Lines file of
game records (docs/records.md, ``meta.selfplay`` = ``{"seed", "game"}``) that
:func:`gostop_core.records.read_records` and ``Game.from_record`` read back.

The output directory holds ``shard-00000.jsonl``, ``shard-00001.jsonl``, ...
and ``manifest.json``: the settings (bot, players, rules, seed, shard size,
engine version), then each finished shard (its games, forfeits, size and
SHA-256).  Only this process writes there: a shard is written under a
temporary name, renamed once complete, and the manifest is rewritten (also
through a rename) after it, so an interrupted run leaves only complete shards
behind, and running it again with the same settings skips the shards the
manifest lists.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from gostop_core.arena.games import DealPlayer
from gostop_core.arena.pools import end_pool, fork_pool, worker_pids
from gostop_core.arena.ray_backend import ray_batches, require_ray
from gostop_core.bots.plugins import resolve_bot
from gostop_core.errors import GoStopError
from gostop_core.outfiles import write_output
from gostop_core.notation import rules_to_token
from gostop_core.records import Seat, record_from_game
from gostop_core.rules import Rules

__all__ = ["SelfPlayResult", "SelfPlayError", "run_selfplay", "play_shard", "shard_name",
           "MANIFEST", "FORMAT"]

#: The manifest's file name and format tag.
MANIFEST = "manifest.json"
FORMAT = "gostop-selfplay/1"


class SelfPlayError(GoStopError, ValueError):
    """The output directory cannot take this run: it holds another run's
    manifest (other settings) or an unreadable one."""


@dataclass
class SelfPlayResult:
    """What a self-play run did: ``games`` in all, ``shards`` in all, of which
    ``skipped`` were finished before and ``written`` now (``played`` games);
    ``forfeits`` counts the games a bot lost by forfeit (in every shard)."""

    out: str
    games: int
    shards: int
    written: int
    skipped: int
    forfeits: int
    seconds: float
    played: int = 0
    manifest: dict = field(repr=False, default_factory=dict)

    def as_dict(self) -> dict:
        """The result as plain JSON values."""
        return {"out": self.out, "games": self.games, "shards": self.shards,
                "written": self.written, "skipped": self.skipped, "played": self.played,
                "forfeits": self.forfeits,
                "seconds": round(self.seconds, 2)}


def shard_name(index: int) -> str:
    """The file name of shard ``index``."""
    return f"shard-{index:05d}.jsonl"


def play_shard(args: tuple, first: int, count: int) -> tuple[str, int]:
    """Games ``first .. first + count - 1`` of a run as JSON Lines text, and how
    many were forfeits.  ``args`` = ``(bot, rules_token, players, seed,
    move_time)``; plain values, so that it runs in any process (a pool worker,
    a Ray task)."""
    bot, token, players, seed, move_time = args
    seats = DealPlayer([bot] * players, token, players, seed, move_time)
    lines = []
    forfeits = 0
    try:
        for g in range(first, first + count):
            result, game = seats.play_game(g, 0)
            where: dict[str, Any] = {"seed": seed, "game": g}
            if result.forfeit is not None:
                forfeits += 1
                where["forfeit"] = {"seat": result.forfeit, "reason": result.reason}
            name = seats.specs[0].text
            record = record_from_game(game, [Seat(name, name)] * players, meta={"selfplay": where})
            lines.append(record.to_json() + "\n")
    finally:
        seats.close()
    return "".join(lines), forfeits


def _play_shard_task(task: tuple) -> tuple[int, int, str, int]:
    args, first, count = task
    text, forfeits = play_shard(args, first, count)
    return first, count, text, forfeits


def _pool_init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's


def _settings(bot: str, token: str, preset: str, players: int, seed: int, shard_size: int,
              move_time: float) -> dict:
    from gostop_core._version import __version__
    return {"format": FORMAT, "engine": f"gostop {__version__}", "bot": bot,
            "players": players, "rules": token, "preset": preset, "seed": seed,
            "shard_size": shard_size, "move_time": move_time}


_SAME = ("format", "bot", "players", "rules", "seed", "shard_size")


def _load_manifest(path: str, settings: dict) -> dict[int, dict]:
    """The finished shards of a previous run with the same settings (by first game)."""
    try:
        with open(path, encoding="utf-8") as fh:
            old = json.load(fh)
    except FileNotFoundError:
        return {}
    except RecursionError:  # nested deeper than the JSON reader goes
        raise SelfPlayError(f"cannot read {path}: nested too deep (not a manifest)") from None
    except (OSError, ValueError) as exc:
        raise SelfPlayError(f"cannot read {path}: {' '.join(str(exc).split())}") from None
    if not isinstance(old, dict) or old.get("format") != FORMAT:
        raise SelfPlayError(f"{path} is not a self-play manifest ({FORMAT})")
    differ = [k for k in _SAME if old.get(k) != settings[k]]
    if differ:
        raise SelfPlayError(
            f"{os.path.dirname(path) or '.'} holds another run ("
            + ", ".join(f"{k} {old.get(k)!r} there, {settings[k]!r} here" for k in differ)
            + "): give its settings to resume it, or another output directory")
    shards = old.get("shards")
    if not isinstance(shards, list):
        raise SelfPlayError(f"{path}: 'shards' is not a list")
    done: dict[int, dict] = {}
    for number, entry in enumerate(shards):
        done_entry = _check_shard(path, number, entry)
        done[done_entry["first"]] = done_entry
    return done


_SHARD_INTS = ("first", "games", "forfeits", "bytes")


def _check_shard(path: str, number: int, entry: Any) -> dict:
    """One ``shards`` entry of a manifest, every field checked: a damaged entry
    stops the run (the shards on disk stay as they are) instead of being skipped."""
    where = f"{path}: shards[{number}]"
    if not isinstance(entry, dict):
        raise SelfPlayError(f"{where} is not an object")
    if not isinstance(entry.get("file"), str):
        raise SelfPlayError(f"{where}.file is {_described(entry.get('file'))}, not a file name")
    for key in _SHARD_INTS:
        value = entry.get(key)
        if type(value) is not int or value < 0:
            raise SelfPlayError(f"{where}.{key} is {_described(value)}, not a count")
    if "sha256" in entry and not isinstance(entry["sha256"], str):
        raise SelfPlayError(f"{where}.sha256 is {_described(entry['sha256'])}, not a digest")
    return entry


def _described(value: Any) -> str:
    if value is None:
        return "missing or null"
    text = repr(value)
    return f"{type(value).__name__} {text[:40]}{'...' if len(text) > 40 else ''}"


def _write_atomic(path: str, text: str) -> None:
    # a device or FIFO named manifest.json is written in place, never replaced
    write_output(path, text)


def run_selfplay(bot: str, games: int, out: str, players: int = 2,
                 rules: Rules | str = "casual", seed: int = 0, shard_size: int = 1000,
                 backend: str = "local", workers: int | None = None,
                 address: str | None = None, move_time: float = 5.0, retries: int = 3,
                 on_games: Callable[[int], None] | None = None) -> SelfPlayResult:
    """Play ``games`` self-play games of ``bot`` (a bot specification) and write
    their records under ``out`` (see the module docstring); shards the manifest
    lists as finished are skipped.  ``backend`` ``"local"`` uses ``workers``
    processes, ``"ray"`` a Ray cluster (``address``, or a local one);
    ``on_games(done)`` is called with the games finished so far (the skipped
    ones included) after each shard."""
    rules = rules if isinstance(rules, Rules) else Rules(rules)
    rules.check_players(players)
    spec = resolve_bot(bot).text  # raises on an unknown bot
    if games < 1:
        raise ValueError("games must be >= 1")
    if shard_size < 1:
        raise ValueError("shard_size must be >= 1")
    if not move_time > 0:
        raise ValueError("move_time must be > 0 seconds")
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r}: choose local or ray")
    if backend == "ray":
        require_ray()
    token = rules_to_token(rules)
    settings = _settings(spec, token, rules.preset, players, seed, shard_size, move_time)
    os.makedirs(out, exist_ok=True)
    manifest_path = os.path.join(out, MANIFEST)
    previous = _load_manifest(manifest_path, settings)
    plan = [(first, min(shard_size, games - first)) for first in range(0, games, shard_size)]
    finished: dict[int, dict] = {}
    for first, count in plan:
        s = previous.get(first)
        if s is None or s["games"] != count or s["file"] != shard_name(first // shard_size):
            continue
        try:
            if os.path.getsize(os.path.join(out, s["file"])) == s["bytes"]:
                finished[first] = s
        except OSError:
            pass
    skipped = len(finished)
    todo = [(f, c) for f, c in plan if f not in finished]
    started = time.perf_counter()

    def manifest() -> dict:
        shards = [finished[f] for f, _ in plan if f in finished]
        data = dict(settings)
        data.update(games=games, finished_games=sum(s["games"] for s in shards),
                    forfeits=sum(s["forfeits"] for s in shards),
                    complete=len(shards) == len(plan), shards=shards)
        return data

    def save(first: int, count: int, text: str, forfeits: int) -> None:
        name = shard_name(first // shard_size)
        _write_atomic(os.path.join(out, name), text)
        data = text.encode("utf-8")
        finished[first] = {"file": name, "first": first, "games": count, "forfeits": forfeits,
                           "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        _write_atomic(manifest_path, json.dumps(manifest(), indent=2) + "\n")

    args = (spec, token, players, seed, move_time)
    done = sum(c for f, c in plan if f in finished)
    if on_games:
        on_games(done)
    for first, count, text, forfeits in _shards(args, todo, backend, workers, address, retries):
        save(first, count, text, forfeits)
        done += count
        if on_games:
            on_games(done)
    data = manifest()
    _write_atomic(manifest_path, json.dumps(data, indent=2) + "\n")
    return SelfPlayResult(out=out, games=games, shards=len(plan), written=len(todo),
                          skipped=skipped, forfeits=data["forfeits"],
                          seconds=time.perf_counter() - started,
                          played=sum(c for _, c in todo), manifest=data)


def _shards(args: tuple, todo: list[tuple[int, int]], backend: str, workers: int | None,
            address: str | None, retries: int) -> Iterator[tuple[int, int, str, int]]:
    """The shards of ``todo`` played, as ``(first, count, text, forfeits)``, in
    the order they finish."""
    if not todo:
        return
    if backend == "ray":
        for first, count, (text, forfeits) in ray_batches(
                play_shard, args, todo, address=address, cpus=None if address else workers,
                retries=retries, what="games"):
            yield first, count, text, forfeits
        return
    workers = max(1, min(workers or os.cpu_count() or 1, len(todo)))
    tasks = [(args, first, count) for first, count in todo]
    if workers == 1:
        for task in tasks:
            yield _play_shard_task(task)
        return
    import multiprocessing
    pool = fork_pool(workers, _pool_init)
    at_start = worker_pids(pool)  # a worker that dies loses its shard
    try:
        results = pool.imap_unordered(_play_shard_task, tasks)
        for _ in tasks:
            while True:
                try:
                    item = results.next(timeout=0.5)
                    break
                except multiprocessing.TimeoutError:
                    if at_start - worker_pids(pool):
                        raise GoStopError("a worker process died during a game; the "
                                          "finished shards are kept: run again to "
                                          "resume") from None
            yield item
        pool.close()
        pool.join()
    finally:
        end_pool(pool)
