"""Text rendering: the row, each tableau as a small map, stock and scores."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.chihou_sousei.board import CELLS, cell_label
from meeplezoo.envs.chihou_sousei.data import (
    BIG_CITIES,
    BIG_CITY,
    CARD_KEYS,
    COLOUR,
    COLOURS,
    EVENT,
    EVENTS,
    POWER,
)
from meeplezoo.envs.chihou_sousei.decisions import DECISION_NAMES

if TYPE_CHECKING:
    from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState

WIDTH = 14


def _short_names() -> tuple[str, ...]:
    """Shortest unique prefix of each key, at least 4 letters (``yamaga``, ``yamagu``)."""
    names = []
    for key in CARD_KEYS:
        size = 4
        while any(o != key and o.startswith(key[:size]) for o in CARD_KEYS):
            size += 1
        names.append(key[:size])
    return tuple(names)


SHORT = _short_names()


def card_text(card: int) -> str:
    """``aomo b1`` : short name, colour initial, power."""
    return f"{SHORT[card]} {COLOURS[COLOUR[card]][0]}{POWER[card]}"


def _tableau(state: ChihouSouseiState, seat: int) -> list[str]:
    """One line per row of the tableau; each card is led by its cell offset from the big
    city (``(+1,-2) gifu g2:2``), the name its ``place@``/``from@``/``to@`` actions use."""
    grid, tok = state.grid[seat], state.tokens[seat]
    xs = [CELLS[c][0] for c in state.cells[seat]]
    ys = [CELLS[c][1] for c in state.cells[seat]]
    texts = {}
    for cell in state.cells[seat]:
        card = grid[cell]
        name = BIG_CITIES[seat].upper()[:7] if card == BIG_CITY else card_text(card)
        texts[CELLS[cell]] = f"{cell_label(cell)} {name}:{tok[cell]}"
    width = max(WIDTH, *map(len, texts.values()))  # one width per tableau: columns line up
    lines = []
    for y in range(min(ys), max(ys) + 1):
        parts = [texts.get((x, y), "").ljust(width) for x in range(min(xs), max(xs) + 1)]
        lines.append("  " + "|".join(parts).rstrip("| "))  # no trailing empty columns
    return lines


def render_state(state: ChihouSouseiState) -> str:
    head = (
        f"round {min(state.round + 1, 8)}/8  start P{state.start}  stock {state.stock}  "
        f"deck {len(state.deck)}  decision {DECISION_NAMES[state.decision]}"
        + (f" (P{state.player})" if state.player >= 0 else "")
    )
    lines = [head]
    context = []
    if state.fm_src >= 0:
        context.append(f"forced move in P{state.fm_seat}'s tableau from {cell_label(state.fm_src)}")
    if state.placed >= 0:
        context.append(f"placed at {cell_label(state.placed)}, {state.need} token(s) to pull")
    if state.pending:
        context.append("events pending at " + " ".join(cell_label(c) for c in state.pending))
    if state.ev_cell >= 0:
        kind = EVENTS[EVENT[state.grid[state.player][state.ev_cell]]]
        context.append(f"event {kind} at {cell_label(state.ev_cell)} awaits a choice")
    if context:
        lines.append("  " + "; ".join(context))
    if state.row:
        row = [card_text(c) + (f"[P{t}]" if t >= 0 else "") for c, t in zip(state.row, state.taken)]
        lines.append("row: " + " | ".join(row) + "   (rightmost = start marker)")
    for s, parts in enumerate(state.score_parts()):
        picked = f" picked {card_text(state.picked[s])}" if state.picked[s] >= 0 else ""
        lines.append(
            f"P{s} {BIG_CITIES[s]}: score {sum(parts)} (population {parts[0]}, "
            f"industry {parts[1]}, region {parts[2]}){picked}"
        )
        lines.extend(_tableau(state, s))
    return "\n".join(lines)
