"""Bad player counts, options, actions and saved states give clear errors."""

from __future__ import annotations

import json

import pytest

from envs.asian_delivery import layout as L
from envs.asian_delivery.game import AsianDeliveryGame
from envs.core.errors import ConfigError, CorruptStateError, IllegalActionError
from envs.core.game import state_from_saved


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


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(env="hegemony_v0"),
        lambda d: d["config"].update(num_players=7),
        lambda d: d["config"].update(distance_coins="maybe"),
        lambda d: d["state"].pop("deck"),
        lambda d: d["state"].update(v=d["state"]["v"][:-3]),
        lambda d: d["state"].update(v=["x"] * len(d["state"]["v"])),
        lambda d: d["state"].update(rng="not a generator"),
        lambda d: d["state"].update(completed=[[]]),
        lambda d: d["state"]["deck"].append(0),  # a card twice
        lambda d: d["state"]["v"].__setitem__(L.seat(0) + L.S_WH, -4),  # negative stock
        lambda d: d["state"]["v"].__setitem__(L.I_DECISION, 42),
        lambda d: d["state"]["v"].__setitem__(L.I_PORT_POS, 12),
        lambda d: d["state"]["v"].__setitem__(L.seat(1) + L.S_VP, 99),  # VP without breakdown
    ],
)
def test_corrupt_saved_state_raises(damage):
    data = _saved()
    damage(data)
    with pytest.raises(CorruptStateError):
        state_from_saved(AsianDeliveryGame, data)


def test_not_a_saved_state():
    with pytest.raises(CorruptStateError):
        state_from_saved(AsianDeliveryGame, "hello")
    with pytest.raises(CorruptStateError):
        state_from_saved(AsianDeliveryGame, {"env": "asian_delivery_v1"})
