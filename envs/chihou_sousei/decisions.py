"""The vocabulary the rules share: decision kinds, event kinds, token counts.

A leaf module (no engine imports), so every rules module, the save format and
the bot can name a decision or an event without importing the state.
"""

from __future__ import annotations

from meeplezoo.envs.chihou_sousei.data import EVENTS
from meeplezoo.envs.chihou_sousei.observation import DECISIONS

TOTAL_TOKENS = 80
START_TOKENS = 16
EMPTY = -1  # no card, no cell, no seat

(
    D_PICK,
    D_BONUS,
    D_FM_SOURCE,
    D_FM_TARGET,
    D_PLACE,
    D_MIGRATE,
    D_EVENT_ORDER,
    D_EVENT_SOURCE,
    D_EVENT_TARGET,
) = range(len(DECISIONS))
D_OVER = len(DECISIONS)
DECISION_NAMES = (*DECISIONS, "game_over")
MIGRATION_DECISIONS = (D_PLACE, D_MIGRATE, D_EVENT_ORDER, D_EVENT_SOURCE, D_EVENT_TARGET)
PLANNING_DECISIONS = (D_PICK, D_BONUS, D_FM_SOURCE, D_FM_TARGET)

(
    E_NEWCOMERS,
    E_U_TURN,
    E_TO_THE_CITY,
    E_SPREAD,
    E_GATHER,
    E_FESTIVAL,
    E_PIONEERS,
    E_WELCOME,
    E_LOCAL_JOBS,
    E_RELOCATION,
) = (
    EVENTS.index(k)
    for k in (
        "newcomers",
        "u_turn",
        "to_the_city",
        "spread",
        "gather",
        "festival",
        "pioneers",
        "welcome",
        "local_jobs",
        "relocation",
    )
)
CHOICE_EVENTS = (E_SPREAD, E_GATHER, E_FESTIVAL, E_LOCAL_JOBS, E_RELOCATION)  # may ask a cell
SOURCE_EVENTS = (E_GATHER, E_FESTIVAL)  # their choice is where a token comes from
