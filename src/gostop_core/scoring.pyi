from typing import Any

from gostop_core.cards import CardSet
from gostop_core.rules import Rules

class Score:
    cards: CardSet
    total: int
    brights: int
    bright_points: int
    ribbons: int
    ribbon_points: int
    hongdan_points: int
    cheongdan_points: int
    chodan_points: int
    animals: int
    animal_points: int
    godori_points: int
    junk: int
    junk_points: int
    sake_cup_as_junk: bool
    bridge_as_junk: bool
    family_set_bonus: int
    family: bool
    def __init__(self, cards: CardSet, values: dict[str, Any], family: bool) -> None: ...
    def as_dict(self) -> dict[str, Any]: ...
    def lines(self) -> list[str]: ...

def score(cards: object, rules: Rules | str | None = ...) -> Score: ...
def score_mask(mask: int, rules: Rules) -> int: ...
def score_masks_loop(masks: Any, rules: Rules, repeats: int = ...) -> int: ...
