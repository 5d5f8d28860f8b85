"""The conformance kit: checks every MeepleZoo game must pass.

Each check takes a game class and a config dict (``num_players`` and options)
and raises AssertionError with a reason.  ``conformance_suite`` turns them into
one parametrised pytest test, so a game's conformance file is three lines.
Set ``MEEPLEZOO_SOAK=N`` to multiply the number of random playouts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from meeplezoo.envs.core.aec import env_functions
from meeplezoo.envs.core.errors import ConfigError, CorruptStateError, IllegalActionError
from meeplezoo.envs.core.game import Game, GameState, state_from_saved
from meeplezoo.envs.core.schema import validate

SOAK = max(1, int(os.environ.get("MEEPLEZOO_SOAK", "1")))


def _random_action(state: GameState, rng: np.random.Generator) -> int:
    mask = state.legal_mask()
    legal = np.flatnonzero(mask)
    assert legal.size > 0, (
        f"{state.game.name}: empty mask at decision '{state.decision_name()}' "
        f"for player {state.current_player()} while the game is not over"
    )
    return int(legal[rng.integers(legal.size)])


def _check_observation(state: GameState, player: int) -> np.ndarray:
    game = state.game
    role = game.seat_role(player)
    obs = state.observation(player)
    size = game.observation_size(role)
    assert isinstance(obs, np.ndarray) and obs.dtype == np.float32, "observation must be float32"
    assert obs.shape == (size,), f"observation shape {obs.shape} != ({size},)"
    low, high = game.observation_bounds(role)
    bad = np.flatnonzero(~((obs >= low) & (obs <= high)))
    if bad.size:
        names = game.feature_names(role)
        shown = ", ".join(f"{names[i]}={obs[i]}" for i in bad[:5])
        raise AssertionError(f"{game.name}: features out of [{low}, {high}]: {shown}")
    return obs


def check_sizes(game_class: type[Game], config: dict[str, Any]) -> None:
    """Each role's sizes and names do not depend on the player count; names are unique."""
    game = game_class(**config)
    assert game.roles and len(set(game.roles)) == len(game.roles), "roles must be unique"
    seated = {game.seat_role(seat) for seat in range(game.num_players)}
    assert seated <= set(game.roles), f"seats play roles outside {game.roles}: {seated}"
    for count in range(game_class.min_players, game_class.max_players + 1):
        other = game_class(**{**config, "num_players": count})
        for role in seated & {other.seat_role(s) for s in range(count)}:
            assert other.num_actions(role) == game.num_actions(role), "action count varies"
            assert other.feature_names(role) == game.feature_names(role), "features vary"
    for role in seated:
        names = game.feature_names(role)
        assert len(names) == len(set(names)), "feature names must be unique"
        actions = [game.action_name(a, role) for a in range(game.num_actions(role))]
        assert len(actions) == len(set(actions)), "action names must be unique"
        for a, name in enumerate(actions):
            assert game.action_index(name, role) == a
    if len(game.roles) > 1:  # sizes are keyed by role: no silent default
        try:
            game.num_actions()
        except ConfigError:
            pass
        else:
            raise AssertionError("num_actions() without a role must be refused in an "
                                 "asymmetric game")


