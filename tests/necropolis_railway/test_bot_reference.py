"""The heuristic bot's decisions are pinned (see tests/bot_reference.py)."""

from tests import bot_reference


def test_bot_decisions_unchanged():
    bot_reference.check("necropolis_railway_v1")
