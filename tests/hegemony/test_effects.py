"""Scenario tests for the card and Event interpreter (``effects`` and its ``effects_*``
families): each primitive and each
composition on a hand-made node (checked by ``cards_check.validate_effect``) in a real position, the
play gating, the legitimacy symbols (§2.2), the Event Action (§3.13), and a walk over every
node of every deck."""

from __future__ import annotations

import dataclasses

import numpy as np

from meeplezoo.envs.hegemony import board, effects, money, politics, storage, turn
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import cards_vocabulary as V
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony import effects_basic as EB
from meeplezoo.envs.hegemony import effects_events as EV
from meeplezoo.envs.hegemony import effects_terms as ET
from meeplezoo.envs.hegemony.actions import BASIC_ACTIONS, CC, MC, PUBLIC_SEATS, ST, WC
from meeplezoo.envs.hegemony.cards_check import iter_nodes
from meeplezoo.envs.hegemony.state import worker
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
    nid = E.add_node(st, node, ROLE[cls])
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


# -- the table: every node of every deck has its handler ------------------------------------------
def _amounts(node):
    for name, value in node.items():
        if name in ("amt", "n", "cost", "price", "up_to") and not isinstance(value, bool):
            yield value
        if name == "bundle":
            yield from value.values()


def test_s11_1_every_deck_node_and_event_task_has_a_handler():
    st = game()
    cards, primitives = st.game.rules.cards, st.game.rules.primitives
    seen_ops, seen_terms = set(), set()
    for cls, role in enumerate(ROLE):
        for design, card in enumerate(C.ACTION_CARDS[role]):
            ids = cards.card_nodes[cls][design]
            assert [cards.nodes[i] for i in ids] == list(card.effects)
            for top in ids:
                for node in iter_nodes(cards.nodes[top]):
                    op = node["op"]
                    seen_ops.add(op)
                    assert op in primitives or op in E.COMPOSITION, (card.id, op)
                    if op == "basic":
                        name = EB.BASIC_NAME.get(node["action"], node["action"])
                        assert name in [n for n, _ in BASIC_ACTIONS], (card.id, name)
                    for value in _amounts(node):
                        if isinstance(value, int):
                            continue
                        assert isinstance(ET.amount(st, cls, value, seat_with(st, "supermarket")),
                                          int)
                        if "per" in value:
                            seen_terms.add(value["per"])
                    if op == "if":
                        ET.requirement(st, cls, node["cond"])
            if card.requirement is not None:
                ET.requirement(st, cls, card.requirement)
            assert E.playable(st, cls, design) in (True, False)
    for k, event in enumerate(C.EVENTS):
        assert event.task["op"] in EV.EVENT_TASK_HANDLERS
        assert cards.events[k] is event and cards.nodes[cards.event_node[k]] == event.task
        for j in range(len(event.options)):
            assert EV.option_ok(st, k, j) in (True, False)
    assert set(primitives) == set(V.PRIMITIVES) - set(E.COMPOSITION)
    for name in V.FORMULA_TERMS:
        assert isinstance(ET.term(st, WC, name), int)
    assert seen_ops <= set(V.PRIMITIVES)


def test_s11_1_formulas_per_lookup_and_cost_share():
    st = game()
    st.unemployed[WC] = [5, 0, 0, 0, 0, 0]
    per = {"per": "unemployed", "times": 3, "divide": 2, "round": "up", "min": 1, "max": 7}
    assert ET.amount(st, WC, per) == 7  # 15 / 2 = 7.5 up = 8, max 7
    st.unemployed[WC] = [1, 0, 0, 0, 0, 0]
    assert ET.amount(st, WC, per) == 2  # 3 / 2 = 1.5 up = 2
    assert ET.amount(st, WC, {"per": "unemployed", "times": 3, "divide": 2}) == 1  # down
    st.unemployed[WC] = [0] * 6
    assert ET.amount(st, WC, per) == 1  # min
    st.policies[3] = B
    assert ET.amount(st, ST, {"lookup": "p4", "values": [20, 15, 10]}) == 15
    seat = seat_with(st, "supermarket")  # cost 16
    assert ET.amount(st, CC, {"fraction_of_cost": 0.5}) == 0  # no company: no cost
    assert ET.amount(st, CC, {"fraction_of_cost": 0.3, "round": "up"}, seat) == 5  # 4.8
    assert ET.amount(st, CC, {"fraction_of_cost": 0.3}, seat) == 4
    assert ET.term(st, CC, "companies", {"industry": ["agri"]}) == 1
    assert ET.term(st, WC, "employed", {"owner": ["public"]}) == 3  # University Hospital
    assert ET.term(st, MC, "employed", {"owner": ["public"]}) == 3  # Technical University
    assert ET.term(st, ST, "public_company") == 3
    st.loans[MC] = 2
    assert ET.term(st, MC, "loan") == 2
    st.unions = [1, 0, 1, 0, 0]
    assert ET.term(st, WC, "union") == 2
    st.agenda_card = 0
    target = C.AGENDAS[0].target
    matches = sum(target[f"p{p + 1}"] == "ABC"[st.policies[p]] for p in range(5))
    assert ET.term(st, ST, "agenda_match") == matches


def test_s11_1_requirements_each_kind():
    st = game()
    st.policies[1] = B
    assert ET.requirement(st, WC, {"policy_in": ["2B", "2C"]})
    assert not ET.requirement(st, WC, {"policy_in": ["2A"]})
    st.round = 2
    assert ET.requirement(st, WC, {"round_at_least": 2})
    assert not ET.requirement(st, WC, {"round_at_least": 3})
    st.unemployed = [[2, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0]]
    assert ET.requirement(st, WC, {"unemployed_at_least": 2})
    assert not ET.requirement(st, MC, {"unemployed_at_least": 3})
    assert ET.requirement(st, ST, {"unemployed_at_least": 4})  # ST: WC and MC together
    st.bills[0] = MC * 3 + 1
    assert ET.requirement(st, CC, {"pending_bills_at_least": 1})
    assert not ET.requirement(st, CC, {"pending_bills_at_least": 2})
    assert ET.requirement(st, ST, {"has_loan": False})
    st.loans[ST] = 1
    assert ET.requirement(st, ST, {"has_loan": True})
    assert ET.requirement(st, CC, {"companies_at_least": {"n": 4, "owner": ["CC"]}})
    assert not ET.requirement(st, CC, {"companies_at_least": {"n": 4, "operational": True}})
    assert ET.requirement(st, MC, {"companies_at_least": {"n": 2, "with_wc_employee": False}})


