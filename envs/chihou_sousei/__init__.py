"""地方創生 (Chihou Sousei): a drafting and tableau game about regional revival."""

from meeplezoo.envs.chihou_sousei.bot import ChihouBot
from meeplezoo.envs.chihou_sousei.game import ChihouSouseiGame
from meeplezoo.envs.core.aec import env_functions

ENV_NAME = "chihou_sousei_v1"
env, raw_env = env_functions(ChihouSouseiGame)

__all__ = ["ENV_NAME", "ChihouBot", "ChihouSouseiGame", "env", "raw_env"]
