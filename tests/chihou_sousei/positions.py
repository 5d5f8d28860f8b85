"""Build test positions of 地方創生 by hand, keeping every invariant true."""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.chihou_sousei.board import CELL_INDEX, CELLS, ORIGIN, ROUNDS
from meeplezoo.envs.chihou_sousei.caches import rebuild
from meeplezoo.envs.chihou_sousei.data import BIG_CITY, CARD_ID
from meeplezoo.envs.chihou_sousei.decisions import D_OVER, D_PICK, D_PLACE, EMPTY
from meeplezoo.envs.chihou_sousei.game import ChihouSouseiGame
from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState
from meeplezoo.envs.core.game import TERMINAL

FILLER_CELLS = [(-k, 0) for k in range(1, 9)]  # a line to the left of the big city


def position(
    n: int = 4,
    tableaus: dict[int, list[tuple[int, int, str, int]]] | None = None,
    big: dict[int, int] | None = None,
    phase: str = "pick",
    row: list[str] | None = None,
    picked: dict[int, str] | None = None,
    start: int = 0,
    rnd: int | None = None,
    **options: Any,
) -> ChihouSouseiState:
    """A position at the start of a round's planning ("pick") or migration
    ("place") phase, or a finished game ("over", round 8).
    ``tableaus[seat]`` lists (x, y, card key, tokens); seats
    with fewer cards than the round number get empty filler cards to the left.
    Big cities hold ``big[seat]`` tokens (default 16); the stock is whatever
    keeps 80 tokens in the game, and one card per planning phase so far is
    discarded, as in play."""
    game = ChihouSouseiGame(n, **options)
    state = game.new_initial_state(0)
    tableaus = tableaus or {}
    big = big or {}
    picked = picked or {}
    row = row or []
    rnd = max((len(t) for t in tableaus.values()), default=0) if rnd is None else rnd
    used = {CARD_ID[c[2]] for t in tableaus.values() for c in t if c[2]}
    used |= {CARD_ID[k] for k in row} | {CARD_ID[k] for k in picked.values()}
    spare = [c for c in state.deck + state.row if c not in used]

    def take() -> int:
        return spare.pop(0)

    state.grid = [[EMPTY] * len(CELLS) for _ in range(n)]
    state.tokens = [[0] * len(CELLS) for _ in range(n)]
    state.cells = [[ORIGIN] for _ in range(n)]
    for s in range(n):
        state.grid[s][ORIGIN] = BIG_CITY
        state.tokens[s][ORIGIN] = big.get(s, 16)
        entries = list(tableaus.get(s, []))
        fillers = iter(FILLER_CELLS)
        while len(entries) < rnd:
            x, y = next(fillers)
            entries.append((x, y, None, 0))
        for x, y, key, tokens in entries:
            cell = CELL_INDEX[(x, y)]
            state.grid[s][cell] = CARD_ID[key] if key else take()
            state.tokens[s][cell] = tokens
            state.cells[s].append(cell)
    state._reset_turn_fields()
    state.round = rnd
    state.start = start
    state.marker = EMPTY
    state.stock = 80 - sum(map(sum, state.tokens))
    assert state.stock >= 0, "more than 80 tokens"
    if phase == "pick":
        cards = [CARD_ID[k] for k in row]
        while len(cards) < n + 1:
            cards.append(take())
        state.row = cards
        state.taken = [EMPTY] * (n + 1)
        state.picked = [EMPTY] * n
        state.decision = D_PICK
    elif phase == "place":
        state.row = []
        state.taken = []
        state.picked = [CARD_ID[picked[s]] if s in picked else take() for s in range(n)]
        state.decision = D_PLACE
    else:
        state.row = []
        state.taken = []
        state.picked = [EMPTY] * n
        state.decision = D_OVER
    # one card per planning phase so far was left in the row and discarded
    discarded = rnd if phase == "pick" else min(rnd + 1, ROUNDS)
    state.discard = spare[len(spare) - discarded :]
    state.deck = spare[: len(spare) - discarded]
    state.pick_index = 0 if phase == "pick" else n
    state.player = TERMINAL if phase == "over" else start
    rebuild(state)
    state._mask = None
    state.check_invariants()
    return state


def act(state: ChihouSouseiState, *names: str) -> None:
    """Apply actions by name (each must be legal)."""
    for name in names:
        state.apply(state.game.action_index(name))


def legal_names(state: ChihouSouseiState) -> set[str]:
    return {state.game.action_name(a) for a in state.legal_actions()}


def tokens_at(state: ChihouSouseiState, seat: int, x: int, y: int) -> int:
    return state.tokens[seat][CELL_INDEX[(x, y)]]