# -- gain, pay, payouts, vp -----------------------------------------------------------------------
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
    assert st.public_services[0] == storage.public_service_cap(st, 0)  # capped
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
    nid = E.add_node(st, {"op": "pay", "res": "money", "amt": 31, "to": "treasury"}, "WC")
    assert not E.can(st, WC, nid)  # WC holds 30: never a loan
    set_money(st, WC, 31)
    assert E.can(st, WC, nid)
    st.push((E.RUN, WC, nid))
    go(st)
    assert st.money[WC] == 0 and st.money[ST] == 151 and st.loans[WC] == 0
    food = E.add_node(st, {"op": "pay", "res": "food", "amt": 2, "to": "MC"}, "CC")
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
    st.public_services[0] = storage.public_service_cap(st, 0) - 3
    run(st, MC, {"op": "sell_to_state", "res": "health", "max_n": 4, "unit_price": 6})
    assert legal_names(st) == ["qty:1", "qty:2", "qty:3"]
    play(st, "qty:2")
    assert st.mc_storage[2] == 3 and st.money[MC] == 52 and st.money[ST] == 108
    nid = E.add_node(st, {"op": "sell_to_state", "res": "lux", "max_n": 2, "unit_price": 5}, "MC")
    assert not E.can(st, MC, nid)  # MC stores no lux
    conserved(st)


# -- the voting bag -------------------------------------------------------------------------------
def test_s11_1_bag_purge_returns_up_to_k_drawn_opponent_cubes():
    st = game()
    st.cube_supply = [D.VOTING_CUBES - 0, D.VOTING_CUBES - 6, D.VOTING_CUBES - 0]
    st.bag = [0, 6, 0]  # only MC cubes: the draw is known
    run(st, WC, {"op": "bag_purge", "draw": 3, "remove_up_to": 2})
    assert legal_names(st) == ["done", "class:MC"]
    play(st, "class:MC", "class:MC")  # the cap reached: only done is left, taken at once
    assert st.bag == [0, 4, 0] and st.cube_supply[MC] == D.VOTING_CUBES - 4
    assert not st.agenda
    conserved(st)


def test_s11_1_bag_replace_swaps_opponent_cubes_for_own():
    st = game()
    st.bag, st.cube_supply = [3, 0, 8], [D.VOTING_CUBES - 3, D.VOTING_CUBES, D.VOTING_CUBES - 8]
    run(st, WC, {"op": "bag_replace", "reveal_until_k_opponent_cubes": 2})
    assert st.bag == [5, 0, 6] and st.cube_supply[CC] == D.VOTING_CUBES - 6
    conserved(st)


# -- workers --------------------------------------------------------------------------------------
def test_s11_1_add_worker_fixed_kind_and_skilled_choice_by_the_owner():
    st = game()
    run(st, ST, {"op": "add_worker", "class": "MC", "kind": "skilled_edu", "n": 2})
    assert st.unemployed[MC][EDU] == 2
    run(st, ST, {"op": "add_worker", "class": "WC", "kind": "skilled_choice", "n": 2})
    assert st.current_player() == WC  # the owner picks each industry
    play(st, "industry:lux", "industry:media")
    assert st.unemployed[WC][LUX] == 1 and st.unemployed[WC][MEDIA] == 1


def test_s11_1_remove_unemployed_needs_the_minimum_and_at_least_one():
    st = game()
    st.unemployed[WC] = [2, 1, 0, 0, 0, 0]
    node = {"op": "remove_unemployed", "n": 2, "pay_unskilled": 3, "pay_skilled": 5,
            "min_unemployed": 4}
    assert not E.can(st, WC, E.add_node(st, node, "WC"))
    node["min_unemployed"] = 3
    run(st, WC, node)
    assert "done" not in legal_names(st)  # at least one
    play(st, "from:unemployed_agri")
    assert "done" in legal_names(st)
    play(st, "from:unemployed_unskilled")
    assert st.unemployed[WC] == [1, 0, 0, 0, 0, 0] and st.money[WC] == 38
    conserved(st)


def test_s11_1_upgrade_worker_keeps_commitment_and_never_retrains_a_skilled_slot():
    st = game()
    seat = seat_with(st, "supermarket")  # Agri + U: WC skilled agri, WC unskilled
    st.seat_committed[seat] = [1, 1, 0]
    st.unemployed[WC] = [0] * 6
    run(st, WC, {"op": "upgrade_worker"})
    names = legal_names(st)
    assert f"from:cc_{seat + 1:02d}/2" in names and f"from:cc_{seat + 1:02d}/1" not in names
    play(st, f"from:cc_{seat + 1:02d}/2", "industry:health")
    assert st.seat_workers[seat][1] == worker(WC, HEALTH) and st.seat_committed[seat][1] == 1
    st.unemployed[WC] = [0, 0, 1, 0, 0, 0]
    run(st, WC, {"op": "upgrade_worker"})
    play(st, "from:unemployed_lux")
    assert "industry:lux" not in legal_names(st)  # a retraining changes the industry
    play(st, "industry:edu")
    assert st.unemployed[WC] == [0, 0, 0, 0, 1, 0]


def test_s11_1_build_coop_farm_until_both_are_built():
    st = game()
    node = E.add_node(st, {"op": "build_coop_farm"}, "WC")
    for _ in range(2):
        assert E.can(st, WC, node)
        st.push((E.RUN, WC, node))
        go(st)
    assert [st.seat_card[s] for s in (29, 30)] == [D.COOP_FARM] * 2
    assert board.companies_of(st, WC) == [29, 30]
    assert not E.can(st, WC, node)


