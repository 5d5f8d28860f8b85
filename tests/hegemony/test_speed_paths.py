"""The speed paths give what the plain ones give: ``clone`` (its dict copied whole, or field by
field for a state given attributes of its own), the board queries written out
(``board.companies_of`` / ``operational_companies`` inlined, ``_count_employed`` one flat loop,
the Strike check stopping at the first target) and the bot's (``View.banked_vp`` in one go,
``View.leading_rival`` without ``max``), checked against straightforward recomputations over
the positions of random games."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.hegemony import board, economy
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MC, ST, WC
from meeplezoo.envs.hegemony.bot import View, _smooth_wealth_level
from meeplezoo.envs.hegemony.state import KINDS, HegemonyState
from tests.hegemony.helpers import new_state


def _positions(seed: int, steps: int) -> list[HegemonyState]:
    """Clones of one random game's positions, one per decision (up to ``steps``)."""
    st = new_state(seed)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < steps and not st.is_terminal():
        out.append(st.clone())
        legal = st.legal_actions()
        st.apply(legal[rng.integers(len(legal))])
    return out


def test_a_clone_is_equal_and_independent_either_way() -> None:
    st = new_state(5)
    for _ in range(40):
        st.apply(st.legal_actions()[0])
    plain = st.clone()
    st.extra = "kept by the state only"  # type: ignore[attr-defined]
    fielded = st.clone()
    assert not hasattr(fielded, "extra")
    for copy in (plain, fielded):
        assert copy._to_dict() == st._to_dict()
        assert sorted(copy.__dict__) == sorted(plain.__dict__)
        before = st._to_dict()
        copy.apply(copy.legal_actions()[-1])
        copy.seat_workers[0][0] = 99
        copy.ctx["market_done"] = 7
        assert st._to_dict() == before
    del st.extra  # type: ignore[attr-defined]


def _banked(st: HegemonyState, view: View, cls: int) -> float:
    """``View.banked_vp`` of one class, as the bot wrote it before it was worked out in one go."""
    left = view.left
    if cls == CC:
        held = st.capital + st.money[CC] - view.cc_tax(st.policies)
        level = _smooth_wealth_level(held)
        return level * left + D.WEALTH_STEP_VP * max(0.0, level - st.wealth)
    if cls == ST:
        low = sorted(st.legitimacy)
        return (low[0] + low[1]) * left * 0.7 + st.money[ST] / 30.0
    if cls == MC:
        return st.money[MC] / 15.0
    return (min(st.money[WC], D.WC_MONEY_VP_CAP * 10) / 10.0
            + D.UNION_VP * left * sum(st.unions))


@pytest.mark.parametrize("seed", [2, 9])
def test_the_written_out_queries_match_the_plain_ones(seed: int) -> None:
    for st in _positions(seed, 1500):
        for cls in (WC, MC, CC, ST):
            seats = board.SEATS_OF[cls]
            assert board.companies_of(st, cls) == [s for s in seats if board.is_present(st, s)]
            assert board.operational_companies(st, cls) == [
                s for s in seats if board.is_present(st, s) and board.is_operational(st, s)]
            assert board._count_employed(st, cls) == sum(
                1 for row in st.seat_workers for w in row if w // KINDS == cls and w >= 0)
        assert economy._can_strike(st, WC) == bool(economy._strike_targets(st))
        if st.is_terminal():
            continue
        view = View(st)
        assert view.banked_vp == [_banked(st, view, c) for c in range(4)]
        ahead = view.ahead
        for cls in range(4):
            assert view.leading_rival(cls) == max((c for c in range(4) if c != cls),
                                                  key=lambda c: ahead[c])
