"""Expert iteration for the learned playout policy and value (docs/strength.md).

Three steps, each deterministic for its seeds:

* :func:`generate` plays self-play games with a searching bot (the *expert*) on
  every seat and records, at every decision with a choice, the seat's view (as
  its player-view string), the legal moves, the search's value of each and the
  move played; at the end of a game, every seat's net points.  One JSON line
  per game.
* :func:`decision_arrays` turns those records into feature arrays with the C
  feature code the search itself uses (:mod:`gostop_core.bots.policy`): per move
  features for the policy, per view features for the value.
* :func:`fit_policy` (softmax regression over the legal moves, imitating the
  expert's choice) and :func:`fit_value` (ridge regression of the net points)
  fit the weights with numpy alone; :func:`train` runs them and writes the
  weights file the bot loads (`gostop_core.bots.policy.load_weights`).
"""

from __future__ import annotations

import json
import os
import platform
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from gostop_core._version import __version__
from gostop_core.bots.expectimax import ExpectimaxBot
from gostop_core.bots.plugins import make_bot
from gostop_core.bots.policy import (
    NUM_POLICY_FEATURES, NUM_VALUE_FEATURES, POLICY_FEATURE_NAMES, VALUE_FEATURE_NAMES,
    WEIGHTS_FORMAT, check_weights, view_features, view_value_features,
)
from gostop_core.errors import GoStopError
from gostop_core.outfiles import write_output
from gostop_core.game import Game
from gostop_core.notation import parse_view
from gostop_core.rules import Rules

__all__ = ["TrainingDataError", "generate", "read_games", "decision_arrays", "fit_policy",
           "fit_value", "train", "net_points"]

#: Seeds at or above this are kept for reporting strength: training refuses them.
REPORT_SEEDS = 1_000_000


class TrainingDataError(GoStopError, ValueError):
    """A self-play data file that cannot be read (bad JSON, missing or wrong
    fields), or a seed range that reaches the report seeds."""


def net_points(outcome, rules: Rules, players: int) -> list[int]:
    """Each seat's net points of a finished hand, as the arena counts them."""
    if rules.payment != 0:
        return list(outcome.chips) if outcome.chips else [0] * players
    if outcome.winner is None:
        return [0] * players
    return [outcome.points if s == outcome.winner else -outcome.points for s in range(players)]


def _check_seeds(first_seed: int, games: int) -> None:
    if first_seed < 0 or games < 0:
        raise TrainingDataError("seeds and game counts are not negative")
    if first_seed + games > REPORT_SEEDS:
        raise TrainingDataError(f"training seeds must stay below {REPORT_SEEDS:,} "
                                f"(those from it are kept for reporting strength)")


def play_recorded(expert: str, seed: int, rules: Rules | str = "casual",
                  players: int = 2) -> dict:
    """One self-play game of ``expert`` on every seat (deal ``seed``, bots seeded
    as the arena seeds rotation 0), with every decision that had a choice."""
    game = Game(rules, players, seed=seed, dealer=0)
    bots = [make_bot(expert, seed=seed * 16 + s) for s in range(players)]
    if not all(isinstance(b, ExpectimaxBot) for b in bots):
        raise TrainingDataError(f"the expert {expert!r} is no searching bot: use expectimax, "
                                "expectimax-v1, best or learned settings")
    decisions = []
    for s, bot in enumerate(bots):
        bot.start_hand(game.view(s))
    while not game.is_over():
        seat = game.turn
        assert seat is not None
        legal = list(game.legal_moves)
        view = game.view(seat)
        if len(legal) == 1:
            game.push(legal[0])
            continue
        searcher = bots[seat]
        assert isinstance(searcher, ExpectimaxBot)
        ranked = searcher.analyse(view)
        allowed = set(legal)
        move = next((r.move for r in ranked if r.move in allowed), legal[0])
        values = {r.move.code: r.value for r in ranked}
        decisions.append({"seat": seat, "view": view.to_str(),
                          "moves": [m.code for m in legal],
                          "values": [round(values.get(m.code, float("nan")), 4) for m in legal],
                          "choice": move.code})
        game.push(move)
    outcome = game.outcome()
    assert outcome is not None
    for s, bot in enumerate(bots):
        bot.end_hand(game.view(s), outcome)
        bot.close()
    return {"seed": seed, "players": players, "decisions": decisions,
            "net": net_points(outcome, game.rules, players),
            "winner": outcome.winner}


