"""Tampered saves are refused or play on soundly, at every player count (1 is solo)."""

from meeplezoo.envs.core.save_fuzz import save_fuzz_tests
from meeplezoo.envs.necropolis_railway.game import NecropolisRailwayGame

CONFIGS = [dict(num_players=n) for n in (1, 2, 3, 4)]

test_save_fuzz, test_save_fuzz_soak = save_fuzz_tests(NecropolisRailwayGame, CONFIGS)
