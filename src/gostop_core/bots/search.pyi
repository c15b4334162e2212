from typing import Any, Sequence

from gostop_core.state import CoreState
from gostop_core.rules import Rules

DEFAULT_DEPTH: int
DEFAULT_SAMPLES: int
MAX_DEPTH: int
MAX_SAMPLES: int
DEFAULT_WIN_BONUS: float
DEFAULT_BETA: float
DEFAULT_REACH: float
LEAF_WEIGHTS: tuple[float, ...]
CHANCE_SEAT: int
DEFAULT_MIN_SAMPLES: int
STOP_CHECK: int
DEFAULT_TOLERANCE: float
MAX_PLAN: int
DEFAULT_INFO_LIMIT: int
PLAYOUT_MODEL_CAPSULE: bytes
MAX_CUT: int
MAX_WORLDS: int

class StopToken:
    def set(self) -> None: ...
    def clear(self) -> None: ...
    def is_set(self) -> bool: ...

def request_stop(on: bool = ...) -> None: ...
def stop_requested() -> bool: ...
def search_fields(rules: Rules, fields: dict[str, Any], depth: int = ..., samples: int = ...,
                  seed: int = ..., beta: float = ..., reach: float = ...,
                  weights: Sequence[float] | None = ..., rollout: bool = ...,
                  win_bonus: float = ..., halving: int = ..., time_ms: float = ...,
                  stop_z: float = ..., min_samples: int = ..., tolerance: float = ...,
                  plan: int = ..., consistent: bool = ...,
                  info_limit: int = ..., model: Any = ..., model_own: bool = ...,
                  model_others: bool = ..., cutoff: int = ..., worlds: int = ...,
                  stop: StopToken | None = ..., sampled_flips: bool = ...) -> dict[str, Any]: ...
def policy_choice(state: CoreState) -> int: ...
def halving_plan(n: int, samples: int) -> list[int]: ...
def chance_distribution(rules: Rules, fields: dict[str, Any], samples: int = ...,
                        seed: int = ...) -> dict[int, float]: ...