# -- companies ------------------------------------------------------------------------------------
def test_s11_1_sell_company_at_a_price_factor_only_without_committed_workers():
    st = game()
    mall, college = seat_with(st, "shopping_mall"), seat_with(st, "college")  # both cost 16
    st.seat_committed[mall][0] = 1
    run(st, CC, {"op": "sell_company", "price_factor": 1.5,
                 "filter": {"industry": ["lux", "edu"]}})
    assert not st.agenda  # one company left: taken at once
    assert st.seat_card[college] < 0 and st.money[CC] == 120 + 24
    assert st.seat_card[mall] >= 0
    assert st.unemployed[WC][EDU - EDU] >= 1  # its workers went to the Unemployed area
    conserved(st)


def test_s11_1_transfer_company_public_to_cc_for_a_share_of_its_cost():
    st = game()
    hospital = seat_with(st, "university_hospital")  # cost 30, WC workers
    workers_before = list(st.seat_workers[hospital])
    run(st, CC, {"op": "transfer_company", "direction": "public_to_cc",
                 "price": {"fraction_of_cost": 0.5}})
    assert legal_names(st) == ["company:public_r1_1", "company:public_r1_2",
                               "company:public_r1_3"]
    play(st, "company:public_r1_1")
    new = board.companies_of(st, CC)[-1]
    assert D.COMPANIES[st.seat_card[new]].id == "university_hospital"
    assert st.seat_workers[new] == workers_before and st.seat_card[hospital] < 0
    assert st.money[CC] == 105 and st.money[ST] == 135
    conserved(st)


def test_s11_1_transfer_company_cc_to_public_returns_machinery():
    st = game()
    mall = seat_with(st, "shopping_mall")
    st.seat_machinery[mall] = 1
    for s in board.companies_of(st, CC):
        if s != mall:
            st.seat_card[s] = -1
    face_down = [st.seat_card[s] for s in PUBLIC_SEATS if not st.seat_face_up[s]]
    run(st, ST, {"op": "transfer_company", "direction": "cc_to_public", "price": 10})
    new = next(s for s in PUBLIC_SEATS if D.COMPANIES[st.seat_card[s]].id == "shopping_mall")
    assert st.seat_face_up[new] and st.seat_machinery[new] == 0 and st.seat_card[mall] < 0
    assert st.company_discard == face_down[:1]  # every public space was taken
    assert st.money[CC] == 130 and st.money[ST] == 110
    assert board.machinery_left(st) == D.MACHINERY_TOKENS


def test_s11_1_produce_delivers_output_and_the_state_pays_the_wage():
    st = game()
    market = seat_with(st, "supermarket")  # production 4, machinery +1, wage L2
    st.seat_machinery[market] = 1
    st.cc_storage[0] = 0
    wage = board.wage_amount(st, market)
    run(st, CC, {"op": "produce", "company_filter": {"industry": ["agri"]},
                 "wage_payer": "state"})
    assert st.cc_storage[0] == 5 and st.money[WC] == 30 + wage and st.money[ST] == 120 - wage
    st.seat_strike[market] = 1
    node = E.add_node(st, {"op": "produce", "company_filter": {"industry": ["agri"]},
                       "wage_payer": "none"}, "CC")
    assert not E.can(st, CC, node)  # a struck company cannot be made to produce (§5.5)
    conserved(st)


def test_s11_1_produce_coop_farm_for_wc():
    st = game()
    st.seat_card[29], st.seat_face_up[29] = D.COOP_FARM, 1
    node = {"op": "produce", "company_filter": {"owner": ["WC"]}, "wage_payer": "none"}
    assert not E.can(st, WC, E.add_node(st, node, "WC"))  # empty: not operational
    st.seat_workers[29] = [worker(WC, 0)] * 3
    run(st, WC, node)
    assert st.goods[WC][0] == 2


def test_s11_1_set_wage_one_and_all_respect_minimum_and_commitment():
    st = game()
    st.policies[1] = C_  # minimum L1
    market, mall = seat_with(st, "supermarket"), seat_with(st, "shopping_mall")
    st.seat_committed[mall][0] = 1
    st.seat_wage[seat_with(st, "college")] = st.seat_wage[seat_with(st, "clinic")] = 0
    run(st, CC, {"op": "set_wage", "company": "own_one", "level": "L1"})
    assert not st.agenda  # the Supermarket only: the Mall's workers are committed
    assert st.seat_wage[market] == 0 and st.seat_wage[mall] == 1
    st.policies[1] = B  # minimum L2: "L1" is raised to it, nothing would change
    node = E.add_node(st, {"op": "set_wage", "company": "own_all", "level": "L1"}, "CC")
    for seat in board.companies_of(st, CC):
        st.seat_wage[seat] = 1
    assert not E.can(st, CC, node)
    st.policies[1] = A  # minimum L3: every company without committed workers rises
    st.push((E.RUN, CC, node))
    go(st)
    assert [st.seat_wage[s] for s in board.companies_of(st, CC)] == [2] * 4  # raising is free
    st.policies[1] = C_
    st.seat_wage[market] = 0
    run(st, WC, {"op": "set_wage", "company": "employer_one", "level": "L3"})
    assert legal_names(st) == ["company:cc_01", "company:public_r1_1"]  # employing WC
    play(st, "company:public_r1_1")
    assert st.seat_wage[seat_with(st, "university_hospital")] == 2


def test_s11_1_machinery_costs_and_places_tokens_or_loses_them():
    st = game()
    run(st, CC, {"op": "machinery", "n": 2, "cost": 10})
    assert legal_names(st) == ["company:cc_01", "company:cc_02", "company:cc_03",
                               "company:cc_04"]
    play(st, "company:cc_02", "company:cc_04")
    assert st.seat_machinery[1] == st.seat_machinery[3] == 1 and st.money[CC] == 110
    st.seat_machinery = [1 if s < 4 else 0 for s in range(len(st.seat_card))]
    run(st, CC, {"op": "machinery", "n": 1, "cost": 5})
    assert sum(st.seat_machinery) == 4 and st.money[CC] == 105  # paid, the token is lost
    set_money(st, CC, 4)
    assert not E.can(st, CC, E.add_node(st, {"op": "machinery", "n": 1, "cost": 5}, "CC"))


