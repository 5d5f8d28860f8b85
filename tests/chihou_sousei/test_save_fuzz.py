"""Tampered saves are refused or play on soundly, at every player count and option."""

from meeplezoo.envs.chihou_sousei.game import ChihouSouseiGame
from meeplezoo.envs.core.save_fuzz import save_fuzz_tests

CONFIGS = [
    *(dict(num_players=n) for n in (2, 3, 4)),
    dict(num_players=4, forced_move_any_player=True, population_scoring="mode"),
]

test_save_fuzz, test_save_fuzz_soak = save_fuzz_tests(ChihouSouseiGame, CONFIGS)
