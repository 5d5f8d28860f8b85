"""The meta-game's solvers, on payoff tables alone (numpy only): ``meeplezoo metagame``'s
Nash and α-Rank.

A meta-game of ``K`` roles (populations) is a payoff tensor ``U`` of shape
``(K, n_1, ..., n_K)``: ``U[k][s_1, ..., s_K]`` is role ``k``'s payoff when role ``j`` plays
its strategy ``s_j``.  An entry that was not sampled is NaN; the solvers read only entries
they need and say when one they need is missing.

- ``deviation_payoffs`` / ``regret``: what each strategy of a role earns against the others'
  mixtures, and each role's gain from its best unilateral deviation (the mixture is a Nash
  equilibrium when every gain is 0; ``nash_conv`` is their sum, as OpenSpiel names it).
- ``solve_nash``: an approximate Nash equilibrium of a general-sum game of any number of
  roles.  No dynamic is known to converge to a Nash equilibrium there, so several standard
  ones run and the mixture with the smallest largest gain is kept, its regret reported:
  projected replicator dynamics (Lanctot et al. 2017, PSRO's meta-solver: replicator steps
  projected back onto the simplex with a floor, ``gamma``), its time average (which, unlike
  the last iterate, converges in zero-sum games such as matching pennies, where the
  replicator orbits), regret matching's average, and the best pure profile; each is then
  polished: on its support, Newton's method looks for the mixture that leaves every role
  indifferent among its support's strategies, which is exact where the support is right.
- ``alpharank``: α-Rank (Omidshafiei et al. 2019), multi-population: a Markov chain over
  pure profiles in which one role at a time switches strategy, the switch fixing in a
  population of ``m`` with the Fermi probability of the payoff gain at selection intensity
  ``alpha``; its stationary distribution ranks the profiles, and summed per role it ranks
  each role's strategies.  Over a table with unsampled profiles the chain moves between
  sampled profiles only (the result says so: ``complete``).

Written for this project after reading OpenSpiel's ``python/egt/alpharank.py`` and
``python/algorithms/psro_v2/meta_strategies.py`` (the same formulas; none of their code).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

Mixture = list[np.ndarray]  # one probability vector per role

PRD_ITERATIONS = 10_000
PRD_DT = 1e-2  # payoffs are win shares in [0, 1]
PRD_GAMMA = 1e-6  # the replicator's floor: every strategy keeps gamma / n of its role
RM_ITERATIONS = 2_000
POLISH_THRESHOLDS = (1e-3, 1e-2, 5e-2)  # supports tried, in turn, by ``polish``
POLISH_STEPS = 50
SUPPORT = 1e-4  # a probability below it is reported as 0 (and not sampled against)


def deviation_payoffs(U: np.ndarray, mixture: Mixture, role: int) -> np.ndarray:
    """``role``'s payoff for each of its strategies against the others' ``mixture`` (NaN
    where an entry it needs, with the others' positive weight, was not sampled)."""
    table = U[role]
    for k in reversed(range(len(mixture))):  # from the last axis: earlier ones keep their place
        if k == role:
            continue
        keep = np.flatnonzero(mixture[k] > 0)
        table = np.tensordot(np.take(table, keep, axis=k), mixture[k][keep], axes=([k], [0]))
    return table


def regret(U: np.ndarray, mixture: Mixture) -> dict[str, Any]:
    """Each role's value under ``mixture``, every strategy's deviation payoff, and the gain
    of its best deviation (``gains``; over the deviations sampled: ``unknown`` lists the
    ``(role, strategy)`` whose deviation payoff is missing)."""
    values, deviations, gains, unknown = [], [], [], []
    for k, weights in enumerate(mixture):
        dev = deviation_payoffs(U, mixture, k)
        support = weights > 0
        value = float(weights[support] @ dev[support])
        values.append(value)
        deviations.append(dev)
        known = ~np.isnan(dev)
        unknown += [(k, int(s)) for s in np.flatnonzero(~known)]
        gains.append(max(0.0, float(dev[known].max()) - value) if known.any() else 0.0)
    return {"values": values, "deviations": deviations, "gains": gains,
            "nash_conv": float(sum(gains)), "max_gain": float(max(gains)), "unknown": unknown}


def uniform(sizes: Sequence[int]) -> Mixture:
    return [np.full(n, 1.0 / n) for n in sizes]


def _all_deviations(U: np.ndarray) -> Any:
    """A function of a mixture (full support assumed) giving every role's deviation
    payoffs: one ``einsum`` per role, its contraction order found once."""
    letters = "abcdefghijklmnopqrstuvwxyz"[:U.ndim - 1]
    subscripts = [f"{letters},{','.join(c for c in letters if c != letters[k])}->{letters[k]}"
                  for k in range(U.ndim - 1)]

    def payoffs(x: Mixture) -> list[np.ndarray]:
        return [np.einsum(sub, U[k], *(x[j] for j in range(len(x)) if j != k))
                for k, sub in enumerate(subscripts)]

    return payoffs


def replicator(U: np.ndarray, iterations: int = PRD_ITERATIONS, dt: float = PRD_DT,
               gamma: float = PRD_GAMMA) -> tuple[Mixture, Mixture]:
    """Projected replicator dynamics from the uniform mixture: (last iterate, average of the
    second half of the trajectory).  A replicator step keeps each role's sum at 1, so the
    projection is the floor ``gamma / n`` and a renormalisation."""
    sizes = U.shape[1:]
    payoffs = _all_deviations(U)
    x = uniform(sizes)
    total = [np.zeros(n) for n in sizes]
    for t in range(iterations):
        x = [xk + dt * xk * (uk - xk @ uk) for xk, uk in zip(x, payoffs(x))]
        x = [np.maximum(xk, gamma / len(xk)) for xk in x]
        x = [xk / xk.sum() for xk in x]
        if t >= iterations // 2:
            for k in range(len(sizes)):
                total[k] += x[k]
    return x, [t / (iterations - iterations // 2) for t in total]


def regret_matching(U: np.ndarray, iterations: int = RM_ITERATIONS) -> Mixture:
    """The average strategy of regret matching (every role at once, from uniform)."""
    sizes = U.shape[1:]
    payoffs = _all_deviations(U)
    x = uniform(sizes)
    regrets = [np.zeros(n) for n in sizes]
    total = [np.zeros(n) for n in sizes]
    for _ in range(iterations):
        for k, (xk, uk) in enumerate(zip(x, payoffs(x))):
            regrets[k] += uk - xk @ uk
            total[k] += xk
        x = [np.maximum(r, 0) / np.maximum(r, 0).sum() if (r > 0).any()
             else np.full(len(r), 1 / len(r)) for r in regrets]
    return [t / iterations for t in total]


def best_pure(U: np.ndarray) -> Mixture:
    """The pure profile whose largest unilateral gain is smallest (a pure Nash equilibrium
    when that gain is 0)."""
    sizes = U.shape[1:]
    best, best_gain = None, np.inf
    for profile in itertools.product(*(range(n) for n in sizes)):
        gain = max(float(np.nanmax(np.moveaxis(U[k], k, -1)[tuple(s for j, s in
                                                                  enumerate(profile)
                                                                  if j != k)]))
                   - float(U[k][profile]) for k in range(len(sizes)))
        if gain < best_gain - 1e-12:
            best, best_gain = profile, gain
    return [np.eye(n)[s] for n, s in zip(sizes, best)]


def clean(mixture: Mixture, threshold: float = SUPPORT) -> Mixture:
    """Probabilities below ``threshold`` set to 0 and the rest renormalised."""
    out = []
    for x in mixture:
        y = np.where(x >= threshold, x, 0.0)
        out.append(y / y.sum() if y.sum() > 0 else x)
    return out


def polish(U: np.ndarray, mixture: Mixture, threshold: float) -> Mixture | None:
    """The mixture on the support of ``mixture`` (its probabilities above ``threshold``) at
    which every role is indifferent among its support's strategies, found by Newton's method
    from ``mixture``; None when there is none near it (a negative weight, no convergence).
    Where the support is right, this turns an approximate equilibrium into an exact one."""
    sizes = U.shape[1:]
    payoffs = _all_deviations(U)
    supports = [np.flatnonzero(x > threshold) for x in mixture]
    cuts = np.cumsum([0, *(len(s) for s in supports)])

    def unpack(z: np.ndarray) -> Mixture:
        out = [np.zeros(n) for n in sizes]
        for k, support in enumerate(supports):
            out[k][support] = z[cuts[k]:cuts[k + 1]]
        return out

    def residual(z: np.ndarray) -> np.ndarray:
        x = unpack(z)
        return np.concatenate([np.append(u[sup][1:] - u[sup][0], x[k].sum() - 1.0)
                               for k, (sup, u) in enumerate(zip(supports, payoffs(x)))])

    z = np.concatenate([x[sup] / x[sup].sum() for x, sup in zip(mixture, supports)])
    step = 1e-7
    for _ in range(POLISH_STEPS):
        r = residual(z)
        if np.abs(r).max() < 1e-12:
            break
        jacobian = np.stack([(residual(z + step * e) - r) / step for e in np.eye(len(z))], 1)
        z = z - np.linalg.lstsq(jacobian, r, rcond=None)[0]
    if not np.isfinite(z).all() or (z < -1e-9).any() or np.abs(residual(z)).max() > 1e-9:
        return None
    return unpack(np.maximum(z, 0.0))


def solve_nash(U: np.ndarray, iterations: int = PRD_ITERATIONS) -> dict[str, Any]:
    """An approximate Nash equilibrium of a complete table ``U`` (no NaN): the candidate of
    lowest largest gain among the solvers of the module docstring, each also polished on its
    support (``polish``), with its regret and every candidate's largest gain
    (``candidates``)."""
    if np.isnan(U).any():
        raise ValueError("solve_nash needs every entry of the table: solve the sampled "
                         "sub-game")
    last, average = replicator(U, iterations)
    candidates = {"replicator (average)": average, "replicator (last)": last,
                  "regret matching (average)": regret_matching(U), "best pure profile":
                  best_pure(U)}
    for name, mixture in list(candidates.items()):
        for threshold in POLISH_THRESHOLDS:
            polished = polish(U, mixture, threshold)
            if polished is not None:
                candidates[f"{name}, polished on its support"] = polished
                break
    scored = []
    for name, mixture in candidates.items():
        mixture = clean(mixture)
        scored.append((regret(U, mixture)["max_gain"], name, mixture))
    _, name, mixture = min(scored, key=lambda item: item[0])  # first of equals: the order above
    return {"mixture": mixture, "solver": name, **regret(U, mixture),
            "candidates": {n: g for g, n, _ in scored}}


# -- α-Rank -------------------------------------------------------------------------------

ALPHA = 100.0  # OpenSpiel's default selection intensity
POPULATION = 50  # its default m


def fixation(gain: float, alpha: float, m: int) -> float:
    """The probability that one mutant with payoff ``gain`` over the residents takes over a
    population of ``m`` (Fermi process at intensity ``alpha``), computed without overflow."""
    x = alpha * gain
    if abs(x) < 1e-12:
        return 1.0 / m
    if x > 0:
        return float(np.expm1(-x) / np.expm1(-m * x))
    return float(np.exp((m - 1) * x) * np.expm1(x) / np.expm1(m * x))


def alpharank(profiles: Sequence[tuple[int, ...]], payoffs: np.ndarray, sizes: Sequence[int],
              alpha: float = ALPHA, m: int = POPULATION) -> dict[str, Any]:
    """α-Rank over the ``profiles`` given (``payoffs[i, k]``: role ``k``'s payoff at profile
    ``i``): the stationary distribution over them, and per role the mass of each strategy.
    A profile's switch to one outside ``profiles`` is left out (``complete`` is False when
    any was)."""
    index = {tuple(p): i for i, p in enumerate(profiles)}
    count = len(profiles)
    eta = 1.0 / max(1, sum(n - 1 for n in sizes))
    chain = np.zeros((count, count))
    complete = True
    for i, profile in enumerate(profiles):
        for k, n in enumerate(sizes):
            for s in range(n):
                if s == profile[k]:
                    continue
                j = index.get((*profile[:k], s, *profile[k + 1:]))
                if j is None:
                    complete = False
                    continue
                chain[i, j] = eta * fixation(payoffs[j, k] - payoffs[i, k], alpha, m)
        chain[i, i] = 1.0 - chain[i].sum()
    system = chain.T - np.eye(count)
    system[-1] = 1.0
    target = np.zeros(count)
    target[-1] = 1.0
    pi = np.linalg.lstsq(system, target, rcond=None)[0]
    pi = np.maximum(pi, 0.0)
    pi /= pi.sum()
    marginals = [np.zeros(n) for n in sizes]
    for p, mass in zip(profiles, pi):
        for k, s in enumerate(p):
            marginals[k][s] += mass
    return {"alpha": alpha, "m": m, "stationary": pi, "marginals": marginals,
            "complete": complete}
