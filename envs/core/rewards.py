"""Terminal rewards from final standings, shared by every game.

``rank``: first +1, last -1, linear between, tied places averaged.
``win``: 1 for each (co-)winner, 0 for the others.
``score``: victory points relative to the table mean (solo: the points), divided
by the game's ``score_scale``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from meeplezoo.envs.core.errors import ConfigError

REWARD_KINDS = ("rank", "win", "score")


def resolve_reward_kind(kind: str, num_players: int) -> str:
    """Check a reward kind; ``auto`` means rank, or score for solo games."""
    if kind == "auto":
        return "score" if num_players == 1 else "rank"
    if kind not in REWARD_KINDS:
        raise ConfigError(
            f"reward={kind!r} is not allowed; choose one of auto, {', '.join(REWARD_KINDS)}"
        )
    if num_players == 1 and kind != "score":
        raise ConfigError(
            f"reward={kind!r} needs 2 or more players; a solo game uses reward='score'"
        )
    return kind


def places(rank_keys: Sequence[tuple]) -> list[float]:
    """Average 0-based finishing place per seat (0 = first; ties share); the envs'
    ``info["places"]`` and the printed tables add 1."""
    n = len(rank_keys)
    order = sorted(range(n), key=lambda i: rank_keys[i], reverse=True)
    result = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and rank_keys[order[j + 1]] == rank_keys[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2
        i = j + 1
    return result


def place_share(place: Any, players: int) -> Any:
    """The share of the other seats a seat finishes above, ties a half: ``1 - place /
    (players - 1)`` with ``place`` 0-based as ``places`` gives it (a number, or an array of
    them).  What a round robin's Elo reads of a game; the ``rank`` reward is the same on a
    -1..+1 scale."""
    return 1.0 - place / (players - 1)


def winners(rank_keys: Sequence[tuple]) -> list[int]:
    best = max(rank_keys)
    return [i for i, key in enumerate(rank_keys) if key == best]


def win_share(seat: int, top: Sequence[int]) -> float:
    """A seat's share of a win: 1 alone, 1/k among k co-winners, else 0.

    Win rates add these shares, so a table's rates sum to 1 per game.
    """
    return 1.0 / len(top) if seat in top else 0.0


def terminal_rewards(
    kind: str, scores: Sequence[float], rank_keys: Sequence[tuple], score_scale: float
) -> list[float]:
    n = len(scores)
    if kind == "rank":
        return [1.0 - 2.0 * p / (n - 1) for p in places(rank_keys)]
    if kind == "win":
        top = set(winners(rank_keys))
        return [1.0 if i in top else 0.0 for i in range(n)]
    values = np.asarray(scores, dtype=float)
    relative = values if n == 1 else values - values.mean()
    return (relative / score_scale).tolist()
