"""Bad player counts, options, actions and saved states give clear errors."""

from __future__ import annotations

import json

import pytest

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery.game import AsianDeliveryGame
from meeplezoo.envs.core.errors import ConfigError, CorruptStateError, IllegalActionError
from meeplezoo.envs.core.game import state_from_saved


@pytest.mark.parametrize("count", [2, 6, "4", 3.0, True])
def test_bad_player_count(count):
    with pytest.raises(ConfigError, match="num_players"):
        AsianDeliveryGame(count)


def test_bad_option_value_and_unknown_option():
    with pytest.raises(ConfigError, match="distance_coins"):
        AsianDeliveryGame(4, distance_coins="yes")
    with pytest.raises(ConfigError, match="growth_before_refil"):
        AsianDeliveryGame(4, growth_before_refil=True)


def test_illegal_action_names_the_action_and_the_legal_ones():
    state = AsianDeliveryGame(4).new_initial_state(0)
    with pytest.raises(IllegalActionError) as err:
        state.apply(AsianDeliveryGame(4).action_index("pass"))
    text = str(err.value)
    assert "pass" in text and "choose_company" in text and "legal:" in text
    for bad in (-1, 84, None, "x", 1.5):
        with pytest.raises(IllegalActionError):
            state.apply(bad)


def test_unknown_action_name_and_index():
    game = AsianDeliveryGame(4)
    with pytest.raises(ConfigError):
        game.action_index("fly_away")
    with pytest.raises(ValueError):
        game.action_name(999)


def _saved(seed: int = 1) -> dict:
    game = AsianDeliveryGame(3)
    state = game.new_initial_state(seed)
    for _ in range(20):
        state.apply(state.legal_actions()[-1])
    return json.loads(json.dumps(state.to_dict()))


def test_saved_state_round_trip():
    data = _saved()
    state = state_from_saved(AsianDeliveryGame, data)
    assert state.to_dict() == data


def _set(index: int, value: object):
    return lambda d: d["state"]["v"].__setitem__(index, value)


@pytest.mark.parametrize(
    ("damage", "match"),
    [
        (lambda d: d.update(env="hegemony_v1"), "hegemony_v1"),
        (lambda d: d["config"].update(num_players=7), "num_players=7"),
        (lambda d: d["config"].update(distance_coins="maybe"), "distance_coins"),
        (lambda d: d["state"].pop("deck"), r"missing key\(s\) \['deck'\]"),
        (lambda d: d["state"].update(v=d["state"]["v"][:-3]), "state.v: expected a list"),
        (lambda d: d["state"].update(v=["x"] * len(d["state"]["v"])), r"state.v\[0\]"),
        (lambda d: d["state"].update(rng="not a generator"), "state.rng"),
        (lambda d: d["state"].update(completed=[[]]), "state.completed"),
        (lambda d: d["state"]["deck"].__setitem__(0, d["state"]["deck"][1]),  # a card twice
         "request cards not conserved"),
        # each entry of the state vector is refused naming its layout block
        (_set(L.seat(0) + L.S_WH, -4), r"seat 0 warehouse\[N:base\]"),
        (_set(L.I_DECISION, 42), r"internal decision\)"),
        (_set(L.I_PORT_POS, 12), r"internal port_position\)"),
        (_set(L.seat(2) + L.S_VP, True), r"seat 2 vp\)"),
        (_set(L.seat(3) + L.S_VP, 1), r"seat 3 vp\)"),  # a fourth seat in a 3-player game
        (_set(L.seat(1) + L.S_VP, 99), "VP out of sync"),  # VP without breakdown
    ],
)
def test_corrupt_saved_state_raises(damage, match):
    data = _saved()
    damage(data)
    with pytest.raises(CorruptStateError, match=match):
        state_from_saved(AsianDeliveryGame, data)


def test_not_a_saved_state():
    with pytest.raises(CorruptStateError):
        state_from_saved(AsianDeliveryGame, "hello")
    with pytest.raises(CorruptStateError):
        state_from_saved(AsianDeliveryGame, {"env": "asian_delivery_v1"})
