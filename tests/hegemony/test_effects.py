"""Scenario tests for effects.py, the card and Event interpreter: each primitive and each
composition on a hand-made node (checked by ``cards.validate_effect``) in a real position, the
play gating, the legitimacy symbols (§2.2), the Event Action (§3.13), and a walk over every
node of every deck."""

from __future__ import annotations

import pytest

from envs.hegemony import board, effects, money, politics, turn, workers
from envs.hegemony import cards as C
from envs.hegemony import codes as K
from envs.hegemony import data as D
from envs.hegemony.actions import BASIC_ACTIONS, CC, MC, PUBLIC_SEATS, ST, WC, blocks
from envs.hegemony.state import NO_WORKER, worker
from tests.hegemony.helpers import legal_names, new_state, play

E = effects
ROLE = ("WC", "MC", "CC", "ST")
A, B, C_ = 0, 1, 2
AGRI, LUX, HEALTH, EDU, MEDIA = range(1, 6)  # worker kinds of the skilled workers


def game():
    """A fresh game past set-up, with an empty agenda for the scenario to fill."""
    st = new_state(0)
    play(st, "industry:agri")
    st.agenda = []
    turn.reset_ctx(st)
    return st


def go(st):
    st._run()
    st._mask = None
    return st


def run(st, cls: int, node: dict):
    """Index a hand-made node for ``cls`` and run it to the next real choice."""
    nid = E.add_node(node, ROLE[cls])
    st.push((E.RUN, cls, nid))
    return go(st)


def seat_with(st, company_id: str) -> int:
    return next(s for s in range(len(st.seat_card)) if st.seat_card[s] >= 0
                and D.COMPANIES[st.seat_card[s]].id == company_id and st.seat_face_up[s])


def set_money(st, cls: int, value: int) -> None:
    """Set a class's money as a scenario needs it, keeping the money count exact."""
    st.minted += value - st.money[cls]
    st.money[cls] = value


def conserved(st) -> None:
    st.check_invariants()


# -- the table: every node of every deck has its handler -----------------------------------------
def _amounts(node):
    for name, value in node.items():
        if name in ("amt", "n", "cost", "price", "up_to") and not isinstance(value, bool):
            yield value
        if name == "bundle":
            yield from value.values()


def test_s11_1_every_deck_node_and_event_task_has_a_handler():
    st = game()
    seen_ops, seen_terms = set(), set()
    for cls, role in enumerate(ROLE):
        for design, card in enumerate(C.ACTION_CARDS[role]):
            ids = E.CARD_NODES[cls][design]
            assert [E.NODES[i] for i in ids] == list(card.effects)
            for top in ids:
                for node in C.iter_nodes(E.NODES[top]):
                    op = node["op"]
                    seen_ops.add(op)
                    assert op in E.CAN or op in E.COMPOSITION, (card.id, op)
                    if op == "basic":
                        name = E.BASIC_NAME.get(node["action"], node["action"])
                        assert name in [n for n, _ in BASIC_ACTIONS], (card.id, name)
                    for value in _amounts(node):
                        if isinstance(value, int):
                            continue
                        assert isinstance(E.amount(st, cls, value, seat_with(st, "supermarket")),
                                          int)
                        if "per" in value:
                            seen_terms.add(value["per"])
                    if op == "if":
                        E.requirement(st, cls, node["cond"])
            if card.requirement is not None:
                E.requirement(st, cls, card.requirement)
            assert E.playable(st, cls, design) in (True, False)
    for k, event in enumerate(C.EVENTS):
        assert event.task["op"] in E.EVENT_TASK_HANDLERS
        assert E.EVENTS[k] is event and E.NODES[E.EVENT_NODE[k]] == event.task
        for j in range(len(event.options)):
            assert E.option_ok(st, k, j) in (True, False)
    assert set(E.CAN) == set(E.DO) == set(C.PRIMITIVES) - set(E.COMPOSITION)
    for name in C.FORMULA_TERMS:
        assert isinstance(E.term(st, WC, name), int)
    assert seen_ops <= set(C.PRIMITIVES)


