"""The corrections of ``hegemony_v1`` (our rules page's "Corrections after an audit of
``hegemony_v0``"): decision #54 (the State's own Legitimacy symbols), §2.1's order (tested
in ``test_setup_turn.py``), #47 (Public Services above a lowered cap), #48 (influence in a
``provide`` bundle), #49 (the union check, in ``test_workers.py``), and the retired id.
"""

from __future__ import annotations

import pytest

from meeplezoo import envs
from meeplezoo.envs.core.errors import RetiredEnvError
from meeplezoo.envs.hegemony import board, storage
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony import effects_events as EV
from meeplezoo.envs.hegemony import effects_terms as ET
from meeplezoo.envs.hegemony.actions import CC, MC, ST
from tests.hegemony.helpers import legal_names, play
from tests.hegemony.test_effects import (
    AUTOMATIC,
    _card,
    _turn,
    event,
    event_action,
    game,
    run,
    seat_with,
)

A = 0  # policy section


def _design(card_id: str) -> int:
    return next(d for d, c in enumerate(C.ACTION_CARDS["ST"]) if c.id == card_id)


def _can_play(st, card_id: str) -> bool:
    _turn(st, ST, _design(card_id))
    return f"play:{card_id}" in legal_names(st)


def test_d54_state_card_symbol_below_1_is_illegal_not_clamped():
    st = game()
    st.policies[2] = A  # st_10 Windfall Tax needs 3A or 3B; its symbol is CC -2
    st.legitimacy = [5, 5, 2]
    assert not _can_play(st, "st_10")  # 2 - 2 = 0: masked out (v0 clamped it at 1)
    st.legitimacy = [5, 5, 3]
    assert _can_play(st, "st_10")
    play(st, "play:st_10")
    assert st.legitimacy[CC] == 1


def test_d54_the_cards_own_extra_tax_counts_before_its_symbol():
    # st_20 Emergency Levy: Extra Tax (the two lowest tracks lose 1), 10 more from CC, CC -1
    st = game()
    st.policies[2] = A
    st.legitimacy = [3, 3, 2]  # CC is the lowest: the tax takes it to 1, the symbol to 0
    assert not _can_play(st, "st_20")
    st.legitimacy = [2, 2, 3]  # two classes stand lower: the tax cannot reach CC
    assert _can_play(st, "st_20")
    st.legitimacy = [3, 3, 3]  # a tie: the State might pick CC, 3 - 1 - 1 = 1 still fits
    assert _can_play(st, "st_20")
    play(st, "play:st_20")
    assert st.decision_name() == "extra_tax_legitimacy"
    play(st, "class:CC", "class:WC")  # the worst case: the tax takes CC's point
    assert st.legitimacy[CC] == 1 and min(st.legitimacy) >= D.LEGITIMACY_MIN


def test_d54_other_classes_symbols_still_clamp_at_1():
    st = game()
    design, card = _card("CC", lambda c: any(n < 0 for n in c.legitimacy.values())
                         and c.requirement is None
                         and all(n["op"] in AUTOMATIC for n in c.effects))
    target = next(ET.CLASS_OF[name] for name, n in card.legitimacy.items() if n < 0)
    st.legitimacy = [5, 5, 5]
    st.legitimacy[target] = 1
    _turn(st, CC, design)
    play(st, f"play:{card.id}")  # imposed on the State by another class: legal, clamped
    assert st.legitimacy[target] == 1


def test_d47_public_services_above_a_lowered_cap_are_discarded_at_once():
    st = game()
    hospital = seat_with(st, "university_hospital")
    cap = storage.public_service_cap(st, 0)
    assert cap > D.STATE_STOCK_MARGIN
    st.public_services[0] = cap
    run(st, CC, {"op": "transfer_company", "direction": "public_to_cc",
                 "price": {"fraction_of_cost": 0.5}})
    play(st, "company:public_r1_1")
    assert st.seat_card[hospital] < 0
    assert storage.public_service_cap(st, 0) == D.STATE_STOCK_MARGIN
    assert st.public_services[0] == D.STATE_STOCK_MARGIN  # the excess went at once
    st.check_invariants()


def test_d48_provide_influence_comes_from_media_influence():
    st = game()
    ev = event(st, {"op": "provide_to", "bundle": {"influence": 2}},
               [{"class": "WC", "reward": {"legitimacy": 1}},
                {"class": "MC", "reward": {"legitimacy": 1}}])
    st.public_services[2] = 1
    assert not EV.option_ok(st, ev, 0) and not EV.option_ok(st, ev, 1)  # cannot buy influence
    st.public_services[2] = 3
    supply = board.influence_supply(st)
    event_action(st, ev)
    play(st, "option:2")
    assert st.benefits[MC][5] == 2 and st.public_services[2] == 1
    assert board.influence_supply(st) == supply  # moved, not taken from the supply
    st.check_invariants()


def test_v1_hegemony_v0_is_retired_naming_v1():
    with pytest.raises(RetiredEnvError, match="hegemony_v1"):
        envs.make("hegemony_v0")
    assert "hegemony_v1" in envs.list_envs() and "hegemony_v0" not in envs.list_envs()
