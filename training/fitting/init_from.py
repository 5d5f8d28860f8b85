"""Start a training run from a shipped checkpoint (``training.train --init-from``).

A checkpoint keeps only the policy's actor, as ONNX (``policy.onnx``): the SB3 model it
came from (``model.zip``, with the critic and the optimiser) lives in a run folder that is
not committed.  So a run that continues a shipped policy builds a new MaskablePPO with the
card's network, copies the actor's weights out of the ONNX file, checks that the torch
actor now gives the ONNX logits, and lets the fresh critic learn alone for a while
(``critic_warmup``) before the actor moves: a random critic's advantages would otherwise
push the trained actor around in the first updates.

Why: it makes the recipe of a shipped policy reproducible from the repository alone, and
lets a user fine-tune any shipped opponent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo.envs.core.game import Game
from meeplezoo.training.agents.opponents import PolicyAgent, read_team_card
from meeplezoo.training.agents.zoo import CheckpointError, checkpoint_folder

ONNX_PREFIX = "policy."  # training.export traces ``MaskedLogits(policy)``: names keep it
LOGIT_TOLERANCE = 1e-4


def resolve_checkpoint(path: str | Path, game: Game, role: str,
                       flag: str = "--init-from") -> PolicyAgent:
    """The checkpoint at ``path`` for ``role`` of ``game`` (a team folder gives its member
    for ``role``), refused with the reason when it was made for another env, role,
    encoder or action list (``check_compatible``)."""
    folder = checkpoint_folder(path)
    if (folder / "team.json").exists():
        _, members, _ = read_team_card(folder)
        if role not in members:
            raise CheckpointError(f"{flag} {folder}: the team has no policy for role "
                                  f"{role!r} (it has {sorted(members)})")
        folder = folder / members[role]
    seats = game.role_seats(role)
    if not seats:
        raise CheckpointError(f"{flag} {folder}: role {role!r} has no seat in {game.name}")
    agent = PolicyAgent(folder)
    agent.check_compatible(game, seats[0])  # env, role of that seat, sizes, encoder, actions
    return agent


def onnx_weights(model_path: Path) -> dict[str, np.ndarray]:
    """The ONNX file's initializers by the torch parameter names they were traced from;
    those the exporter renamed (a ``MatMul``'s transposed weight, ``onnx::MatMul_N``) are
    matched by ``matched_renamed``."""
    return onnx_initializers(model_path)[0]


def onnx_initializers(model_path: Path) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    """(named initializers by parameter name, the renamed ones)."""
    import onnx
    from onnx import numpy_helper

    named, renamed = {}, []
    for tensor in onnx.load(str(model_path)).graph.initializer:
        if tensor.name.startswith(ONNX_PREFIX):
            named[tensor.name[len(ONNX_PREFIX):]] = numpy_helper.to_array(tensor)
        else:
            renamed.append(numpy_helper.to_array(tensor))
    return named, renamed


def matched_renamed(renamed: list[np.ndarray], params: dict[str, Any],
                    named: dict[str, np.ndarray], model_path: Path) -> dict[str, np.ndarray]:
    """The exporter traces ``x @ W.T`` of a ``Linear`` whose input is not 2-D as a ``MatMul``
    on a new, transposed constant: each such constant goes to the one actor parameter not
    named in the file whose shape is its transpose, or the checkpoint is refused."""
    free = {name: tuple(p.shape) for name, p in params.items()
            if name not in named and not name.startswith(CRITIC_PARTS)}
    out = {}
    for tensor in renamed:
        fits = [name for name, shape in free.items() if tensor.ndim == 2
                and shape == tensor.T.shape and name not in out]
        if len(fits) != 1:
            raise CheckpointError(
                f"{model_path}: an unnamed initializer of shape {list(tensor.shape)} fits "
                f"{len(fits)} of the policy's unnamed parameters ({fits}), so its weights "
                "cannot be placed")
        out[fits[0]] = np.ascontiguousarray(tensor.T)
    return out


# An export's value output (``training.export``) carries the critic's weights too; the run
# keeps only the actor's, since its critic warms up alone (``--critic-warmup``).
CRITIC_PARTS = ("value_net.", "mlp_extractor.value_net.", "vf_features_extractor.")


def copy_actor(policy: Any, agent: PolicyAgent, flag: str = "--init-from") -> list[str]:
    """Copy the checkpoint's actor weights into ``policy`` (an SB3 policy with the card's
    network); the names of the parameters copied.  Refuses a network that does not fit,
    then checks that ``policy`` gives the ONNX logits on random observations."""
    import torch

    model_path = agent.path / "policy.onnx"
    named, renamed = onnx_initializers(model_path)
    params = dict(policy.named_parameters())
    weights = {name: w for name, w in named.items()
               if not name.startswith(CRITIC_PARTS)}  # the critic starts fresh (docstring)
    weights.update(matched_renamed(renamed, params, named, model_path))
    problems = [f"{name} is not a parameter of the new policy" for name in weights
                if name not in params]
    problems += [f"{name} has shape {list(w.shape)}, the new policy's is "
                 f"{list(params[name].shape)}" for name, w in weights.items()
                 if name in params and tuple(params[name].shape) != w.shape]
    if problems:
        raise CheckpointError(f"{flag} {agent.path}: its network does not fit the run's "
                              f"(net_arch from its card): " + "; ".join(problems))
    with torch.no_grad():
        for name, w in weights.items():
            params[name].copy_(torch.from_numpy(np.array(w, dtype=np.float32)))
    gap = logit_gap(policy, agent)
    if gap > LOGIT_TOLERANCE:
        raise CheckpointError(f"{flag} {agent.path}: after copying, the torch policy's "
                              f"logits differ from the ONNX file's by {gap:.3g} (relative)")
    return sorted(weights)


def logit_gap(policy: Any, agent: PolicyAgent, rows: int = 64, seed: int = 0) -> float:
    """Largest |torch - ONNX| masked logit over random observations with every action legal,
    relative to the largest logit when that is above 1 (random observations outside the
    features' range drive a deep network's logits into the hundreds, where float32 rounding
    alone differs by more than ``LOGIT_TOLERANCE``)."""
    import torch

    rng = np.random.default_rng(seed)
    obs = rng.uniform(-1.0, 1.0, (rows, agent.observation_size)).astype(np.float32)
    masks = np.ones((rows, agent.action_count), np.float32)
    with torch.no_grad():
        features = policy.extract_features(torch.from_numpy(obs), policy.pi_features_extractor)
        ours = policy.action_net(policy.mlp_extractor.forward_actor(features)).numpy()
    theirs = agent.logits_batch(obs, masks)
    return float(np.max(np.abs(ours - theirs)) / max(1.0, float(np.max(np.abs(theirs)))))


def set_trainable(policy: Any, names: list[str], trainable: bool) -> None:
    """Freeze (or free) the named parameters: Adam skips a parameter with no gradient."""
    params = dict(policy.named_parameters())
    for name in names:
        params[name].requires_grad_(trainable)


def steps_run(timesteps: int, rollout: int) -> int:
    """The learner steps a run of ``--timesteps`` takes: SB3 collects whole rollouts of
    ``rollout`` (``n_steps * n_envs``) steps."""
    return -(-timesteps // rollout) * rollout


def actor_trains(timesteps: int, rollout: int, warmup: int) -> bool:
    """Whether a run gets past its critic warm-up: the actor is freed at the end of the
    first rollout that ends beyond ``warmup`` steps, and the update on that rollout is its
    first (``critic_warmup_callback``)."""
    return steps_run(timesteps, rollout) > warmup


def frozen_actor_warning(timesteps: int, rollout: int, warmup: int) -> str | None:
    """What to tell a user whose run will end before its actor trains (None: it will train)."""
    if actor_trains(timesteps, rollout, warmup):
        return None
    return (f"warning: --timesteps {timesteps} ({steps_run(timesteps, rollout)} steps in whole "
            f"rollouts of {rollout}) does not get past the critic warm-up of {warmup} steps: "
            "the actor stays frozen the whole run, so the policy comes out as --init-from "
            f"gave it; give --timesteps above {warmup}, or a smaller --critic-warmup")


def critic_warmup_callback(actor_params: list[str], steps: int) -> Any:
    """An SB3 callback that keeps the actor frozen for the run's first ``steps`` learner
    steps (counted from where the run starts), then frees it for the rest."""
    from stable_baselines3.common.callbacks import BaseCallback

    class CriticWarmup(BaseCallback):
        def _on_training_start(self) -> None:
            self.until = self.model.num_timesteps + steps
            self.frozen = steps > 0
            set_trainable(self.model.policy, actor_params, not self.frozen)

        def _on_rollout_end(self) -> None:  # before the update that uses this rollout
            if self.frozen and self.model.num_timesteps > self.until:
                self.frozen = False
                set_trainable(self.model.policy, actor_params, True)
                print(f"[{self.model.num_timesteps} steps] critic warm-up done: the actor "
                      "trains from here", flush=True)

        def _on_step(self) -> bool:
            return True

    return CriticWarmup()
