"""London Necropolis Railway (``necropolis_railway_v1``): 1-4 players, see RULES.md."""

from meeplezoo.envs.core.aec import env_functions
from meeplezoo.envs.necropolis_railway.game import NecropolisRailwayGame

ENV_NAME = "necropolis_railway_v1"
env, raw_env = env_functions(NecropolisRailwayGame)

__all__ = ["ENV_NAME", "NecropolisRailwayGame", "env", "raw_env"]
