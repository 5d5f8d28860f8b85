"""Token movement: every change of a token on a tableau goes through these two,
so the caches hear of each one (``caches.tokens_changed``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.chihou_sousei.caches import tokens_changed

if TYPE_CHECKING:
    from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState


def move(state: ChihouSouseiState, s: int, src: int, dst: int, count: int = 1) -> None:
    """``count`` tokens from cell ``src`` to cell ``dst`` of seat ``s``'s tableau."""
    tok = state.tokens[s]
    tok[src] -= count
    tok[dst] += count
    tokens_changed(state, s, src, dst)


def from_stock(state: ChihouSouseiState, s: int, dst: int) -> None:
    """One token from the stock onto cell ``dst`` of seat ``s``'s tableau
    (callers check that the stock has one)."""
    state.stock -= 1
    state.tokens[s][dst] += 1
    tokens_changed(state, s, dst)
