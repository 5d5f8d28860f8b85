"""The conformance kit and the role API on the asymmetric toy (three roles)."""

import numpy as np
import pytest

from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.save_fuzz import save_fuzz_tests
from meeplezoo.envs.core.testing import check_no_leak, conformance_suite
from tests.core.roles_toy import RolesToyGame, RolesToyState, raw_env

test_conformance = conformance_suite(RolesToyGame, [{"num_players": 3}])
test_save_fuzz, test_save_fuzz_soak = save_fuzz_tests(RolesToyGame, [{"num_players": 3}])


def test_agents_are_named_after_the_roles_and_spaces_are_keyed_by_role():
    env = raw_env()
    assert env.possible_agents == ["trader", "banker", "judge"]
    sizes = {a: (env.observation_space(a)["observation"].shape[0], env.action_space(a).n)
             for a in env.possible_agents}
    assert sizes == {"trader": (10, 3), "banker": (11, 4), "judge": (10, 3)}
    assert env.action_name(3, "banker") == "fold"
    assert env.feature_names("judge")[-1] == "deck_left"
    game = env.game
    assert game.role_seats("judge") == [2] and game.seat_role(1) == "banker"
    for ask in (lambda: game.num_actions(), lambda: game.feature_names("thief"),
                lambda: game.feature_names(None)):
        with pytest.raises(ConfigError, match="role"):
            ask()
    with pytest.raises(ConfigError, match="role"):
        env.feature_names()


def test_sealed_bid_stays_hidden_until_revealed():
    state = RolesToyGame().new_initial_state(1)
    state.apply(int(np.flatnonzero(state.legal_mask())[0]))  # the trader bids
    banker_view = state.observation(1)
    names = state.game.feature_names("banker")
    assert banker_view[names.index("bids[trader]")] == 0.0
    assert banker_view[names.index("trader_has_bid")] == 1.0
    trader_view = state.observation(0)
    assert trader_view[state.game.feature_names("trader").index("bids[trader]")] > 0
    state.apply(3)  # the banker folds: bids are revealed
    judge_names = state.game.feature_names("judge")
    assert state.observation(2)[judge_names.index("bids[trader]")] > 0


def test_compound_audit_is_up_to_two_choices_one_at_a_time():
    state = RolesToyGame().new_initial_state(2)
    state.apply(int(np.flatnonzero(state.legal_mask())[0]))
    state.apply(3)
    assert state.decision_name() == "audit" and state.legal_mask().tolist() == [1, 1, 1]
    state.apply(0)
    assert state.legal_mask().tolist() == [0, 1, 1]
    state.apply(1)  # the second audit ends the judge's decision
    assert state.decision_name() == "trader_bid" and state.round == 1


def test_a_planted_leak_of_the_sealed_bid_is_caught(monkeypatch):
    honest = RolesToyState.observation

    def leaky(self, player):
        obs = honest(self, player)
        if player == 1:
            obs[self.game.feature_names("banker").index("trader_has_bid")] = self.bids[0] / 6
        return obs

    monkeypatch.setattr(RolesToyState, "observation", leaky)
    with pytest.raises(AssertionError, match="hidden information"):
        check_no_leak(RolesToyGame, {"num_players": 3})
