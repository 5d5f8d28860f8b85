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


# -- leaf batching -------------------------------------------------------------------------

class CountingValue:
    """A leaf value that reads only the seat's observation (a fixed projection of it, so
    positions differ), counting its single calls and the sizes of its batched ones."""

    def __init__(self) -> None:
        self.single = 0
        self.batches: list[int] = []

    @staticmethod
    def of(observation) -> float:
        obs = np.asarray(observation, dtype=np.float64)
        return 0.5 + 0.4 * float(np.sin(obs @ np.arange(1, obs.size + 1) * 0.01))

    def __call__(self, state, seat) -> float:
        self.single += 1
        return self.of(state.observation(seat))

    def batch(self, states, seats) -> list[float]:
        self.batches.append(len(states))
        return [self.of(s.observation(seat)) for s, seat in zip(states, seats)]


class RootProbe(ISMCTS):
    """Keeps the root of its last search, to read the tree after it."""

    def _run(self, state, seat, root, rng, firsts, start, done):
        self.root_node = root
        return super()._run(state, seat, root, rng, firsts, start, done)


def _tree_nodes(root):
    stack, nodes = [root], []
    while stack:
        node = stack.pop()
        nodes.append(node)
        stack.extend(node.children.values())
    return nodes


@pytest.mark.parametrize("root", ["puct", "gumbel"])
def test_leaf_batch_one_is_the_unbatched_search(root):
    game, state = _midgame("necropolis_railway_v1", 1, 6, num_players=2)
    agent = load(NECROPOLIS)
    kw = dict(prior=agent, simulations=16, seed=4, root=root, considered=4)
    plain = ISMCTS(game, value=CountingValue(), **kw).search(state)
    one = ISMCTS(game, value=CountingValue(), leaf_batch=1, **kw).search(state)
    assert (one.action, one.visits, one.values) == (plain.action, plain.visits, plain.values)


@pytest.mark.parametrize("root", ["puct", "gumbel"])
def test_a_batched_search_keeps_its_budget_leaves_no_virtual_loss_and_repeats(root):
    game, state = _midgame("necropolis_railway_v1", 1, 6, num_players=2)
    agent = load(NECROPOLIS)
    kw = dict(prior=agent, simulations=17, seed=2, root=root, considered=4, leaf_batch=8)
    search = RootProbe(game, value=CountingValue(), **kw)
    result = search.search(state)
    if root == "puct":
        assert result.simulations == 17
    assert 1 <= result.simulations <= 17 and sum(result.visits.values()) == result.simulations
    assert state.legal_mask()[result.action]
    assert all(not node.pending for node in _tree_nodes(search.root_node))
    again = ISMCTS(game, value=CountingValue(), **kw).search(state)
    assert (again.action, again.visits, again.values) == (result.action, result.visits,
                                                          result.values)


@pytest.mark.parametrize("root", ["puct", "gumbel"])
@pytest.mark.parametrize("name, config", [("toy_v0", {"num_players": 3}),
                                          ("necropolis_railway_v1", {"num_players": 2})])
def test_a_batched_search_reads_only_what_the_player_can_see(name, config, root):
    game, state = _midgame(name, 3, 4, **config)
    seat = state.current_player()
    other = state.resample_hidden(seat, np.random.default_rng(99))
    assert other.to_dict() != state.to_dict()
    kw = dict(simulations=24, seed=5, root=root, leaf_batch=8)
    one = ISMCTS(game, value=CountingValue(), **kw).search(state)
    two = ISMCTS(game, value=CountingValue(), **kw).search(other)
    assert (one.action, one.visits, one.values) == (two.action, two.visits, two.values)


def test_the_batched_value_and_prior_see_several_leaves_a_call():
    game, state = _midgame("necropolis_railway_v1", 1, 6, num_players=2)
    value = CountingValue()
    prior_batches: list[int] = []

    class Prior:
        """A uniform prior with a batch, counting its batched calls."""

        def __call__(self, state, seat):
            mask = state.legal_mask().astype(np.float64)
            return mask / mask.sum()

        def batch(self, states, seats):
            prior_batches.append(len(states))
            return [self(s, seat) for s, seat in zip(states, seats)]

    result = ISMCTS(game, prior=Prior(), value=value, simulations=32, leaf_batch=8,
                    seed=1).search(state)
    assert result.simulations == 32 and value.single == 0
    assert 1 <= len(value.batches) <= 32 // 8 and max(value.batches) > 1
    assert prior_batches == value.batches  # the same leaves, one prior call each batch
    unbatched = CountingValue()
    ISMCTS(game, value=unbatched, simulations=32, seed=1).search(state)
    assert unbatched.batches == [] and unbatched.single > 8


