"""``Sketch``, the bots' look-ahead copy, plays exactly like the real state and
never writes into the position it was copied from (its lists are copy-on-write)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo.envs.chihou_sousei import ChihouSouseiGame
from meeplezoo.envs.chihou_sousei.sketch import Sketch, sketch_of
from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState
from meeplezoo.envs.core.errors import IllegalActionError

CONFIGS = [
    dict(num_players=2),
    dict(num_players=3, forced_move_any_player=True, population_scoring="mode"),
    dict(num_players=4),
    dict(num_players=4, forced_move_any_player=True),
]


def snapshot(state: ChihouSouseiState) -> str:
    return json.dumps(state.to_dict())


def assert_same(real: ChihouSouseiState, sketch: Sketch) -> None:
    assert snapshot(sketch) == snapshot(real)
    assert sketch.legal_actions() == real.legal_actions()
    assert sketch.score_totals() == real.score_totals() == real.scores()
    assert sketch.maxtok == real.maxtok
    sketch.check_invariants()


def play_both(real: ChihouSouseiState, sketch: Sketch, rng: np.random.Generator, steps: int):
    """Play the same random actions on both, branching the sketch on the way."""
    for _ in range(steps):
        if real.is_terminal():
            break
        legal = real.legal_actions()
        if rng.random() < 0.5:  # a branch played on a clone must not touch its parent
            before = snapshot(sketch)
            branch = sketch.clone()
            branch.apply(legal[int(rng.integers(len(legal)))])
            assert snapshot(sketch) == before
        action = legal[int(rng.integers(len(legal)))]
        real.apply(action)
        sketch.apply(action)
        assert_same(real, sketch)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_sketch_plays_like_the_state_and_leaves_it_alone(config):
    game = ChihouSouseiGame(**config)
    rng = np.random.default_rng(0)
    for seed in range(3):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            before = snapshot(state)
            sketch = sketch_of(state)
            assert_same(state, sketch)
            play_both(state.clone(), sketch, rng, int(rng.integers(1, 12)))
            assert snapshot(state) == before, "a sketch wrote into its source"
            state.check_invariants()
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])


def test_sketch_rejects_illegal_actions_and_observation():
    sketch = sketch_of(ChihouSouseiGame(3).new_initial_state(1))
    with pytest.raises(IllegalActionError):
        sketch.apply(sketch.legal_actions()[-1] + 1)
    with pytest.raises(TypeError):
        sketch.observation(0)
    assert isinstance(sketch.clone(), Sketch)
