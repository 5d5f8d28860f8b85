"""The MeepleZoo conformance kit over 1-4 players."""

from meeplezoo.envs.core.testing import conformance_suite
from meeplezoo.envs.necropolis_railway.game import NecropolisRailwayGame

test_conformance = conformance_suite(
    NecropolisRailwayGame, [dict(num_players=n) for n in (1, 2, 3, 4)]
)
