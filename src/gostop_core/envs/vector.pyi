from typing_extensions import disjoint_base
from typing import Any

import numpy as np
import numpy.typing as npt

from gostop_core.state import CoreState
from gostop_core.rules import Rules

VECTOR_NUM_ACTIONS: int
VECTOR_OBS_SIZE: int
_LAYOUT: dict[str, int]

@disjoint_base
class VectorGame:
    num_games: int
    players: int
    obs: npt.NDArray[np.uint8]
    mask: npt.NDArray[np.bool_]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    seats: npt.NDArray[np.int8]
    deal_seeds: npt.NDArray[np.uint64]
    legal: npt.NDArray[np.uint8]
    legal_count: npt.NDArray[np.uint8]
    def __init__(self, num_games: int, rules: Rules | str = ..., players: int = ...,
                 seed: int = ...) -> None: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def num_actions(self) -> int: ...
    def reset(self, seed: int | None = ...) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]: ...
    def step(self, actions: Any) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_]]: ...

def stock_to_position(core: CoreState, offset: int, card: int) -> None: ...
def legal_action_codes(core: CoreState) -> dict[int, int]: ...
