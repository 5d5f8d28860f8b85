"""Information-set Monte Carlo tree search on the core game API, for every game.

    from meeplezoo.training.agents.ismcts import ISMCTS, SearchBot
    search = ISMCTS(game, prior=load("checkpoints/necropolis_railway_v1/ppo_league"),
                    simulations=64, seed=0)
    action = search.choose(state)            # or SearchBot(search).act(state)

Why: a network played greedily is only as strong as its training; a search turns
compute at play time into strength, and on games with hidden information it must
search over what the player can know, not over the true deal (Cowling, Powley and
Whitehouse 2012, single-observer IS-MCTS; OpenSpiel's ``ismcts.py``).

One decision of player ``p`` runs ``simulations`` simulations (or as many as
``time_limit`` seconds allow), each:

1. **Determinize**: ``state.resample_hidden(p, rng)`` re-deals everything ``p`` cannot
   see (other hands, deck orders, the engine's own random generator), so the search
   reads nothing ``p`` does not know; chance later in the simulation is that
   re-dealt engine's own.
2. **Descend one tree of p's information sets**: between ``p``'s decisions the other
   seats move by the *opponent model* (a bot per seat: the network, the heuristic,
   random play).  A node is ``p``'s decision; its children are keyed by ``p``'s
   action and by what ``p`` then observes at its next decision (a digest of its
   observation and legal mask), so one node is one information set of ``p``.  At a
   node, PUCT picks among the actions legal in this determinization:
   ``Q(a) + c * P(a) * sqrt(A(a)) / (1 + N(a))``, with ``P`` the prior (the
   network's masked softmax, or uniform), ``N`` the visits, ``A`` how often ``a`` was
   available there (subset-armed bandits: an action legal in few determinizations is
   not starved by the others' visits).  A decision with one legal action is played
   without a node.
3. **Evaluate** the first new node: a ``value`` function if given (a network's value
   head), else a **playout** to the game's end by the opponent model in every seat,
   ``p``'s too (the rollout policy); the result is ``p``'s win share plus
   ``margin_weight`` times its score margin over the best other seat in
   ``score_scale`` units (``search.rollout_value``, the look-ahead's value; a value
   fitted on the place share instead, its ``objective``, makes finished games count the
   place share too, so a leaf that ends the game and one the value judges count the same
   thing).  With
   ``playout_depth`` the playout stops after that many decisions and the same value is
   read from the scores as they stand (the core API's ``scores``: as if the game ended
   now), a short playout for games too long to play out at every leaf.
4. **Back up** that value along the path.

The move is the root action with the most visits (ties: the higher mean value, then
the lower index).  With ``root="gumbel"`` the root is searched as Gumbel MuZero does
(Danihelka et al. 2022; mctx's ``gumbel_muzero_policy``), which improves on the prior
even at 16 simulations where PUCT's visits mostly follow it: ``m`` root actions are
drawn without replacement by Gumbel-top-k on the prior's logits, Sequential Halving
spends the budget on them in rounds, keeping the better half by
``g(a) + logit(a) + sigma(q(a))`` each round, and the move is the best survivor by the
same score (``sigma`` scales the mean value, min-max normalised over the candidates as
mctx does or, with ``normalise_q=False``, as it is, by ``c_visit`` plus the most visits,
``c_scale`` times: normalising stretches the smallest difference to the full range, which
lets a noisy value overrule the prior).  Below the root PUCT runs as above.

**Leaf batching** (``leaf_batch=k``, with a ``value`` leaf), as AlphaZero's and mctx's
implementations do: a network call has a fixed cost (Python and onnxruntime's overhead,
about 50 µs, most of a call of the shipped MLPs) that the rows of one call share, so the
search runs up to ``k`` descents (step 1 and 2, each with its own determinization) before
it evaluates anything.  Each descent leaves a *virtual loss* on the edges it takes
(``virtual_loss`` provisional visits valued as a loss, 0) so the next descent of the batch
is steered elsewhere, and stops at its leaf: a new node, or a terminal or capped
position whose value needs no network.  The new nodes' priors and values are then
computed in one batched call each (``network_prior(...).batch``,
``network_value(...).batch``; a plain callable is called state by state), the nodes are
made (two descents that reached the same new information set share its one node and
evaluation) and every path is backed up with its virtual loss taken off.  The Gumbel
root batches within a round of Sequential Halving, never across rounds (a round's
candidates depend on the previous round's values); PUCT batches ``k`` descents at a time.
``simulations`` still counts descents, one each.  Playouts are not batched: a playout
is Python play, not a network call, so ``leaf_batch > 1`` needs a ``value``.
``leaf_batch=1`` is the unbatched search, simulation by simulation.

Reproducible: a decision's random stream is seeded by ``seed`` and a digest of ``p``'s
observation and legal mask, so two positions ``p`` cannot tell apart get the same
decision, and the same position gets the same one (for a given ``leaf_batch``: batching
changes which statistics a descent sees, so ``k`` is part of the search's definition).
Torch-free.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from meeplezoo.envs.core.agents import RandomBot, StateBot
from meeplezoo.envs.core.game import Game, GameState
from meeplezoo.training.agents.scoreboard import scoreboard_rows
from meeplezoo.training.agents.search import OBJECTIVES, rollout_value
from meeplezoo.training.agents.seat_view import SEED_TAG, seat_view
from meeplezoo.training.agents.zoo import CheckpointError

# seat, seed -> the bot that moves that seat in a simulation (opponents, playouts)
BotFactory = Callable[[int, int], StateBot]
# state, seat -> probabilities over the seat's action catalogue (zero where illegal).  An
# object may add ``batch(states, seats) -> one vector per state`` (``NetworkPrior``), which
# a search with ``leaf_batch > 1`` calls once per batch of leaves; a plain callable is
# called state by state.
Prior = Callable[[GameState, int], np.ndarray]
# state, seat -> the seat's value of the position, on the playout value's scale; the same
# optional ``batch(states, seats) -> one value per state`` (``NetworkValue``)
Value = Callable[[GameState, int], float]


def random_bots(seat: int, seed: int) -> StateBot:
    return RandomBot(seed)


def uniform_prior(state: GameState, seat: int) -> np.ndarray:
    mask = state.legal_mask().astype(np.float64)
    return mask / mask.sum()


def _member(members: Any, state: GameState, seat: int) -> Any:
    """The agent for ``seat``: one agent, or a team's (role -> agent) member of its role."""
    return members[state.game.seat_role(seat)] if isinstance(members, dict) else members


