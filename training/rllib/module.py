"""The masked PPO module: RLlib's default PPO networks over ``observations``, with every
illegal action's logit replaced by ``MASKED_LOGIT`` (the value our ONNX exports use).

RLlib's own masking module is an example, not public API, so the suite keeps this one.
The env gives ``{"observations": float32[obs], "action_mask": float32[actions]}``; the
encoder is built for the ``observations`` part only.
"""

from __future__ import annotations

from typing import Any

import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns

from meeplezoo.training.agents.opponents import MASKED_LOGIT


def split_observation(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """(action mask, the batch with only the feature vector under ``obs``); a batch whose
    ``obs`` was split already (the learner's value pass) has no mask: None."""
    obs = batch[Columns.OBS]
    if not isinstance(obs, dict):
        return None, batch
    return obs["action_mask"], {**batch, Columns.OBS: obs["observations"]}


def mask_logits(logits: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
    return torch.where(action_mask > 0.5, logits, torch.full_like(logits, MASKED_LOGIT))


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """PPO actor-critic that never samples an action the mask forbids."""

    def __init__(self, *, observation_space: Any = None, **kwargs: Any) -> None:
        # The catalog (and so the encoder) is built in the parent's __init__ from the
        # features' Box; afterwards the module reports the full dict space, which is
        # what its checkpoint must rebuild it with.
        super().__init__(observation_space=observation_space["observations"], **kwargs)
        self.observation_space = observation_space

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, features = split_observation(batch)
        out = super()._forward(features, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = mask_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, features = split_observation(batch)
        out = super()._forward_train(features, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = mask_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        return super().compute_values(split_observation(batch)[1], embeddings)

    def value(self, observation: torch.Tensor) -> torch.Tensor:
        """The critic's value of each feature row (what the export's ``value`` output holds)."""
        return self.compute_values({Columns.OBS: observation})

    def masked_logits(self, observation: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
        """The deterministic policy's input as our exports define it: masked logits."""
        out = self._forward({Columns.OBS: {"observations": observation,
                                           "action_mask": action_mask}})
        return out[Columns.ACTION_DIST_INPUTS]
