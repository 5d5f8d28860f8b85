"""Games played side by side in threads equal the same games played alone.

The web server runs its tables in a thread pool, so two games of one env share whatever the
engine keeps at module level.  A memo that lives through a turn must therefore belong to that
turn's state (DESIGN.md §8: nothing mutable lives at module level).  Each game here is a pure
function of its seed (random legal play from a seeded generator); played four at a time in
threads, with the interpreter switching threads as often as it can, each must take exactly
the actions, see exactly the observations and reach exactly the scores of its solo twin.
Beside that, the engines' source is read: no ``global`` statement, and no module-level table
filled after import but the listed ones (a memo lives on its game, ``Game.memo``).
"""

from __future__ import annotations

import ast
import hashlib
import pickle
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

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


# -- nothing mutable at module level --------------------------------------------------------

ENVS = Path(__file__).resolve().parents[1] / "envs"
MUTATORS = {"append", "extend", "update", "setdefault", "pop", "popitem", "clear", "add",
            "discard", "remove", "insert", "sort", "reverse"}
# The module-level tables still filled after import, each for a reason: the env registry
# (``register``, PettingZoo's and gymnasium's public way to add an env).  Every other table a
# rule reads is built by a function into its game's rules object (``Game.build_rules``), and
# every memo lives on its game (``Game.memo``) or its state.
FILLED_AFTER_IMPORT = {
    "__init__.py": {"_MODULES"},
}


def module_tables(tree: ast.Module) -> set[str]:
    """Names a module binds at its top level to a dict, list or set it made."""
    makers = ("dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque")
    found = set()
    for node in tree.body:
        value = getattr(node, "value", None)
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        literal = isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp,
                                     ast.SetComp))
        made = (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                and value.func.id in makers)
        if literal or made:
            found.update(t.id for t in targets if isinstance(t, ast.Name))
    return found


def filled_in_functions(tree: ast.Module, tables: set[str]) -> set[str]:
    """Which of ``tables`` a function of the module changes (a method call that mutates, an
    item assigned or deleted)."""
    found = set()
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.attr in MUTATORS):
                found.add(node.func.value.id)
            targets = (node.targets if isinstance(node, (ast.Assign, ast.Delete))
                       else [node.target] if isinstance(node, ast.AugAssign) else [])
            found.update(t.value.id for t in targets
                         if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name))
    return found & tables


def test_no_global_statement_in_envs() -> None:
    found = [f"{path.relative_to(ENVS)}:{node.lineno}" for path in sorted(ENVS.rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Global)]
    assert not found, found


def test_no_module_level_table_is_filled_after_import_but_the_listed_ones() -> None:
    """A memo that outlives a call lives on its game or its state, never at module level."""
    found = {}
    for path in sorted(ENVS.rglob("*.py")):
        tree = ast.parse(path.read_text())
        filled = filled_in_functions(tree, module_tables(tree))
        if filled:
            found[path.relative_to(ENVS).as_posix()] = filled
    assert found == FILLED_AFTER_IMPORT


def test_a_memo_belongs_to_its_game() -> None:
    first, second = (envs.make_game("necropolis_railway_v1", num_players=2) for _ in range(2))
    state = first.new_initial_state(1)
    state.legal_mask()
    state.observation(0)
    assert first.memo("necropolis_railway.masks") and not second.memo("necropolis_railway.masks")
    assert first.memo("necropolis_railway.masks") is state.clone().game.memo(
        "necropolis_railway.masks")
    revived = pickle.loads(pickle.dumps(state))  # a pickled state's game starts without them
    assert not revived.game.memo("necropolis_railway.masks")
    assert np.array_equal(revived.observation(0), state.observation(0))