def test_s11_1_storage_tile_choice_and_limits():
    st = game()
    st.storage_tiles = [1, 0, 0, 0]
    run(st, CC, {"op": "storage", "resource": "choice", "cost": 10})
    assert legal_names(st) == ["resource:lux", "resource:health", "resource:edu"]
    play(st, "resource:edu")
    assert st.storage_tiles == [1, 0, 0, 1] and st.money[CC] == 110
    assert not E.can(st, CC, E.add_node(st, {"op": "storage", "resource": "food"}, "CC"))


def test_s11_1_prosperity_pays_and_scores_each_step():
    st = game()
    st.prosperity[MC] = 2
    run(st, MC, {"op": "prosperity", "steps": 2, "cost": 10})
    assert st.prosperity[MC] == 4 and st.money[MC] == 30
    assert st.vp[MC] == D.MC_PROSPERITY_VP[3] + D.MC_PROSPERITY_VP[4]
    set_money(st, MC, 9)
    assert not E.can(st, MC, E.add_node(st, {"op": "prosperity", "steps": 1, "cost": 10}, "MC"))


# -- the State's primitives -----------------------------------------------------------------------
def test_s11_1_legitimacy_chosen_masks_a_decrease_below_one():
    st = game()
    st.legitimacy = [1, 3, 10]
    run(st, ST, {"op": "legitimacy", "class": "chosen", "n": -1})
    assert legal_names(st) == ["class:MC", "class:CC"]  # §12 #23
    play(st, "class:CC")
    assert st.legitimacy == [1, 3, 9]
    run(st, ST, {"op": "legitimacy", "class": "CC", "n": 2})
    assert st.legitimacy[CC] == 10  # clamped
    assert not E.can(st, ST, E.add_node(st, {"op": "legitimacy", "class": "WC", "n": -1}, "ST"))


def test_s11_1_legitimacy_token_gives_one_at_once_while_tokens_last():
    st = game()
    run(st, ST, {"op": "legitimacy_token", "class": "chosen"})
    play(st, "class:MC")
    assert st.legit_tokens == [0, 1, 0] and st.legitimacy[MC] == D.START_LEGITIMACY + 1
    st.legit_tokens = [D.LEGITIMACY_TOKENS, 0, 0]
    assert not E.can(st, ST, E.add_node(st, {"op": "legitimacy_token", "class": "MC"}, "ST"))


def test_s11_1_shift_policy_adjacent_skips_pending_bills_and_scores_the_proposer_vp():
    st = game()  # policies C B A B C B B
    st.bills[1] = MC * 3 + 2  # p2 has a bill: §12 #33
    run(st, WC, {"op": "shift_policy", "condition": ["1A", "2A", "3C", "4A"],
                 "adjacent": True, "no_vp": False})
    # 1A and 3C are two steps away, 2A has a bill: 4A is the only choice, taken at once
    assert st.policies[3] == A and st.vp[WC] == D.BILL_PASS_VP
    st.agenda = []  # the p4 re-pricing follow-ups are politics'
    run(st, CC, {"op": "shift_policy", "condition": ["3B", "3C"], "adjacent": False,
                 "no_vp": True})
    assert legal_names(st) == ["bill:p3_B", "bill:p3_C"]
    play(st, "bill:p3_C")
    assert st.policies[2] == C_ and st.vp[CC] == 0
    st.bills = [-1] * 7
    assert not E.can(st, MC, E.add_node(st, {"op": "shift_policy", "condition": ["3C"],
                                         "adjacent": True, "no_vp": True}, "MC"))


def test_s11_1_shift_policy_uses_politics_change_policy_follow_ups():
    st = game()  # p2 at B: moving it to A raises wages and asks the owners to lower
    run(st, ST, {"op": "shift_policy", "condition": ["2A"], "adjacent": True, "no_vp": True})
    assert st.policies[1] == A
    assert all(st.seat_wage[s] == 2 for s in board.companies_of(st, CC))
    assert politics.RECHECK in [item[0] for item in st.agenda] or not st.agenda


def test_s11_1_event_peek_place_and_replace():
    st = game()
    deck = list(st.event_deck)
    st.events = [st.events[0]]
    run(st, ST, {"op": "event_peek", "k": 3, "place_or_replace": "place"})
    assert legal_names(st) == ["qty:1", "qty:2", "qty:3"]
    play(st, "qty:2")  # the second card from the top
    assert st.events[-1] == deck[-2] and st.event_deck == deck[:-2] + deck[-1:]
    first = st.events[0]
    run(st, ST, {"op": "event_peek", "k": 1, "place_or_replace": "replace"})
    play(st, "event:1")
    assert st.events[0] == deck[-1] and st.event_deck[0] == first
    st.events = [0, 1, 2]  # a third Event may be placed: the State's event block has 4 slots
    assert E.can(st, ST, E.add_node(st, {"op": "event_peek", "k": 2, "place_or_replace": "place"},
                                    "ST"))
    st.events = [0, 1, 2, 3]  # every slot taken: nothing can be placed
    assert not E.can(st, ST, E.add_node(st, {"op": "event_peek", "k": 2,
                                         "place_or_replace": "place"}, "ST"))


# -- composition ----------------------------------------------------------------------------------
def test_s11_1_choice_masks_options_that_cannot_be_done():
    st = game()
    node = {"op": "choice", "options": [
        {"op": "pay", "res": "money", "amt": 100, "to": "supply"},
        {"op": "vp", "n": 2},
        {"op": "gain", "res": "influence", "amt": 1, "from": "supply"}]}
    run(st, WC, node)
    assert legal_names(st) == ["option:2", "option:3"]
    play(st, "option:2")
    assert st.vp[WC] == 2
    only_costs = E.add_node(st, {"op": "choice", "options": [
        {"op": "pay", "res": "money", "amt": 100, "to": "supply"},
        {"op": "pay", "res": "food", "amt": 1, "to": "supply"}]}, "WC")
    assert not E.can(st, WC, only_costs)


