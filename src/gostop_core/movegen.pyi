PLAY: int
FLIP_CHOICE: int
GO_STOP: int
OVER: int
PHASE_NAMES: tuple[str, ...]
KIND_PLAY: int
KIND_BONUS: int
KIND_BOMB: int
KIND_FLIP: int
KIND_GO: int
KIND_STOP: int
KIND_SHAKE: int
KIND_FLIP_ONLY: int
KIND_SHOWDOWN: int
KIND_ACCEPT: int
KIND_REFUSE: int
SHOWDOWN: int
END_REASON_NAMES: tuple[str, ...]
CHIP_REASON_NAMES: dict[int, str]
SETTLE_REASON_NAMES: dict[int, str]
NO_CARD: int
EVENT_NAMES: dict[int, str]
STATE_SIZE: int
EVENT_LOG_SIZE: int
PAY_CAP: int
CHIPS_CAP: int
SHIFT_CAP: int
DEBUG_BUILD: bool

def move_parts(move: int) -> tuple[int, int, int]: ...
def encode_move(kind: int, card: int, target: int) -> int: ...

def _in_main_thread() -> bool: ...
