"""The conformance kit passes on a correct toy game and catches a leaky one."""

import pytest

from meeplezoo.envs.core.testing import check_no_leak, conformance_suite
from tests.core.toy_game import ToyGame

test_conformance = conformance_suite(ToyGame, [dict(num_players=n) for n in (2, 3)])


def test_no_leak_check_catches_a_leak():
    with pytest.raises(AssertionError, match="hidden information"):
        check_no_leak(ToyGame, dict(num_players=2, leaky=True))


def test_no_leak_check_refuses_a_hidden_game_without_a_redraw(monkeypatch):
    from meeplezoo.envs.core.game import GameState
    from tests.core.toy_game import ToyState

    monkeypatch.setattr(ToyState, "resample_hidden", GameState.resample_hidden)
    with pytest.raises(AssertionError, match="keeps the default resample_hidden"):
        check_no_leak(ToyGame, dict(num_players=2))
