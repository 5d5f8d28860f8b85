"""Any MeepleZoo env as an RLlib ``MultiAgentEnv``, turn-based: each step returns only the
observation of the agent to move; when the game ends every agent gets its last
observation, its terminal reward and, in its info, the game's result with its seat and
role.

RLlib's module input is ``{"observations": float32[obs], "action_mask": float32[actions]}``
(the AEC env's ``observation``/int8 ``action_mask`` renamed and cast).  Agents map to
modules by role: a symmetric game's seats all play the role ``player`` and so share one
policy; an asymmetric game gets one policy per role.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from meeplezoo import envs


def register_envs(modules: dict[str, str]) -> None:
    """Register extra envs (name -> module) in this process: workers on other nodes
    import the suite afresh and know only the built-in envs otherwise."""
    for name, module in modules.items():
        if name not in envs.list_envs():
            envs.register(name, module)


def module_space(space: gym.spaces.Dict) -> gym.spaces.Dict:
    """The RLlib observation space for an AEC agent's ``observation``/``action_mask`` space."""
    features = space["observation"]
    return gym.spaces.Dict({
        "observations": gym.spaces.Box(features.low, features.high, features.shape, np.float32),
        "action_mask": gym.spaces.Box(0.0, 1.0, space["action_mask"].shape, np.float32),
    })


class MeepleMultiAgentEnv(MultiAgentEnv):
    """``env_config``: ``env`` (name), ``config`` (num_players and game options, as for
    ``envs.make_game``), optionally ``reward`` (the AEC env's reward kind) and
    ``register`` (extra env name -> module)."""

    def __init__(self, env_config: dict[str, Any] | None = None) -> None:
        super().__init__()
        env_config = dict(env_config or {})
        register_envs(dict(env_config.get("register") or {}))
        self.aec = envs.make_raw(env_config["env"], reward=env_config.get("reward", "auto"),
                                 **dict(env_config.get("config") or {}))
        self.possible_agents = list(self.aec.possible_agents)
        self.agents = list(self.possible_agents)
        self.observation_spaces = {a: module_space(self.aec.observation_space(a))
                                   for a in self.possible_agents}
        self.action_spaces = {a: self.aec.action_space(a) for a in self.possible_agents}
        self.observation_space = gym.spaces.Dict(self.observation_spaces)
        self.action_space = gym.spaces.Dict(self.action_spaces)

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.aec.observe(agent)
        return {"observations": np.asarray(obs["observation"], np.float32),
                "action_mask": obs["action_mask"].astype(np.float32)}

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.aec.reset(seed=seed)
        self.agents = list(self.possible_agents)
        return self._turn()[0], {}

    def _turn(self) -> tuple[dict, dict, dict, dict, dict]:
        """The step results: the mover's observation, or every agent's at the end."""
        aec = self.aec
        terminated = all(aec.terminations.values())
        truncated = all(aec.truncations.values())
        if not (terminated or truncated):
            mover = aec.agent_selection
            done = {mover: False, "__all__": False}
            return {mover: self._observe(mover)}, {mover: 0.0}, done, dict(done), {}
        everyone = self.possible_agents
        self.agents = []
        return ({a: self._observe(a) for a in everyone},
                {a: float(aec.rewards[a]) for a in everyone},
                {**{a: terminated for a in everyone}, "__all__": terminated},
                {**{a: truncated and not terminated for a in everyone},
                 "__all__": truncated and not terminated},
                {a: {**aec.infos[a], "seat": seat, "role": aec.agent_role(a)}
                 for seat, a in enumerate(everyone)})

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        mover = self.aec.agent_selection
        self.aec.step(int(action_dict[mover]))
        return self._turn()


def agent_roles(env: MeepleMultiAgentEnv) -> dict[str, str]:
    """Each agent's role: the module (policy) that plays it."""
    return {agent: env.aec.agent_role(agent) for agent in env.possible_agents}


class RoleMapping:
    """RLlib's ``policy_mapping_fn``: agent -> its role's module (picklable, for workers)."""

    def __init__(self, roles: dict[str, str]) -> None:
        self.roles = dict(roles)

    def __call__(self, agent_id: str, episode: Any = None, **kwargs: Any) -> str:
        return self.roles[agent_id]
