from typing import Any

from gostop_core.rules import Rules
from gostop_core.bots.search import StopToken

DEFAULT_ITERATIONS: int
DEFAULT_C: float
DEFAULT_NODES: int
MIN_NODES: int
MAX_NODES: int
MAX_ITERATIONS: int

def request_stop(on: bool = ...) -> None: ...
def stop_requested() -> bool: ...
def ismcts_fields(rules: Rules, fields: dict[str, Any], iterations: int = ..., c: float = ...,
                  seed: int = ..., time_ms: float = ..., win_bonus: float = ...,
                  opp_tree: bool = ..., open_loop: bool = ..., nodes: int = ...,
                  prior: float = ..., widen: float = ...,
                  stop: StopToken | None = ..., model: Any = ..., model_own: bool = ...,
                  model_others: bool = ..., cutoff: int = ...) -> dict[str, Any]: ...