def _by_member(members: Any, states: Sequence[GameState], seats: Sequence[int]
               ) -> list[tuple[Any, list[int]]]:
    """The rows of a batch grouped by the agent that evaluates them (a team: one group per
    role, since each role's member reads its own observation size), in first-seen order."""
    groups: dict[int, tuple[Any, list[int]]] = {}
    for row, (state, seat) in enumerate(zip(states, seats)):
        agent = _member(members, state, seat)
        groups.setdefault(id(agent), (agent, []))[1].append(row)
    return list(groups.values())


def _rows(states: Sequence[GameState], seats: Sequence[int], rows: list[int]
          ) -> tuple[np.ndarray, np.ndarray]:
    """The stacked observations and legal masks of ``rows``."""
    observations = np.stack([np.asarray(states[r].observation(seats[r])) for r in rows])
    masks = np.stack([states[r].legal_mask() for r in rows])
    return observations, masks


def _masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    logits = np.where(mask, np.asarray(logits, dtype=np.float64), -np.inf)
    probs = np.exp(logits - logits.max())
    return probs / probs.sum()


class NetworkPrior:
    """The masked softmax of a ``PolicyAgent``'s logits, or of each role's member of a team
    (a ``TeamAgent``, or a role -> agent mapping): ``prior(state, seat)`` for one state,
    ``prior.batch(states, seats)`` for many in one network call per role (what a search
    with ``leaf_batch > 1`` calls: a call's fixed cost is most of a small network's)."""

    def __init__(self, agents: Any) -> None:
        self.members = getattr(agents, "members", None) or agents

    def __call__(self, state: GameState, seat: int) -> np.ndarray:
        agent = _member(self.members, state, seat)
        mask = state.legal_mask()
        return _masked_softmax(agent.logits(state.observation(seat), mask), mask)

    def batch(self, states: Sequence[GameState], seats: Sequence[int]) -> list[np.ndarray]:
        """One probability vector per state (each over its seat's action catalogue)."""
        out: list[np.ndarray] = [np.empty(0)] * len(states)
        for agent, rows in _by_member(self.members, states, seats):
            observations, masks = _rows(states, seats, rows)
            if hasattr(agent, "logits_batch"):
                logits = agent.logits_batch(observations, masks)
            else:  # an agent with ``logits`` alone: row by row
                logits = [agent.logits(o, m) for o, m in zip(observations, masks)]
            for row, mask, row_logits in zip(rows, masks, logits):
                out[row] = _masked_softmax(row_logits, mask)
        return out


