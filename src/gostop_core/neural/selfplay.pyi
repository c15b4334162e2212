from typing_extensions import disjoint_base
from typing import Any

import numpy as np

from gostop_core.rules import Rules

NUM_STATE_FEATURES: int
NUM_ACTION_FEATURES: int
NUM_LEGACY_ACTION_FEATURES: int

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

def view_inputs(rules: Rules, fields: dict[str, Any]) -> tuple[list[int], np.ndarray, np.ndarray]: ...
