"""The MeepleZoo conformance kit over Hegemony's default rules and its variants (§12)."""

from meeplezoo.envs.core.testing import conformance_suite
from meeplezoo.envs.hegemony.game import HegemonyGame

PUBLISHED = dict(
    mc_prep_arrivals="published", mc_policy_vp="published", cc_end_loans="published",
    cc_export_vp=True, swap_target="any", demonstration_discard="published",
    price_high_requires_policy=True, mc_scoring_compare="position",
)

test_conformance = conformance_suite(
    HegemonyGame, [{}, {"initial_p6": "A"}, PUBLISHED]
)