class NetworkValue:
    """A leaf value from an export's critic (``PolicyAgent.value``; a team's member for the
    seat's role), mapped from the critic's scale (2 * value - 1: the rank reward's -1..+1)
    to a playout's (``search.rollout_value``).  Not clipped to 0..1: a playout's value
    leaves that range by its score margin, and a solo game's is its score, so a critic
    fitted on playout values (``fit-value``, ``expert-iterate``) maps back whole.  Raises
    for an export without a value output.  ``value(state, seat)`` for one state,
    ``value.batch(states, seats)`` for many in one ``values_batch`` call per role."""

    def __init__(self, agents: Any) -> None:
        self.members = getattr(agents, "members", None) or agents
        # what the fitted value predicts beside the margin (the search scores finished
        # games by the same: ``ISMCTS.objective``)
        self.objective = value_objective(agents)

    def __call__(self, state: GameState, seat: int) -> float:
        return self.batch([state], [seat])[0]

    def batch(self, states: Sequence[GameState], seats: Sequence[int]) -> list[float]:
        """One value per state, on the playout value's scale.  A value that reads the
        scoreboard (``PolicyAgent.value_reads_scoreboard``) gets each state's, for its
        seat (``training.agents.scoreboard``)."""
        out = [0.0] * len(states)
        for agent, rows in _by_member(self.members, states, seats):
            observations, masks = _rows(states, seats, rows)
            if getattr(agent, "value_reads_scoreboard", False):
                boards = scoreboard_rows([states[r] for r in rows], [seats[r] for r in rows])
                estimates = agent.values_batch(observations, masks, boards)
            elif hasattr(agent, "values_batch"):
                estimates = agent.values_batch(observations, masks)
            else:  # an agent with ``value`` alone: row by row
                estimates = [agent.value(o, m) for o, m in zip(observations, masks)]
            for row, estimate in zip(rows, estimates):
                out[row] = (float(estimate) + 1.0) / 2.0
        return out


def value_objective(agents: Any) -> str:
    """What a network's (or a team's) fitted value predicts of a seat's outcome beside its
    margin: its card's ``value_fit.objective`` (``search.OBJECTIVES``; a value from before
    the objectives, or a critic, predicts the win share: ``win``).  A team's members must
    agree: a search adds up its seats' values on one scale.  A ``CheckpointError`` otherwise,
    naming what is allowed.  ``agents``: a network, a team, or a role -> network mapping."""
    members = agents if isinstance(agents, dict) else getattr(agents, "members", None)
    pairs = members.items() if isinstance(members, dict) else [(None, agents)]
    return cards_objective({role: {"name": getattr(agent, "name", "a network"),
                                   **(getattr(agent, "card", None) or {})}
                            for role, agent in pairs})


def cards_objective(cards: Mapping[Any, Mapping[str, Any]]) -> str:
    """``value_objective`` from the cards alone (role -> card; one network: one card), for
    readers that load no network (the benchmark's pins)."""
    found = {}
    for role, card in cards.items():
        fit = card.get("value_fit") or {}
        objective = fit.get("objective", "win") if isinstance(fit, Mapping) else "win"
        if objective not in OBJECTIVES:
            raise CheckpointError(f"{card.get('name', 'a network')}: value_fit.objective "
                                  f"{objective!r} is none of {', '.join(OBJECTIVES)}")
        found[role] = objective
    if len(set(found.values())) > 1:
        raise CheckpointError("a team's values must predict one thing; its members' "
                              f"objectives are {found}")
    return next(iter(found.values()), "win")


