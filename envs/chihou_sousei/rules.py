"""地方創生's rules object: one ``Choice`` per decision kind (its name, its options and its
step), indexed by the decision's number; the game builds it once (``ChihouSouseiGame``) and
every state and sketch reads it there (``state.game.rules``).

Each decision's options are listed in no particular order and without repeats (the one
statement of the options, for the mask and for sketches); its step plays a legal action.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.chihou_sousei import decisions as K
from meeplezoo.envs.chihou_sousei import events, migration, planning, rounds
from meeplezoo.envs.core.rules import Choice, Rules


def _game_over(state: Any, action: int) -> None:
    raise AssertionError("the game is over: no action is legal")


# per decision (by its number): its options and what a legal action does
_BY_DECISION = {
    K.D_PICK: (planning.pick_options, planning.play_pick),
    K.D_BONUS: (planning.bonus_options, planning.play_bonus),
    K.D_FM_SOURCE: (planning.fm_source_options, planning.play_fm_source),
    K.D_FM_TARGET: (planning.fm_target_options, planning.play_fm_target),
    K.D_PLACE: (migration.place_options, migration.play_place),
    K.D_MIGRATE: (migration.migrate_options, migration.play_migrate),
    K.D_EVENT_ORDER: (events.order_options, events.play_order),
    K.D_EVENT_SOURCE: (events.source_options, events.play_source),
    K.D_EVENT_TARGET: (events.target_options, events.play_target),
    K.D_OVER: (rounds.over_options, _game_over),
}


def build_rules() -> Rules:
    """The table of decisions, in the order of their numbers (``decisions.DECISION_NAMES``)."""
    return Rules(choices=tuple(Choice(K.DECISION_NAMES[d], *_BY_DECISION[d])
                               for d in range(K.D_OVER + 1)))
