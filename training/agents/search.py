"""Look-ahead by playouts: a policy that tries every candidate at chosen decisions.

    from meeplezoo.training.agents.search import LookaheadBot
    bot = LookaheadBot(game, load("checkpoints/chihou_sousei_v1/ppo_league"),
                       kinds=["pick"], rollouts=8, seed=0)
    action = bot.act(state)          # a StateBot: it reads the engine state

At a decision of one of ``kinds`` (``state.decision_name()``), every legal
action is played out ``rollouts`` times to the end of the game, and the one
with the best mean value (win share plus ``margin_weight`` times the score
margin over the best other player, in ``score_scale`` units) is chosen.  The
player re-draws everything it cannot see (``resample_hidden``) for each
playout, so the search never reads hidden information.  Playouts use common
random numbers: every candidate meets the same re-drawn futures and the same
opponent seeds, so candidates are compared on equal luck.  All playouts of a
decision run in lockstep and the policy's moves in them go through the
network as one batch per step.

Who moves the other seats in a playout is the *opponent model*, fixed when
the look-ahead is made (it never learns who it really plays): by default the
policy itself, or named bots and checkpoints.  The shipped 地方創生 look-ahead
models the others as the heuristic bot (the self model did worse against bots:
see its RULES.md); ``training.improve`` models its real opponents.

Needs numpy, onnxruntime and the engine only (no torch), like ``load``.
Why: 地方創生's network misjudges picks; a search on the true game at those
decisions lifts its play by several points at a few seconds per game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from meeplezoo.envs.core import rewards
from meeplezoo.envs.core.agents import StateBot
from meeplezoo.envs.core.errors import ConfigError, CorruptStateError
from meeplezoo.envs.core.game import Game, GameState
from meeplezoo.envs.core.rewards import places, win_share, winners
from meeplezoo.envs.core.schema import Float, Int, List, Nullable, Record, Str, validate
from meeplezoo.training.agents.opponents import network_bot
from meeplezoo.training.agents.seat_view import SEED_TAG, seat_view

# seed -> one bot per seat, None where the policy itself moves
OpponentModel = Callable[[int], list[StateBot | None]]


# what a search's value counts of a finished game, beside the margin: the seat's ``win``
# share, or its ``place`` share (``place_share``: the share of the other seats it finishes
# above, what the arena's Elo reads of a game); a value's card says which it was fitted on
OBJECTIVES = ("win", "place")


def place_share(state: GameState, seat: int) -> float:
    """The share of the other seats that ``seat`` finishes above (ties count a half):
    ``1 - place / (N - 1)`` with ``place`` 0-based and shared by ties (``places``).  It is
    what a round robin's Elo reads of a game (every pair of seats is one comparison), where
    the win share reads only who came first."""
    keys = state.rank_keys()
    return rewards.place_share(places(keys)[seat], len(keys))


def rollout_value(state: GameState, seat: int, margin_weight: float, scale: float,
                  objective: str = "win") -> float:
    """Value of a finished game for ``seat``: its win share (``objective`` ``place``: its
    ``place_share``) plus a small share of its score margin over the best other seat (which
    separates candidates that all win or all lose in the sampled futures).

    Alone (a solo game) a seat has nobody to beat, so its win share says nothing and
    the score is the whole signal: the value is the score in ``scale`` units, the solo
    env's own reward.  Weighted as a tie-breaker it would be too small for a search to
    tell its moves apart (10 points of Necropolis were 0.04)."""
    scores = state.scores()
    if len(scores) == 1:
        return scores[0] / scale
    others = [s for i, s in enumerate(scores) if i != seat]
    margin = scores[seat] - max(others)
    if objective == "place":
        return place_share(state, seat) + margin_weight * margin / scale
    if objective != "win":
        raise ValueError(f"objective {objective!r}: one of {', '.join(OBJECTIVES)}")
    return win_share(seat, winners(state.rank_keys())) + margin_weight * margin / scale


def self_model(game: Game) -> OpponentModel:
    """Every seat of a playout is moved by the policy."""
    return lambda seed: [None] * game.num_players


def bot_model(game: Game, specs: Sequence[str]) -> OpponentModel:
    """Seats moved by ``random``, ``heuristic`` or checkpoint bots, rotated by
    the seed.  Bots are made afresh from the seed (their tie-breaks then repeat
    across candidates); checkpoints play deterministically and load once."""
    if not specs or "self" in specs:
        raise ConfigError(f"an opponent model names random, heuristic or checkpoint folders, "
                          f"got {list(specs)}")
    loaded: dict[str, Any] = {}

    def make(spec: str, seed: int) -> StateBot:
        if spec in ("random", "heuristic"):
            return network_bot(spec, game, seed)
        if spec not in loaded:
            loaded[spec] = network_bot(spec, game)  # the network alone: no search in a search
        return loaded[spec]

    def model(seed: int) -> list[StateBot | None]:
        return [make(specs[(i + seed) % len(specs)], seed + i) for i in range(game.num_players)]

    return model


def policies_by_role(game: Game, policy: Any) -> dict[str, Any]:
    """The network of each role a search may move: ``policy`` is a role -> ``PolicyAgent``
    mapping (a team), or one agent, which plays its card's role (a symmetric game's one)."""
    if isinstance(policy, dict):
        return {game.check_role(role): agent for role, agent in policy.items()}
    role = getattr(policy, "role", None)
    return {game.check_role(role if role in game.roles else None): policy}


def play_out(states: list[GameState], lineups: list[list[StateBot | None]], policy: Any,
             max_decisions: int) -> None:
    """Play every state to its end, in lockstep.  Seats whose bot is ``None``
    are moved by ``policy`` (a ``PolicyAgent``, or one per role), all movers of a
    role in one batched network call per step."""
    game = states[0].game if states else None
    by_role = policies_by_role(game, policy) if game is not None else {}
    live = [i for i, s in enumerate(states) if not s.is_terminal()]
    for _ in range(max_decisions):
        if not live:
            return
        batch = []
        for i in live:
            state = states[i]
            bot = lineups[i][state.current_player()]
            if bot is None:
                batch.append(i)
            else:
                state.apply(bot.act(state))
        groups: dict[str, list[GameState]] = {}
        for i in batch:
            groups.setdefault(game.seat_role(states[i].current_player()), []).append(states[i])
        for role, movers in groups.items():
            if role not in by_role:
                raise ConfigError(f"no policy for role {role!r} in the playouts; give one per "
                                  f"role (a team) or an opponent model for its seats")
            obs = np.stack([s.observation(s.current_player()) for s in movers])
            masks = np.stack([s.legal_mask() for s in movers])
            for state, action in zip(movers, by_role[role].act_batch(obs, masks)):
                state.apply(int(action))
        live = [i for i in live if not states[i].is_terminal()]
    if live:
        raise RuntimeError(f"playouts not over after {max_decisions} decisions")


class RolloutSearch:
    """Mean playout values of candidate actions, with common random numbers."""

    def __init__(self, game: Game, policy: Any, opponents: OpponentModel | None,
                 rollouts: int, margin_weight: float, rng: np.random.Generator) -> None:
        if rollouts < 1:
            raise ConfigError(f"rollouts must be at least 1, got {rollouts}")
        self.game, self.policy = game, policy
        self.opponents = opponents or self_model(game)
        self.rollouts, self.margin_weight, self.rng = rollouts, margin_weight, rng

    def values(self, state: GameState,
               candidates: Sequence[int] | None = None) -> dict[int, float]:
        """Mean playout value of each candidate (default: every legal action)
        for the player to move."""
        seat = state.current_player()
        actions = list(state.legal_actions() if candidates is None else candidates)
        seeds = [int(s) for s in self.rng.integers(2**31, size=self.rollouts)]
        # the playouts start from what the seat knows (``seat_view``): Hegemony's re-draws
        # keep the engine's chance generator, which foretells the true draws to come; in
        # the other games the futures are the same either way
        state = seat_view(state, seat, np.random.default_rng([SEED_TAG, *seeds]))
        futures, lineups = [], []
        for action in actions:
            for seed in seeds:  # the same futures for every candidate
                future = state.resample_hidden(seat, np.random.default_rng(seed))
                future.apply(action)
                lineup = self.opponents(seed)
                lineup[seat] = None  # the searching seat plays its own policy
                futures.append(future)
                lineups.append(lineup)
        play_out(futures, lineups, self.policy, self.game.max_decisions)
        scale = self.game.score_scale
        ends = [rollout_value(f, seat, self.margin_weight, scale) for f in futures]
        per = np.asarray(ends).reshape(len(actions), self.rollouts).mean(1)
        return {a: float(v) for a, v in zip(actions, per)}


def searched_choice(values: dict[int, float], own: int) -> int:
    """The candidate with the best value; the policy's ``own`` choice when it
    is among the best (a tie never overrules the policy)."""
    best = max(values.values())
    return own if values[own] == best else max(values, key=values.__getitem__)


class LookaheadBot:
    """A ``StateBot``: the policy's own choice, except at decisions of ``kinds``
    where the rollout search chooses (ties go to the policy's own choice)."""

    def __init__(self, game: Game, policy: Any, kinds: Sequence[str], rollouts: int,
                 margin_weight: float = 0.02, opponents: OpponentModel | None = None,
                 seed: int | None = None, name: str | None = None) -> None:
        if not kinds:
            raise ConfigError("a look-ahead needs at least one decision kind to search")
        self.game, self.policy, self.kinds = game, policy, frozenset(kinds)
        self.by_role = policies_by_role(game, policy)
        self.search = RolloutSearch(game, policy, opponents, rollouts, margin_weight,
                                    np.random.default_rng(seed))
        self.name = name or f"{getattr(policy, 'name', 'policy')}+lookahead"
        self.searched = self.changed = 0

    def own_choice(self, state: GameState) -> int:
        seat = state.current_player()
        agent = self.by_role[self.game.seat_role(seat)]
        return int(agent.act(state.observation(seat), state.legal_mask()))

    def act(self, state: GameState) -> int:
        own = self.own_choice(state)
        if state.decision_name() not in self.kinds or len(state.legal_actions()) < 2:
            return own
        choice = searched_choice(self.search.values(state), own)
        self.searched += 1
        self.changed += int(choice != own)
        return choice


def opponent_model(game: Game, spec: str) -> OpponentModel | None:
    """``"self"`` (None: the policy moves every seat) or comma-separated
    ``random``, ``heuristic`` and checkpoint folders for ``bot_model``."""
    if spec == "self":
        return None
    return bot_model(game, [s for s in spec.split(",") if s])


LOOKAHEAD_BLOCK = Record(
    {
        "search": List(Str(), (1, 64)),
        "rollouts": Int(1, 100_000),
        "margin_weight": Float(0.0, 1e6),
        "opponent_model": Str(),
    },
    optional={"base": Str(), "command": Str(), "code_commit": Nullable(Str())},
)


def lookahead_bot(game: Game, policy: Any, settings: dict[str, Any], seed: int | None = None,
                  name: str | None = None) -> LookaheadBot:
    """The look-ahead a checkpoint card's ``lookahead`` block describes.

    The block is checked field by field first (``"search": "pick"`` is refused, not read
    as four one-letter kinds).
    """
    try:
        validate(LOOKAHEAD_BLOCK, settings, "lookahead")
    except CorruptStateError as exc:
        raise ConfigError(f"card {exc}") from exc
    return LookaheadBot(game, policy, settings["search"], settings["rollouts"],
                        float(settings["margin_weight"]),
                        opponent_model(game, settings["opponent_model"]), seed=seed,
                        name=name)
