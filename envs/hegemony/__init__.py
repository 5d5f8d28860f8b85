"""Hegemony (``hegemony_v1``): 4 players, each a class with its own actions; see RULES.md."""

from meeplezoo.envs.core.aec import env_functions
from meeplezoo.envs.hegemony.game import HegemonyGame

ENV_NAME = "hegemony_v1"
env, raw_env = env_functions(HegemonyGame)

__all__ = ["ENV_NAME", "HegemonyGame", "env", "raw_env"]
