"""Search-labelled positions for the Q network, and a network fitted to them: an
experiment of round 8 (docs/strength.md, "what did not win").

    python scripts/search_labels.py label --out DIR [--shards N] [--hands-per-shard H]
        [--samples S] [--part K/N] [--rules PRESET] [--players 2|3] [--win-bonus W]
        [--teacher search|network|network-own]
        [--teacher-weights FILE] [--cut TURNS] [--opponents self|greedy]
    python scripts/search_labels.py fit DIR [DIR ...] --out FILE [--init WEIGHTS] [--epochs E] [--lr X]
        [--loss mse|centred] [--blend W]


Deep Monte-Carlo regresses Q on the final result of one hand: a target whose
spread (about 17 points) dwarfs the differences between the moves of one
decision.  The search of ``expectimax-v1`` values every legal move on the same
sampled deals of the unseen cards, so its values are a target with far less
noise, and their differences are exactly what the bot needs to rank moves.
This module plays hands (each decision chosen by the search, greedy or at
random, so that the positions cover more than the search's own games), labels
every decision with a choice by the search from the seat's view, and writes
shards of ``(states, actions, values, decision)`` rows: one row per legal
move, ``decision`` numbering the decision each row belongs to.

A shard is written whole (a temporary file renamed), so a stopped run resumes
at the next shard: :func:`label_positions` counts the shards already there.
Every shard's hands come from its own seed (the run's seed and its index), so
the shards a run writes do not depend on where it was stopped.
"""

from __future__ import annotations

import io
import json
import os
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from gostop_core.bots.registry import EXPECTIMAX_V1_SETTINGS
from gostop_core.bots.search import MAX_CUT, StopToken, search_fields
from gostop_core.bots.simple import GreedyBot
from gostop_core.errors import GoStopError
from gostop_core.game import Game
from gostop_core.moves import Move
from gostop_core.neural.network import read_npz
from gostop_core.neural.selfplay import NUM_ACTION_FEATURES, NUM_STATE_FEATURES, view_inputs
from gostop_core.notation import parse_view
from gostop_core.outfiles import write_output
from gostop_core.rules import preset_names


SHARD_FORMAT = "gostop-labels-1"
#: The most rows one shard file may hold (a reader refuses more).
MAX_SHARD_ROWS = 1 << 22


class LabelFileError(GoStopError, ValueError):
    """A labels shard that cannot be used (named file, reason)."""


@dataclass
class LabelConfig:
    rules: str = "casual"
    players: int = 2
    hands_per_shard: int = 50
    shards: int = 1000
    samples: int = EXPECTIMAX_V1_SETTINGS["samples"]
    win_bonus: float = EXPECTIMAX_V1_SETTINGS["win_bonus"]
    greedy: float = 0.15        # share of decisions played by the greedy policy
    explore: float = 0.10       # share played uniformly at random
    seed: int = 0
    #: "search": expectimax-v1 (greedy playouts); "network": the same search with
    #: the shipped network playing every seat's playouts, each cut after one turn
    #: and valued by the network (best's search at standard, neural-search's)
    teacher: str = "search"
    #: the network whose playouts the "network" teacher plays (default: the
    #: shipped one); a fitted network here makes one more step of policy iteration
    teacher_weights: str | None = None
    #: the turns after which the network teachers' playouts end with the network's
    #: value (0: each playout played to the end by the network)
    cut: int = 1
    #: "self": every seat plays (and is labelled) as above; "greedy": one seat a
    #: hand (in turn) does, the others play the greedy policy unlabelled, so that
    #: the positions are those of games against greedy
    opponents: str = "self"


#: "network-own": the network plays only the bot's own playout moves and greedy the
#: other seats' (neural-search:others=0), so that the values are those of the
#: network's own play against the greedy policy
TEACHERS = ("search", "network", "network-own")
#: the teachers whose playouts a network plays (``teacher_weights`` names it)
NETWORK_TEACHERS = ("network", "network-own")
OPPONENTS = ("self", "greedy")


