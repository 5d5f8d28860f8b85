"""The games of one expert-iteration round: the search plays, its choices become targets.

One learner seat per game searches (``ISMCTS`` with the current network's prior and value,
Gumbel at the root); the other seats are drawn from the round's pool (the bots, the current
network, networks of earlier rounds).  At each of the learner's decisions with a choice the
row kept is its observation, mask, the search's *improved policy* and, once the game ends,
the learner's outcome.  Why the improved policy and not the visit counts: at 16-64
simulations Gumbel's visits follow the halving schedule, not the values; Danihelka et al.
(2022) train on ``softmax(logits + sigma(completed q))``, which moves the prior exactly as
far as the measured values say, and mctx's ``qtransform_completed_by_mix_value`` gives the
actions the search did not visit a value (the prior-weighted mean of the visited ones,
mixed with the network's own value of the position).

Every game is seeded by its number, so a round's data does not depend on the worker count.
By default the search models each field seat by the bot that really sits there: the
round's games are against that pool, and the targets say what is best against it.  With
``opponent_model="network"`` it models them as @hard does, by the current network playing
greedy: on 100 paired アジアンデリバリー deals against three heuristic bots the two won
46.0% and 45.5% (envs/asian_delivery/RULES.md), and the bots cost the search 7x the CPU.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.game import Game
from meeplezoo.envs.core.rewards import win_share, winners
from meeplezoo.training.agents.bots import BotCache, network_movers
from meeplezoo.training.agents.ismcts import ISMCTS, SearchResult, network_prior, network_value
from meeplezoo.training.agents.opponents import load
from meeplezoo.training.agents.search import rollout_value

MARGIN_WEIGHT = 0.1  # the search's own (ISMCTS.margin_weight): targets and leaves agree
# a run journalled before the teacher had these settings searched with ISMCTS's defaults:
# resumed, it goes on as it began
LEGACY_SEARCH = {"gumbel_scale": 1.0, "min_evidence": None}
CURRENT, EARLIER = "current", "earlier"  # pool names for the round's networks
# who moves the other seats inside the teacher's simulations
OPPONENT_MODELS = ("occupant", "network")
ROW_KEYS = ("obs", "masks", "soft_targets", "actions", "returns", "games")


def search_below_problem(below: float | None) -> str | None:
    """What is wrong with a ``search_below`` (None: nothing), said once for the settings
    and the command's flag."""
    if below is None or 0.0 < below <= 1.0:
        return None
    return (f"must be a probability above 0 and at most 1 (the favourite's probability under "
            f"which a decision is searched; leave it out to search every decision), got {below}")


