"""Games played side by side in threads equal the same games played alone.

The web server runs its tables in a thread pool, so two games of one env share whatever the
engine keeps at module level.  A memo that lives through a turn must therefore belong to that
turn's state (DESIGN.md §8: nothing mutable lives at module level).  Each game here is a pure
function of its seed (random legal play from a seeded generator); played four at a time in
threads, with the interpreter switching threads as often as it can, each must take exactly
the actions, see exactly the observations and reach exactly the scores of its solo twin.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import pytest

from meeplezoo import envs

GAMES = ("asian_delivery_v1", "chihou_sousei_v1", "hegemony_v1", "necropolis_railway_v1")
THREADS = 4  # tables played at once, as a busy web server would
SEEDS = range(1, 13)  # each seed's game is played alone once, then in threads this many times:
REPEATS = {"hegemony_v1": 8}  # Hegemony's module-level turn memo made ~3% of such games depart
DEFAULT_REPEATS = 3  # (the other games are quick: a few repeats cost little)
OBSERVE_EVERY = 8  # decisions between two observations in the digest (encoding is costly)
SWITCH_INTERVAL_S = 1e-6  # a thread switch at almost every chance: a race shows early


@dataclass(frozen=True)
class Played:
    """What a game did: its actions, a digest of every observation its movers saw, its
    final scores."""

    actions: tuple[int, ...]
    observations: str
    scores: tuple[float, ...]


def play(name: str, seed: int) -> Played:
    """One game of random legal play, seeded: the same seed always gives the same game."""
    game_class = envs.game_class(name)
    game = game_class(num_players=min(4, game_class.max_players))
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    digest = hashlib.blake2b(digest_size=16)
    actions: list[int] = []
    while not state.is_terminal():
        if len(actions) % OBSERVE_EVERY == 0:
            digest.update(state.observation(state.current_player()).tobytes())
        legal = state.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        state.apply(action)
        actions.append(action)
    return Played(tuple(actions), digest.hexdigest(), tuple(state.scores()))


@contextmanager
def frequent_thread_switches() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def first_difference(alone: Played, threaded: Played) -> str:
    """Where the threaded game left its solo twin (for the failure message)."""
    for k, (a, b) in enumerate(zip(alone.actions, threaded.actions)):
        if a != b:
            return f"decision {k}: {a} alone, {b} threaded"
    if alone.actions != threaded.actions:
        return f"lengths {len(alone.actions)} alone, {len(threaded.actions)} threaded"
    if alone.observations != threaded.observations:
        return "same actions, different observations"
    return f"scores {alone.scores} alone, {threaded.scores} threaded"


@pytest.mark.parametrize("name", GAMES)
def test_games_in_threads_equal_games_alone(name: str) -> None:
    alone = {seed: play(name, seed) for seed in SEEDS}
    seeds = [seed for _ in range(REPEATS.get(name, DEFAULT_REPEATS)) for seed in SEEDS]
    with frequent_thread_switches(), ThreadPoolExecutor(max_workers=THREADS) as pool:
        threaded = list(pool.map(play, [name] * len(seeds), seeds))
    departed = [f"seed {seed}, {first_difference(alone[seed], game)}"
                for seed, game in zip(seeds, threaded) if game != alone[seed]]
    assert not departed, f"{name}: threaded games left their solo twins: {departed}"


def test_a_seed_is_the_whole_game() -> None:
    """The comparison above means something only if a game alone repeats itself."""
    assert play("hegemony_v1", 5) == play("hegemony_v1", 5)
    assert play("hegemony_v1", 5) != play("hegemony_v1", 6)
