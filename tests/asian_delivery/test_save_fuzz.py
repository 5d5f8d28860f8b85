"""Tampered saves are refused or play on soundly: 3, 4, 5 players and every option at 4."""

from meeplezoo.envs.asian_delivery.game import AsianDeliveryGame
from meeplezoo.envs.core.save_fuzz import save_fuzz_tests

ALL_OPTIONS = {option: True for option in AsianDeliveryGame.options}
CONFIGS = [{"num_players": n} for n in (3, 4, 5)] + [{"num_players": 4, **ALL_OPTIONS}]

test_save_fuzz, test_save_fuzz_soak = save_fuzz_tests(AsianDeliveryGame, CONFIGS)