def network_prior(agents: Any) -> NetworkPrior:
    """The prior of a network or a team (``NetworkPrior``): callable on one state, and
    ``.batch`` on many."""
    return NetworkPrior(agents)


def network_value(agents: Any) -> NetworkValue:
    """The leaf value of a network's critic or a team's (``NetworkValue``): callable on one
    state, and ``.batch`` on many."""
    return NetworkValue(agents)


def view_digest(observation: np.ndarray, mask: np.ndarray) -> int:
    """A digest of a seat's view: its observation and legal mask (what the search keys an
    information set by, and ``remembered`` a network's answer by)."""
    digest = hashlib.blake2b(digest_size=8)
    digest.update(np.ascontiguousarray(observation, dtype=np.float32).tobytes())
    digest.update(np.packbits(mask).tobytes())
    return int.from_bytes(digest.digest(), "little")


def information_digest(state: GameState, seat: int) -> int:
    """A digest of what ``seat`` knows at its decision: its observation and legal mask."""
    return view_digest(state.observation(seat), state.legal_mask())


@dataclass
class Node:
    """One information set of the searching player."""

    prior: np.ndarray
    visits: dict[int, int] = field(default_factory=dict)
    value_sum: dict[int, float] = field(default_factory=dict)
    value_squares: dict[int, float] = field(default_factory=dict)
    available: dict[int, int] = field(default_factory=dict)
    children: dict[tuple[int, int], Node] = field(default_factory=dict)
    # descents of the batch being built that took each action here and are not backed up
    # yet (each a virtual loss); empty between batches and always with ``leaf_batch=1``
    pending: dict[int, int] = field(default_factory=dict)

    def mean(self, action: int) -> float:
        n = self.visits.get(action, 0)
        return self.value_sum.get(action, 0.0) / n if n else 0.0

    def standard_error(self, action: int) -> float:
        """The standard error of ``mean(action)``; infinite under two visits (one value
        says nothing of its spread)."""
        n = self.visits.get(action, 0)
        if n < 2:
            return math.inf
        mean = self.mean(action)
        variance = max(0.0, (self.value_squares.get(action, 0.0) - n * mean * mean) / (n - 1))
        return math.sqrt(variance / n)

    def count_available(self, legal: np.ndarray) -> None:
        """One more determinization in which each of ``legal`` could be played here."""
        for a in legal:
            a = int(a)
            self.available[a] = self.available.get(a, 0) + 1


@dataclass
class Descent:
    """One simulation's way down, before its leaf is valued: the edges it took and either
    the value it already has (a terminal or capped position) or the new node to make
    (``parent.children[key]``, evaluated on ``det``, the determinization it reached)."""

    path: list[tuple[Node, int]]
    value: float | None = None
    det: GameState | None = None
    parent: Node | None = None
    key: tuple[int, int] = (-1, 0)
    bot: Callable[[int], StateBot] | None = None  # the simulation's movers (its playout)
    steps: int = 0  # decisions made from the root (a playout's depth counts on from here)
    leaf: int = -1  # the batch's evaluation it backs up (merged descents share one)


@dataclass
class SearchResult:
    action: int
    visits: dict[int, int]  # root action -> simulations through it
    values: dict[int, float]  # root action -> mean value
    simulations: int
    seconds: float