def generate(expert: str, first_seed: int, games: int, out: str,
             rules: Rules | str = "casual", players: int = 2,
             progress: Callable[[int], None] | None = None) -> int:
    """Append ``games`` recorded self-play games (seeds ``first_seed`` on) to the
    JSON Lines file ``out``; games already in it (same seed) are skipped, so an
    interrupted run goes on where it stopped.  Returns the games written."""
    _check_seeds(first_seed, games)
    done = set()
    if os.path.exists(out):
        done = {g["seed"] for g in read_games(out)}
    written = 0
    with open(out, "a", encoding="utf-8") as fh:
        for seed in range(first_seed, first_seed + games):
            if seed in done:
                continue
            fh.write(json.dumps(play_recorded(expert, seed, rules, players)) + "\n")
            fh.flush()
            written += 1
            if progress is not None:
                progress(written)
    return written


# A line of a data file holds one game: a few hundred decisions of a few
# hundred characters.  Longer lines are refused unread, so memory stays bounded.
MAX_DATA_LINE = 16_000_000


def read_games(path: str) -> Iterator[dict]:
    """The games of a data file written by :func:`generate`, one line at a time;
    a malformed line (bad JSON, nested too deep, longer than
    :data:`MAX_DATA_LINE`, or any field of the wrong type or range) raises
    :class:`TrainingDataError` naming the file, the line and the field."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        number = 0
        while True:
            line = fh.readline(MAX_DATA_LINE + 1)
            if not line:
                return
            number += 1
            if len(line) > MAX_DATA_LINE and not line.endswith("\n"):
                raise TrainingDataError(f"{path}, line {number}: longer than "
                                        f"{MAX_DATA_LINE:,} characters")
            if not line.strip():
                continue
            try:
                game = json.loads(line)
            except RecursionError:
                raise TrainingDataError(f"{path}, line {number}: nested too deep") from None
            except ValueError as exc:
                raise TrainingDataError(f"{path}, line {number}: not valid JSON "
                                        f"({' '.join(str(exc).split())[:80]})") from None
            problem = _game_problem(game)
            if problem:
                raise TrainingDataError(f"{path}, line {number}: {problem}")
            yield game


def _is_int(value: Any) -> bool:
    return type(value) is int


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


def _game_problem(game: Any) -> str | None:
    """What is wrong with one decoded data line (None: nothing)."""
    if not isinstance(game, dict):
        return "not an object"
    seed = game.get("seed")
    if not _is_int(seed) or seed < 0:
        return f"'seed' is {seed!r:.40}, not a seed (an integer from 0)"
    net = game.get("net")
    if (not isinstance(net, list) or not 2 <= len(net) <= 4
            or not all(_is_number(v) and v == v and abs(v) != float("inf") for v in net)):
        return f"'net' is {net!r:.40}, not a list of 2-4 finite numbers"
    if "players" in game and game["players"] != len(net):
        return f"'players' is {game['players']!r:.40}, not the {len(net)} seats of 'net'"
    winner = game.get("winner")
    if winner is not None and not (_is_int(winner) and 0 <= winner < len(net)):
        return f"'winner' is {winner!r:.40}, not a seat or null"
    decisions = game.get("decisions")
    if not isinstance(decisions, list):
        return f"'decisions' is {decisions!r:.40}, not a list"
    for i, d in enumerate(decisions):
        where = f"decision {i}"
        if not isinstance(d, dict):
            return f"{where} is not an object"
        if not isinstance(d.get("view"), str):
            return f"{where}: 'view' is not a string"
        moves = d.get("moves")
        if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
            return f"{where}: 'moves' is not a list of move strings"
        if not isinstance(d.get("choice"), str) or d["choice"] not in moves:
            return f"{where}: 'choice' is not one of its moves"
        seat = d.get("seat")
        if not (_is_int(seat) and 0 <= seat < len(net)):
            return f"{where}: 'seat' is {seat!r:.40}, not a seat"
        values = d.get("values")
        if (not isinstance(values, list) or len(values) != len(moves)
                or not all(_is_number(v) and abs(v) != float("inf") for v in values)):
            return f"{where}: 'values' is not a list of one number per move"
    return None


def decision_arrays(paths: Sequence[str], win_bonus: float = 2.0) -> dict[str, Any]:
    """The arrays the fits read, from data files of :func:`generate`:

    * ``X`` (moves x NUM_POLICY_FEATURES), ``offsets`` (the first row of each
      decision, then the total), ``choice`` (the row index of the expert's
      move in each decision), ``values`` (the expert's value of every row);
    * ``V`` (decisions x NUM_VALUE_FEATURES) and ``y`` (the deciding seat's
      terminal value: its net points, ``win_bonus`` more for a won hand and
      less for a lost one);
    * ``seeds`` (the games' seeds, sorted) and ``games``.
    """
    rows: list[np.ndarray] = []
    vrows: list[np.ndarray] = []
    offsets, choice, seeds = [0], [], []
    values: list[float] = []
    targets: list[float] = []
    total = 0
    for path in paths:
        for game in read_games(path):
            seeds.append(game["seed"])
            winner = game.get("winner")
            for d in game["decisions"]:
                try:
                    rules, fields = parse_view(d["view"])
                    codes, feats = view_features(rules, fields)
                except GoStopError as exc:
                    raise TrainingDataError(f"{path}, seed {game['seed']}: a bad view "
                                            f"({' '.join(str(exc).split())[:120]})") from None
                if codes != d["moves"]:
                    raise TrainingDataError(f"{path}, seed {game['seed']}: the recorded moves "
                                            "are not the engine's legal moves")
                rows.append(feats)
                choice.append(total + codes.index(d["choice"]))
                values.extend(float(v) if v == v else -1e9 for v in d["values"])
                total += len(codes)
                offsets.append(total)
                seat = d["seat"]
                bonus = 0.0 if winner is None else (win_bonus if winner == seat else -win_bonus)
                vrows.append(view_value_features(rules, fields))
                targets.append(game["net"][seat] + bonus)
    return {"X": np.vstack(rows) if rows else np.zeros((0, NUM_POLICY_FEATURES)),
            "offsets": np.array(offsets, dtype=np.int64),
            "choice": np.array(choice, dtype=np.int64),
            "values": np.array(values, dtype=np.float64),
            "V": np.vstack(vrows) if vrows else np.zeros((0, NUM_VALUE_FEATURES)),
            "y": np.array(targets, dtype=np.float64),
            "seeds": sorted(seeds), "games": len(seeds)}


def _softmax_groups(scores: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    starts = offsets[:-1]
    sizes = np.diff(offsets)
    top = np.repeat(np.maximum.reduceat(scores, starts), sizes)
    e = np.exp(scores - top)
    return e / np.repeat(np.add.reduceat(e, starts), sizes)


def fit_policy(X: np.ndarray, offsets: np.ndarray, choice: np.ndarray, l2: float = 1e-3,
               iterations: int = 30, values: np.ndarray | None = None,
               target_temperature: float = 0.0) -> tuple[np.ndarray, dict]:
    """Softmax regression over each decision's legal moves by Newton's method
    (a fixed number of steps, each halved until the loss falls: deterministic).
    The target is the expert's move, or with ``target_temperature`` T > 0 the
    distribution exp(value / T) over the expert's values.  Returns the weights
    and ``{"loss", "accuracy", "decisions"}`` (accuracy: the share of decisions
    where the top-scored move is the expert's)."""
    decisions = len(offsets) - 1
    features = X.shape[1]
    if decisions == 0:
        return np.zeros(features), {"loss": 0.0, "accuracy": 0.0, "decisions": 0}
    sizes = np.diff(offsets)
    starts = offsets[:-1]
    if target_temperature > 0 and values is not None:
        target = _softmax_groups(values / target_temperature, offsets)
    else:
        target = np.zeros(len(X))
        target[choice] = 1.0

    def loss_of(w: np.ndarray) -> float:
        s = X @ w
        top = np.maximum.reduceat(s, starts)
        lse = top + np.log(np.add.reduceat(np.exp(s - np.repeat(top, sizes)), starts))
        return float((np.repeat(lse, sizes) * target - s * target).sum() / decisions
                     + 0.5 * l2 * w @ w)

    w = np.zeros(features)
    loss = loss_of(w)
    for _ in range(iterations):
        p = _softmax_groups(X @ w, offsets)
        grad = X.T @ (p - target) / decisions + l2 * w
        px = p[:, None] * X
        m = np.add.reduceat(px, starts)
        # target rows sum to one per decision, so the Hessian is the policy's
        # feature covariance in each decision
        hess = (X.T @ px - m.T @ m) / decisions + l2 * np.eye(features)
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while t > 1e-4:
            trial = w - t * step
            trial_loss = loss_of(trial)
            if trial_loss <= loss:
                break
            t *= 0.5
        else:
            break
        if loss - trial_loss < 1e-12:
            w, loss = trial, trial_loss
            break
        w, loss = trial, trial_loss
    s = X @ w
    top_rows = np.array([starts[d] + int(np.argmax(s[starts[d]:offsets[d + 1]]))
                         for d in range(decisions)])
    accuracy = float(np.mean(top_rows == choice))
    return w, {"loss": round(loss, 6), "accuracy": round(accuracy, 4), "decisions": decisions}


def fit_value(V: np.ndarray, y: np.ndarray, l2: float = 1e-2) -> tuple[np.ndarray, dict]:
    """Ridge regression of the terminal values ``y`` on the value features ``V``
    (closed form).  Returns the weights and ``{"rmse", "baseline_rmse"}``
    (baseline: the mean alone)."""
    if len(y) == 0:
        return np.zeros(V.shape[1]), {"rmse": 0.0, "baseline_rmse": 0.0}
    A = V.T @ V / len(y) + l2 * np.eye(V.shape[1])
    w = np.linalg.solve(A, V.T @ y / len(y))
    rmse = float(np.sqrt(np.mean((V @ w - y) ** 2)))
    base = float(np.std(y))
    return w, {"rmse": round(rmse, 4), "baseline_rmse": round(base, 4), "states": int(len(y))}


def library_versions() -> dict[str, str]:
    return {"gostop": __version__, "numpy": np.__version__,
            "python": platform.python_version()}


def train(paths: Sequence[str], out: str, command: str, l2: float = 1e-3,
          value_l2: float = 1e-2, temperature: float = 1.0,
          target_temperature: float = 0.0) -> dict:
    """Fit the policy and the value on the data files ``paths`` and write the
    weights file ``out`` (format :data:`gostop_core.bots.policy.WEIGHTS_FORMAT`,
    checked by `gostop_core.bots.policy.check_weights` before it is written).
    The same data and settings give the same file."""
    arrays = decision_arrays(paths)
    if arrays["games"] == 0:
        raise TrainingDataError("no games in the data")
    if arrays["seeds"][-1] >= REPORT_SEEDS:
        raise TrainingDataError(f"the data holds games of seeds from {REPORT_SEEDS:,} "
                                "(kept for reporting strength)")
    policy, pstats = fit_policy(arrays["X"], arrays["offsets"], arrays["choice"], l2=l2,
                                values=arrays["values"], target_temperature=target_temperature)
    value, vstats = fit_value(arrays["V"], arrays["y"], l2=value_l2)
    doc = {
        "format": WEIGHTS_FORMAT,
        "header": {"command": command, "seeds": [arrays["seeds"][0], arrays["seeds"][-1]],
                   "games": arrays["games"], "versions": library_versions(),
                   "fit": {"policy": pstats, "value": vstats, "l2": l2, "value_l2": value_l2,
                           "target_temperature": target_temperature}},
        "policy_features": list(POLICY_FEATURE_NAMES),
        "value_features": list(VALUE_FEATURE_NAMES),
        "policy": [round(float(x), 6) for x in policy],
        "value": [round(float(x), 6) for x in value],
        "temperature": float(temperature),
    }
    check_weights(doc)
    # never a rename over a device or a FIFO (gostop_core.outfiles)
    write_output(out, json.dumps(doc, indent=1) + "\n")
    return doc
