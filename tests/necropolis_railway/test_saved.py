"""Saved positions: rare agendas load back, and a tampered agenda is refused by name."""

from __future__ import annotations

import json

import pytest

from meeplezoo.envs.core.errors import CorruptStateError
from meeplezoo.envs.core.game import state_from_saved
from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import agenda as G
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.board import SIDE_A, SIDE_B
from meeplezoo.envs.necropolis_railway.game import NecropolisRailwayGame
from meeplezoo.envs.necropolis_railway.state import NecropolisState
from tests.necropolis_railway.helpers import act, names, new, refresh


def _reloaded(st: NecropolisState) -> NecropolisState:
    loaded = state_from_saved(NecropolisRailwayGame, json.loads(json.dumps(st.to_dict())))
    assert loaded.to_dict() == st.to_dict() and loaded.legal_actions() == st.legal_actions()
    return loaded


def _play_to_the_century(st: NecropolisState) -> None:
    """End every turn at once (or take the first choice) until the Turn of the Century."""
    while st.decision_name() != "century":
        legal = names(st)
        act(st, "end_turn" if "end_turn" in legal else legal[0])


def test_century_perks_and_their_effects_save_and_load():
    """A pair completed by the century's free flip leaves a perk, then its volunteers or its
    prestige mortuary, above the other seats' century decisions: each such save loads."""
    st = new(3, 3)
    _play_to_the_century(st)
    for seat in (0, 1):
        st.players[seat].cars = [[SIDE_B], [SIDE_A]]
    st.players[0].prestige = D.PRESTIGE_MORTUARY.index(0) - D.ROYAL_STEPS  # royal reaches '!'
    refresh(st)
    act(st, "rail:flip_mourner_car@1")
    assert st.decision_name() == "perk" and st.agenda[-2] == (A.K_CENTURY, 1, 0)
    _reloaded(st)
    act(st, "perk:royal_patronage")
    assert st.agenda[-1] == (A.K_FREE_MORT, 0, 0)
    _reloaded(st)
    act(st, "build:bronze@column_2", "rail:flip_mourner_car@1")
    assert st.decision_name() == "perk" and st.current_player() == 1
    act(st, "perk:volunteers")
    assert st.agenda[-1] == (A.K_VOLUNTEER, 1, D.PERK_VOLUNTEERS)
    _reloaded(st)


def _saved_at_turn_menu() -> dict:
    st = new(2, 4)
    act(st, "take:row_1")
    assert st.decision_name() == "turn"
    return json.loads(json.dumps(st.to_dict()))


@pytest.mark.parametrize("damage, field", [
    ("the decision of another seat", "agenda"),
    ("an automatic step on top", "agenda"),
    ("a payment with nothing owed", "pay_left"),
    ("discs owed with no payment", "pay_left"),
    ("a move longer than the turn's", "agenda"),
    ("a free mortuary of no prestige level", "agenda"),
    ("the wrong turn number", "turn_no"),
    ("no turn card after the take", "t_card"),
])
def test_tampered_agenda_is_refused_naming_the_field(damage, field):
    data = _saved_at_turn_menu()
    state = data["state"]
    agenda = state["agenda"]
    seat = agenda[-1][1]
    if damage == "the decision of another seat":
        agenda[-1][1] = 1 - seat
    elif damage == "an automatic step on top":
        agenda.append([G.CLEANUP, seat, 0])
    elif damage == "a payment with nothing owed":
        agenda.append([A.K_PAY, seat, state["pay_purpose"]])
    elif damage == "discs owed with no payment":
        state["pay_left"] = 1
    elif damage == "a move longer than the turn's":
        agenda[-2:] = [[G.MOVE, seat, state["t_move"] + D.EXPRESS_MOVE + 1], [A.K_BURY, seat, 0]]
    elif damage == "a free mortuary of no prestige level":
        state["t_used"][G.TURN_USES.index("prestige")] = True
        agenda.append([A.K_FREE_MORT, seat, -1])
    elif damage == "the wrong turn number":
        state["turn_no"] += 1
    elif damage == "no turn card after the take":
        state["t_card"] = -1
    with pytest.raises(CorruptStateError, match=field):
        state_from_saved(NecropolisRailwayGame, data)
