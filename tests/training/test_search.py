"""training.search: lockstep rollout search and the look-ahead opponent."""

import json

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.agents import play_game
from meeplezoo.training import export
from meeplezoo.training.agents import search
from meeplezoo.training.agents.bots import make_bot
from meeplezoo.training.agents.opponents import CheckpointError, PolicyBot, load
from meeplezoo.training.fitting import train


@pytest.fixture(scope="module")
def toy_checkpoint(tmp_path_factory):
    out = tmp_path_factory.mktemp("toy")
    assert train.main([
        "--env", "toy_v0", "--players", "2", "--timesteps", "256", "--n-envs", "1",
        "--n-steps", "128", "--batch-size", "64", "--opponents", "heuristic", "--seed", "3",
        "--out", str(out), "--no-progress", "--net", "16",
    ]) == 0
    return export.export_model(out / "final_model.zip", "toy_policy", out / "ckpt")


def test_rollout_value_is_win_share_plus_weighted_margin():
    game = envs.make_game("toy_v0", num_players=2)
    state = game.new_initial_state(0)
    state.scores_ = [12, 7]
    state.hands = [[0, 0], [0, 0]]
    assert search.rollout_value(state, 0, 0.2, 10.0) == pytest.approx(1.0 + 0.2 * 5 / 10)
    assert search.rollout_value(state, 1, 0.2, 10.0) == pytest.approx(0.0 - 0.2 * 5 / 10)
    state.scores_ = [9, 9]  # a shared win: half a win each, no margin
    assert search.rollout_value(state, 1, 0.2, 10.0) == pytest.approx(0.5)


def test_rollout_value_alone_is_the_score_in_scale_units():
    """Solo: nobody to beat, so the score is the whole value (not a 0.1-weighted
    tie-breaker on a win share that is always 1)."""
    game = envs.make_game("necropolis_railway_v1", num_players=1)
    state = game.new_initial_state(3)
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))
    score = state.scores()[0]
    assert score > 0
    assert search.rollout_value(state, 0, 0.1, game.score_scale) == pytest.approx(
        score / game.score_scale)
    assert search.rollout_value(state, 0, 0.5, game.score_scale) == pytest.approx(
        score / game.score_scale)


def test_search_compares_candidates_on_the_same_futures(toy_checkpoint):
    """Two identical cards in hand are two actions with the same future: with
    common random numbers their values are exactly equal, whatever the luck."""
    game = envs.make_game("toy_v0", num_players=2)
    policy = load(toy_checkpoint)
    for model in (search.bot_model(game, ["heuristic"]), None):
        for seed in range(5):
            state = game.new_initial_state(seed)
            state.hands[0] = [7, 7]
            values = search.RolloutSearch(game, policy, model, 3, 0.2,
                                          np.random.default_rng(seed)).values(state)
            assert set(values) == {0, 1, 2}
            assert values[0] == values[1]


@pytest.mark.parametrize("model", ["heuristic", "random", "self"])
def test_lockstep_playouts_equal_one_game_at_a_time(toy_checkpoint, model):
    """The batched lockstep playouts are the same games as playing each future
    alone with ``play_game`` (policy in the searching seat, the model elsewhere)."""
    game = envs.make_game("toy_v0", num_players=3)
    agent = load(toy_checkpoint)
    opponents = search.opponent_model(game, model)
    state = game.new_initial_state(11)
    state.apply(state.legal_actions()[0])  # seat 1 to move: the searcher is not seat 0
    seat = state.current_player()
    rollouts, weight = 4, 0.3
    got = search.RolloutSearch(game, agent, opponents, rollouts, weight,
                               np.random.default_rng(5)).values(state)
    seeds = [int(s) for s in np.random.default_rng(5).integers(2**31, size=rollouts)]
    for action in state.legal_actions():
        total = 0.0
        for seed in seeds:
            future = state.resample_hidden(seat, np.random.default_rng(seed))
            future.apply(action)
            lineup = opponents(seed) if opponents else [None] * game.num_players
            bots = [PolicyBot(agent) if bot is None or i == seat else bot
                    for i, bot in enumerate(lineup)]
            end = play_game(future, bots)
            total += search.rollout_value(end, seat, weight, game.score_scale)
        assert got[action] == pytest.approx(total / rollouts, abs=1e-12)