@dataclass(frozen=True)
class SearchSettings:
    """The teacher: ``ISMCTS`` with a Gumbel root (``bots.LEVELS``' @hard by default).
    ``rollout``: leaves are valued by a playout to the end instead of the network's
    value, the learner's seat played by this bot (``heuristic``, ``random``, a checkpoint)
    and every other seat by its occupant; dearer, and independent of how well the critic
    has learnt.

    ``gumbel_scale`` and ``min_evidence`` are @hard's: the move the teacher plays departs
    from the prior's best only on evidence, never on root noise.  Until 2026-12-05 the
    teacher ran ISMCTS's defaults (Gumbel noise 1, no evidence rule); on 100 paired
    アジアンデリバリー deals against three heuristic bots that teacher won 12%, the same
    search without noise 46% and the network alone 28% (envs/asian_delivery/RULES.md,
    "The ExIt teacher's root noise"), so its games were a weak player's.  The targets
    (``improved_policy``) read the search's values and do not depend on either setting.

    ``opponent_model``: ``occupant`` (each field seat by the bot that really sits there)
    or ``network`` (every seat the current network can play, by it, greedy: @hard's
    model, a seventh of the CPU in アジアンデリバリー; the module docstring).

    ``search_below``: the learner searches only the decisions where the network's favourite
    has less than this probability; elsewhere it plays the favourite and its row's target
    is the network's own distribution (as round 0's rows are), so the fit holds those
    choices where they are.  None: every decision with a choice is searched.  Why: the
    search overrules the network mostly where the network is unsure.  In アジアンデリバリー
    (round 1 of the @expert-teacher run, seed 17: 43,370 choices, 2,480 overruled) the
    choices whose favourite had less than 0.8 were 39% of the choices and held 87% of the
    overrulings (below 0.7: 27% and 76%; below 0.9: 55% and 95%), so a round finds about
    twice the overrulings for its CPU (playout cap randomisation, KataGo's way of spending
    the search where its targets are kept, chosen here by the prior's doubt)."""

    simulations: int = 16
    considered: int = 4
    c_visit: float = 50.0
    c_scale: float = 0.3
    rollout: str | None = None
    gumbel_scale: float = 0.0
    min_evidence: float | None = 1.0
    opponent_model: str = "occupant"
    search_below: float | None = None

    def __post_init__(self) -> None:
        if self.opponent_model not in OPPONENT_MODELS:
            raise ValueError(f"opponent_model {self.opponent_model!r}: the models are "
                             f"{', '.join(OPPONENT_MODELS)}")
        problem = search_below_problem(self.search_below)
        if problem:
            raise ValueError(f"search_below {problem}")

    def searches(self, prior: np.ndarray) -> bool:
        """Whether the learner searches a decision whose network distribution is ``prior``
        (``search_below``)."""
        return self.search_below is None or float(np.max(prior)) < self.search_below

    def search(self, game: Game, agents: Any, movers: Any, seed: int) -> ISMCTS:
        value = None if self.rollout else network_value(agents)
        return ISMCTS(game, prior=agents, value=value, opponents=movers,
                      simulations=self.simulations, root="gumbel", considered=self.considered,
                      c_visit=self.c_visit, c_scale=self.c_scale, normalise_q=False,
                      margin_weight=MARGIN_WEIGHT, seed=seed,
                      gumbel_scale=self.gumbel_scale, min_evidence=self.min_evidence)


def improved_policy(prior: np.ndarray, result: SearchResult, root_value: float,
                    settings: SearchSettings) -> np.ndarray:
    """``softmax(log prior + sigma(completed q))`` over the prior's support (module
    docstring); ``root_value`` is the network's value of the position on the search's
    0..1 scale.  ``sigma`` is the Gumbel root's own, unnormalised: ``(c_visit + most
    visits) * c_scale * q``."""
    legal = prior > 0
    visited = [a for a, n in result.visits.items() if n > 0]
    if visited:
        weights = prior[visited] / prior[visited].sum()
        weighted_q = float(weights @ np.array([result.values[a] for a in visited]))
        total = sum(result.visits[a] for a in visited)
        mixed = (root_value + total * weighted_q) / (1 + total)
    else:
        mixed = root_value
    q = np.full(len(prior), mixed, np.float64)
    for a in visited:
        q[a] = result.values[a]
    most = max(result.visits.values(), default=0)
    sigma = (settings.c_visit + most) * settings.c_scale * q
    with np.errstate(divide="ignore"):
        logits = np.where(legal, np.log(np.where(legal, prior, 1.0)) + sigma, -np.inf)
    out = np.exp(logits - logits.max())
    return (out / out.sum()).astype(np.float32)


@dataclass(frozen=True)
class RoundJob:
    """What a worker needs to play its games of one round (picklable)."""

    env_name: str
    config: dict[str, Any]
    game_ids: range
    seed: int
    current: str  # the current network's checkpoint (or team) folder, with a value
    earlier: tuple[str, ...]  # kept networks of earlier rounds
    roles: tuple[str, ...]  # the roles that learn
    pool: tuple[str, ...]  # the field: bots, checkpoints, CURRENT, EARLIER
    settings: SearchSettings | None  # None: the network plays alone (the critic's warm-up)


def _field_spec(name: str, job: RoundJob, rng: np.random.Generator) -> str:
    if name == CURRENT:
        return job.current
    if name == EARLIER:  # no earlier network yet: the current one
        return job.earlier[int(rng.integers(len(job.earlier)))] if job.earlier else job.current
    return name