class ISMCTS:
    """Single-observer IS-MCTS with PUCT (module docstring); ``choose(state)`` for the seat
    to move.  ``opponents`` moves the other seats inside simulations and, with no ``value``,
    every seat of the playouts."""

    def __init__(self, game: Game, *, prior: Prior | Any | None = None,
                 value: Value | None = None, opponents: BotFactory = random_bots,
                 simulations: int = 64, time_limit: float | None = None,
                 c_puct: float = 1.5, margin_weight: float = 0.1, seed: int = 0,
                 max_decisions: int | None = None, root: str = "puct",
                 considered: int = 16, c_visit: float = 50.0, c_scale: float = 1.0,
                 normalise_q: bool = True, playout_depth: int | None = None,
                 gumbel_scale: float = 1.0, min_evidence: float | None = None,
                 leaf_batch: int = 1, virtual_loss: float = 1.0) -> None:
        """``leaf_batch``: descents run before their leaves are evaluated together (module
        docstring; 1: one by one, the unbatched search; more needs a ``value``, since
        playouts are not network calls to batch).  ``virtual_loss``: the provisional visits,
        each valued as a loss (0), that a descent leaves on every edge it takes until it is
        backed up.  1 by default, the usual scheme's one lost visit per descent in flight:
        it is enough to turn the next descent of a batch away from an edge whose score ties
        with another's (a uniform prior at a node with no values yet, where every descent
        would otherwise take the same edge), and too little to bury an edge with real
        visits behind it, so a batch of 8 still follows the search's evidence.  It does not
        overrule a prior that strongly favours one edge (the loss lowers that edge's
        exploration term by one visit's worth), so such a batch goes mostly one way, its
        descents sharing the new node they reach; larger values spread a batch wider at the
        cost of descents spent where the search would not go."""
        if simulations < 1:
            raise ValueError(f"simulations must be at least 1, got {simulations}")
        if root not in ("puct", "gumbel"):
            raise ValueError(f"root must be 'puct' or 'gumbel', got {root!r}")
        if considered < 2:
            raise ValueError(f"considered must be at least 2 root actions, got {considered}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"time_limit must be positive seconds, got {time_limit}")
        if playout_depth is not None and playout_depth < 1:
            raise ValueError(f"playout_depth must be at least 1 decision, got {playout_depth}")
        if not gumbel_scale >= 0:
            raise ValueError(f"gumbel_scale must be 0 or more, got {gumbel_scale}")
        if min_evidence is not None and not min_evidence >= 0:
            raise ValueError(f"min_evidence must be 0 or more standard errors, got "
                             f"{min_evidence}")
        if leaf_batch < 1:
            raise ValueError(f"leaf_batch must be at least 1 leaf, got {leaf_batch}")
        if leaf_batch > 1 and value is None:
            raise ValueError(f"leaf_batch={leaf_batch} needs a value leaf: playouts are not "
                             "batched (they are play, not network calls); give a value, or "
                             "leaf_batch=1")
        if not virtual_loss >= 0:
            raise ValueError(f"virtual_loss must be 0 or more visits, got {virtual_loss}")
        self.game = game
        if prior is None:
            self.prior: Prior = uniform_prior
        elif callable(prior) and not hasattr(prior, "logits"):
            self.prior = prior
        else:
            self.prior = network_prior(prior)
        self.value = value
        # what a finished game is worth: what the value was fitted on (``NetworkValue``'s
        # ``objective``; playouts and plain callables count the win share)
        self.objective = getattr(value, "objective", "win") if value is not None else "win"
        if self.objective not in OBJECTIVES:
            raise ValueError(f"the value's objective {self.objective!r} is none of "
                             f"{', '.join(OBJECTIVES)}")
        self.opponents = opponents
        self.simulations = simulations
        self.time_limit = time_limit
        self.c_puct = c_puct
        self.margin_weight = margin_weight
        self.seed = seed
        self.max_decisions = max_decisions or game.max_decisions
        self.root = root
        self.considered = considered
        self.c_visit = c_visit
        self.c_scale = c_scale
        self.normalise_q = normalise_q
        self.playout_depth = playout_depth
        self.gumbel_scale = gumbel_scale
        self.min_evidence = min_evidence
        self.leaf_batch = leaf_batch
        self.virtual_loss = virtual_loss

    # -- one decision ---------------------------------------------------------------------
    def choose(self, state: GameState) -> int:
        return self.search(state).action

    def search(self, state: GameState) -> SearchResult:
        seat = state.current_player()
        legal = np.flatnonzero(state.legal_mask())
        if len(legal) == 0:
            raise ValueError("search on a position with no legal action")
        start = time.perf_counter()
        if len(legal) == 1:  # nothing to decide: no simulation
            return SearchResult(int(legal[0]), {}, {}, 0, 0.0)
        digest = information_digest(state, seat)
        rng = np.random.default_rng([self.seed, digest])
        # the search starts from what its seat knows (``seat_view``, its own generator):
        # Hegemony's re-draws keep the engine's chance generator, so determinizations of
        # the true state would follow the true draws to come; in the other games the
        # search is the same either way (tests/training/test_seat_view.py)
        state = seat_view(state, seat, np.random.default_rng([self.seed, digest, SEED_TAG]))
        root = Node(self.prior(state, seat))
        if self.root == "gumbel":
            best, done = self._gumbel_search(state, seat, root, legal, rng, start)
        else:
            done = self._run(state, seat, root, rng, [None] * self.simulations, start, 0)
            best = max((int(a) for a in legal),
                       key=lambda a: (root.visits.get(a, 0), root.mean(a), -a))
        if self.min_evidence is not None:
            best = self._with_evidence(root, legal, best)
        return SearchResult(best, dict(root.visits),
                            {a: root.mean(a) for a in root.visits}, done,
                            time.perf_counter() - start)

    def _out_of_time(self, done: int, start: float) -> bool:
        return (self.time_limit is not None and done > 0
                and time.perf_counter() - start >= self.time_limit)

    def _gumbel_search(self, state: GameState, seat: int, root: Node, legal: np.ndarray,
                       rng: np.random.Generator, start: float) -> tuple[int, int]:
        """Gumbel-top-k at the root and Sequential Halving over its candidates (module
        docstring); the chosen action and the simulations run."""
        actions = [int(a) for a in legal]
        with np.errstate(divide="ignore"):
            logits = np.log(np.asarray(root.prior, dtype=np.float64)[actions])
        logits = np.where(np.isfinite(logits), logits, -1e9)  # a legal action of prior 0
        gumbel = self.gumbel_scale * rng.gumbel(size=len(actions))
        base = {a: float(g + lg) for a, g, lg in zip(actions, gumbel, logits)}
        m = min(len(actions), self.considered, self.simulations)
        alive = sorted(actions, key=lambda a: (-base[a], a))[:max(m, 1)]
        rounds = max(1, math.ceil(math.log2(len(alive)))) if len(alive) > 1 else 1
        done = 0
        while done < self.simulations and not self._out_of_time(done, start):
            share = max(1, (self.simulations // rounds) // len(alive))
            # a round's simulations, batched within the round only: the next round's
            # candidates are chosen by this one's values.  Batched, the candidates take
            # turns (a, b, c, a, b, c), so that a batch's descents start apart: two that
            # take one candidate while its child is new would both stop there, sharing one
            # evaluation, where one after the other the second would have gone deeper
            order = ([action for action in alive for _ in range(share)]
                     if self.leaf_batch == 1 else
                     [action for _ in range(share) for action in alive])
            done = self._run(state, seat, root, rng, order, start, done)
            if len(alive) == 1:  # more simulations would not change the move
                break
            alive = self._best_half(root, alive, base)
        return self._best_half(root, alive, base)[0], done

    def _best_half(self, root: Node, alive: list[int], base: dict[int, float]) -> list[int]:
        """The better half of ``alive`` (at least one) by ``g + logit + sigma(q)``, best
        first; an action not yet visited has the lowest visited mean as its q."""
        visited = [root.mean(a) for a in alive if root.visits.get(a, 0)]
        low, high = (min(visited), max(visited)) if visited else (0.0, 0.0)
        most = max((root.visits.get(a, 0) for a in alive), default=0)
        scale = (self.c_visit + most) * self.c_scale

        def score(a: int) -> tuple[float, int]:
            q = root.mean(a) if root.visits.get(a, 0) else low
            if not self.normalise_q:
                return (base[a] + scale * q, -a)
            normalised = (q - low) / (high - low) if high > low else 0.0
            return (base[a] + scale * normalised, -a)

        ranked = sorted(alive, key=score, reverse=True)
        return ranked[:max(1, len(ranked) // 2)] if len(ranked) > 1 else ranked

    def _with_evidence(self, root: Node, legal: np.ndarray, best: int) -> int:
        """``best``, or the prior's own best where the search's values do not show ``best``
        better by ``min_evidence`` standard errors of the difference of their means: a
        search departs from its prior on evidence, never on noise (with values that do not
        separate the actions, it plays the prior's best)."""
        favourite = max((int(a) for a in legal), key=lambda a: (float(root.prior[a]), -a))
        if best == favourite:
            return best
        error = math.hypot(root.standard_error(best), root.standard_error(favourite))
        gain = root.mean(best) - root.mean(favourite)
        if root.visits.get(favourite, 0) == 0:  # never tried: the search has no evidence
            return favourite
        return best if gain > self.min_evidence * error else favourite

    # -- simulations ----------------------------------------------------------------------
    def _run(self, state: GameState, seat: int, root: Node, rng: np.random.Generator,
             firsts: Sequence[int | None], start: float, done: int) -> int:
        """Simulations from ``state``, one per entry of ``firsts`` (the root action each
        must take, or None) while the budget and the time allow, ``leaf_batch`` at a time;
        the simulations run so far, ``done`` included."""
        index = 0
        while (index < len(firsts) and done < self.simulations
               and not self._out_of_time(done, start)):
            if self.leaf_batch == 1:
                self._simulate(state.resample_hidden(seat, rng), seat, root, rng,
                               first=firsts[index])
                ran = 1
            else:
                chunk = firsts[index:index + min(self.leaf_batch, self.simulations - done)]
                ran = self._simulate_batch(state, seat, root, rng, chunk, start, done)
            index += ran
            done += ran
        return done

    def _simulate(self, det: GameState, seat: int, root: Node,
                  rng: np.random.Generator, first: int | None = None) -> None:
        """One simulation; ``first``: the root action it must take (Gumbel's halving)."""
        descent = self._descend(det, seat, root, rng, first)
        value = descent.value
        if value is None:
            assert descent.det is not None and descent.parent is not None
            assert descent.bot is not None
            descent.parent.children[descent.key] = Node(self.prior(descent.det, seat))
            value = self._leaf_value(descent.det, seat, descent.bot, descent.steps)
        self._backup(descent.path, value)

    def _simulate_batch(self, state: GameState, seat: int, root: Node,
                        rng: np.random.Generator, firsts: Sequence[int | None],
                        start: float, done: int) -> int:
        """Up to ``len(firsts)`` descents under virtual loss (fewer when the time runs
        out), their new leaves evaluated by one batched prior call and one batched value
        call, then every path backed up; the descents run.  Two descents that reach the
        same new information set (one parent, one key) share its node and evaluation."""
        descents: list[Descent] = []
        leaves: list[Descent] = []  # the first descent to reach each new node
        first_reach: dict[tuple[int, tuple[int, int]], int] = {}
        for first in firsts:
            if descents and self._out_of_time(done + len(descents), start):
                break
            descent = self._descend(state.resample_hidden(seat, rng), seat, root, rng,
                                    first, pending=True)
            if descent.value is None:
                reached = (id(descent.parent), descent.key)
                if reached not in first_reach:
                    first_reach[reached] = len(leaves)
                    leaves.append(descent)
                descent.leaf = first_reach[reached]
            descents.append(descent)
        values: list[float] = []
        if leaves:
            states = [leaf.det for leaf in leaves]
            priors = self._batched(self.prior, states, seat)
            values = [float(v) for v in self._batched(self.value, states, seat)]
            for leaf, prior in zip(leaves, priors):
                assert leaf.parent is not None
                leaf.parent.children[leaf.key] = Node(np.asarray(prior))
        for descent in descents:
            value = descent.value if descent.value is not None else values[descent.leaf]
            self._backup(descent.path, value, pending=True)
        return len(descents)

    @staticmethod
    def _batched(evaluate: Any, states: list[Any], seat: int) -> list[Any]:
        """``evaluate.batch`` over ``states`` where it has one, else state by state."""
        batch = getattr(evaluate, "batch", None)
        if batch is not None:
            out = list(batch(states, [seat] * len(states)))
            if len(out) != len(states):
                raise ValueError(f"{evaluate!r}.batch answered {len(out)} results for "
                                 f"{len(states)} states")
            return out
        return [evaluate(s, seat) for s in states]

    def _descend(self, det: GameState, seat: int, root: Node, rng: np.random.Generator,
                 first: int | None = None, pending: bool = False) -> Descent:
        """One simulation's way down to its leaf (``Descent``); ``first``: the root action
        it must take; ``pending``: leave a virtual loss on every edge taken (a batch)."""
        movers: dict[int, StateBot] = {}

        def bot(s: int) -> StateBot:
            if s not in movers:
                movers[s] = self.opponents(s, int(rng.integers(2**31)))
            return movers[s]

        node: Node | None = root
        parent, last = root, -1  # where ``node`` hangs, once resolved, and by which action
        path: list[tuple[Node, int]] = []
        steps = 0
        while True:
            while not det.is_terminal() and det.current_player() != seat:
                det.apply(bot(det.current_player()).act(det))
                steps += 1
            if det.is_terminal() or steps >= self.max_decisions:
                return Descent(path, value=self._final_value(det, seat), steps=steps)
            legal = np.flatnonzero(det.legal_mask())
            if len(legal) == 1:  # a forced move: no decision, no node
                det.apply(int(legal[0]))
                steps += 1
                continue
            if node is None:  # p decides again: which information set is this?
                key = (last, information_digest(det, seat))
                node = parent.children.get(key)
                if node is None:  # a new one: to expand and evaluate
                    return Descent(path, det=det, parent=parent, key=key, bot=bot,
                                   steps=steps)
            if first is not None and node is root:
                action = first  # legal: the root's legal actions are the player's to see
                node.count_available(legal)
            else:
                action = self._select(node, legal)
            path.append((node, action))
            if pending:
                node.pending[action] = node.pending.get(action, 0) + 1
            det.apply(action)
            steps += 1
            parent, last, node = node, action, None

    @staticmethod
    def _backup(path: list[tuple[Node, int]], value: float, pending: bool = False) -> None:
        """``value`` along ``path``; ``pending``: its virtual losses taken off too."""
        for visited, action in path:
            visited.visits[action] = visited.visits.get(action, 0) + 1
            visited.value_sum[action] = visited.value_sum.get(action, 0.0) + value
            visited.value_squares[action] = visited.value_squares.get(action, 0.0) + value * value
            if pending:
                left = visited.pending[action] - 1
                if left:
                    visited.pending[action] = left
                else:
                    del visited.pending[action]

    def _select(self, node: Node, legal: np.ndarray) -> int:
        """PUCT over the actions legal in this determinization, each counted available."""
        node.count_available(legal)
        best, best_score = int(legal[0]), -math.inf
        for a in legal:
            a = int(a)
            n = node.visits.get(a, 0)
            total = node.available[a]
            mean = node.mean(a)
            if node.pending:  # a batch's descents passed here: their virtual losses
                provisional = node.pending.get(a, 0) * self.virtual_loss
                if provisional:
                    mean = node.value_sum.get(a, 0.0) / (n + provisional)  # each valued 0
                    n = n + provisional
            score = mean + self.c_puct * float(node.prior[a]) * math.sqrt(total) / (1 + n)
            if score > best_score:
                best, best_score = a, score
        return best

    def _leaf_value(self, det: GameState, seat: int, bot: Callable[[int], StateBot],
                    steps: int) -> float:
        if self.value is not None:
            return float(self.value(det, seat))
        stop = self.max_decisions
        if self.playout_depth is not None:
            stop = min(stop, steps + self.playout_depth)
        while not det.is_terminal() and steps < stop:
            det.apply(bot(det.current_player()).act(det))
            steps += 1
        if not det.is_terminal() and steps < self.max_decisions:
            # a short playout: the position as it stands (``scores`` as if it ended now)
            return rollout_value(det, seat, self.margin_weight, self.game.score_scale,
                                 self.objective)
        return self._final_value(det, seat)

    def _final_value(self, det: GameState, seat: int) -> float:
        if not det.is_terminal():
            return 0.0  # cut at the decision cap: no result to score
        return rollout_value(det, seat, self.margin_weight, self.game.score_scale,
                             self.objective)


class SearchBot:
    """An ``ISMCTS`` as a ``StateBot`` (what ``make_bot``, evaluation and the arena play)."""

    def __init__(self, search: ISMCTS, name: str = "ismcts") -> None:
        self.search = search
        self.name = name

    def act(self, state: GameState) -> int:
        return self.search.choose(state)


def bots_of(specs: Sequence[StateBot | None], fallback: BotFactory = random_bots
            ) -> BotFactory:
    """A ``BotFactory`` from fixed bots per seat (None: ``fallback``)."""
    def make(seat: int, seed: int) -> StateBot:
        fixed = specs[seat] if seat < len(specs) else None
        return fixed if fixed is not None else fallback(seat, seed)
    return make
