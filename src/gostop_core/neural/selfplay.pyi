from typing_extensions import disjoint_base
from typing import Any

import numpy as np

from gostop_core.rules import Rules

from gostop_core.neural.inputs import (
    NUM_ACTION_FEATURES as NUM_ACTION_FEATURES,
    NUM_LEGACY_ACTION_FEATURES as NUM_LEGACY_ACTION_FEATURES,
    NUM_STATE_FEATURES as NUM_STATE_FEATURES,
    view_inputs as view_inputs,
)

@disjoint_base
class SelfPlay:
    num_games: int
    players: int
    hidden: int
    greedy_mode: bool
    greedy_share: float
    td_lambda: float
    record: bool
    h1: np.ndarray
    row_game: np.ndarray
    results: np.ndarray
    hands: int
    decisions: int
    dropped: int
    def __init__(self, num_games: int, rules: str | Rules = ..., players: int = ..., seed: int = ...,
                 weights: dict[str, Any] | None = ..., greedy_seats: bool = ..., record: bool = ...,
                 capacity: int = ..., greedy_share: float = ..., td_lambda: float = ...) -> None: ...
    def set_weights(self, weights: dict[str, Any]) -> None: ...
    def prepare(self) -> np.ndarray: ...
    def inputs(self) -> tuple[np.ndarray, np.ndarray]: ...
    def advance(self, q: Any, epsilon: float = ...) -> None: ...
    @property
    def pending_samples(self) -> int: ...
    def drain(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