def test_s11_1_formulas_per_lookup_and_cost_share():
    st = game()
    st.unemployed[WC] = [5, 0, 0, 0, 0, 0]
    per = {"per": "unemployed", "times": 3, "divide": 2, "round": "up", "min": 1, "max": 7}
    assert E.amount(st, WC, per) == 7  # 15 / 2 = 7.5 up = 8, max 7
    st.unemployed[WC] = [1, 0, 0, 0, 0, 0]
    assert E.amount(st, WC, per) == 2  # 3 / 2 = 1.5 up = 2
    assert E.amount(st, WC, {"per": "unemployed", "times": 3, "divide": 2}) == 1  # down
    st.unemployed[WC] = [0] * 6
    assert E.amount(st, WC, per) == 1  # min
    st.policies[3] = B
    assert E.amount(st, ST, {"lookup": "p4", "values": [20, 15, 10]}) == 15
    seat = seat_with(st, "supermarket")  # cost 16
    assert E.amount(st, CC, {"fraction_of_cost": 0.5}) == 0  # no company: no cost
    assert E.amount(st, CC, {"fraction_of_cost": 0.3, "round": "up"}, seat) == 5  # 4.8
    assert E.amount(st, CC, {"fraction_of_cost": 0.3}, seat) == 4
    assert E.term(st, CC, "companies", {"industry": ["agri"]}) == 1
    assert E.term(st, WC, "employed", {"owner": ["public"]}) == 3  # University Hospital
    assert E.term(st, MC, "employed", {"owner": ["public"]}) == 3  # Technical University
    assert E.term(st, ST, "public_company") == 3
    st.loans[MC] = 2
    assert E.term(st, MC, "loan") == 2
    st.unions = [1, 0, 1, 0, 0]
    assert E.term(st, WC, "union") == 2
    st.agenda_card = 0
    target = C.AGENDAS[0].target
    matches = sum(target[f"p{p + 1}"] == "ABC"[st.policies[p]] for p in range(5))
    assert E.term(st, ST, "agenda_match") == matches


def test_s11_1_requirements_each_kind():
    st = game()
    st.policies[1] = B
    assert E.requirement(st, WC, {"policy_in": ["2B", "2C"]})
    assert not E.requirement(st, WC, {"policy_in": ["2A"]})
    st.round = 2
    assert E.requirement(st, WC, {"round_at_least": 2})
    assert not E.requirement(st, WC, {"round_at_least": 3})
    st.unemployed = [[2, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0]]
    assert E.requirement(st, WC, {"unemployed_at_least": 2})
    assert not E.requirement(st, MC, {"unemployed_at_least": 3})
    assert E.requirement(st, ST, {"unemployed_at_least": 4})  # ST: WC and MC together
    st.bills[0] = MC * 3 + 1
    assert E.requirement(st, CC, {"pending_bills_at_least": 1})
    assert not E.requirement(st, CC, {"pending_bills_at_least": 2})
    assert E.requirement(st, ST, {"has_loan": False})
    st.loans[ST] = 1
    assert E.requirement(st, ST, {"has_loan": True})
    assert E.requirement(st, CC, {"companies_at_least": {"n": 4, "owner": ["CC"]}})
    assert not E.requirement(st, CC, {"companies_at_least": {"n": 4, "operational": True}})
    assert E.requirement(st, MC, {"companies_at_least": {"n": 2, "with_wc_employee": False}})


# -- gain, pay, payouts, vp -------------------------------------------------------------------------
def test_s11_1_gain_money_from_supply_treasury_and_a_class_with_forced_loans():
    st = game()
    run(st, WC, {"op": "gain", "res": "money", "amt": 7, "from": "supply"})
    assert st.money[WC] == 37
    set_money(st, ST, 5)
    run(st, MC, {"op": "gain", "res": "money", "amt": 10, "from": "treasury"})
    assert st.money[MC] == 50 and st.loans[ST] == 1 and st.money[ST] == 45  # a forced loan
    run(st, WC, {"op": "gain", "res": "money", "amt": {"per": "population"}, "from": "CC"})
    assert st.money[WC] == 37 + board.population(st, WC)
    conserved(st)