def _label(game: Game, samples: int, win_bonus: float, seed: int,
           stop: StopToken | None, teacher: str = "search",
           teacher_weights: str | None = None, cut: int = 1,
           ) -> tuple[list[int], np.ndarray, np.ndarray, np.ndarray]:
    """The search's value of every legal move of the seat to move, from its view:
    ``(codes, state bytes, action bytes, values)`` in generation order."""
    seat = game.turn
    text = game.view(seat).to_str()
    rules, fields = parse_view(text)
    codes, state, actions = view_inputs(rules, fields)
    options = {}
    if teacher in NETWORK_TEACHERS:
        from gostop_core.bots.neural import network_playout_options
        options = network_playout_options(rules, game.players, teacher_weights, cut=cut,
                                          others=teacher == "network")
    result = search_fields(rules, fields, EXPECTIMAX_V1_SETTINGS["depth"], samples, seed,
                           rollout=True, win_bonus=win_bonus, stop=stop, **options)
    by_code = {code: value for code, value, _line in result["moves"]}
    values = np.array([by_code[c] for c in codes], dtype=np.float32)
    return codes, state, actions, values


def shard_hands(cfg: LabelConfig, index: int, stop: StopToken | None = None,
                ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The labelled decisions of shard ``index``: ``(state, actions, values)``
    per decision with more than one legal move."""
    rng = random.Random(f"{cfg.seed}/{index}")
    greedy = GreedyBot(seed=rng.getrandbits(32))
    for h in range(cfg.hands_per_shard):
        game = Game(cfg.rules, cfg.players, seed=rng.getrandbits(62))
        learner = h % cfg.players
        while not game.is_over():
            if stop is not None and stop.is_set():
                return
            legal = list(game.legal_moves)
            if len(legal) == 1:
                game.push(legal[0])
                continue
            if cfg.opponents == "greedy" and game.turn != learner:
                game.push(greedy.choose(game.view(game.turn), legal))
                continue
            codes, state, actions, values = _label(game, cfg.samples, cfg.win_bonus,
                                                   rng.getrandbits(32), stop, cfg.teacher,
                                                   cfg.teacher_weights, cfg.cut)
            yield state, actions, values
            roll = rng.random()
            if roll < cfg.explore:
                move = rng.choice(legal)
            elif roll < cfg.explore + cfg.greedy:
                move = greedy.choose(game.view(game.turn), legal)
            else:
                move = Move.from_code(codes[int(np.argmax(values))])
            game.push(move)


def label_positions(out_dir: str | os.PathLike, cfg: LabelConfig,
                    stop: StopToken | None = None,
                    progress: Callable[[dict], None] | None = None,
                    part: tuple[int, int] = (0, 1)) -> int:
    """Write shards ``labels_00000.npz``, ... into ``out_dir`` until ``cfg.shards``
    are there (a run resumes after the last whole shard); returns the shards
    written now.  ``stop`` (set from a signal handler) ends the run after the
    decision under way, leaving the shard in progress unwritten.  ``part``
    ``(k, n)`` takes only the shards whose index is k modulo n, so that n
    processes label one directory side by side."""
    k_part, n_part = part
    if not (n_part >= 1 and 0 <= k_part < n_part):
        raise ValueError(f"part must be (k, n) with 0 <= k < n, got {part}")
    if cfg.teacher not in TEACHERS:
        raise ValueError(f"teacher must be one of {', '.join(TEACHERS)}, got {cfg.teacher!r}")
    if cfg.opponents not in OPPONENTS:
        raise ValueError(f"opponents must be {' or '.join(OPPONENTS)}, got {cfg.opponents!r}")
    if not 0 <= cfg.win_bonus <= 1000:  # also refuses nan: hours of labels worth nothing
        raise ValueError(f"the win bonus must be between 0 and 1000 points, got {cfg.win_bonus}")
    if not 0 <= cfg.cut <= MAX_CUT:
        raise ValueError(f"the cut must be between 0 and {MAX_CUT} turns, got {cfg.cut}")
    if cfg.cut != 1 and cfg.teacher not in NETWORK_TEACHERS:
        raise ValueError("the cut is for the network teachers (the search's playouts "
                         "are played to the end)")
    if cfg.teacher_weights is not None:
        if cfg.teacher not in NETWORK_TEACHERS:
            raise ValueError("teacher weights are for the network teachers")
        from gostop_core.neural.network import load_network
        load_network(cfg.teacher_weights)  # a file that is no network fails here, not mid-shard
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    conf = out / "labels.json"
    if conf.exists():
        old = json.loads(conf.read_text())
        old.setdefault("teacher", "search")  # directories labelled before the settings
        old.setdefault("teacher_weights", None)
        old.setdefault("opponents", "self")
        old.setdefault("cut", 1)
        if old != asdict(cfg):
            raise LabelFileError(f"{conf}: this directory was labelled with other settings "
                                 f"({old}); use another directory")
    else:
        write_output(str(conf), json.dumps(asdict(cfg), indent=1).encode())
    written = 0
    for index in range(cfg.shards):
        path = out / f"labels_{index:05d}.npz"
        if index % n_part != k_part or path.exists():
            continue
        started = time.monotonic()
        states, actions, values, decision = [], [], [], []
        for k, (s, a, v) in enumerate(shard_hands(cfg, index, stop)):
            states.append(s)
            actions.append(a)
            values.append(v)
            decision.append(np.full(len(v), k, dtype=np.int32))
        if stop is not None and stop.is_set():
            break
        if states:
            s_rows = np.repeat(np.stack(states), [len(v) for v in values], axis=0)
            arrays = {"states": s_rows, "actions": np.concatenate(actions),
                      "values": np.concatenate(values), "decision": np.concatenate(decision)}
        else:
            arrays = {"states": np.zeros((0, NUM_STATE_FEATURES), np.uint8),
                      "actions": np.zeros((0, NUM_ACTION_FEATURES), np.uint8),
                      "values": np.zeros(0, np.float32), "decision": np.zeros(0, np.int32)}
        arrays["header"] = np.frombuffer(json.dumps(
            {"format": SHARD_FORMAT, "index": index, "config": asdict(cfg)}).encode(),
            dtype=np.uint8)
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        write_output(str(path), buf.getvalue())
        written += 1
        if progress is not None:
            progress({"shard": index, "decisions": len(states), "rows": len(arrays["values"]),
                      "seconds": round(time.monotonic() - started, 1)})
    return written


def load_shards(paths: list[str | os.PathLike]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows of ``paths`` joined: ``(states, actions, values, decision)``,
    ``decision`` numbered across all the files.  Every field is checked: a shard
    that is not one (or damaged) raises :class:`LabelFileError` naming it."""
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    offset = 0
    for p in paths:
        arrays, header = read_npz(p, LabelFileError, "a labels shard")
        if not isinstance(header, dict) or header.get("format") != SHARD_FORMAT:
            raise LabelFileError(f"{p}: not a {SHARD_FORMAT} shard")
        try:
            s, a, v, d = (arrays[k] for k in ("states", "actions", "values", "decision"))
        except KeyError as exc:
            raise LabelFileError(f"{p}: no array {exc}") from None
        n = v.shape[0] if v.ndim == 1 else -1
        if not (0 <= n <= MAX_SHARD_ROWS and s.dtype == np.uint8 and a.dtype == np.uint8
                and s.shape == (n, NUM_STATE_FEATURES) and a.shape == (n, NUM_ACTION_FEATURES)
                and v.dtype.kind == "f" and d.shape == (n,) and d.dtype.kind == "i"):
            raise LabelFileError(f"{p}: arrays of the wrong shapes or types")
        if not np.all(np.isfinite(v)) or np.any(np.abs(v) > 10_000):
            raise LabelFileError(f"{p}: values out of range")
        if n and (d[0] != 0 or np.any(np.diff(d) < 0) or np.any(np.diff(d) > 1)):
            raise LabelFileError(f"{p}: decision numbers out of order")
        parts.append((s, a, v.astype(np.float32), d.astype(np.int64) + offset))
        if n:
            offset += int(d[-1]) + 1
    if not parts:
        raise LabelFileError("no labels shard given")
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))  # type: ignore[return-value]


