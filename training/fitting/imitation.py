"""Warm start by imitation: fit the policy to a teacher bot before PPO.

A game's heuristic bot plays every seat; each decision gives (observation,
mask, action) for the actor and the seat's final reward for the critic.
Fitting both before PPO starts means PPO improves on the teacher instead of
rediscovering the rules of thumb from random play, and its first updates are
not driven by an untrained critic.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable
from concurrent.futures import as_completed
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.agents import teacher_choice
from meeplezoo.envs.core.rewards import resolve_reward_kind, terminal_rewards
from meeplezoo.envs.core.workers import process_pool


def _collect(args: tuple) -> dict[str, np.ndarray]:
    env_name, config, game_ids, seed, student_path, student_share, role = args
    game = envs.make_game(env_name, **config)
    kind = resolve_reward_kind("auto", game.num_players)
    student = None
    if student_path:
        import torch
        from sb3_contrib import MaskablePPO

        torch.set_num_threads(1)
        student = MaskablePPO.load(student_path, device="cpu")
    obs, masks, actions, targets, returns = [], [], [], [], []
    for game_id in game_ids:  # each game seeded on its own: the data ignores the worker count
        rng = np.random.default_rng([seed, game_id])
        bots = [game.heuristic_bot(int(rng.integers(2**31))) for _ in range(game.num_players)]
        state = game.new_initial_state(int(rng.integers(2**63 - 1)))
        seats = []
        while not state.is_terminal():
            seat = state.current_player()
            action, best = teacher_choice(bots[seat], state)
            if role is not None and game.seat_role(seat) != role:  # another role's decision
                state.apply(action)
                continue
            mask = state.legal_mask()
            observation = state.observation(seat)
            target = np.zeros(len(mask), bool)
            target[best] = True
            obs.append(observation.copy())
            masks.append(mask.copy())
            actions.append(action)
            targets.append(target)
            seats.append(seat)
            if student is not None and rng.random() < student_share:
                # DAgger: visit the states the student's own play leads to,
                # labelled with what the teacher would have done there
                played, _ = student.predict(observation, action_masks=mask, deterministic=False)
                action = int(played)
            state.apply(action)
        final = terminal_rewards(kind, state.scores(), state.rank_keys(), game.score_scale)
        returns.extend(final[s] for s in seats)
    return {
        "obs": np.asarray(obs, np.float16),  # features lie in [0, 1]; halves the memory
        "masks": np.asarray(masks, bool),
        "actions": np.asarray(actions, np.int64),
        "targets": np.asarray(targets, bool),
        "returns": np.asarray(returns, np.float32),
    }


def collect_teacher_data(
    env_name: str, config: dict[str, Any], games: int, seed: int, workers: int | None = None,
    student: str | None = None, student_share: float = 0.5, role: str | None = None,
    progress: Any = None,
) -> dict[str, np.ndarray]:
    """Decisions of the heuristic bot playing every seat of ``games`` games
    (the same data for any number of ``workers``); with ``role``, only the decisions
    of that role's seats (an asymmetric game's roles have their own sizes).

    With ``student`` (a MaskablePPO .zip) each decision is played by the
    student with probability ``student_share`` (DAgger), still labelled with the
    teacher's choice, so the data covers the positions the student reaches.
    ``progress`` (an ``envs.core.progress.Progress``) counts the games as they end; with a
    student only at the end (its sampling runs on through a worker's games, so the games
    keep their split over the workers).
    """
    if not 0.0 <= student_share <= 1.0:
        raise ValueError(f"student_share must lie in [0, 1], got {student_share}")
    parts = map_over_games(
        _collect, lambda ids: (env_name, config, ids, seed, student, student_share, role), games,
        workers, progress if student is None else None,
    )
    if progress is not None and student is not None:
        progress.update(games)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


PROGRESS_RANGE = 4  # games per range at most when the games are counted


def map_over_games(work: Callable[[tuple], Any], job: Callable[[range], tuple], games: int,
                   workers: int | None = None, progress: Any = None) -> list[Any]:
    """``work(job(ids))`` for one contiguous range of game ids ``0..games-1`` per
    worker process (all cores by default), results in game order: with games
    seeded by id, the data does not depend on the worker count.  ``progress`` (an
    ``envs.core.progress.Progress``) counts the games as their ranges end; the ranges are
    then of ``PROGRESS_RANGE`` games at most, which changes no data seeded by id alone (a
    DAgger student's sampling is not: its callers pass no ``progress``)."""
    workers = max(1, min(workers or os.cpu_count() or 1, games))
    if progress is None:
        bounds = np.linspace(0, games, workers + 1).astype(int)
        ranges = [range(lo, hi) for lo, hi in itertools.pairwise(bounds) if hi > lo]
    else:
        size = max(1, min(PROGRESS_RANGE, math.ceil(games / (4 * workers))))
        ranges = [range(lo, min(lo + size, games)) for lo in range(0, games, size)]
    jobs = [job(ids) for ids in ranges]
    if workers == 1 or len(jobs) == 1:
        parts = []
        for ids, one in zip(ranges, jobs):
            parts.append(work(one))
            if progress is not None:
                progress.update(len(ids))
        return parts
    with process_pool(min(workers, len(jobs))) as pool:
        futures = [pool.submit(work, one) for one in jobs]
        if progress is not None:
            sizes = {future: len(ids) for future, ids in zip(futures, ranges)}
            for future in as_completed(futures):
                progress.update(sizes[future])
        return [future.result() for future in futures]


def favourites(policy: Any, obs: np.ndarray, masks: np.ndarray,
               rows: np.ndarray | None = None) -> np.ndarray:
    """The policy's most probable legal action on each of ``rows`` (all rows: None)."""
    import torch

    rows = np.arange(len(obs)) if rows is None else rows
    out = []
    with torch.no_grad():
        for start in range(0, len(rows), 1024):
            batch = rows[start:start + 1024]
            dist = policy.get_distribution(torch.as_tensor(obs[batch]).float(),
                                           action_masks=masks[batch])
            out.append(dist.distribution.probs.argmax(-1).numpy())
    return np.concatenate(out) if out else np.zeros(0, np.int64)


def agreement(policy: Any, obs: np.ndarray, masks: np.ndarray, targets: np.ndarray,
              rows: np.ndarray) -> float:
    """Share of ``rows`` where the policy's favourite action is one of the
    labelled best (``targets``, a boolean row per decision)."""
    choice = favourites(policy, obs, masks, rows)
    return int(targets[rows, choice].sum()) / max(len(rows), 1)


def fit_policy(policy: Any, data: dict[str, np.ndarray], epochs: int, batch_size: int = 256,
               seed: int = 0, log: Any = print, lr: float = 1e-3,
               held_out: np.ndarray | None = None) -> dict[str, float]:
    """Behaviour cloning of the actor and regression of the critic on ``data``.

    ``held_out``: the rows kept out of the fit, on which ``held_out_agreement`` is
    measured (a caller that knows the games holds out whole games: the positions of one
    game are alike, so held-out positions of fitted games flatter the student); default
    5% of the rows at random.

    The actor maximises the probability of choosing *one of* the teacher's
    equally-best actions (``data["targets"]``), not the coin flip it made.
    With ``data["soft_targets"]`` (a distribution over actions per row) the
    actor minimises the cross-entropy to it instead, on every row.

    Uses its own Adam optimizer (``lr``), so PPO's optimizer starts fresh after it.
    """
    import torch

    rng = np.random.default_rng(seed)
    order = rng.permutation(len(data["actions"]))
    if held_out is None:
        held_out = order[: max(1, len(order) // 20)]  # 5% to measure generalisation
        train = order[len(held_out):]
    else:
        held_out = np.asarray(held_out, np.int64)
        train = order[~np.isin(order, held_out)]
        if len(train) == 0 or len(held_out) == 0:
            raise ValueError(f"held_out: {len(held_out)} of {len(order)} rows leaves "
                             "nothing to fit or nothing to measure")
    obs = torch.as_tensor(data["obs"])
    masks = torch.as_tensor(data["masks"])
    actions = torch.as_tensor(data["actions"])
    if "targets" in data:  # the teacher's equally-best actions
        targets = torch.as_tensor(data["targets"])
    else:  # data from before teacher sets: the played action alone
        targets = torch.nn.functional.one_hot(actions, masks.shape[1]).bool()
    returns = torch.as_tensor(data["returns"])
    soft = torch.as_tensor(data["soft_targets"]) if "soft_targets" in data else None
    policy.set_training_mode(True)
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    stats: dict[str, float] = {}

    def sample_agreement(rows: np.ndarray) -> float:
        return agreement(policy, data["obs"], data["masks"], targets.numpy(), rows[:4096])

    for epoch in range(epochs):
        rng.shuffle(train)
        total_nll = total_v = 0.0
        for start in range(0, len(train), batch_size):
            idx = torch.as_tensor(train[start:start + batch_size])
            batch_obs = obs[idx].float()
            dist = policy.get_distribution(batch_obs, action_masks=masks[idx].numpy())
            log_probs = dist.distribution.logits  # normalised log-probabilities
            # -log P(the policy picks one of the teacher's best actions)
            if soft is None:
                nll = -log_probs.masked_fill(~targets[idx], float("-inf")).logsumexp(-1).mean()
            else:  # masked actions have zero target mass; clamp keeps 0 * log 0 at 0
                nll = -(soft[idx].float() * log_probs.clamp(min=-1e6)).sum(-1).mean()
            values = policy.predict_values(batch_obs)
            value_loss = torch.nn.functional.mse_loss(values.flatten(), returns[idx])
            loss = nll + 0.5 * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            total_nll += nll.item() * len(idx)
            total_v += value_loss.item() * len(idx)
        stats = {"nll": total_nll / len(train), "value_mse": total_v / len(train),
                 "agreement": sample_agreement(train),
                 "held_out_agreement": sample_agreement(held_out)}
        log(f"imitation epoch {epoch + 1}/{epochs}: nll {stats['nll']:.3f} "
            f"value mse {stats['value_mse']:.3f} agreement with teacher "
            f"{stats['agreement']:.1%} (held out {stats['held_out_agreement']:.1%})")
    policy.set_training_mode(False)
    return stats
