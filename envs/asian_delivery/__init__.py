"""アジアンデリバリー (Asian Delivery): deliveries across the city of Hotan, 3-5 players.

    from meeplezoo.envs.asian_delivery import env, raw_env, AsianDeliveryGame
    e = env(num_players=4)

Rules as implemented: ``envs/asian_delivery/RULES.md``.
"""

from meeplezoo.envs.asian_delivery.game import AsianDeliveryGame
from meeplezoo.envs.core.aec import env_functions

ENV_NAME = "asian_delivery_v1"
env, raw_env = env_functions(AsianDeliveryGame)

__all__ = ["ENV_NAME", "AsianDeliveryGame", "env", "raw_env"]
