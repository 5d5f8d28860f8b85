"""Hegemony's authored decks: the effect vocabulary rejects damaged trees, and every deck has the
published shape of our Hegemony rules page §11.1 (counts, copies, requirements, legitimacy,
Event pairs, Agenda spread, Export calibration)."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from meeplezoo.envs.hegemony import cards
from meeplezoo.envs.hegemony import cards_vocabulary as V
from meeplezoo.envs.hegemony.cards import (
    ACTION_CARDS,
    ACTION_DECK,
    AGENDAS,
    EVENTS,
    EXPORTS,
    parse_action_cards,
    parse_events,
)
from meeplezoo.envs.hegemony.cards_check import iter_nodes, validate_effect
from meeplezoo.envs.hegemony.cards_vocabulary import BASIC_ACTIONS, BASIC_MODIFIERS, DeckError

ROLES = ("WC", "MC", "CC", "ST")


def _raw(name: str) -> dict:
    with (cards.DECK_DIR / name).open(encoding="utf-8") as handle:
        return json.load(handle)


# --- the validator rejects damaged nodes, naming the card and the path ----------------------

GOOD_CHOICE = {"op": "choice", "options": [
    {"op": "basic", "action": "strike"},
    {"op": "basic", "action": "assign_workers", "max_workers": 4},
]}


def _damaged(option: dict) -> dict:
    node = copy.deepcopy(GOOD_CHOICE)
    node["options"][1] = option
    return node


DAMAGED = {
    "unknown op": (_damaged({"op": "teleport"}), "unknown op"),
    "missing parameter": (_damaged({"op": "gain", "res": "money", "from": "supply"}),
                          "missing parameter 'amt'"),
    "wrong type": (_damaged({"op": "gain", "res": "money", "amt": "five", "from": "supply"}),
                   "not an amount"),
    "wrong enum": (_damaged({"op": "gain", "res": "gold", "amt": 1, "from": "supply"}),
                   "is not one of"),
    "unknown parameter": (_damaged({"op": "vp", "n": 1, "bonus": 2}), "unknown parameter"),
    "other class's action": (_damaged({"op": "basic", "action": "lobby"}),
                             "WC may not use the basic action 'lobby'"),
    "modifier on the wrong action": (_damaged({"op": "basic", "action": "strike",
                                               "max_workers": 2}), "does not go with"),
    "primitive of another role": (_damaged({"op": "legitimacy", "class": "WC", "n": 1}),
                                  "not available to WC"),
    "wage target beyond the role": (_damaged({"op": "set_wage", "company": "public_all",
                                              "level": "L3"}), "WC may set only"),
    "bad requirement": (_damaged({"op": "if", "cond": {"moon_phase": 3},
                                  "then": {"op": "vp", "n": 1}}), "unknown requirement"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_validator_rejects_damaged_node_with_card_and_path(case: str) -> None:
    node, message = DAMAGED[case]
    with pytest.raises(DeckError) as caught:
        validate_effect(node, "WC", "wc_07.effects[0]")
    assert "wc_07.effects[0].options[1]" in str(caught.value)
    assert message in str(caught.value)


def test_validator_rejects_a_choice_of_five_options() -> None:
    node = {"op": "choice", "options": [{"op": "vp", "n": i} for i in range(1, 6)]}
    with pytest.raises(DeckError, match=r"wc_03\.effects\[1\]\.options"):
        validate_effect(node, "WC", "wc_03.effects[1]")
    node["options"].pop()
    validate_effect(node, "WC", "wc_03.effects[1]")  # four options are fine


def test_validator_accepts_the_undamaged_node() -> None:
    validate_effect(GOOD_CHOICE, "WC", "wc_07.effects[0]")


def test_loader_failure_names_file_card_and_path() -> None:
    data = {"about": "test", "cards": [{
        "id": "wc_07", "role": "WC", "title": "Broken", "copies": 1, "note": "test",
        "effects": [_damaged({"op": "basic", "action": "build_company"})],
    }]}
    with pytest.raises(DeckError) as caught:
        parse_action_cards(data)
    text = str(caught.value)
    assert text.startswith("action_cards.json: wc_07.effects[0].options[1]")
    assert "build_company" in text


def test_loader_rejects_duplicate_ids_and_a_bad_event() -> None:
    card = {"id": "mc_01", "role": "MC", "title": "A", "copies": 1, "note": "n",
            "effects": [{"op": "vp", "n": 1}]}
    with pytest.raises(DeckError, match="duplicate id"):
        parse_action_cards({"about": "t", "cards": [card, dict(card)]})
    event = {"id": "ev_01", "title": "E", "min_round": 1, "note": "n",
             "task": {"op": "provide_to", "bundle": {"money": 10}},
             "options": [{"tier": 1, "reward": {"vp": 1}}], "no_action": {"pair": "any"}}
    with pytest.raises(DeckError, match=r"events\.json: ev_01\.options\[0\]: missing field"):
        parse_events({"about": "t", "events": [event]})


def test_docstring_documents_the_whole_vocabulary() -> None:
    doc = V.__doc__
    names = set(V.PRIMITIVES) | set(BASIC_ACTIONS) | set(BASIC_MODIFIERS)
    names |= set(V.FORMULA_TERMS) | set(V.REQUIREMENTS) | set(V.COMPANY_FILTER)
    names |= set(V.EVENT_TASKS) | set(V.EVENT_REWARDS)
    for primitive in V.PRIMITIVES.values():
        names |= set(primitive.params)
    for params in V.EVENT_TASKS.values():
        names |= set(params)
    missing = sorted(name for name in names if f"``{name}``" not in doc)
    assert not missing, f"undocumented: {missing}"


def test_basic_actions_follow_the_rules_page_table() -> None:
    assert [number for number, _ in BASIC_ACTIONS.values()] == list(range(1, 17))
    per_role = {role: {a for a, (_, roles) in BASIC_ACTIONS.items() if role in roles}
                for role in ROLES}
    assert per_role["WC"] == {"propose_bill", "political_pressure", "assign_workers",
                              "buy_goods", "strike", "demonstration"}
    assert per_role["ST"] == {"propose_bill", "sell_foreign", "event_action", "meet_mps",
                              "extra_tax", "campaign"}
    assert len(per_role["MC"]) == 8 and len(per_role["CC"]) == 7


# --- action decks: the published shape (§11.1) -----------------------------------------------


def _all_nodes(card: cards.ActionCard):
    for effect in card.effects:
        yield from iter_nodes(effect)


def _copies(role: str, keep) -> int:
    return sum(card.copies for card in ACTION_CARDS[role] if keep(card))


@pytest.mark.parametrize("role", ROLES)
def test_deck_has_40_cards_in_25_to_28_designs(role: str) -> None:
    designs = ACTION_CARDS[role]
    assert 25 <= len(designs) <= 28
    assert len(ACTION_DECK[role]) == 40
    assert Counter(ACTION_DECK[role]) == {card.id: card.copies for card in designs}
    assert [card.id for card in designs] == [f"{role.lower()}_{i:02d}"
                                             for i in range(1, len(designs) + 1)]


@pytest.mark.parametrize("role", ROLES)
def test_most_designs_in_one_or_two_copies_at_most_one_in_three(role: str) -> None:
    copies = Counter(card.copies for card in ACTION_CARDS[role])
    assert set(copies) <= {1, 2, 3}
    assert copies[3] <= 1
    assert copies[1] + copies[2] >= len(ACTION_CARDS[role]) - 1


@pytest.mark.parametrize("role", ROLES)
def test_policy_requirements_on_10_to_25_percent_naming_2_or_3_sections(role: str) -> None:
    def has_policy(card: cards.ActionCard) -> bool:
        return card.requirement is not None and "policy_in" in card.requirement

    assert 4 <= _copies(role, has_policy) <= 10
    for card in ACTION_CARDS[role]:
        if has_policy(card):
            sections = card.requirement["policy_in"]
            assert 2 <= len(sections) <= 3, card.id
            assert len({s[0] for s in sections}) == 1, f"{card.id}: one policy's sections"


@pytest.mark.parametrize("role", ROLES)
def test_many_cards_carry_legitimacy_symbols(role: str) -> None:
    assert _copies(role, lambda card: bool(card.legitimacy)) >= 10
    for card in ACTION_CARDS[role]:
        assert 0 <= len(card.legitimacy) <= 2, card.id
        assert set(card.legitimacy.values()) <= {-2, -1, 1, 2}, card.id


@pytest.mark.parametrize("role", ROLES)
def test_basic_only_with_the_roles_own_actions(role: str) -> None:
    own = {action for action, (_, roles) in BASIC_ACTIONS.items() if role in roles}
    for card in ACTION_CARDS[role]:
        for node in _all_nodes(card):
            if node["op"] == "basic":
                assert node["action"] in own, card.id


def test_every_effect_tree_revalidates_and_stays_in_the_vocabulary() -> None:
    raw = _raw(cards.ACTION_FILE)["cards"]
    assert len(raw) == sum(len(designs) for designs in ACTION_CARDS.values())
    for item in raw:
        for i, node in enumerate(item["effects"]):
            validate_effect(node, item["role"], f"{item['id']}.effects[{i}]")
    for role in ROLES:
        for card in ACTION_CARDS[role]:
            for node in _all_nodes(card):
                assert node["op"] in V.PRIMITIVES, card.id


def test_public_money_for_a_class_always_has_a_price() -> None:
    """A card that spends the treasury for WC, MC or CC carries a requirement or a symbol."""
    public = {"state_payout", "payer", "state_pays_rest", "txn_bonus_from_state"}
    for role in ("WC", "MC", "CC"):
        for card in ACTION_CARDS[role]:
            uses = any(node["op"] in public or public & set(node) for node in _all_nodes(card))
            if uses:
                assert card.requirement is not None or card.legitimacy, card.id


def test_cards_have_unique_titles_and_one_line_notes() -> None:
    everything = [card for role in ROLES for card in ACTION_CARDS[role]]
    titles = [card.title for card in everything] + [event.title for event in EVENTS]
    assert len(set(titles)) == len(titles)
    notes = [card.note for card in everything] + [e.note for e in EVENTS]
    notes += [a.note for a in AGENDAS] + [x.note for x in EXPORTS]
    assert all(note.strip() and "\n" not in note for note in notes)


# --- Events ------------------------------------------------------------------------------------


def test_25_events_with_sequential_ids_and_known_tasks() -> None:
    assert [event.id for event in EVENTS] == [f"ev_{i:02d}" for i in range(1, 26)]
    assert {event.task["op"] for event in EVENTS} <= set(V.EVENT_TASKS)


def test_exactly_7_events_let_the_state_pick_the_penalty_pair() -> None:
    assert sum(event.penalty_pair is None for event in EVENTS) == 7


def test_a_fixed_penalty_pair_is_the_events_two_class_options() -> None:
    for event in EVENTS:
        if event.penalty_pair is not None:
            assert len(set(event.penalty_pair)) == 2, event.id
            assert {o.cls for o in event.options} == set(event.penalty_pair), event.id


def test_most_events_offer_two_classes_a_few_three_and_spend_events_one_vp_option() -> None:
    shapes = Counter()
    for event in EVENTS:
        op = event.task["op"]
        if op == "spend":
            assert len(event.options) == 1 and event.options[0].tier == 1, event.id
            assert set(event.options[0].reward) <= {"vp", "vp_per_unit"}, event.id
            shapes["spend"] += 1
        elif op == "spend_money":
            assert [o.tier for o in event.options] == [1, 2, 3], event.id
            assert all(set(o.reward) == {"vp"} for o in event.options), event.id
            shapes["tiers"] += 1
        else:
            assert all(o.cls is not None for o in event.options), event.id
            shapes[len(event.options)] += 1
    assert shapes[2] >= 13
    assert 1 <= shapes[3] <= 5
    assert shapes["spend"] >= 1
    assert sum(shapes.values()) == 25


def test_a_few_events_wait_for_round_2() -> None:
    assert 3 <= sum(event.min_round == 2 for event in EVENTS) <= 5
    assert {event.min_round for event in EVENTS} == {1, 2}


def test_event_rewards_follow_the_published_forms() -> None:
    for event in EVENTS:
        for option in event.options:
            (name, value), = option.reward.items()
            assert name in V.EVENT_REWARDS, event.id
            if name == "legitimacy":
                assert value in (1, 2)
            if name == "legitimacy_per_units":
                assert value in (2, 3)
                assert event.task["op"] in ("provide_to", "buy_from_players"), event.id


# --- Political Agendas -----------------------------------------------------------------------


def test_10_agendas_each_mixing_sections() -> None:
    assert [agenda.id for agenda in AGENDAS] == [f"ag_{i:02d}" for i in range(1, 11)]
    for agenda in AGENDAS:
        assert sorted(agenda.target) == [f"p{n}" for n in range(1, 6)]
        assert len(set(agenda.target.values())) >= 2, agenda.id
    assert len({tuple(agenda.target.values()) for agenda in AGENDAS}) == 10


@pytest.mark.parametrize("policy", [f"p{n}" for n in range(1, 6)])
def test_each_section_appears_2_to_4_times_per_policy(policy: str) -> None:
    counts = Counter(agenda.target[policy] for agenda in AGENDAS)
    assert all(2 <= counts[section] <= 4 for section in "ABC"), counts


# --- Export cards (decision #37) ----------------------------------------------------------------

UNIT_RANGE = {"food": (7.5, 12.5), "lux": (5.0, 8.34), "health": (5.0, 8.34), "edu": (5.0, 8.34)}
UNIT_MEAN = {"food": 10.0, "lux": 6.5, "health": 6.5, "edu": 6.5}


def _unit(offer: tuple[int, int]) -> float:
    quantity, price = offer
    return price / quantity


def test_16_export_cards_of_8_offers_in_size_and_price_steps() -> None:
    assert [card.id for card in EXPORTS] == [f"ex_{i:02d}" for i in range(1, 17)]
    for card in EXPORTS:
        assert list(card.offers) == ["food", "lux", "health", "edu"], card.id
        for small, large in card.offers.values():
            assert 2 <= small[0] <= 4 and 5 <= large[0] <= 8, card.id
            assert small[1] % 5 == 0 and large[1] % 5 == 0, card.id


@pytest.mark.parametrize("good", ["food", "lux", "health", "edu"])
def test_export_unit_prices_within_published_ranges_and_means(good: str) -> None:
    low, high = UNIT_RANGE[good]
    units = [_unit(offer) for card in EXPORTS for offer in card.offers[good]]
    assert all(low <= unit <= high for unit in units)
    assert abs(sum(units) / len(units) - UNIT_MEAN[good]) <= 0.3
    if good == "edu":
        assert max(_unit(card.offers["edu"][1]) for card in EXPORTS) <= 7.9


def test_export_small_and_large_offers_price_a_unit_alike() -> None:
    for card in EXPORTS:
        for good, (small, large) in card.offers.items():
            assert abs(_unit(small) - _unit(large)) <= 0.1 * UNIT_MEAN[good], (card.id, good)