def test_s11_1_optional_is_playable_when_its_effect_is_not():
    st = game()
    node = E.add_node(st, {"op": "optional",
                       "effect": {"op": "pay", "res": "money", "amt": 100, "to": "supply"}},
                      "WC")
    assert E.can(st, WC, node)
    st.push((E.RUN, WC, node))
    go(st)
    assert not st.agenda and st.money[WC] == 30  # only "no": taken at once
    run(st, WC, {"op": "optional", "effect": {"op": "vp", "n": 1}})
    assert legal_names(st) == ["yes", "no"]
    play(st, "yes")
    assert st.vp[WC] == 1


def test_s11_1_if_takes_one_branch_and_only_that_one_gates():
    st = game()
    node = {"op": "if", "cond": {"has_loan": True},
            "then": {"op": "pay", "res": "money", "amt": 100, "to": "supply"},
            "else": {"op": "vp", "n": 3}}
    assert E.can(st, MC, E.add_node(st, node, "MC"))  # the untaken branch cannot block it
    run(st, MC, node)
    assert st.vp[MC] == 3
    st.loans[MC] = 1
    assert not E.can(st, MC, E.add_node(st, node, "MC"))


def test_s11_1_seq_runs_in_order_and_its_costs_add_up():
    st = game()
    node = {"op": "seq", "effects": [{"op": "pay", "res": "money", "amt": 20, "to": "supply"},
                                     {"op": "prosperity", "steps": 1, "cost": 20}]}
    assert not E.can(st, WC, E.add_node(st, node, "WC"))  # 20 + 20 > 30, each alone fits
    set_money(st, WC, 40)
    run(st, WC, node)
    assert st.money[WC] == 0 and st.prosperity[WC] == 1


# -- provide ------------------------------------------------------------------------------------
PROVIDE = {"op": "provide", "target_class_choice": ["WC", "MC"],
           "bundle": {"food": 2, "money": 5, "cubes": 2, "influence": 1}}


def test_s11_1_provide_buys_what_the_state_lacks_then_fills_the_benefits_area():
    st = game()
    run(st, ST, PROVIDE)
    assert legal_names(st) == ["class:WC", "class:MC"]
    play(st, "class:WC")
    assert legal_names(st) == ["source:cc", "source:mc", "source:foreign"]
    play(st, "source:cc")  # CC's food at its price (12), then CC has none left
    assert legal_names(st) == ["source:mc", "source:foreign"]
    play(st, "source:foreign")  # base price 10, no tariff
    assert st.benefits[WC] == [5, 2, 0, 0, 0, 1, 2]
    assert st.money[ST] == 120 - 12 - 10 - 5 and st.money[CC] == 132
    assert st.cube_supply[WC] == D.VOTING_CUBES - 8 - 2
    conserved(st)
    turn.FREE["receive_benefits"][1](st, WC)  # economy's §4.5: the money comes back in play
    assert st.money[WC] == 35 and st.goods[WC][0] == 2 and st.bag[WC] == 10
    conserved(st)


def test_s11_1_provide_replaces_the_benefits_unless_added_in_the_same_turn():
    st = game()
    st.state_goods[0] = 6
    run(st, ST, PROVIDE)
    play(st, "class:MC")
    run(st, ST, PROVIDE)
    play(st, "class:MC")
    assert st.benefits[MC] == [10, 4, 0, 0, 0, 2, 4]  # same turn: added
    turn.reset_ctx(st)  # a later turn
    run(st, ST, {"op": "provide", "target_class_choice": ["MC"], "bundle": {"edu": 1}})
    assert st.benefits[MC] == [0, 0, 0, 0, 1, 0, 0]  # replaced; the old cubes went home
    assert st.cube_supply[MC] == D.VOTING_CUBES - 8
    conserved(st)


def test_s11_1_provide_offers_only_sources_that_keep_the_rest_affordable():
    st = game()
    node = {"op": "provide", "target_class_choice": ["WC"], "bundle": {"food": 2}}
    set_money(st, ST, 19)
    assert not E.can(st, ST, E.add_node(st, node, "ST"))  # the cheapest two units cost 20
    set_money(st, ST, 21)
    run(st, ST, node)  # CC (12) + foreign (10) = 22 > 21: only the foreign market twice
    assert st.benefits[WC][1] == 2 and st.money[ST] == 1 and st.money[CC] == 120


# -- basic --------------------------------------------------------------------------------------
def test_s11_1_basic_runs_the_action_without_a_card_and_exposes_its_modifiers():
    st = game()
    hand = list(st.hands[WC])
    run(st, WC, {"op": "basic", "action": "political_pressure"})
    assert st.bag[WC] == 8 + D.POLITICAL_PRESSURE_CUBES and st.hands[WC] == hand
    run(st, WC, {"op": "basic", "action": "buy_goods", "qty_cap": 2,
                 "industry_filter": ["agri"]})
    assert EB.mod(st, "qty_cap") == 2 and dict(EB.active_mods(st))["industry_filter"] == ["agri"]
    st.agenda = [item for item in st.agenda if item[0] == E.END_BASIC]
    go(st)
    assert EB.mod(st, "qty_cap", 1) == 1 and not EB.active_mods(st)  # over: nothing active


def test_s11_1_basic_count_runs_the_action_twice():
    st = game()
    run(st, MC, {"op": "basic", "action": "extra_shift", "count": 2})
    assert legal_names(st) == ["company:mc_01", "company:mc_02"]
    play(st, "company:mc_01")  # the second shift has one company left: taken at once
    assert st.mc_storage == [1 + 2, 0, 1 + 2, 0] and not st.agenda


def test_s11_1_basic_propose_bill_modifiers_reach_politics():
    st = game()  # p3 at A
    run(st, MC, {"op": "basic", "action": "propose_bill", "policy_filter": ["p3"],
                 "any_section": True})
    assert legal_names(st) == ["bill:p3_B", "bill:p3_C"]
    nid = E.add_node(st, {"op": "basic", "action": "propose_bill", "policy_filter": ["p3"]}, "CC")
    st.bills[2] = MC * 3 + 2
    assert not E.can(st, CC, nid)  # the only policy it may target has a bill


