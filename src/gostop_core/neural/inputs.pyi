from typing import Any

import numpy as np

from gostop_core.rules import Rules

NUM_STATE_FEATURES: int
NUM_ACTION_FEATURES: int
NUM_LEGACY_ACTION_FEATURES: int
INPUT_LAYOUTS: tuple[tuple[int, int], ...]
THREATS_START: int
THREATS_PER_SEAT_BYTES: int

def view_inputs(rules: Rules, fields: dict[str, Any]) -> tuple[list[int], np.ndarray, np.ndarray]: ...
