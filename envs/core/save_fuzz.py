"""Tampered saved games: every mutant is refused, or plays on soundly.

Saved states are taken from random points of random games, then every field
is mutated in turn: wrong types, lengths one longer or shorter, a list's first
item removed or its order reversed, negative, huge, NaN and infinity, strings,
missing and extra keys.  Each mutant must be
refused by ``load_state`` with ``CorruptStateError``, or load into a game that
plays 50 random steps with observations inside the observation space, a legal
action wherever one is due, the game's invariants holding, and no step
taking longer than a few seconds (a hang).

    meeplezoo save-fuzz --env necropolis_railway_v1 --players 2 --states 4

prints the counts (tried, refused, played on soundly); the test suite runs a
sample of the mutants by default and all of them under ``-m soak``.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from meeplezoo.envs.core.aec import MeepleAECEnv, env_functions
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import CorruptStateError
from meeplezoo.envs.core.game import Game, parse_options
from meeplezoo.envs.core.progress import Progress

PLAY_ON_STEPS = 50
STEP_SECONDS = 5.0  # a load or one step slower than this counts as a hang

Path = tuple[Any, ...]  # keys and indices from the saved dict's root


class Hang(Exception):
    """A load or a step that did not finish in time."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise ``Hang`` if the block runs longer than ``seconds`` (main thread, POSIX only)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise Hang(f"no answer after {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _nodes(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _nodes(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _nodes(child, (*path, i))


def _variants(value: Any) -> list[tuple[str, Any]]:
    """Tampered replacements for one value, each with a short label."""
    common: list[tuple[str, Any]] = [("null", None), ("nan", math.nan), ("inf", math.inf)]
    if isinstance(value, bool):
        return [("flipped", not value), ("as int", int(value)), ("as string", str(value).lower()),
                *common]
    if isinstance(value, int):
        return [("+1", value + 1), ("-1", value - 1), ("negative", -value - 1),
                ("huge", value + 2**64), ("huge negative", -(2**70)), ("as float", value + 0.0),
                ("fraction", value + 0.5), ("as string", str(value)), ("as bool", value != 0),
                ("-inf", -math.inf), *common]
    if isinstance(value, float):
        return [("+1", value + 1.0), ("negative", -value - 1.0), ("as string", str(value)),
                *common]
    if isinstance(value, str):
        return [("other string", value + "_x"), ("empty string", ""), ("as int", 0), *common]
    if isinstance(value, list):
        out: list[tuple[str, Any]] = [("length-1", value[:-1]), ("first removed", value[1:]),
                                      ("reversed", value[::-1]), ("empty", []),
                                      ("as object", {}), ("as string", "[]"), *common]
        if value:
            out.append(("length+1", [*value, copy.deepcopy(value[-1])]))
        else:
            out.append(("length+1", [0]))
        return out
    if isinstance(value, dict):
        out = [(f"missing {key!r}", {k: v for k, v in value.items() if k != key})
               for key in value]
        out += [("extra key", {**value, "zz_extra": 0}), ("as list", []), *common]
        return out
    return common


def mutation_sites(saved: dict[str, Any]) -> list[tuple[str, Path, Any]]:
    """Every single-field mutation of a saved state as (``path: what``, path, new value),
    without copying the state (a mutant is built only when it is tried)."""
    sites = []
    for path, value in _nodes(saved):
        where = ".".join(str(p) for p in path) or "<root>"
        sites += [(f"{where}: {label}", path, new) for label, new in _variants(value)]
    return sites


def mutant(saved: dict[str, Any], path: Path, value: Any) -> Any:
    """A deep copy of ``saved`` with the field at ``path`` replaced by ``value``."""
    if not path:
        return copy.deepcopy(value)
    twin = copy.deepcopy(saved)
    parent = twin
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = copy.deepcopy(value)
    return twin


def saved_positions(
    game_class: type[Game], config: dict[str, Any], count: int, seed: int
) -> list[dict[str, Any]]:
    """``count`` env saves, each from a uniformly random point of its own random game
    (mid-game almost always; as JSON would return them)."""
    _, raw_env = env_functions(game_class)
    rng = np.random.default_rng(seed)
    saves = []
    for _ in range(count):
        env = raw_env(**config)
        env.reset(seed=int(rng.integers(2**31)))
        along = []
        while not env.state.is_terminal() and not any(env.truncations.values()):
            along.append(json.dumps(env.save_state()))
            legal = np.flatnonzero(env.state.legal_mask())
            env.step(int(legal[rng.integers(legal.size)]))
        along.append(json.dumps(env.save_state()))
        saves.append(json.loads(along[int(rng.integers(len(along)))]))
    return saves


def play_on(env: MeepleAECEnv, rng: np.random.Generator, steps: int = PLAY_ON_STEPS) -> None:
    """Random legal steps through the AEC API, checking spaces, masks and invariants."""
    env.state.check_invariants()
    for _ in range(steps):
        if not env.agents:
            return
        agent = env.agent_selection
        with time_limit(STEP_SECONDS):
            obs, _, term, trunc, _ = env.last()
        space = env.observation_space(agent)
        assert space.contains(obs), f"{agent}'s observation is outside its space"
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size, f"{agent} must move but has no legal action"
        with time_limit(STEP_SECONDS):
            env.step(int(legal[rng.integers(legal.size)]))
        env.state.check_invariants()


@dataclass
class FuzzCounts:
    tried: int = 0
    refused: int = 0
    played_on: int = 0

    def add(self, other: FuzzCounts) -> None:
        self.tried += other.tried
        self.refused += other.refused
        self.played_on += other.played_on


def fuzz_saves(
    game_class: type[Game],
    config: dict[str, Any],
    states: int = 2,
    sample: int | None = 150,
    seed: int = 0,
    progress: bool | str | None = "off",
) -> FuzzCounts:
    """Mutate saves of ``config``'s games; AssertionError names the first unsound mutant.

    ``sample`` mutants are drawn from each state's full list (all of them when None);
    ``progress`` counts them on stderr (``envs.core.progress``).
    """
    _, raw_env = env_functions(game_class)
    rng = np.random.default_rng(seed)
    counts = FuzzCounts()
    plan = []  # (saved state, its mutants), drawn first: the total is known from the start
    for saved in saved_positions(game_class, config, states, seed):
        sites = mutation_sites(saved)
        if sample is not None and sample < len(sites):
            picks = rng.choice(len(sites), size=sample, replace=False)
            sites = [sites[i] for i in sorted(picks)]
        plan.append((saved, sites))
    with Progress(sum(len(sites) for _, sites in plan), f"save-fuzz {game_class.name} "
                  f"{config.get('num_players', '')}p", unit="mutant", style=progress) as bar:
        for saved, sites in plan:
            _fuzz_state(raw_env, config, saved, sites, seed, counts, bar)
    return counts


def _fuzz_state(raw_env: Any, config: dict[str, Any], saved: dict[str, Any],
                sites: list[tuple[str, Path, Any]], seed: int, counts: FuzzCounts,
                bar: Progress) -> None:
    """One saved state: it plays on, then every mutant of ``sites`` is tried."""
    name = raw_env.game_class.name
    original = raw_env(**config)
    original.load_state(copy.deepcopy(saved))
    play_on(original, np.random.default_rng(seed))
    for label, path, value in sites:
        bar.update()
        data = mutant(saved, path, value)
        counts.tried += 1
        env = raw_env(**config)
        try:
            with time_limit(STEP_SECONDS):
                env.load_state(data)
        except CorruptStateError:
            counts.refused += 1
            continue
        except Exception as exc:
            raise AssertionError(
                f"{name} {config}: mutant {label} raised "
                f"{type(exc).__name__}: {exc} instead of CorruptStateError"
            ) from exc
        try:
            play_on(env, np.random.default_rng(counts.tried))
        except Exception as exc:
            raise AssertionError(
                f"{name} {config}: mutant {label} loaded, then "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        counts.played_on += 1


def save_fuzz_tests(
    game_class: type[Game], configs: list[dict[str, Any]], sample: int = 150
) -> tuple[Any, Any]:
    """Two pytest tests over ``configs``: a sampled default run and a full ``soak`` run."""
    import pytest

    from meeplezoo.envs.core.testing import config_id

    ids = [config_id(c) for c in configs]

    @pytest.mark.parametrize("config", configs, ids=ids)
    def test_save_fuzz(config: dict[str, Any]) -> None:
        counts = fuzz_saves(game_class, config, states=1, sample=sample)
        assert counts.refused > 0 and counts.tried == counts.refused + counts.played_on

    @pytest.mark.soak
    @pytest.mark.parametrize("config", configs, ids=ids)
    def test_save_fuzz_soak(config: dict[str, Any]) -> None:
        counts = fuzz_saves(game_class, config, states=4, sample=None, seed=1)
        assert counts.tried == counts.refused + counts.played_on

    return test_save_fuzz, test_save_fuzz_soak


def main(argv: list[str] | None = None) -> int:
    from meeplezoo import envs

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--env", required=True, choices=envs.list_envs())
    p.add_argument("--players", type=int, nargs="+", required=True)
    p.add_argument("--states", type=int, default=4, help="saved positions per player count")
    p.add_argument("--sample", type=int, default=None,
                   help="mutants drawn per position (default: every mutant)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable), e.g. distance_coins=true")
    args = p.parse_args(argv)
    game_class = envs.game_class(args.env)
    options = parse_options(args.option)
    total = FuzzCounts()
    for n in args.players:
        counts = fuzz_saves(game_class, {"num_players": n, **options}, args.states, args.sample,
                            args.seed, progress="auto")
        print(f"{args.env} {n}p: tried {counts.tried}, refused {counts.refused}, "
              f"played on soundly {counts.played_on}")
        total.add(counts)
    print(f"total: tried {total.tried}, refused {total.refused}, "
          f"played on soundly {total.played_on}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
