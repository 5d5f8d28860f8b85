"""Ratings from seat-rotated games: the round robin's schedule, Bradley-Terry Elo fitted by
Newton's method, and bootstrap intervals over deals.

Pure numbers (numpy alone): ``arena`` plays the games and rates them with these, and
``benchmark`` and ``metagame`` reuse them.  Why a module of its own: the arithmetic of a
rating is read and tested apart from the machinery that plays the games.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from meeplezoo.envs.core.errors import ConfigError

ELO_PER_NATURAL_LOG = 400 / math.log(10)
# the generators' tags under a seed: the lineups' order, the bootstrap (arena.FIELD_TAG is 2)
ORDER_TAG, BOOTSTRAP_TAG = 1, 3


def compositions(agents: int, players: int) -> list[tuple[int, ...]]:
    """The lineups (as sorted agent indices) the round robin cycles through."""
    if agents >= players:
        return list(itertools.combinations(range(agents), players))
    extras = itertools.combinations_with_replacement(range(agents), players - agents)
    return [tuple(sorted([*range(agents), *extra])) for extra in extras]


def schedule(agents: int, players: int, deals: int, seed: int) -> list[list[int]]:
    """Agent indices per seat of every game: deal ``d``'s lineup, rotated ``players`` times."""
    cycle = compositions(agents, players)
    games = []
    for deal in range(deals):
        order = np.random.default_rng([seed, deal, ORDER_TAG]).permutation(
            cycle[deal % len(cycle)])
        games.extend([int(a) for a in np.roll(order, turn)] for turn in range(players))
    return games


def pairwise_wins(places: list[list[float]], lineups: list[list[int]], agents: int) -> np.ndarray:
    """``wins[a, b]``: a's wins over b, pair of seats by pair of seats (draws count half)."""
    wins = np.zeros((agents, agents))
    for place, lineup in zip(places, lineups):
        for i, j in itertools.combinations(range(len(lineup)), 2):
            a, b = lineup[i], lineup[j]
            if a == b:
                continue
            share = 1.0 if place[i] < place[j] else 0.5 if place[i] == place[j] else 0.0
            wins[a, b] += share
            wins[b, a] += 1.0 - share
    return wins


def fit_elo(wins: np.ndarray, anchor: int, virtual_draws: float = 1.0,
            met: np.ndarray | None = None) -> np.ndarray:
    """Bradley-Terry ratings on the Elo scale, ``anchor`` at 0, fitted by Newton's method.

    ``wins`` is ``(..., M, M)`` (a batch of win matrices fits at once).  ``virtual_draws``
    draws are added to every pair that ``met`` (default: pairs with games in ``wins``)."""
    wins = np.asarray(wins, dtype=float)
    if met is None:
        met = (wins + np.swapaxes(wins, -1, -2)) > 0
    wins = wins + 0.5 * virtual_draws * met
    count = wins + np.swapaxes(wins, -1, -2)
    agents = wins.shape[-1]
    free = np.array([a for a in range(agents) if a != anchor])
    linked = met if met.ndim == 2 else met.reshape(-1, agents, agents)[0]
    if not _connected(linked):
        raise ConfigError("the agents do not all meet, directly or through others: "
                          "no common rating scale")
    theta = np.zeros(wins.shape[:-1])
    for _ in range(200):
        p = 1.0 / (1.0 + np.exp(theta[..., None, :] - theta[..., :, None]))
        gradient = (wins - count * p).sum(-1)
        curvature = count * p * (1.0 - p)
        precision = np.eye(agents) * curvature.sum(-1)[..., None] - curvature
        sub = precision[..., free[:, None], free[None, :]]
        step = np.linalg.solve(sub, gradient[..., free, None])[..., 0]
        step = np.clip(step, -2.0, 2.0)  # damping: far from the optimum, Newton overshoots
        theta[..., free] += step
        if np.abs(step).max() < 1e-9:
            break
    return theta * ELO_PER_NATURAL_LOG


def _connected(met: np.ndarray) -> bool:
    seen, todo = {0}, [0]
    while todo:
        a = todo.pop()
        for b in np.flatnonzero(met[a]):
            if int(b) not in seen:
                seen.add(int(b))
                todo.append(int(b))
    return len(seen) == len(met)


def resample_weights(units: int, resamples: int, seed: int) -> np.ndarray:
    """How often each unit (deal) is drawn in each bootstrap resample."""
    rng = np.random.default_rng([seed, BOOTSTRAP_TAG])
    return rng.multinomial(units, np.full(units, 1.0 / units), size=resamples).astype(float)


def interval(samples: np.ndarray) -> list[float]:
    """The 95% percentile interval of bootstrap samples (along the first axis)."""
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    return [float(low), float(high)]


def deal_wins(lineups: list[list[int]], results: list[dict], agents: int,
              size: int) -> np.ndarray:
    """``pairwise_wins`` deal by deal, ``(deals, agents, agents)``: the ``size`` games of a
    deal are consecutive (a bootstrap over deals resamples them together)."""
    return np.stack([
        pairwise_wins([r["places"] for r in results[d * size:(d + 1) * size]],
                      lineups[d * size:(d + 1) * size], agents)
        for d in range(len(results) // size)])
