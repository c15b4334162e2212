from typing import Any

import numpy as np
from typing_extensions import disjoint_base

from gostop_core.neural.network import Network
from gostop_core.rules import Rules

@disjoint_base
class NeuralPlayout:
    network: Network
    def __init__(self, network: Network) -> None: ...
    def capsule(self) -> Any: ...
    def view_q_values(self, rules: Rules, fields: dict[str, Any]) -> tuple[list[int], np.ndarray]: ...