def test_the_search_reads_only_what_its_seat_may_see(toy_checkpoint):
    """Two positions that differ only in the opponent's hand and the deck
    order look the same to seat 0: the search values them identically."""
    game = envs.make_game("toy_v0", num_players=2)
    agent = load(toy_checkpoint)
    state = game.new_initial_state(4)
    other = state.clone()
    hidden = other.deck + other.hands[1]
    shuffled = [int(c) for c in np.random.default_rng(0).permutation(hidden)]
    other.hands[1], other.deck = shuffled[:2], shuffled[2:]
    assert np.array_equal(state.observation(0), other.observation(0))
    assert other.hands[1] != state.hands[1] or other.deck != state.deck
    for model in ("heuristic", "self"):
        values = [search.RolloutSearch(game, agent, search.opponent_model(game, model), 4, 0.2,
                                       np.random.default_rng(2)).values(s)
                  for s in (state, other)]
        assert values[0] == values[1]


def test_lookahead_plays_its_policy_where_it_does_not_search(
        toy_checkpoint):
    game = envs.make_game("toy_v0", num_players=2)
    agent = load(toy_checkpoint)
    idle = search.LookaheadBot(game, agent, ["no_such_kind"], 2, seed=0)
    busy = search.LookaheadBot(game, agent, [game.new_initial_state(0).decision_name()], 4,
                               opponents=search.opponent_model(game, "heuristic"), seed=0)
    for seed in range(6):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            own = PolicyBot(agent).act(state)
            assert idle.act(state) == own
            choice = busy.act(state)
            assert state.legal_mask()[choice]
            state.apply(choice)
    assert idle.searched == 0
    assert busy.searched > 0 and 0 <= busy.changed <= busy.searched


def test_lookahead_choice_is_the_best_value_and_keeps_the_policy_on_ties(toy_checkpoint,
                                                                       monkeypatch):
    game = envs.make_game("toy_v0", num_players=2)
    agent = load(toy_checkpoint)
    bot = search.LookaheadBot(game, agent, [game.new_initial_state(0).decision_name()], 2,
                              seed=0)
    state = game.new_initial_state(1)
    own = bot.own_choice(state)
    others = [a for a in state.legal_actions() if a != own]
    monkeypatch.setattr(bot.search, "values",
                        lambda s: {own: 0.5, others[0]: 0.9, **{a: 0.1 for a in others[1:]}})
    assert bot.act(state) == others[0] and bot.changed == 1
    monkeypatch.setattr(bot.search, "values",
                        lambda s: {own: 0.9, **{a: 0.9 for a in others}})
    assert bot.act(state) == own and bot.changed == 1


def test_batched_policy_acts_like_one_row_at_a_time(toy_checkpoint):
    agent = load(toy_checkpoint)
    rng = np.random.default_rng(0)
    obs = rng.random((64, agent.observation_size)).astype(np.float32)
    masks = rng.random((64, agent.action_count)) < 0.5
    masks[np.arange(64), rng.integers(agent.action_count, size=64)] = True
    batch = agent.act_batch(obs, masks)
    assert list(batch) == [agent.act(o, m) for o, m in zip(obs, masks)]
    stochastic = load(toy_checkpoint, stochastic=True, seed=1)
    for _ in range(20):
        assert masks[np.arange(64), stochastic.act_batch(obs, masks)].all()
    with pytest.raises(CheckpointError, match="takes observations of"):
        agent.act_batch(obs[:, :-1], masks)
    masks[3] = False
    with pytest.raises(ValueError, match="all zero"):
        agent.act_batch(obs, masks)


