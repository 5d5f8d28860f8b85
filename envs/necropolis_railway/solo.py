"""The solo variant as a plain single-agent gymnasium env (for sb3-contrib MaskablePPO).

    from meeplezoo.envs.necropolis_railway.solo import NecropolisSoloEnv
    env = NecropolisSoloEnv()
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.action_masks().argmax())

Observation: the engine's float32 vector (Box in [0, 1]); action: Discrete over
the fixed catalogue; ``action_masks()`` gives the legal ones (also in
``info["action_mask"]``).  Reward: 0 on every step and the final score divided
by the game's ``score_scale`` at the end.  An illegal action ends the episode
with ``illegal_reward`` (default -1) unless ``illegal_action="raise"``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway.game import NecropolisRailwayGame
from meeplezoo.envs.necropolis_railway.observation import SIZE
from meeplezoo.envs.necropolis_railway.state import NecropolisState


class NecropolisSoloEnv(gym.Env):
    """London Necropolis Railway, solo variant, one agent."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, render_mode: str | None = None, illegal_action: str = "terminate",
                 illegal_reward: float = -1.0, max_decisions: int | None = None) -> None:
        if render_mode not in (None, "ansi", "human"):
            raise ConfigError(f"render_mode={render_mode!r}; use None, 'ansi' or 'human'")
        if illegal_action not in ("terminate", "raise"):
            raise ConfigError(f"illegal_action={illegal_action!r}; use 'terminate' or 'raise'")
        self.game = NecropolisRailwayGame(1)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_decisions = max_decisions or self.game.max_decisions
        self.observation_space = spaces.Box(0.0, 1.0, (SIZE,), np.float32)
        self.action_space = spaces.Discrete(A.NUM_ACTIONS)
        self.state: NecropolisState | None = None
        self.decisions = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.state = self.game.new_initial_state(int(self.np_random.integers(2**63 - 1)))
        self.decisions = 0
        return self.state.observation(0), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self._require_state()
        if state.is_terminal():
            raise RuntimeError("the episode is over; call reset()")
        mask = state.legal_mask()
        a = int(action)
        if not (0 <= a < mask.shape[0] and mask[a]):
            if self.illegal_action == "raise":
                state.apply(a)  # raises IllegalActionError naming the legal actions
            info = self._info()
            info["illegal_action"] = A.NAMES[a] if 0 <= a < len(A.NAMES) else a
            return state.observation(0), self.illegal_reward, True, False, info
        state.apply(a)
        self.decisions += 1
        terminated = state.is_terminal()
        truncated = not terminated and self.decisions >= self.max_decisions
        reward = state.scores()[0] / self.game.score_scale if terminated else 0.0
        info = self._info()
        if terminated:
            info["score"] = state.scores()[0]
            info["score_breakdown"] = state.score_breakdown()[0]
        return state.observation(0), float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions as a bool vector (sb3-contrib's MaskablePPO reads this)."""
        return self._require_state().legal_mask().copy()

    def render(self) -> str | None:
        text = self._require_state().render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _info(self) -> dict[str, Any]:
        state = self._require_state()
        return {"action_mask": state.legal_mask().astype(np.int8),
                "decision": state.decision_name()}

    def _require_state(self) -> NecropolisState:
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state


SOLO_ENV_ID = "meeplezoo/NecropolisRailwaySolo-v1"
if SOLO_ENV_ID not in gym.registry:
    gym.register(id=SOLO_ENV_ID,
                 entry_point="meeplezoo.envs.necropolis_railway.solo:NecropolisSoloEnv")