def learner_seat(game: Game, roles: tuple[str, ...], game_id: int) -> int:
    """The searching seat of game ``game_id``: the roles take turns, then their seats."""
    role = roles[game_id % len(roles)]
    seats = game.role_seats(role)
    return seats[(game_id // len(roles)) % len(seats)]


def play_round_games(job: RoundJob) -> dict[str, Any]:
    """Play ``job.game_ids``; rows per role, and per game the learner's result."""
    game = envs.make_game(job.env_name, **job.config)
    current = load(job.current)
    prior = network_prior(current)
    value = network_value(current) if job.settings is not None else None
    cache = BotCache(game)
    network_models: dict[int, Any] = {}  # learner seat -> the network's opponent model
    modelled = job.settings is not None and job.settings.opponent_model == "network"
    rows: dict[str, dict[str, list]] = {}
    games = []
    for game_id in job.game_ids:
        rng = np.random.default_rng([job.seed, game_id])
        learner = learner_seat(game, job.roles, game_id)
        specs = [_field_spec(job.pool[int(rng.integers(len(job.pool)))], job, rng)
                 for _ in range(game.num_players)]
        bots = {s: cache.bot(specs[s], int(rng.integers(2**31)), s)
                for s in range(game.num_players) if s != learner}

        if modelled and learner not in network_models:
            network_models[learner] = network_movers(job.current, current, game, learner)

        def movers(seat: int, seed: int, specs: list[str] = specs, learner: int = learner
                   ) -> Any:
            """The seat's model (its real occupant, or the network); the learner's own
            seat only moves in playouts."""
            if seat == learner and job.settings is not None and job.settings.rollout:
                return cache.bot(job.settings.rollout, seed, seat)
            if modelled:
                return network_models[learner](seat, seed)
            return cache.bot(specs[seat], seed, seat)

        search_seed = int(rng.integers(2**31))
        search = (job.settings.search(game, current, movers, search_seed)
                  if job.settings is not None else None)
        state = game.new_initial_state(int(rng.integers(2**63 - 1)))
        kept: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
        changed = searched = 0
        while not state.is_terminal():
            seat = state.current_player()
            if seat != learner:
                state.apply(int(bots[seat].act(state)))
                continue
            mask = state.legal_mask()
            if int(mask.sum()) == 1:
                state.apply(int(np.flatnonzero(mask)[0]))
                continue
            p = prior(state, seat)
            if (search is None or value is None or job.settings is None
                    or not job.settings.searches(p)):
                target, action = p.astype(np.float32), int(np.argmax(p))  # the network's own
            else:
                result = search.search(state)
                target = improved_policy(p, result, value(state, seat), job.settings)
                action = result.action
                changed += int(action != int(np.argmax(p)))
                searched += 1
            kept.append((state.observation(seat).copy(), mask.copy(), target, action))
            state.apply(action)
        outcome = rollout_value(state, learner, MARGIN_WEIGHT, game.score_scale)
        role = rows.setdefault(game.seat_role(learner), {k: [] for k in ROW_KEYS})
        for obs, mask, target, action in kept:
            role["obs"].append(obs)
            role["masks"].append(mask)
            role["soft_targets"].append(target)
            role["actions"].append(action)
            role["returns"].append(2.0 * outcome - 1.0)  # the critic's -1..+1 scale
            role["games"].append(game_id)
        games.append({"game": game_id, "seat": learner, "role": game.seat_role(learner),
                      "field": [s for i, s in enumerate(specs) if i != learner],
                      "value": outcome, "win": win_share(learner, winners(state.rank_keys())),
                      "decisions": len(kept), "changed": changed, "searched": searched,
                      "score": float(state.scores()[learner])})
    return {"rows": rows, "games": games}


def stack_rows(parts: list[dict[str, Any]]) -> dict[str, dict[str, np.ndarray]]:
    """The workers' rows joined per role, in game order, as arrays."""
    out: dict[str, dict[str, np.ndarray]] = {}
    for role in sorted({r for p in parts for r in p["rows"]}):
        lists = [p["rows"][role] for p in parts if role in p["rows"]]
        out[role] = {
            "obs": np.asarray([o for part in lists for o in part["obs"]], np.float16),
            "masks": np.asarray([m for part in lists for m in part["masks"]], bool),
            "soft_targets": np.asarray([t for part in lists for t in part["soft_targets"]],
                                       np.float32),
            "actions": np.asarray([a for part in lists for a in part["actions"]], np.int64),
            "returns": np.asarray([r for part in lists for r in part["returns"]], np.float32),
            "games": np.asarray([g for part in lists for g in part["games"]], np.int64),
        }
    return out