def random_positions(state: GameState, seed: int, steps: int) -> Iterator[GameState]:
    """``state`` itself at each of up to ``steps`` random legal decisions (it is played on
    between yields: copy what you keep), stopping at the game's end."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])


def random_playouts(
    game_class: type[Game], config: dict[str, Any], games: int = 30, seed: int = 0
) -> dict[str, float]:
    """Random legal games to the end, checking mask, invariants and features each step."""
    game = game_class(**config)
    rng = np.random.default_rng(seed)
    lengths = []
    for g in range(games * SOAK):
        state = game.new_initial_state(int(rng.integers(2**31)))
        state.check_invariants()
        steps = 0
        while not state.is_terminal():
            player = state.current_player()
            assert 0 <= player < game.num_players, f"bad current player {player}"
            _check_observation(state, player)
            state.apply(_random_action(state, rng))
            state.check_invariants()
            steps += 1
            assert steps <= game.max_decisions, f"game {g} exceeded {game.max_decisions} decisions"
        scores = state.scores()
        assert len(scores) == game.num_players
        breakdown = state.score_breakdown()
        for seat in range(game.num_players):
            _check_observation(state, seat)
            parts = [v for k, v in breakdown[seat].items() if k != "total"]
            if parts:
                assert abs(sum(parts) - scores[seat]) < 1e-6, (
                    f"breakdown {breakdown[seat]} != score"
                )
            assert abs(breakdown[seat]["total"] - scores[seat]) < 1e-6
        lengths.append(steps)
    return {"games": len(lengths), "mean_decisions": float(np.mean(lengths))}


def _play_random(state: GameState, rng: np.random.Generator, steps: int) -> list[int]:
    actions = []
    for _ in range(steps):
        if state.is_terminal():
            break
        action = _random_action(state, rng)
        state.apply(action)
        actions.append(action)
    return actions


def _trajectory(game: Game, seed: int, actions: list[int] | None, rng_seed: int) -> list[Any]:
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(rng_seed)
    trace = []
    i = 0
    while not state.is_terminal():
        action = actions[i] if actions is not None else _random_action(state, rng)
        trace.append((state.current_player(), state.observation(state.current_player()).tobytes()))
        state.apply(action)
        trace.append(action)
        i += 1
    trace.append(list(state.scores()))
    return trace


def check_determinism(game_class: type[Game], config: dict[str, Any], seed: int = 7) -> None:
    """Same seed and actions give the same observations and scores; seeds matter."""
    game = game_class(**config)
    first = _trajectory(game, seed, None, 1)
    actions = [step for step in first if isinstance(step, int)]
    assert _trajectory(game_class(**config), seed, actions, 1) == first, "replay diverged"


def check_save_load(game_class: type[Game], config: dict[str, Any], seed: int = 11) -> None:
    """A JSON round trip mid-game yields the same future under the same actions."""
    game = game_class(**config)
    rng = np.random.default_rng(seed)
    for trial in range(3):
        state = game.new_initial_state(seed + trial)
        _play_random(state, rng, int(rng.integers(0, 60)))
        text = json.dumps(state.to_dict())
        loaded = state_from_saved(game_class, json.loads(text))
        assert json.dumps(loaded.to_dict()) == text, "to_dict after load differs"
        future_seed = int(rng.integers(2**31))
        a = _play_random(state, np.random.default_rng(future_seed), 10_000)
        b = _play_random(loaded, np.random.default_rng(future_seed), 10_000)
        assert a == b, "loaded state took a different future"
        assert state.to_dict() == loaded.to_dict()
        assert list(state.scores()) == list(loaded.scores())


def check_saved_schema(game_class: type[Game], config: dict[str, Any], seed: int = 19) -> None:
    """The game declares the shape of its saved state, and every reachable state fits it."""
    game = game_class(**config)
    schema = game.state_schema()
    assert schema is not None, f"{game.name} declares no state_schema() for its saved games"
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    while True:
        validate(schema, json.loads(json.dumps(state._to_dict())), "state")
        if state.is_terminal():
            return
        state.apply(_random_action(state, rng))


def check_clone(game_class: type[Game], config: dict[str, Any], seed: int = 13) -> None:
    """``clone()`` equals its source and is independent of it (RNG included)."""
    game = game_class(**config)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    _play_random(state, rng, 15)
    if state.is_terminal():
        return
    before = json.dumps(state.to_dict())
    copy = state.clone()
    assert json.dumps(copy.to_dict()) == before, "clone differs from source"
    _play_random(copy, rng, 10_000)
    assert json.dumps(state.to_dict()) == before, "playing the clone changed the source"
    twin = state.clone()
    future_seed = int(rng.integers(2**31))
    a = _play_random(state, np.random.default_rng(future_seed), 10_000)
    b = _play_random(twin, np.random.default_rng(future_seed), 10_000)
    assert a == b and state.to_dict() == twin.to_dict(), "clone's chance diverged"


def check_no_leak(
    game_class: type[Game], config: dict[str, Any], seed: int = 17, points: int = 12
) -> None:
    """Re-drawing what a player cannot see leaves that player's observation unchanged.

    A game that declares hidden information must re-draw it: keeping the default
    ``resample_hidden`` (a plain clone) would let this check pass without testing anything.
    """
    game = game_class(**config)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    if game.hidden_information:
        assert type(state).resample_hidden is not GameState.resample_hidden, (
            f"{game.name} declares hidden information but keeps the default resample_hidden "
            "(a plain clone): re-draw what each player cannot see, or set "
            "hidden_information = False"
        )
    for _ in range(points):
        if state.is_terminal():
            state = game.new_initial_state(int(rng.integers(2**31)))
        _play_random(state, rng, int(rng.integers(1, 12)))
        for player in range(game.num_players):
            before = state.to_dict()
            seen = state.observation(player).copy()
            other = state.resample_hidden(player, np.random.default_rng(int(rng.integers(2**31))))
            assert state.to_dict() == before, "resample_hidden changed the source state"
            other.check_invariants()
            assert np.array_equal(other.observation(player), seen), (
                f"{game.name}: player {player}'s observation depends on hidden information"
            )
            if not other.is_terminal() and other.current_player() == player:
                assert np.array_equal(other.legal_mask(), state.legal_mask()), (
                    f"{game.name}: player {player}'s legal actions depend on hidden information"
                )


def check_pettingzoo_api(game_class: type[Game], config: dict[str, Any]) -> None:
    """PettingZoo's own api_test and seed_test on the wrapped env."""
    from pettingzoo.test import api_test, seed_test

    env, _ = env_functions(game_class)
    api_test(env(**config), num_cycles=200)
    seed_test(lambda: env(**config), num_cycles=200)


