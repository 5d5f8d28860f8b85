"""(being written)"""

CODES: dict = {}
BASIC: dict = {}
FREE: dict = {}
CTX: dict[str, int] = {}
