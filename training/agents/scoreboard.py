"""The scoreboard as it stands, read for one seat: the features a value may take beside the
observation.

Why: a value that reads only the observation must rebuild "how far ahead am I" from the
encoded scores (a maximum over the other seats, which a small network learns slowly).
Late in a game the points already scored decide, and there a calibrated reading of the
scoreboard (the core API's ``scores`` before the end: as if the game ended now) beat the
values fitted on observations alone (``docs/records.md``).  Given these two numbers as
inputs, a value can do at least what the scoreboard does and add what the observation
says.  One definition, read by the fit (``value_curve.replayed_scores``) and by the search
(``ismcts.NetworkValue``), so the two never disagree.  Torch-free.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from meeplezoo.envs.core.game import GameState

# What a scoreboard row holds, in order (each in the game's ``score_scale`` units).
FEATURES = ("margin_now", "lead_now")


def scoreboard_row(scores: Sequence[float], seat: int, scale: float) -> tuple[float, float]:
    """``seat``'s margin over the best other seat and its lead over the table's mean, in
    ``scale`` units (alone: the score itself, and 0)."""
    if scale <= 0:
        raise ValueError(f"score scale {scale}: must be positive")
    values = np.asarray(scores, dtype=np.float64)
    if not 0 <= seat < len(values):
        raise ValueError(f"seat {seat}: the scores have {len(values)} seats")
    own = values[seat]
    others = np.delete(values, seat)
    margin = own - (others.max() if len(others) else 0.0)
    return float(margin / scale), float((own - values.mean()) / scale)


def scoreboard_rows(states: Sequence[GameState], seats: Sequence[int]) -> np.ndarray:
    """float32 ``[len(states), len(FEATURES)]``: each state's scoreboard for its seat, in
    its game's ``score_scale`` units."""
    rows = np.empty((len(states), len(FEATURES)), np.float32)
    for i, (state, seat) in enumerate(zip(states, seats)):
        rows[i] = scoreboard_row(state.scores(), int(seat), float(state.game.score_scale))
    return rows