def check_env_episode(game_class: type[Game], config: dict[str, Any], seed: int = 3) -> None:
    """Full AEC episodes: rewards at the end, infos with scores, save/load via the env."""
    _, raw_env = env_functions(game_class)
    env = raw_env(**config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    saved = None
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        if saved is None and env.decisions == 5:
            saved = json.dumps(env.save_state())
            kept = {k: v.copy() for k, v in obs.items()}
            for array in obs.values():  # the caller's own arrays: writing them is harmless
                array[:] = 0
            again = env.observe(agent)
            assert all(np.array_equal(again[k], kept[k]) for k in kept), (
                "writing into a returned observation or mask changed the env")
            mask = again["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert not env.agents
    if env.game.num_players > 1 and env.reward_kind == "rank":
        assert abs(sum(totals.values())) < 1e-6, f"rank rewards must sum to 0: {totals}"
    if saved is not None:
        env2 = raw_env(**config)
        env2.reset(seed=seed + 1)
        env2.load_state(saved)
        assert env2.decisions == 5


def check_bad_input(game_class: type[Game], config: dict[str, Any]) -> None:
    """Bad player counts, options, actions and saved states give clear errors."""
    for bad in (game_class.min_players - 1, game_class.max_players + 1, "4", 2.5):
        try:
            game_class(**{**config, "num_players": bad})
        except ConfigError as exc:
            assert "num_players" in str(exc) and str(game_class.min_players) in str(exc)
        else:
            raise AssertionError(f"num_players={bad!r} was accepted")
    try:
        game_class(**config, no_such_option=1)
    except ConfigError as exc:
        assert "no_such_option" in str(exc)
    else:
        raise AssertionError("an unknown option was accepted")
    game = game_class(**config)
    state = game.new_initial_state(5)
    mask = state.legal_mask()
    illegal = np.flatnonzero(~mask)
    role = game.seat_role(state.current_player()) if not state.is_terminal() else None
    for bad_index in (-1, game.num_actions(role), 1.0, True, "0"):
        try:
            game.action_name(bad_index, role)
        except IllegalActionError as exc:
            assert "0.." in str(exc), str(exc)
        else:
            raise AssertionError(f"action_name({bad_index!r}) gave a name")
    others = [-1, mask.shape[0], None, "x", 0.0, True, np.float32(0), np.array(0)]
    for action in ([int(illegal[0])] if illegal.size else []) + others:
        try:
            state.apply(action)
        except IllegalActionError as exc:
            assert "illegal" in str(exc) and "legal:" in str(exc), str(exc)
        else:
            raise AssertionError(f"illegal action {action!r} was accepted")
    saved = state.to_dict()
    damaged = [
        None,
        {"env": "no_such_env_v0", "config": saved["config"], "state": saved["state"]},
        {**saved, "config": {**saved["config"], "num_players": 99}},
        {**saved, "state": {}},
        {**saved, "state": dict(list(saved["state"].items())[: len(saved["state"]) // 2])},
        {**saved, "state": {k: "garbage" for k in saved["state"]}},
    ]
    for data in damaged:
        try:
            state_from_saved(game_class, data)
        except CorruptStateError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"damaged saved state was accepted: {str(data)[:120]}")


CHECKS: dict[str, Callable[[type[Game], dict[str, Any]], Any]] = {
    "sizes": check_sizes,
    "random_playouts": random_playouts,
    "determinism": check_determinism,
    "save_load": check_save_load,
    "saved_schema": check_saved_schema,
    "clone": check_clone,
    "no_leak": check_no_leak,
    "env_episode": check_env_episode,
    "pettingzoo_api": check_pettingzoo_api,
    "bad_input": check_bad_input,
}


def config_id(config: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in config.items()) or "default"


def conformance_suite(game_class: type[Game], configs: list[dict[str, Any]]) -> Callable:
    """A pytest test running every check over every config."""
    import pytest

    cases = [
        pytest.param(name, config, id=f"{name}[{config_id(config)}]")
        for config in configs
        for name in CHECKS
    ]

    @pytest.mark.parametrize(("check", "config"), cases)
    def test_conformance(check: str, config: dict[str, Any]) -> None:
        CHECKS[check](game_class, config)

    test_conformance.__doc__ = f"Conformance kit for {game_class.name}."
    return test_conformance
