"""Helpers for Hegemony tests: a fresh game, actions by name, and the legal names."""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.hegemony.game import HegemonyGame
from meeplezoo.envs.hegemony.state import HegemonyState


def new_state(seed: int = 0, **options: Any) -> HegemonyState:
    """A fresh 4-player game (its first decision pending: MC's starting skilled worker)."""
    return HegemonyGame(**options).new_initial_state(seed)


def legal_names(st: HegemonyState) -> list[str]:
    """The pending decision's legal actions by name, for the player to move."""
    game = st.game
    role = game.seat_role(st.current_player())
    return [game.action_name(a, role) for a in st.legal_actions()]


def play(st: HegemonyState, *names: str) -> HegemonyState:
    """Apply actions by name, each for whoever is to move; a clear error if one is illegal."""
    game = st.game
    for name in names:
        role = game.seat_role(st.current_player())
        st.apply(game.action_index(name, role))
    return st


def refresh(st: HegemonyState) -> HegemonyState:
    """Recompute the pending decision's legal actions after a test edited the state directly."""
    st._legal = st.pending_legal()
    st._mask = None
    return st