def test_s11_1_purchase_price_and_pay_purchase_under_the_active_modifiers():
    st = game()
    nid = E.add_node(st, {"op": "basic", "action": "build_company", "price_factor": 0.5,
                      "state_pays_rest": True, "cost_delta": -3}, "CC")
    assert EB.purchase_price(st, 20) == 20  # nothing active
    st.ctx[E.ACTIVE] = nid
    assert EB.purchase_price(st, 20) == 9  # (20 - 3) x 0.5 = 8.5, rounded up
    EB.pay_purchase(st, CC, 20)
    assert st.money[CC] == 111 and st.money[ST] == 112  # the treasury pays the other 8
    assert EB.can_afford_purchase(st, CC, 20)
    set_money(st, CC, 8)
    assert not EB.can_afford_purchase(st, CC, 20)  # 9 of its own
    set_money(st, CC, 111)
    state = E.add_node(st, {"op": "basic", "action": "build_company", "payer": "state"}, "MC")
    st.ctx[E.ACTIVE] = state
    assert EB.purchase_price(st, 20) == 0
    EB.pay_purchase(st, MC, 20)
    assert st.money[MC] == 40 and st.money[ST] == 92
    conserved(st)


# -- play gating and legitimacy symbols (§2.2) -------------------------------------------------
AUTOMATIC = {"revenue_to_capital", "vp", "state_payout", "add_cubes"}


def _card(role: str, want) -> tuple[int, C.ActionCard]:
    """The first design of ``role``'s deck for which ``want(card)`` holds."""
    return next((d, c) for d, c in enumerate(C.ACTION_CARDS[role]) if want(c))


def _turn(st, cls: int, design: int):
    st.agenda = [(turn.K.DECIDE_TURN, cls, 0)]
    st.main_done = st.free_used = 0
    st.hands[cls] = [design]
    return go(st)


def test_s2_2_legitimacy_symbols_apply_after_the_effect_clamped():
    st = game()
    role, cls = "CC", CC
    design, card = _card(role, lambda c: c.legitimacy and c.requirement is None
                         and all(n["op"] in AUTOMATIC for n in c.effects))
    st.legitimacy = [1, 5, 10]
    _turn(st, cls, design)
    play(st, f"play:{card.id}")
    expected = list(st.legitimacy)
    for name, n in card.legitimacy.items():
        assert st.legitimacy[ET.CLASS_OF[name]] == max(1, min(10, [1, 5, 10][ET.CLASS_OF[name]]
                                                               + n))
    assert expected == st.legitimacy and st.action_discard[cls][-1] == design
    assert st.hands[cls] == []


def test_s2_2_legitimacy_symbols_not_applied_when_the_card_is_discarded():
    st = game()
    design, _ = _card("CC", lambda c: c.legitimacy and c.requirement is None
                      and all(n["op"] in AUTOMATIC for n in c.effects))
    _turn(st, CC, design)
    play(st, "basic:lobby")  # the only card in hand pays for it
    assert st.legitimacy == [D.START_LEGITIMACY] * 3


def test_s2_2_play_gating_requirement_and_precondition():
    st = game()
    design, card = _card("WC", lambda c: c.requirement is not None
                         and "policy_in" in c.requirement)
    sections = card.requirement["policy_in"]
    policy = int(sections[0][0]) - 1
    st.policies[policy] = next(s for s in range(3) if f"{policy + 1}{'ABC'[s]}" not in sections)
    assert not E.playable(st, WC, design)
    _turn(st, WC, design)
    assert f"play:{card.id}" not in legal_names(st)
    coop, _ = _card("WC", lambda c: c.effects[0]["op"] == "build_coop_farm")
    st.unemployed[WC] = [6, 0, 0, 0, 0, 0]
    assert E.playable(st, WC, coop)
    st.seat_card[29] = st.seat_card[30] = D.COOP_FARM
    assert not E.playable(st, WC, coop)  # no Cooperative Farm left to build


def test_s2_2_min_round_gates_the_card(monkeypatch):
    st = game()
    role, design, card = next((r, d, c) for r in ROLE for d, c in enumerate(C.ACTION_CARDS[r])
                              if c.requirement is None
                              and all(n["op"] in AUTOMATIC for n in c.effects))
    cls = ROLE.index(role)
    assert E.playable(st, cls, design)
    late = dataclasses.replace(card, min_round=3)
    deck = tuple(late if d == design else c for d, c in enumerate(C.ACTION_CARDS[role]))
    monkeypatch.setitem(C.ACTION_CARDS, role, deck)
    st.round = 2
    assert not E.playable(st, cls, design)
    st.round = 3
    assert E.playable(st, cls, design)


# -- the Event Action (§3.13) ---------------------------------------------------------------------
def event(st, task: dict, options: list[dict]) -> int:
    """A hand-made Event (checked by ``cards.parse_event``), indexed for the interpreter."""
    raw = {"id": "ev_90", "title": "Test Event", "min_round": 1, "task": task,
           "options": options, "no_action": {"pair": "any"}, "note": "A test Event."}
    return E.add_event(st, C.parse_event(raw, "ev_90"))


def event_action(st, *events: int):
    st.events = list(events)
    st.push((E.EVENT, ST, 0))
    return go(st)


def test_s3_13_event_action_provide_to_a_class_then_reward_and_discard():
    st = game()
    ev = event(st, {"op": "provide_to", "bundle": {"money": 15}},
               [{"class": "WC", "reward": {"legitimacy": 1}},
                {"class": "CC", "reward": {"legitimacy": 2}}])
    other = event(st, {"op": "spend", "res": "health", "up_to": 2},
                  [{"tier": 1, "reward": {"vp": 1}}])
    event_action(st, ev, other)
    assert legal_names(st) == ["event:1", "event:2"]
    play(st, "event:1")
    assert legal_names(st) == ["option:1", "option:2"]
    play(st, "option:2")
    assert st.benefits[CC][0] == 15 and st.money[ST] == 105
    assert st.legitimacy[CC] == D.START_LEGITIMACY + 2 and st.events == [other]
    conserved(st)


