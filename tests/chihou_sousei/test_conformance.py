"""The shared conformance kit over every player count, option and scoring rule."""

from meeplezoo.envs.chihou_sousei.game import ChihouSouseiGame
from meeplezoo.envs.core.testing import conformance_suite

CONFIGS = [
    dict(num_players=n, forced_move_any_player=anyone, population_scoring=scoring)
    for n in (2, 3, 4)
    for anyone in (False, True)
    for scoring in ("largest", "mode")
]

test_conformance = conformance_suite(ChihouSouseiGame, CONFIGS)