def test_s11_1_gain_goods_go_to_each_class_area_and_influence_is_capped():
    st = game()
    st.cc_storage[0] = D.CC_STORAGE_CAP[0] - 1
    run(st, CC, {"op": "gain", "res": "food", "amt": 3, "from": "supply"})
    assert st.cc_storage[0] == D.CC_STORAGE_CAP[0] and st.ftz[0] == 2  # then the FTZ
    run(st, WC, {"op": "gain", "res": "lux", "amt": 2, "from": "supply"})
    assert st.goods[WC][1] == 2
    run(st, ST, {"op": "gain", "res": "health", "amt": 50, "from": "supply"})
    assert st.public_services[0] == E.storage.public_service_cap(st, 0)  # capped
    st.mc_storage[3] = 1
    run(st, WC, {"op": "gain", "res": "edu", "amt": 4, "from": "MC"})
    assert st.goods[WC][3] == 1 and st.mc_storage[3] == 0  # capped by MC's stock
    left = board.influence_supply(st)
    run(st, MC, {"op": "gain", "res": "influence", "amt": left + 5, "from": "supply"})
    assert board.influence_supply(st) == 0 and st.influence[MC] == 1 + left  # §12 #42
    run(st, CC, {"op": "gain", "res": "cubes", "amt": 2, "from": "supply"})
    assert st.bag[CC] == 10 and st.cube_supply[CC] == 15


def test_s11_1_pay_is_an_optional_cost_that_gates_the_card():
    st = game()
    nid = E.add_node({"op": "pay", "res": "money", "amt": 31, "to": "treasury"}, "WC")
    assert not E.can(st, WC, nid)  # WC holds 30: never a loan
    set_money(st, WC, 31)
    assert E.can(st, WC, nid)
    st.push((E.RUN, WC, nid))
    go(st)
    assert st.money[WC] == 0 and st.money[ST] == 151 and st.loans[WC] == 0
    food = E.add_node({"op": "pay", "res": "food", "amt": 2, "to": "MC"}, "CC")
    st.cc_storage[0] = 1
    assert not E.can(st, CC, food)
    st.cc_storage[0] = 2
    st.push((E.RUN, CC, food))
    go(st)
    assert st.cc_storage[0] == 0 and st.goods[MC][0] == 2


def test_s11_1_state_payout_vp_and_revenue_to_capital():
    st = game()
    set_money(st, ST, 0)
    run(st, CC, {"op": "state_payout", "amt": 20})
    assert st.money[CC] == 140 and st.loans[ST] == 1 and st.money[ST] == 30  # forced loan
    run(st, MC, {"op": "vp", "n": -3})
    assert st.vp[MC] == -3
    set_money(st, CC, 15)
    run(st, CC, {"op": "revenue_to_capital", "fraction": 0.5, "round": "up"})
    assert st.money[CC] == 7 and st.capital == 8
    conserved(st)


def test_s11_1_add_cubes_is_capped_by_the_supply():
    st = game()
    st.cube_supply[WC], st.bag[WC] = 2, D.VOTING_CUBES - 2
    run(st, WC, {"op": "add_cubes", "amt": 3})
    assert st.bag[WC] == D.VOTING_CUBES and st.cube_supply[WC] == 0


def test_s11_1_sell_to_state_offers_quantities_capped_by_storage_and_state_room():
    st = game()
    st.mc_storage[2] = 5
    st.public_services[0] = E.storage.public_service_cap(st, 0) - 3
    run(st, MC, {"op": "sell_to_state", "res": "health", "max_n": 4, "unit_price": 6})
    assert legal_names(st) == ["qty:1", "qty:2", "qty:3"]
    play(st, "qty:2")
    assert st.mc_storage[2] == 3 and st.money[MC] == 52 and st.money[ST] == 108
    nid = E.add_node({"op": "sell_to_state", "res": "lux", "max_n": 2, "unit_price": 5}, "MC")
    assert not E.can(st, MC, nid)  # MC stores no lux
    conserved(st)