def test_s3_13_event_action_provide_units_reward_per_units():
    st = game()
    ev = event(st, {"op": "provide_to", "bundle": {"food": {"per": "population"}}},
               [{"class": "WC", "reward": {"legitimacy_per_units": 2}}])
    st.state_goods[0] = 6
    event_action(st, ev)
    pop = board.population(st, WC)
    assert st.benefits[WC][1] == pop and st.legitimacy[WC] == min(10, 2 + pop // 2)
    assert st.events == []


def test_s3_13_event_action_spend_uses_only_what_the_state_holds():
    st = game()
    ev = event(st, {"op": "spend", "res": "health", "up_to": 4},
               [{"tier": 1, "reward": {"vp_per_unit": 2}}])
    st.public_services[0] = 3
    event_action(st, ev)
    assert legal_names(st) == ["qty:1", "qty:2", "qty:3"]  # "up to" means at least 1
    play(st, "qty:2")
    assert st.public_services[0] == 1 and st.vp[ST] == 4 and st.events == []
    st.public_services[0] = 0
    st.events = [ev]
    assert not EV.can_event_action(st, ST)


def test_s3_13_event_action_spend_money_offers_affordable_tiers():
    st = game()
    ev = event(st, {"op": "spend_money", "tiers": [15, 30, 45]},
               [{"tier": 1, "reward": {"vp": 1}}, {"tier": 2, "reward": {"vp": 2}},
                {"tier": 3, "reward": {"vp": 3}}])
    set_money(st, ST, 40)
    event_action(st, ev)
    assert legal_names(st) == ["option:1", "option:2"]
    play(st, "option:2")
    assert st.money[ST] == 10 and st.vp[ST] == 2
    conserved(st)


def test_s3_13_event_action_buy_from_players_at_their_prices():
    st = game()
    ev = event(st, {"op": "buy_from_players", "res": "health", "up_to": {"per": "public_company"}},
               [{"class": "MC", "reward": {"legitimacy_per_units": 2}},
                {"class": "CC", "reward": {"legitimacy": 1}}])
    st.mc_storage[2], st.cc_storage[2] = 5, 0
    st.public_services[0] = 0
    event_action(st, ev)  # CC holds no health: only MC, and option 1 is taken at once
    assert legal_names(st) == ["qty:1", "qty:2", "qty:3"]  # up to 3 public companies
    play(st, "qty:2")
    price = D.PRICE_STEPS[2][st.prices[MC - 1][2]]  # MC's health price
    assert st.mc_storage[2] == 3 and st.money[MC] == 40 + 2 * price
    assert st.public_services[0] == 2 and st.legitimacy[MC] == D.START_LEGITIMACY + 1
    conserved(st)


def test_s3_13_event_action_build_for_needs_a_market_card_the_state_can_pay():
    st = game()
    ev = event(st, {"op": "build_for", "min_cost": 20},
               [{"class": "MC", "reward": {"legitimacy": 2}},
                {"class": "CC", "reward": {"legitimacy": 1}}])
    st.cc_market = [D.COMPANY_BY_ID["fast_food_chain"].index]  # cost 8: below the minimum
    st.mc_market = [D.COMPANY_BY_ID["organic_farm"].index]  # cost 20
    st.unemployed[MC][AGRI] = 1
    assert [EV.option_ok(st, ev, j) for j in range(2)] == [True, False]
    set_money(st, ST, 19)
    assert not EV.option_ok(st, ev, 0)
    set_money(st, ST, 120)
    event_action(st, ev)
    assert st.current_player() == MC  # the owner builds (wage and staffing are its choices)


def test_s3_13_event_action_propose_for_a_class_the_state_decides_the_vote():
    st = game()
    ev = event(st, {"op": "propose_for"}, [{"class": "WC", "reward": {"legitimacy": 1}},
                                       {"class": "MC", "reward": {"legitimacy": 1}}])
    st.markers_used[MC] = D.BILL_MARKERS
    event_action(st, ev)  # MC has no marker left: only WC
    assert st.current_player() == WC
    play(st, "bill:p1_B")
    assert st.current_player() == ST and legal_names(st) == ["yes", "no"]
    play(st, "no")
    assert st.bills[0] == WC * 3 + 1 and st.legitimacy[WC] == D.START_LEGITIMACY + 1
    assert st.events == []


def test_s3_13_event_action_twice_from_a_card_each_on_a_different_event():
    st = game()
    first = event(st, {"op": "spend_money", "tiers": [5, 10, 15]},
                  [{"tier": 1, "reward": {"vp": 1}}])
    second = event(st, {"op": "spend_money", "tiers": [5, 10, 15]},
                   [{"tier": 1, "reward": {"vp": 2}}])
    st.events = [first, second]
    run(st, ST, {"op": "event_action", "times": 2})
    play(st, "event:2")  # then the other one is the only Event left: done at once
    assert st.events == [] and st.vp[ST] == 3 and st.money[ST] == 110


def test_s3_13_event_action_is_the_states_basic_action():
    st = game()
    st.events = []
    assert not turn.BASIC["event_action"][0](st, ST)
    st.events = [event(st, {"op": "spend_money", "tiers": [5, 10, 15]},
                       [{"tier": 1, "reward": {"vp": 1}}])]
    assert turn.BASIC["event_action"][0](st, ST)
    st.agenda = [(turn.K.DECIDE_TURN, ST, 0)]
    st.main_done = st.free_used = 0
    go(st)
    assert "basic:event_action" in legal_names(st)


def test_s3_13_event_action_build_for_purchase_rules():
    st = game()
    if 12 not in st.game.rules.cards.build_for_node:
        event(st, {"op": "build_for", "min_cost": 12}, [{"class": "MC", "reward": {"vp": 1}}])
    st.ctx[E.ACTIVE] = st.game.rules.cards.build_for_node[12]
    assert not EB.can_afford_purchase(st, MC, 10)  # below the least cost
    assert EB.can_afford_purchase(st, MC, 14) and EB.purchase_price(st, 14) == 0
    set_money(st, ST, 13)
    assert not EB.can_afford_purchase(st, MC, 14)  # the State pays from what it holds
    EB.pay_purchase(st, MC, 13)
    assert st.money[ST] == 0 and st.money[MC] == 40 and st.loans[ST] == 0


def test_s11_1_basic_build_company_count_two_then_market_refill():
    st = game()
    deck = list(st.cc_deck)
    run(st, CC, {"op": "basic", "action": "build_company", "count": 2, "market_refill": True})
    play(st, "market:4", "wage:L3", "market:3", "wage:L3")  # the second build: same action
    assert len(board.companies_of(st, CC)) == 6
    assert len(st.cc_market) == D.MARKET_SIZE["cc"] and st.cc_deck == deck[:-2]  # refilled
    assert not st.agenda and EB.mod(st, "count") is None


# -- every card of every deck, played ------------------------------------------------------------
def _satisfy(st, cls: int, card: C.ActionCard) -> None:
    """Make the card's requirement hold where a scenario edit can (not companies_at_least)."""
    if card.requirement is None:
        return
    (name, arg), = card.requirement.items()
    if name == "policy_in":
        st.policies[int(arg[0][0]) - 1] = "ABC".index(arg[0][1])
    elif name == "unemployed_at_least":
        st.unemployed[WC if cls in (CC, ST) else cls][0] += arg
    elif name == "pending_bills_at_least":
        for p in range(arg):
            st.bills[6 - p] = CC * 3 + (0 if st.policies[6 - p] else 1)
            st.markers_used[CC] += 1
    elif name == "has_loan" and arg:
        money.take_loan(st, cls)
    elif name == "round_at_least":
        st.round = arg


def test_s11_1_every_playable_card_of_every_deck_completes():
    """Each design, in a position that meets its requirement, is played through the turn with
    random choices; its effect always completes and every invariant holds."""
    rng = np.random.default_rng(0)
    played = 0
    for cls, role in enumerate(ROLE):
        for design, card in enumerate(C.ACTION_CARDS[role]):
            st = game()
            st.policies[1] = C_  # wages may move
            st.mc_storage, st.cc_storage, st.state_goods = [3] * 4, [4] * 4, [3, 3]
            st.unemployed[WC][0] += 8
            st.influence[ST] = 3
            _satisfy(st, cls, card)
            if not E.playable(st, cls, design):
                continue
            if design not in st.hands[cls]:  # swap a copy in from the deck
                k = st.action_decks[cls].index(design)
                st.action_decks[cls][k], st.hands[cls][0] = st.hands[cls][0], design
            _turn_keep_hand(st, cls)
            play(st, f"play:{card.id}")
            for _ in range(300):
                if not st.agenda or (st.agenda[-1][0] == turn.K.DECIDE_TURN and st.main_done):
                    break
                st.apply(int(rng.choice(st.legal_actions())))
            assert st.main_done and st.action_discard[cls][-1] == design, card.id
            st.check_invariants()
            played += 1
    assert played >= 0.85 * sum(len(cards) for cards in C.ACTION_CARDS.values())


def _turn_keep_hand(st, cls: int) -> None:
    st.agenda = [(turn.K.DECIDE_TURN, cls, 0)]
    st.main_done = st.free_used = 0
    go(st)


def test_s11_1_set_wage_public_companies_and_media_influence_for_the_state():
    st = game()  # row 1 at L2
    run(st, ST, {"op": "set_wage", "company": "public_all", "level": "L3"})
    assert [st.seat_wage[s] for s in board.companies_of(st, ST)] == [2, 2, 2]
    assert [st.seat_wage[s] for s in PUBLIC_SEATS[3:]] == [1] * 6  # face down: untouched
    run(st, ST, {"op": "set_wage", "company": "public_one", "level": "L2"})
    assert legal_names(st) == ["company:public_r1_1", "company:public_r1_2",
                               "company:public_r1_3"]
    cap = storage.public_service_cap(st, 2)
    st.agenda = []
    run(st, ST, {"op": "gain", "res": "media_influence", "amt": 50, "from": "supply"})
    assert st.public_services[2] == cap  # capped by its Public Service
    conserved(st)


def test_s11_1_a_card_half_done_saves_and_loads():
    """The agenda names nodes by id and the scratch is ints: a saved game resumes mid-card
    (reached by legal play: a save is checked by replaying its moves)."""
    import numpy as np

    from meeplezoo.envs.core.game import state_from_saved
    from meeplezoo.envs.hegemony.codes import EFFECTS
    from meeplezoo.envs.hegemony.game import HegemonyGame

    rng = np.random.default_rng(3)
    st = HegemonyGame().new_initial_state(3)
    while not (st.agenda and st.agenda[-1][0] in EFFECTS and len(st.legal_actions()) > 1):
        legal = st.legal_actions()
        st.apply(int(legal[rng.integers(len(legal))]))
    loaded = state_from_saved(HegemonyGame, st.to_dict())
    assert loaded.agenda == st.agenda and legal_names(loaded) == legal_names(st)
    name = legal_names(st)[0]
    play(st, name)
    play(loaded, name)
    assert loaded.to_dict() == st.to_dict()


def test_s11_1_a_cost_sets_aside_the_money_a_later_basic_action_needs():
    st = game()
    node = E.add_node(st, {"op": "seq", "effects": [
        {"op": "storage", "resource": "food", "cost": 20},
        {"op": "basic", "action": "lobby"}]}, "CC")  # Lobby costs 30
    set_money(st, CC, 40)
    assert not E.can(st, CC, node)  # each alone fits, both do not
    assert st.money[CC] == 40 and st.capital == 0  # the check leaves the money as it was
    set_money(st, CC, 30)
    st.capital = 20
    st.minted += 20
    assert E.can(st, CC, node)
    st.push((E.RUN, CC, node))
    go(st)
    assert st.storage_tiles[0] == 1 and st.money[CC] + st.capital == 0
    conserved(st)
