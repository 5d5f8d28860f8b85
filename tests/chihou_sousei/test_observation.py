"""The observation's own-board plane: cell-aligned with the cell actions."""

from __future__ import annotations

import numpy as np
from pytest import approx

from meeplezoo.envs.chihou_sousei.board import CELL_INDEX, CELLS, NUM_CELLS, cell_label
from meeplezoo.envs.chihou_sousei.data import COLOURS
from meeplezoo.envs.chihou_sousei.observation import OBS_SIZE, PLANE_F, PLANE_LABELS, PLANE_OFF
from tests.chihou_sousei.positions import act, legal_names, position


def plane(state, player: int) -> np.ndarray:
    """``player``'s own-board plane, one row per cell in ``board.CELLS`` order."""
    return state.observation(player)[PLANE_OFF:].reshape(NUM_CELLS, PLANE_F)


def entries(state, player: int, x: int, y: int) -> dict[str, float]:
    return dict(zip(PLANE_LABELS, plane(state, player)[CELL_INDEX[(x, y)]].tolist()))


def test_rule_observation_own_board_plane_aligned_with_actions():
    # seat 0: big city 10, akita (blue) at (+1,+0) with 4, okinawa (red) at (+0,-1) with 2,
    # miyagi (blue) at (+2,+0) with 30; seat 1 a different tableau (left line, green)
    tableaus = {
        0: [(1, 0, "akita", 4), (0, -1, "okinawa", 2), (2, 0, "miyagi", 30)],
        1: [(-1, 0, "nagano", 7), (-2, 0, "gifu", 1), (0, 1, "mie", 3)],
    }
    state = position(
        n=2, phase="place", tableaus=tableaus, big={0: 10, 1: 16}, picked={0: "kanagawa"}, rnd=3
    )
    game = state.game
    names = game.feature_names(0)
    assert len(names) == OBS_SIZE == len(state.observation(0))
    assert names[PLANE_OFF] == f"own_board@{cell_label(0)}[occupied]"

    # every place@ action's cell: the plane row of that cell describes that cell
    places = sorted(n for n in legal_names(state) if n.startswith("place@"))
    assert places, "seat 0 has placement spots"
    obs = state.observation(0)
    for x, y in CELLS:
        label = cell_label(CELL_INDEX[(x, y)])
        row = entries(state, 0, x, y)
        for key, value in row.items():  # names line up with the entries
            assert names[PLANE_OFF + CELL_INDEX[(x, y)] * PLANE_F + PLANE_LABELS.index(key)] == (
                f"own_board@{label}[{key}]"
            )
            assert obs[names.index(f"own_board@{label}[{key}]")] == value
        assert row["frontier"] == float(f"place@{label}" in places), label
        assert min(row.values()) >= 0.0 and max(row.values()) <= 1.0

    blue, red = COLOURS.index("blue"), COLOURS.index("red")
    big = entries(state, 0, 0, 0)
    assert big["occupied"] == 1.0 and big["tokens"] == approx(10 / 24) and big["frontier"] == 0.0
    assert all(big[f"colour_{c}"] == 0.0 for c in COLOURS)  # the big city has no colour
    assert big["adjacent_tokens"] == approx((4 + 2) / 24)
    assert big["adjacent_same_colour_blue"] == 0.25 and big["adjacent_same_colour_red"] == 0.25
    akita = entries(state, 0, 1, 0)
    assert akita["occupied"] == 1.0 and akita["tokens"] == approx(4 / 24)
    assert akita[f"colour_{COLOURS[blue]}"] == 1.0 and akita["colour_red"] == 0.0
    assert akita["adjacent_tokens"] == 1.0  # clipped
    assert entries(state, 0, 2, 0)["tokens"] == 1.0  # 30 tokens, clipped
    # (+1,-1): empty, next to akita (blue, 4) and okinawa (red, 2): a spot for either colour
    spot = entries(state, 0, 1, -1)
    assert "place@(+1,-1)" in places
    assert spot["occupied"] == 0.0 and spot["tokens"] == 0.0 and spot["frontier"] == 1.0
    assert spot["adjacent_tokens"] == approx(6 / 24)
    assert spot[f"adjacent_same_colour_{COLOURS[blue]}"] == 0.25
    assert spot[f"adjacent_same_colour_{COLOURS[red]}"] == 0.25
    assert spot["adjacent_same_colour_green"] == 0.0
    # (+3,+0): next to miyagi only
    far = entries(state, 0, 3, 0)
    assert far["frontier"] == 1.0 and far["adjacent_tokens"] == 1.0
    assert far["adjacent_same_colour_blue"] == 0.25
    # a cell two steps away is blank
    assert not plane(state, 0)[CELL_INDEX[(4, 0)]].any()

    # never another player's tableau: seat 1's cards do not show on seat 0's plane ...
    for x, y in ((-1, 0), (-2, 0), (0, 1)):
        assert entries(state, 0, x, y)["occupied"] == 0.0
    assert entries(state, 0, 0, 1)["frontier"] == 1.0  # empty in seat 0's tableau
    # ... and seat 1 sees its own tableau on its plane, not seat 0's
    other = entries(state, 1, -1, 0)
    assert other["occupied"] == 1.0 and other["colour_green"] == 1.0
    assert other["tokens"] == approx(7 / 24)
    assert entries(state, 1, 1, 0)["occupied"] == 0.0
    assert entries(state, 1, 0, 0)["tokens"] == approx(16 / 24)

    # placing and migrating update the plane of the mover only, as a rebuild would
    before = plane(state, 1).copy()
    act(state, "place@(+1,-1)")  # kanagawa (blue, power 3) pulls from akita and okinawa
    state.check_invariants()  # rebuilds every plane from scratch and compares
    while state.current_player() == 0 and not state.is_terminal():
        state.apply(state.legal_actions()[0])
        state.check_invariants()
    placed = entries(state, 0, 1, -1)
    assert placed["occupied"] == 1.0 and placed["colour_blue"] == 1.0
    assert placed["frontier"] == 0.0 and placed["tokens"] > 0.0
    assert entries(state, 0, 1, -2)["frontier"] == 1.0  # the new card opened (+1,-2)
    assert entries(state, 0, 1, -2)["adjacent_same_colour_blue"] == 0.25
    assert np.array_equal(plane(state, 1), before)


def test_observation_plane_survives_clone_and_save_load():
    state = position(
        n=3, phase="place", tableaus={0: [(0, 1, "akita", 3)]}, picked={0: "kanagawa"}, rnd=1
    )
    act(state, "place@(+1,+0)")
    copy = state.clone()
    loaded = state.game.state_from_dict(state.to_dict()["state"])
    for p in range(3):
        assert np.array_equal(copy.observation(p), state.observation(p))
        assert np.array_equal(loaded.observation(p), state.observation(p))
    copy.apply(copy.legal_actions()[0])
    copy.check_invariants()
    state.check_invariants()  # the clone's plane is its own
