"""The toy game under a newer version id with the same layout (carrying checkpoints)."""

from meeplezoo.envs.core.aec import env_functions
from tests.core.toy_game import ToyGame


class ToyGameV1(ToyGame):
    name = "toy_v1"


env, raw_env = env_functions(ToyGameV1)
