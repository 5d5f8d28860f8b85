"""Warm start by imitation: fit the policy to a teacher bot before PPO.

A game's heuristic bot plays every seat; each decision gives (observation,
mask, action) for the actor and the seat's final reward for the critic.
Fitting both before PPO starts means PPO improves on the teacher instead of
rediscovering the rules of thumb from random play, and its first updates are
not driven by an untrained critic.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

import envs
from envs.core.rewards import resolve_reward_kind, terminal_rewards


def _collect(args: tuple) -> dict[str, np.ndarray]:
    env_name, config, games, seed = args
    game = envs.make_game(env_name, **config)
    kind = resolve_reward_kind("auto", game.num_players)
    rng = np.random.default_rng(seed)
    bots = [game.heuristic_bot(int(rng.integers(2**31))) for _ in range(game.num_players)]
    obs, masks, actions, returns = [], [], [], []
    for _ in range(games):
        state = game.new_initial_state(int(rng.integers(2**63 - 1)))
        seats = []
        while not state.is_terminal():
            seat = state.current_player()
            mask = state.legal_mask()
            action = bots[seat].act(state)
            obs.append(state.observation(seat).copy())
            masks.append(mask.copy())
            actions.append(action)
            seats.append(seat)
            state.apply(action)
        final = terminal_rewards(kind, state.scores(), state.rank_keys(), game.score_scale)
        returns.extend(final[s] for s in seats)
    return {
        "obs": np.asarray(obs, np.float16),  # features lie in [0, 1]; halves the memory
        "masks": np.asarray(masks, bool),
        "actions": np.asarray(actions, np.int64),
        "returns": np.asarray(returns, np.float32),
    }


def collect_teacher_data(
    env_name: str, config: dict[str, Any], games: int, seed: int, workers: int | None = None
) -> dict[str, np.ndarray]:
    """Decisions of the heuristic bot playing every seat of ``games`` games."""
    workers = max(1, min(workers or os.cpu_count() or 1, games))
    share = [games // workers + (i < games % workers) for i in range(workers)]
    jobs = [(env_name, config, n, seed + 104729 * i) for i, n in enumerate(share) if n]
    if len(jobs) == 1:
        parts = [_collect(jobs[0])]
    else:
        with ProcessPoolExecutor(len(jobs)) as pool:
            parts = list(pool.map(_collect, jobs))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def fit_policy(policy: Any, data: dict[str, np.ndarray], epochs: int, batch_size: int = 256,
               seed: int = 0, log: Any = print, lr: float = 1e-3) -> dict[str, float]:
    """Behaviour cloning of the actor and regression of the critic on ``data``.

    Uses its own Adam optimizer (``lr``), so PPO's optimizer starts fresh after it.
    """
    import torch

    rng = np.random.default_rng(seed)
    order = rng.permutation(len(data["actions"]))
    held_out = order[: max(1, len(order) // 20)]  # 5% to measure generalisation
    train = order[len(held_out):]
    obs = torch.as_tensor(data["obs"])
    masks = torch.as_tensor(data["masks"])
    actions = torch.as_tensor(data["actions"])
    returns = torch.as_tensor(data["returns"])
    policy.set_training_mode(True)
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    stats: dict[str, float] = {}

    def agreement(rows: np.ndarray) -> float:
        rows = torch.as_tensor(rows[:4096])
        with torch.no_grad():
            dist = policy.get_distribution(obs[rows].float(), action_masks=masks[rows].numpy())
            return float((dist.distribution.probs.argmax(-1) == actions[rows]).float().mean())

    for epoch in range(epochs):
        rng.shuffle(train)
        total_nll = total_v = 0.0
        for start in range(0, len(train), batch_size):
            idx = torch.as_tensor(train[start:start + batch_size])
            values, log_prob, _ = policy.evaluate_actions(
                obs[idx].float(), actions[idx], action_masks=masks[idx]
            )
            nll = -log_prob.mean()
            value_loss = torch.nn.functional.mse_loss(values.flatten(), returns[idx])
            loss = nll + 0.5 * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            total_nll += nll.item() * len(idx)
            total_v += value_loss.item() * len(idx)
        stats = {"nll": total_nll / len(train), "value_mse": total_v / len(train),
                 "agreement": agreement(train), "held_out_agreement": agreement(held_out)}
        log(f"imitation epoch {epoch + 1}/{epochs}: nll {stats['nll']:.3f} "
            f"value mse {stats['value_mse']:.3f} agreement with teacher "
            f"{stats['agreement']:.1%} (held out {stats['held_out_agreement']:.1%})")
    policy.set_training_mode(False)
    return stats