def _values(net, states: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """Q in points of every row (the network's own forward pass, in blocks)."""
    return np.concatenate([net.q_values(states[i:i + 8192], actions[i:i + 8192])
                           for i in range(0, len(states), 8192)] or [np.zeros(0, np.float32)])


def agreement(net, states, actions, values, decision) -> dict:
    """How often the network's best move is the search's best (top-1), and the
    search's value lost a decision by playing the network's choice instead."""
    q = _values(net, states, actions)
    starts = np.flatnonzero(np.r_[True, np.diff(decision) != 0])
    ends = np.r_[starts[1:], len(decision)]
    top1 = regret = 0.0
    for b, e in zip(starts, ends):
        pick = b + int(np.argmax(q[b:e]))
        top1 += values[pick] == values[b:e].max()
        regret += values[b:e].max() - values[pick]
    n = max(1, len(starts))
    return {"decisions": len(starts), "top1": float(top1) / n, "regret": float(regret) / n,
            "mse": float(np.mean((q - values) ** 2))}


def _decision_batches(decision: np.ndarray, rows: int,
                      rng: np.random.Generator) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Batches of whole decisions in a random order, about ``rows`` rows each:
    ``(row indices, decision number within the batch of each row)``."""
    starts = np.flatnonzero(np.r_[True, np.diff(decision) != 0])
    ends = np.r_[starts[1:], len(decision)]
    per_batch = max(1, rows * len(starts) // max(1, len(decision)))
    order = rng.permutation(len(starts))
    for i in range(0, len(order), per_batch):
        chosen = order[i:i + per_batch]
        sizes = ends[chosen] - starts[chosen]
        idx = np.concatenate([np.arange(starts[k], ends[k]) for k in chosen])
        yield idx, np.repeat(np.arange(len(chosen)), sizes)


def _fit_header(shards: list[Path], held: list[Path], net, init: str | None, command: str,
                settings: dict, report: dict, rows: int) -> dict:
    """The fitted network's provenance: the fit's command and settings, the label
    directories (their labelling settings, shard and held-out counts), the rows
    trained on, the library versions, and the network it started
    from (its sha256 and command; its self-play lineage, ``config``, ``hands``
    and ``samples``, kept so that ``gostop train-neural --init`` counts on from it).
    Fields of the starting file that describe another process are not carried."""
    from gostop_core.neural.dmc import _versions
    held_out = set(held)
    dirs: dict[str, dict] = {}
    for p in shards:
        d = dirs.setdefault(str(p.parent), {"shards": 0, "held_out": 0})
        d["shards"] += 1
        d["held_out"] += p in held_out
    for d, entry in dirs.items():
        entry["settings"] = _settings(Path(d))
    head = {k: net.header[k] for k in ("config", "hands", "samples", "seeds") if k in net.header}
    head.update(command=command, versions=_versions(), distilled={
        **settings, "labels": dirs, "rows": rows, "tuning_eval": report})
    if init is not None:
        head["init"] = {"path": str(init), "sha256": net.header.get("sha256"),
                        "hands": net.header.get("hands"), "command": net.header.get("command")}
    return head


def _settings(directory: Path) -> dict | None:
    """The labelling settings a directory's labels.json holds (None without one)."""
    conf = directory / "labels.json"
    return json.loads(conf.read_text()) if conf.is_file() else None


def _table(shards: list[Path]) -> tuple[str, int]:
    """The ``(rules, players)`` the shards' hands were played at (their
    directories' settings; :class:`LabelConfig`'s table where there are none): a
    fit evaluates its network at that table, so one fit takes one table."""
    tables = set()
    for d in {p.parent for p in shards}:
        settings = _settings(d) or {}
        tables.add((settings.get("rules", LabelConfig.rules),
                    int(settings.get("players", LabelConfig.players))))
    if len(tables) != 1:
        raise LabelFileError("the label directories were played at different tables: "
                             + ", ".join(f"{r} {n}-player" for r, n in sorted(tables)))
    return tables.pop()


def fit(shards: list[Path], out: str, init: str | None, epochs: int, lr: float,
        seed: int = 0, log: Callable[[str], None] = print, loss: str = "mse",
        command: str = "", blend: float = 0.0,
        hidden: tuple[int, int] | None = None) -> dict:
    """Regress Q on the search's values (Adam): every 20th shard is held out;
    after each epoch, the agreement on the held-out decisions and the network
    against greedy on 2,000 tuning deals (seed 500,000).  ``loss`` ``"mse"``:
    squared error on the values; ``"centred"``: on each value less its
    decision's mean (only the differences between the moves of a decision,
    which are all that an argmax plays).  ``blend`` W > 0: the target is each
    move's value as ``best`` blends it, ``(1 - W) * search + W * Q`` with the
    starting network's Q, so that the fit learns the blended bot's preferences
    rather than the search's alone (the agreement is then with that target).
    ``hidden``: the fitted network's hidden sizes, the starting network widened
    to them with its Q kept (:meth:`Network.widened`) after the blend's Q is
    taken from it as it is (a capacity ablation; None: the starting network's)."""
    from gostop_core.neural.dmc import evaluate_vs_greedy
    from gostop_core.neural.network import (
        RETURN_SCALE, Adam, Network, input_scale, load_network, save_network,
    )
    held = [p for p in shards if int(p.stem.split("_")[-1]) % 20 == 0]
    train = [p for p in shards if p not in held]
    if not train or not held:
        raise LabelFileError("fitting needs at least one shard to train on and shard 0 to hold out")
    if loss not in ("mse", "centred"):
        raise ValueError(f"loss must be mse or centred, got {loss!r}")
    if not 0.0 <= blend < 1.0:
        raise ValueError(f"blend must be in [0, 1), got {blend}")
    if blend and init is None:
        raise ValueError("a blended target needs the network to blend with (--init)")
    if hidden is not None and not all(isinstance(h, int) and 1 <= h <= 1024 for h in hidden):
        raise ValueError(f"hidden sizes must be whole numbers 1..1024, got {hidden}")
    table = _table(shards)
    # the network fitted, widened before the shards are read (a layer that would
    # shrink is refused there); the blend's Q is the starting network's own
    start = Network.initial(hidden or (256, 128)) if init is None else load_network(init)
    net = start if hidden is None or tuple(hidden) == start.hidden else start.widened(
        tuple(hidden), seed=seed)
    s, a, v, d = load_shards(train)
    hs, ha, hv, hd = load_shards(held)
    if blend:
        v = ((1.0 - blend) * v + blend * _values(start, s, a)).astype(np.float32)
        hv = ((1.0 - blend) * hv + blend * _values(start, hs, ha)).astype(np.float32)
    opt, scale, rng = Adam(net, lr), input_scale(), np.random.default_rng(seed)
    report = {}
    for epoch in range(epochs + 1):
        if epoch and loss == "centred":
            for idx, groups in _decision_batches(d, 1024, rng):
                x = np.concatenate([s[idx], a[idx]], axis=1).astype(np.float32) * scale
                opt.step(x, v[idx] / RETURN_SCALE, groups=groups)
        elif epoch:
            perm = rng.permutation(len(v))
            for i in range(0, len(v), 1024):  # the last batch may be short
                idx = perm[i:i + 1024]
                x = np.concatenate([s[idx], a[idx]], axis=1).astype(np.float32) * scale
                opt.step(x, v[idx] / RETURN_SCALE)
        ev = evaluate_vs_greedy(net, *table, 2000, 500_000)
        report = {"epoch": epoch, **agreement(net, hs, ha, hv, hd),
                  "vs_greedy": ev["points"], "low": ev["low"], "high": ev["high"],
                  "won": ev["win_rate"]}
        log(json.dumps({k: round(x, 3) if isinstance(x, float) else x for k, x in report.items()}))
    header = _fit_header(shards, held, net, init, command,
                         {"epochs": epochs, "lr": lr, "loss": loss, "seed": seed,
                          "blend": blend, "hidden": list(net.hidden)}, report, len(v))
    net.header = {}
    save_network(out, net, header=header)
    return report


def main(argv: list[str] | None = None) -> int:
    import argparse
    import signal
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    lab = sub.add_parser("label", help="play and label hands into shards")
    lab.add_argument("--out", required=True)
    lab.add_argument("--shards", type=int, default=1000)
    lab.add_argument("--hands-per-shard", type=int, default=20)
    lab.add_argument("--samples", type=int, default=LabelConfig.samples)
    lab.add_argument("--seed", type=int, default=0)
    lab.add_argument("--part", default="0/1", help="K/N: the shards whose index is K modulo N")
    lab.add_argument("--rules", choices=preset_names(), default="casual",
                     help="the preset the hands are played by")
    lab.add_argument("--players", type=int, choices=(2, 3), default=2)
    lab.add_argument("--win-bonus", type=float, default=LabelConfig.win_bonus,
                     help="points the search adds to a playout won (and takes from one "
                          "lost); expectimax-v1's by default")
    lab.add_argument("--teacher", choices=TEACHERS, default="search",
                     help="search: expectimax-v1; network: the same search with the "
                          "network's playouts, cut after --cut turns; network-own: the "
                          "network plays the bot's own playout moves, greedy the others'")
    lab.add_argument("--opponents", choices=OPPONENTS, default="self",
                     help="self: every seat plays by the labels; greedy: one seat a hand "
                          "does, the others play greedy and are not labelled")
    lab.add_argument("--teacher-weights", default=None,
                     help="the network teacher's weights (default: the shipped network)")
    lab.add_argument("--cut", type=int, default=1,
                     help="the network teachers' playouts end after this many turns with "
                          "the network's value (0: played to the end)")
    fi = sub.add_parser("fit", help="fit a network to the shards of label directories")
    fi.add_argument("labels", nargs="+", help="directories of labels_*.npz shards")
    fi.add_argument("--out", required=True)
    fi.add_argument("--init", default=None, help="weights to start from (default: a new network)")
    fi.add_argument("--epochs", type=int, default=6)
    fi.add_argument("--lr", type=float, default=1e-4)
    fi.add_argument("--loss", choices=("mse", "centred"), default="mse",
                    help="mse: the values; centred: each value less its decision's mean")
    fi.add_argument("--blend", type=float, default=0.0,
                    help="W: fit (1 - W) * the search's value + W * the --init network's "
                         "Q, the value best blends (0: the search's alone)")
    fi.add_argument("--hidden", type=int, nargs=2, default=None, metavar=("H1", "H2"),
                    help="the fitted network's hidden sizes: the --init network widened "
                         "to them, its Q kept (default: --init's, or 256 128)")
    args = ap.parse_args(argv)
    try:
        if args.command == "label":
            k, _, n = args.part.partition("/")
            cfg = LabelConfig(rules=args.rules, players=args.players,
                              hands_per_shard=args.hands_per_shard, shards=args.shards,
                              win_bonus=args.win_bonus,
                              samples=args.samples, seed=args.seed, teacher=args.teacher,
                              teacher_weights=args.teacher_weights, cut=args.cut,
                              opponents=args.opponents)
            stop = StopToken()
            # a signal ends the run after the decision under way; the caller's
            # handlers come back when it ends
            before = {sig: signal.signal(sig, lambda *_: stop.set())
                      for sig in (signal.SIGTERM, signal.SIGINT)}
            try:
                label_positions(args.out, cfg, stop,
                                lambda d: print(json.dumps(d), flush=True),
                                part=(int(k), int(n or 1)))
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)
        else:
            shards = []
            for directory in args.labels:
                found = sorted(Path(directory).glob("labels_*.npz"))
                if not found:
                    raise LabelFileError(f"{directory}: no labels_*.npz shards there")
                shards += found
            fit(shards, args.out, args.init, args.epochs, args.lr, loss=args.loss,
                blend=args.blend, hidden=None if args.hidden is None else tuple(args.hidden),
                command=" ".join(["python", "scripts/search_labels.py",
                                  *(sys.argv[1:] if argv is None else argv)]))
    except (GoStopError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
