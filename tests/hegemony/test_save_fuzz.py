"""Tampered Hegemony saves are refused with a clear error, or load and play on soundly."""

from meeplezoo.envs.core.save_fuzz import save_fuzz_tests
from meeplezoo.envs.hegemony.game import HegemonyGame

CONFIGS = [dict(num_players=4)]

test_save_fuzz, test_save_fuzz_soak = save_fuzz_tests(HegemonyGame, CONFIGS)
