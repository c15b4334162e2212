from typing import Any, Sequence

from gostop_core.rules import Rules

DEFAULT_DEPTH: int
DEFAULT_SAMPLES: int
DEFAULT_BETA: float
DEFAULT_REACH: float
LEAF_WEIGHTS: tuple[float, ...]
CHANCE_SEAT: int

def search_fields(rules: Rules, fields: dict[str, Any], depth: int = ..., samples: int = ...,
                  seed: int = ..., beta: float = ..., reach: float = ...,
                  weights: Sequence[float] | None = ...) -> dict[str, Any]: ...
def chance_distribution(rules: Rules, fields: dict[str, Any], samples: int = ...,
                        seed: int = ...) -> dict[int, float]: ...