def test_export_lookahead_ships_the_network_with_its_search(toy_checkpoint, tmp_path):
    assert export.main([
        "--lookahead", str(toy_checkpoint), "--name", "toy_look", "--out", str(tmp_path),
        "--search", "decide", "--rollouts", "2", "--opponent-model", "heuristic",
    ]) == 0
    folder = tmp_path / "toy_v0" / "toy_look"
    card = json.loads((folder / "card.json").read_text())
    base = json.loads((toy_checkpoint / "card.json").read_text())
    assert (folder / "policy.onnx").read_bytes() == (toy_checkpoint / "policy.onnx").read_bytes()
    assert card["lookahead"]["search"] == ["decide"] and card["lookahead"]["rollouts"] == 2
    assert card["lookahead"]["opponent_model"] == "heuristic"
    command = card["lookahead"]["command"]
    assert command.startswith("meeplezoo export --lookahead ")
    assert card["lookahead"]["code_commit"]  # the export's own commit, beside the training's
    assert card["command"] == base["command"] and card["seed"] == base["seed"]
    assert card["algorithm"].endswith("decision-time rollout search (training.search)")
    game = envs.make_game("toy_v0", num_players=2)
    bot = make_bot(str(folder), game, seed=0)
    assert isinstance(bot, search.LookaheadBot) and bot.search.rollouts == 2
    assert isinstance(make_bot(str(folder), game, lookahead=False), PolicyBot)
    end = play_game(game.new_initial_state(3), [bot, make_bot("random", game, 1)])
    assert end.is_terminal() and bot.searched > 0
    # evaluated later into the same card, field by field
    assert export.main(["--evaluate", str(folder), "--eval-games", "4",
                        "--eval-fields", "random"]) == 0
    assert export.main(["--evaluate", str(folder), "--eval-games", "4",
                        "--eval-fields", "heuristic"]) == 0
    evaluation = json.loads((folder / "card.json").read_text())["evaluation"]
    assert set(evaluation) == {"vs_random", "vs_heuristic"}
    assert evaluation["vs_random"]["command"].endswith("--eval-fields random")
    assert evaluation["vs_random"]["code_commit"] == card["lookahead"]["code_commit"]
    assert evaluation["vs_heuristic"]["games"] == 4


def test_bad_lookahead_input_is_refused(toy_checkpoint, tmp_path):
    game = envs.make_game("toy_v0", num_players=2)
    agent = load(toy_checkpoint)
    with pytest.raises(ValueError, match="at least one decision kind"):
        search.LookaheadBot(game, agent, [], 2)
    with pytest.raises(ValueError, match="rollouts must be at least 1"):
        search.LookaheadBot(game, agent, ["decide"], 0)
    with pytest.raises(ValueError, match="random, heuristic or checkpoint"):
        search.opponent_model(game, "heuristic,self")
    with pytest.raises(SystemExit):
        export.main(["--lookahead", str(toy_checkpoint), "--name", "x", "--out", str(tmp_path),
                     "--rollouts", "0"])
    with pytest.raises(ValueError, match="its own --name"):
        export.main(["--lookahead", str(toy_checkpoint), "--name", toy_checkpoint.name,
                     "--out", str(toy_checkpoint.parent.parent)])
    with pytest.raises(SystemExit):
        export.main(["--evaluate", str(toy_checkpoint), "--eval-games", "2",
                     "--eval-fields", "nobody"])
    folder = tmp_path / "toy_v0" / "damaged"
    export.main(["--lookahead", str(toy_checkpoint), "--name", "damaged", "--out",
                 str(tmp_path), "--search", "decide"])
    with pytest.raises(ValueError, match="already has a look-ahead"):
        export.main(["--lookahead", str(folder), "--name", "again", "--out", str(tmp_path)])
    card = json.loads((folder / "card.json").read_text())
    del card["lookahead"]["rollouts"]
    (folder / "card.json").write_text(json.dumps(card))
    with pytest.raises(CheckpointError, match="damaged lookahead block"):
        make_bot(str(folder), game)
    malformed = [("search", "decide", "lookahead.search: expected a list"),
                 ("search", [], "lookahead.search: expected a list of length 1"),
                 ("rollouts", "8", "lookahead.rollouts: expected an integer"),
                 ("rollouts", 2.0, "lookahead.rollouts: expected an integer"),
                 ("margin_weight", float("nan"), "lookahead.margin_weight: expected a finite"),
                 ("opponent_model", None, "lookahead.opponent_model: expected a string"),
                 ("surprise", 1, "unexpected key")]
    good = json.loads((folder / "card.json").read_text())["lookahead"] | {"rollouts": 2}
    for key, value, message in malformed:
        card = json.loads((folder / "card.json").read_text())
        card["lookahead"] = {**good, key: value}
        (folder / "card.json").write_text(json.dumps(card))
        with pytest.raises(CheckpointError, match=f"damaged lookahead block.*{message}"):
            make_bot(str(folder), game)