def test_virtual_loss_spreads_a_batch_over_the_root_actions():
    """With a uniform prior and no values yet, every descent of a batch would take the same
    root action (PUCT's tie-break) but for the virtual loss of the ones before it."""
    game, state = _midgame("necropolis_railway_v1", 2, 6, num_players=2)
    legal = state.legal_actions()
    flat = lambda det, seat: 0.5  # noqa: E731 - no value separates the actions
    spread = ISMCTS(game, value=flat, simulations=8, leaf_batch=8, seed=0).search(state)
    assert len(spread.visits) == min(8, len(legal)) > 1
    piled = ISMCTS(game, value=flat, simulations=8, leaf_batch=8, seed=0,
                   virtual_loss=0.0).search(state)
    assert len(piled.visits) == 1


def test_two_descents_reaching_one_new_node_share_it_and_its_evaluation():
    """Toy: the player passes (the prior's choice), the opponent passes too, so every
    descent of the batch reaches the same next information set: one node, one evaluation,
    eight backups."""
    game = envs.make_game("toy_v0", num_players=2)
    state = game.new_initial_state(0)

    class Passer:
        def act(self, s):
            mask = s.legal_mask()
            return 2 if mask[2] else int(np.flatnonzero(mask)[0])

    value = CountingValue()
    search = RootProbe(game, prior=lambda s, seat: np.array([0.05, 0.05, 0.9]), value=value,
                       opponents=lambda seat, seed: Passer(), simulations=8, leaf_batch=8,
                       seed=0)
    result = search.search(state)
    assert result.visits == {2: 8} and result.simulations == 8
    assert value.batches == [1] and value.single == 0  # one evaluation for the eight
    assert len(search.root_node.children) == 1
    (child,) = search.root_node.children.values()
    assert child.visits == {} and not search.root_node.pending


def test_network_prior_and_value_batch_by_role():
    """``network_prior(...).batch`` answers what one call per state would; a team's value
    makes one ``values_batch`` call per role, each with that role's states."""
    from meeplezoo.training.agents.ismcts import network_prior, network_value

    agent = load(NECROPOLIS)
    states = [(_midgame("necropolis_railway_v1", s, 4 + s, num_players=2)[1]) for s in range(4)]
    seats = [s.current_player() for s in states]
    prior = network_prior(agent)
    for one, many in zip([prior(s, seat) for s, seat in zip(states, seats)],
                         prior.batch(states, seats)):
        np.testing.assert_allclose(one, many, atol=1e-6)

    class Member:
        def __init__(self, role):
            self.role, self.calls = role, []

        def value(self, observation, mask):
            return 0.0

        def values_batch(self, observations, masks):
            self.calls.append(len(observations))
            return np.full(len(observations), 0.5)

    game = envs.make_game("hegemony_v1")
    members = {role: Member(role) for role in game.roles}
    table = game.new_initial_state(0)
    seats = [0, 1, 0, 2, 1, 0]
    values = network_value(members).batch([table] * len(seats), seats)
    assert values == [0.75] * len(seats)
    assert {r: m.calls for r, m in members.items()} == {
        game.seat_role(0): [3], game.seat_role(1): [2], game.seat_role(2): [1],
        game.seat_role(3): []}


def test_batched_search_settings_out_of_range_are_refused():
    game = envs.make_game("toy_v0", num_players=2)
    with pytest.raises(ValueError, match="playouts are not batched"):
        ISMCTS(game, leaf_batch=8)
    with pytest.raises(ValueError, match="leaf_batch"):
        ISMCTS(game, value=lambda s, seat: 0.5, leaf_batch=0)
    with pytest.raises(ValueError, match="virtual_loss"):
        ISMCTS(game, value=lambda s, seat: 0.5, leaf_batch=8, virtual_loss=-1.0)


def test_the_search_benchmark_times_each_batch_size_with_the_networks_value_or_a_stand_in():
    from meeplezoo.training.evaluation.search_bench import measure

    solo = measure("necropolis_railway_v1", 1, NECROPOLIS, [1], simulations=4, root="puct",
                   count=1, rounds=1, seed=0)
    assert solo["leaf"] == "stand-in"  # its value was fitted at 2 players, not alone
    row = measure("necropolis_railway_v1", 2, NECROPOLIS, [1, 8], simulations=16,
                  root="puct", count=2, rounds=1, seed=0)
    assert row["leaf"] == "value"
    assert row["simulations_run"] == {"1": 32, "8": 32}
    assert row["value_calls"]["8"] <= 2 * 2 < row["value_calls"]["1"]
    assert all(rate > 0 for rate in row["simulations_per_s"].values())
