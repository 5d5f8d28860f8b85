"""training.ismcts: information-set MCTS never cheats, never plays an illegal move, keeps
its budget, repeats under a seed, and plays better than chance."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot, play_game
from meeplezoo.envs.core.rewards import winners
from meeplezoo.training.agents.ismcts import ISMCTS, SearchBot, information_digest
from meeplezoo.training.agents.opponents import load

NECROPOLIS = "necropolis_railway_v1/ppo_league"


def _midgame(name: str, seed: int, moves: int, **config):
    """A position after ``moves`` random moves where the player to move has a choice."""
    game = envs.make_game(name, **config)
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return game, state


@pytest.mark.parametrize("root", ["puct", "gumbel"])
@pytest.mark.parametrize("name, config", [("toy_v0", {"num_players": 3}),
                                          ("necropolis_railway_v1", {"num_players": 2})])
def test_positions_that_differ_only_in_what_the_player_cannot_see_get_the_same_search(
        name, config, root):
    game, state = _midgame(name, 3, 4, **config)
    seat = state.current_player()
    other = state.resample_hidden(seat, np.random.default_rng(99))  # another true deal
    assert information_digest(other, seat) == information_digest(state, seat)
    assert other.to_dict() != state.to_dict()  # the hidden part does differ
    one = ISMCTS(game, simulations=24, seed=5, root=root).search(state)
    two = ISMCTS(game, simulations=24, seed=5, root=root).search(other)
    assert (one.action, one.visits, one.values) == (two.action, two.visits, two.values)


def test_budget_is_kept_and_a_seed_repeats_the_search():
    game, state = _midgame("necropolis_railway_v1", 1, 6, num_players=2)
    result = ISMCTS(game, simulations=17, seed=2).search(state)
    assert result.simulations == 17 and sum(result.visits.values()) == 17
    assert state.legal_mask()[result.action]
    again = ISMCTS(game, simulations=17, seed=2).search(state)
    assert (again.action, again.visits) == (result.action, result.visits)
    quick = ISMCTS(game, simulations=10_000, time_limit=0.05, seed=2).search(state)
    assert 1 <= quick.simulations < 10_000 and quick.seconds < 2.0


def test_gumbel_root_keeps_its_budget_halves_its_candidates_and_repeats():
    game, state = _midgame("necropolis_railway_v1", 1, 6, num_players=2)
    legal = state.legal_actions()
    assert len(legal) >= 4
    result = ISMCTS(game, simulations=16, seed=2, root="gumbel", considered=4).search(state)
    assert result.simulations <= 16 and sum(result.visits.values()) == result.simulations
    assert len(result.visits) <= 4 and result.action in result.visits  # only candidates
    assert state.legal_mask()[result.action]
    # Sequential Halving: the survivors of the first round hold the most visits
    ranked = sorted(result.visits.values(), reverse=True)
    assert ranked[0] >= ranked[-1] and ranked[0] > 16 // 2 // 4
    again = ISMCTS(game, simulations=16, seed=2, root="gumbel", considered=4).search(state)
    assert (again.action, again.visits) == (result.action, result.visits)
    one = ISMCTS(game, simulations=1, seed=2, root="gumbel").search(state)
    assert one.simulations == 1 and state.legal_mask()[one.action]


@pytest.mark.parametrize("normalise_q, c_scale", [(True, 1.0), (False, 0.3)])
def test_gumbel_root_follows_a_clear_value(normalise_q, c_scale):
    """With a value that favours one root action, a Gumbel search at 8 simulations over
    a uniform prior picks it (PUCT's visits would follow the prior's tie-break), with the
    mean values min-max normalised or taken as they are."""
    game, state = _midgame("necropolis_railway_v1", 2, 6, num_players=2)
    target = state.legal_actions()[-1]

    class Probe(ISMCTS):
        """Notes the root action each simulation takes, which the value reads."""

        def _simulate(self, det, seat, root, rng, first=None):
            self.taken = first
            super()._simulate(det, seat, root, rng, first)

    search = Probe(game, value=lambda det, s: float(search.taken == target), simulations=8,
                   seed=0, root="gumbel", considered=8, normalise_q=normalise_q,
                   c_scale=c_scale)
    assert search.search(state).action == target


def test_a_forced_move_costs_no_search():
    game = envs.make_game("toy_v0", num_players=2)
    state = game.new_initial_state(0)
    state.passed[state.current_player()] = True
    state.hands[state.current_player()][1] = 0
    state._mask = None
    result = ISMCTS(game, simulations=50).search(state)
    assert result.simulations == 0 and result.action == 0


def test_every_move_of_whole_games_is_legal_with_a_network_prior_and_opponents():
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    search = ISMCTS(game, prior=load(NECROPOLIS), simulations=4, seed=0)
    bot = SearchBot(search)
    final = play_game(game.new_initial_state(11), [bot, RandomBot(1)])
    assert final.is_terminal()


def test_search_with_random_playouts_beats_random_play():
    """Necropolis rewards planning: a 16-simulation search with random playouts (no network)
    wins 5 of 6 two-player games against random play here (fixed seeds: no flakiness; random
    against random would win 3)."""
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    wins = 0.0
    for g in range(6):
        bots = [SearchBot(ISMCTS(game, simulations=16, seed=g)), RandomBot(g)]
        if g % 2:
            bots.reverse()
        final = play_game(game.new_initial_state(1000 + g), bots)
        won = winners(final.rank_keys())
        wins += (g % 2 in won) / len(won)
    assert wins >= 5, wins


def test_bad_budgets_are_refused():
    game = envs.make_game("toy_v0")
    with pytest.raises(ValueError, match="simulations"):
        ISMCTS(game, simulations=0)
    with pytest.raises(ValueError, match="time_limit"):
        ISMCTS(game, time_limit=0)
    with pytest.raises(ValueError, match="root"):
        ISMCTS(game, root="alphazero")
    with pytest.raises(ValueError, match="considered"):
        ISMCTS(game, root="gumbel", considered=1)


def test_short_playouts_stop_at_their_depth_and_score_the_position_as_it_stands():
    """``playout_depth``: a leaf's playout makes that many decisions, then the value is
    ``rollout_value`` of the scores as they stand (the API's "as if it ended now")."""
    from meeplezoo.training.agents.search import rollout_value

    game, state = _midgame("necropolis_railway_v1", 1, 6, num_players=2)
    seat = state.current_player()
    search = ISMCTS(game, simulations=8, seed=3, playout_depth=3)
    bots = {s: RandomBot(10 + s) for s in range(2)}
    value = search._leaf_value(state.clone(), seat, lambda s: bots[s], 0)
    expected = state.clone()
    again = {s: RandomBot(10 + s) for s in range(2)}
    for _ in range(3):
        expected.apply(again[expected.current_player()].act(expected))
    assert not expected.is_terminal()
    assert value == rollout_value(expected, seat, search.margin_weight, game.score_scale)

    calls: list[int] = []

    def counting(seat: int, seed: int):
        bot = RandomBot(seed)

        class Counting:
            def act(self, s):
                calls.append(1)
                return bot.act(s)
        return Counting()

    ISMCTS(game, simulations=8, seed=3, opponents=counting).search(state)
    full = len(calls)
    calls.clear()
    short = ISMCTS(game, simulations=8, seed=3, opponents=counting, playout_depth=2)
    result = short.search(state)
    assert len(calls) < full / 4 and result.simulations == 8
    assert state.legal_mask()[result.action]
    assert result.action == ISMCTS(game, simulations=8, seed=3, opponents=counting,
                                   playout_depth=2).search(state).action
    with pytest.raises(ValueError, match="playout_depth"):
        ISMCTS(game, playout_depth=0)


def _network_positions(count: int):
    """Necropolis positions (2 players) where the shipped network's prior has a clear best."""
    agent = load(NECROPOLIS)
    positions = []
    for seed in range(count):
        game, state = _midgame("necropolis_railway_v1", 40 + seed, 6 + seed, num_players=2)
        positions.append((game, state))
    return agent, positions


def _prior_best(agent, state) -> int:
    mask = state.legal_mask()
    logits = np.where(mask, agent.logits(state.observation(state.current_player()), mask),
                      -np.inf)
    return int(np.argmax(logits))


def test_a_search_whose_values_do_not_separate_the_actions_plays_the_prior_best():
    """The cause of アジアンデリバリー's @hard losing to its own network: with Gumbel noise at
    the root and values that do not tell the candidates apart, the move was a sample of the
    prior, not its best.  Without the noise (gumbel_scale=0), or with the evidence rule, a
    search with no evidence plays the prior's best; with the noise it departs."""
    agent, positions = _network_positions(8)
    flat = lambda det, seat: 0.5  # noqa: E731 - values that say nothing
    noisy = departed = 0
    for game, state in positions:
        best = _prior_best(agent, state)
        kw = dict(prior=agent, value=flat, simulations=16, root="gumbel", considered=4,
                  c_scale=0.3, normalise_q=False, seed=3)
        noisy += ISMCTS(game, **kw).choose(state) != best
        departed += ISMCTS(game, gumbel_scale=0.0, **kw).choose(state) != best
        departed += ISMCTS(game, min_evidence=1.0, **kw).choose(state) != best
        departed += ISMCTS(game, **{**kw, "root": "puct"}, min_evidence=1.0).choose(state) != best
    assert noisy > 0, "the noisy root was expected to depart on some of these positions"
    assert departed == 0


def test_evidence_lets_a_clear_value_overrule_the_prior():
    """The evidence rule keeps a departure the values show by more than ``min_evidence``
    standard errors: a second choice whose value is always higher is played."""
    agent, positions = _network_positions(3)
    for game, state in positions:
        mask = state.legal_mask()
        logits = np.where(mask, agent.logits(state.observation(state.current_player()), mask),
                          -np.inf)
        second = int(np.argsort(-logits)[1])

        class Probe(ISMCTS):
            """Values the root action each simulation takes: ``second`` is always better."""

            def _simulate(self, det, seat, root, rng, first=None):
                self.taken = first
                super()._simulate(det, seat, root, rng, first)

            def favoured(self, det, s, second=second):
                return float(self.taken == second) + 0.01 * (len(det.legal_actions()) % 3)

        search = Probe(game, prior=agent, simulations=16, root="gumbel", considered=4,
                       c_scale=0.3, normalise_q=False, seed=3, gumbel_scale=0.0,
                       min_evidence=2.0)
        search.value = search.favoured
        assert search.choose(state) == second


def test_search_settings_out_of_range_are_refused():
    game = envs.make_game("toy_v0", num_players=2)
    with pytest.raises(ValueError, match="gumbel_scale"):
        ISMCTS(game, gumbel_scale=-1.0)
    with pytest.raises(ValueError, match="min_evidence"):
        ISMCTS(game, min_evidence=-0.5)
