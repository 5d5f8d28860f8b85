"""(being written)"""

CODES: dict = {}
BASIC: dict = {}
FREE: dict = {}
CTX: dict[str, int] = {}


def playable(st, cls: int, design: int) -> bool:
    return False


def start_card(st, cls: int, design: int) -> None:
    raise NotImplementedError
