"""Spatial policies: a features extractor that computes the logits itself, per env.

    meeplezoo train --env chihou_sousei_v1 --arch spatial ...

``SpatialPolicy`` is an SB3 MaskablePPO policy whose features extractor outputs
``[action logits | value latent]`` (``SplitLatent`` only splits them and the action
net is the identity), so SB3's training, imitation (``training.imitation``),
saving/loading and the ONNX export (``training.export``) all work unchanged.  Each
env's network lives in its own module under ``fitting/nets/`` (地方創生's:
``nets/chihou_sousei.py``), which registers the builder of its policy kwargs by env name
(``archs.SPATIAL_NETS``, also ``SPATIAL_ARCHS`` here), and ``policy_spec(arch, env,
net)`` gives the policy class and kwargs of an arch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.fitting import nets  # noqa: F401  (registers every game's network)
from meeplezoo.training.fitting.archs import ARCHS, LEGACY_EXTRACTOR, SPATIAL_NETS


class SplitLatent(nn.Module):
    """``mlp_extractor`` of ``SpatialPolicy``: the features are [logits | value latent]."""

    def __init__(self, action_count: int, value_dim: int) -> None:
        super().__init__()
        self.latent_dim_pi = action_count
        self.latent_dim_vf = value_dim

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return features[:, : self.latent_dim_pi]

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return features[:, self.latent_dim_pi :]


class SpatialPolicy(MaskableActorCriticPolicy):
    """A MaskablePPO policy whose features extractor computes the logits itself.

    ``features_extractor_class`` (a ``training.nets`` network) must output
    ``[action logits | value latent]`` and say ``features_dim``; the action net
    is the identity and the value net a linear layer on the value latent.
    """

    def __init__(self, observation_space: spaces.Space, action_space: spaces.Space,
                 lr_schedule: Callable[[float], float], **kwargs: Any) -> None:
        if "features_extractor_class" not in kwargs:  # model.zip files saved before the
            # network moved to nets/ named no class (the one registered as legacy)
            kwargs["features_extractor_class"] = LEGACY_EXTRACTOR[0]
        if not kwargs.pop("share_features_extractor", True):
            raise ValueError("SpatialPolicy computes logits and value in one shared network")
        kwargs.pop("net_arch", None)  # the extractor holds the whole network
        super().__init__(observation_space, action_space, lr_schedule, net_arch=[],
                         share_features_extractor=True, **kwargs)

    def _build_mlp_extractor(self) -> None:
        n = int(self.action_space.n)
        self.mlp_extractor = SplitLatent(n, self.features_dim - n)

    def _build(self, lr_schedule: Callable[[float], float]) -> None:
        self._build_mlp_extractor()
        self.action_net = nn.Identity()
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)
        if self.ortho_init:
            self.features_extractor.apply(partial(self.init_weights, gain=np.sqrt(2)))
            self.value_net.apply(partial(self.init_weights, gain=1.0))
        for head in self.features_extractor.output_heads():  # logits start near uniform
            head.apply(partial(self.init_weights, gain=0.01))
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs  # type: ignore[call-arg]
        )


# -- which arch an env has: ``archs.SPATIAL_NETS``, filled by the games' modules in nets/ --
SPATIAL_ARCHS = SPATIAL_NETS


def policy_spec(arch: str, env: str, net: Sequence[int]) -> tuple[Any, dict[str, Any]]:
    """(policy, policy_kwargs) for ``MaskablePPO`` with this arch on this env."""
    if arch == "mlp":
        return "MlpPolicy", {"net_arch": list(net)}
    if arch != "spatial":
        raise ConfigError(f"unknown arch {arch!r}; choose one of {', '.join(ARCHS)}")
    if env not in SPATIAL_ARCHS:
        raise ConfigError(
            f"--arch spatial has no network for env {env!r}; envs with one: "
            f"{', '.join(sorted(SPATIAL_ARCHS))}"
        )
    return SpatialPolicy, SPATIAL_ARCHS[env](net)


def arch_of(policy: Any) -> str:
    return "spatial" if isinstance(policy, SpatialPolicy) else "mlp"


def net_arch_of(policy: Any) -> Any:
    """What ``run.json``/``card.json`` record as ``net_arch``: the MLP's hidden sizes, or
    the spatial network's settings."""
    if isinstance(policy, SpatialPolicy):
        return dict(policy.features_extractor.spec)
    return policy.net_arch
