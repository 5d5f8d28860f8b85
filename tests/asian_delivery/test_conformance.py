"""The conformance kit over 3, 4 and 5 players and every variant."""

from meeplezoo.envs.asian_delivery.game import AsianDeliveryGame
from meeplezoo.envs.core.testing import conformance_suite

VARIANTS = [
    {},
    {"growth_before_refill": True},
    {"distance_coins": True},
    {"shared_port_dailies": True},
    {"random_companies": True},
    {
        "growth_before_refill": True,
        "distance_coins": True,
        "shared_port_dailies": True,
        "random_companies": True,
    },
]
CONFIGS = [dict(num_players=n, **variant) for variant in VARIANTS for n in (3, 4, 5)]

test_conformance = conformance_suite(AsianDeliveryGame, CONFIGS)
