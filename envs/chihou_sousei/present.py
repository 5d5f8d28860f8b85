"""地方創生 for people: each card with its colour, power, icons and event; every decision as a
prompt; every action as a sentence; a log that says why tokens moved.

Everything but the deck's order is public in this game, so the views hide nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.chihou_sousei.actions import (
    EVENT,
    FROM,
    INCREASE,
    PICK,
    PLACE,
    SKIP,
    TABLEAU,
    TO,
)
from meeplezoo.envs.chihou_sousei.board import CELLS, NEIGHBOURS, ORIGIN, ROUNDS, cell_label
from meeplezoo.envs.chihou_sousei.data import (
    BIG_CITIES,
    BIG_CITIES_JA,
    BIG_CITY,
    CARD_JA,
    CARD_NOTE,
    CARD_ROMAJI,
    COLOUR,
    COLOUR_REGIONS,
    COLOURS,
    EVENT_JA,
    EVENT_TEXT,
    EVENTS,
    ICONS,
    INDUSTRIES,
    POWER,
)
from meeplezoo.envs.chihou_sousei.data import EVENT as CARD_EVENT
from meeplezoo.envs.core.present import LogLine, Piece, Presenter, Section

if TYPE_CHECKING:
    from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState

ICON_NAMES = {"agriculture": "agri", "fishing": "fish", "crafts": "craft"}
EVENT_NAMES = {key: key.replace("_", " ") for key in EVENTS}
PROMPTS = {
    "pick": "Take a card from the row (the rightmost one brings the start-player marker)",
    "bonus": "Pick bonus: move one token between two adjacent cards, or skip",
    "forced_move_source": "Forced move: choose the card a token leaves",
    "forced_move_target": "Forced move: choose the adjacent card the token goes to",
    "place": "Place your card next to one of your cards",
    "migrate": "Migration: choose the neighbouring card the next token comes from",
    "event_order": "Several neighbours' events are due: choose the one that resolves next",
}
RULES = [
    "8 rounds. Each round: take one card of the row, then place it next to your cards.",
    "A placed card pulls tokens (its power) from its neighbours; then the neighbours' "
    "events move one token each.",
    "Score: k x (your cards holding exactly k tokens, k = your fullest card) - 1 per empty "
    "card; the most icons of each industry score that many; your largest same-colour group "
    "scores its size.",
]


def icons(card: int) -> list[str]:
    return [ICON_NAMES[INDUSTRIES[i]] for i, has in enumerate(ICONS[card]) if has]


def card_name(card: int) -> str:
    return CARD_ROMAJI[card]


def event_words(card: int) -> str:
    kind = CARD_EVENT[card]
    return f"{EVENT_NAMES[EVENTS[kind]]} ({EVENT_JA[kind]}): {EVENT_TEXT[kind]}"


def card_summary(card: int) -> str:
    """``Hokkaido (blue, power 3, agri+fish, event pioneers)``: what a pick decides on."""
    kinds = "+".join(icons(card)) or "no icon"
    return (f"{card_name(card)} ({COLOURS[COLOUR[card]]}, power {POWER[card]}, {kinds}, "
            f"event {EVENT_NAMES[EVENTS[CARD_EVENT[card]]]})")


def card_detail(card: int) -> str:
    colour = COLOUR[card]
    return (f"{CARD_JA[card]} {card_name(card)}. Colour {COLOURS[colour]} "
            f"({COLOUR_REGIONS[colour]}). Power {POWER[card]}: pulls up to {POWER[card]} "
            f"token(s) from its neighbours when placed. Icons: {', '.join(icons(card)) or 'none'}. "
            f"Event, when a card is placed next to it: {event_words(card)} {CARD_NOTE[card]}")


def card_piece(piece_id: str, card: int, extra: list[str] | None = None) -> Piece:
    return Piece(piece_id, card_name(card),
                 [f"{COLOURS[COLOUR[card]]} · power {POWER[card]}",
                  f"event: {EVENT_NAMES[EVENTS[CARD_EVENT[card]]]}", *(extra or [])],
                 card_detail(card), icons(card), [COLOURS[COLOUR[card]]])


def city_name(seat: int) -> str:
    return BIG_CITIES[seat].capitalize()


def place_name(state: ChihouSouseiState, seat: int, cell: int) -> str:
    """``Miyagi (+1,0)`` or ``Tokyo (+0,+0)``: a card of a tableau by its name and cell."""
    card = state.grid[seat][cell]
    name = city_name(seat) if card == BIG_CITY else card_name(card) if card >= 0 else "empty"
    return f"{name} {cell_label(cell)}"


class ChihouPresenter(Presenter):
    rules = RULES

    def seat_name(self, game, seat: int) -> str:
        return city_name(seat)

    def status(self, state: ChihouSouseiState) -> str:
        if state.is_terminal():
            return "The game is over."
        return (f"Round {min(state.round + 1, ROUNDS)}/{ROUNDS} · stock {state.stock} tokens · "
                f"deck {len(state.deck)} · {self.seat_name(state.game, state.player)} to move")

    # -- prompts ------------------------------------------------------------------
    def prompt(self, state: ChihouSouseiState) -> str:
        kind = state.decision_name()
        p = state.player
        if kind == "place" and state.picked[p] >= 0:
            return f"Place {card_summary(state.picked[p])} next to one of your cards"
        if kind == "migrate":
            return (f"Migration onto {place_name(state, p, state.placed)}: choose the card the "
                    f"next token comes from ({state.need} still to move)")
        if kind in ("event_source", "event_target"):
            card = state.grid[p][state.ev_cell]
            where = "comes from" if kind == "event_source" else "goes to"
            return (f"Event {EVENT_NAMES[EVENTS[CARD_EVENT[card]]]} of "
                    f"{place_name(state, p, state.ev_cell)}: choose the card the token {where}"
                    f" — {EVENT_TEXT[CARD_EVENT[card]]}")
        if kind == "forced_move_target":
            return (f"Forced move from {place_name(state, state.fm_seat, state.fm_src)}: choose "
                    "the adjacent card the token goes to")
        if kind == "bonus" and state.inc_left:
            return ("Pick bonus (last picker): a forced move between adjacent cards, and one "
                    "token from the stock onto your big city — in either order")
        return PROMPTS.get(kind, super().prompt(state))

    # -- actions ------------------------------------------------------------------
    def label(self, state: ChihouSouseiState, action: int) -> str:
        p = state.player
        kind = state.decision_name()
        if PICK <= action < PLACE:
            slot = action - PICK
            marker = " + start-player marker" if slot == len(state.row) - 1 else ""
            return f"Take {card_summary(state.row[slot])}{marker}"
        if PLACE <= action < FROM:
            cell = action - PLACE + 1
            events = [EVENT_NAMES[EVENTS[CARD_EVENT[state.grid[p][nb]]]]
                      for nb in NEIGHBOURS[cell] if 0 <= state.grid[p][nb] < BIG_CITY]
            near = f" (neighbour events: {', '.join(events)})" if events else ""
            return f"Place {card_name(state.picked[p])} at {cell_label(cell)}{near}"
        if FROM <= action < TO:
            cell = action - FROM
            seat = state.fm_seat if kind == "forced_move_source" else p
            return f"Take a token from {place_name(state, seat, cell)}"
        if TO <= action < EVENT:
            cell = action - TO
            seat = state.fm_seat if state.fm_seat >= 0 else p
            return f"Put the token on {place_name(state, seat, cell)}"
        if EVENT <= action < TABLEAU:
            cell = action - EVENT + 1
            return f"Resolve {place_name(state, p, cell)}: {event_words(state.grid[p][cell])}"
        if TABLEAU <= action < INCREASE:
            seat = (p + action - TABLEAU) % state.n
            return f"Make the forced move in {city_name(seat)}'s tableau"
        if action == INCREASE:
            return f"Population increase now: 1 token from the stock onto {city_name(p)}"
        if action == SKIP:
            due = " (the population increase still follows)" if state.inc_left else ""
            return f"Skip the forced move{due}"
        return super().label(state, action)

    def group(self, state: ChihouSouseiState, action: int) -> str:
        return {"pick": "Take a card", "place": "Place"}.get(state.decision_name(), "Choose")

    def target(self, state: ChihouSouseiState, action: int) -> str | None:
        p = state.player
        if PICK <= action < PLACE:
            return f"row:{action - PICK}"
        if PLACE <= action < FROM:
            return f"t{p}:{action - PLACE + 1}"
        if FROM <= action < TO:
            seat = state.fm_seat if state.decision_name() == "forced_move_source" else p
            return f"t{seat}:{action - FROM}"
        if TO <= action < EVENT:
            return f"t{state.fm_seat if state.fm_seat >= 0 else p}:{action - TO}"
        if EVENT <= action < TABLEAU:
            return f"t{p}:{action - EVENT + 1}"
        if TABLEAU <= action < INCREASE:
            return f"t{(p + action - TABLEAU) % state.n}:{ORIGIN}"
        return None

    # -- the table ------------------------------------------------------------------
    def sections(self, state: ChihouSouseiState, viewers: frozenset[int]) -> list[Section]:
        out = []
        if state.row:
            row = []
            for slot, (card, taker) in enumerate(zip(state.row, state.taken)):
                extra = ["rightmost: start marker"] if slot == len(state.row) - 1 else []
                piece = card_piece(f"row:{slot}", card, extra)
                if taker >= 0:
                    piece.lines.append(f"taken by {city_name(taker)}")
                    piece.tags.append("taken")
                row.append(piece)
            out.append(Section("row", "The row", row, terminal=True,
                               note="take one; its icons and event decide where it goes"))
        for seat in range(state.n):
            out.append(self.tableau(state, seat))
        return out

    def tableau(self, state: ChihouSouseiState, seat: int) -> Section:
        grid, tokens = state.grid[seat], state.tokens[seat]
        pieces = []
        for cell in state.cells[seat]:
            x, y = CELLS[cell]
            card = grid[cell]
            pid = f"t{seat}:{cell}"
            if card == BIG_CITY:
                piece = Piece(pid, f"{city_name(seat)} {BIG_CITIES_JA[seat]}",
                              ["big city"], "Your big city: no colour, power, icon or event.",
                              tags=["city"])
            else:
                piece = card_piece(pid, card)
            piece.lines.insert(0, f"{tokens[cell]} token(s)")
            piece.x, piece.y = x, y
            pieces.append(piece)
        if state.decision_name() == "place" and state.player == seat:
            for cell in state.frontier[seat]:
                x, y = CELLS[cell]
                pieces.append(Piece(f"t{seat}:{cell}", cell_label(cell), ["free"],
                                    tags=["empty"], x=x, y=y))
        picked = state.picked[seat]
        note = f"holds {card_summary(picked)}, to place" if picked >= 0 else ""
        marks = [" · start player" if state.start == seat else "",
                 " · has the marker" if state.marker == seat else ""]
        return Section(f"tableau{seat}", f"{self.seat_name(state.game, seat)}{''.join(marks)}",
                       pieces, "grid", note)

    def summary(self, state: ChihouSouseiState, seat: int) -> list[str]:
        total = sum(state.tokens[seat][c] for c in state.cells[seat])
        return [f"{len(state.cells[seat])} cards, {total} tokens"]

    # -- the log ----------------------------------------------------------------------
    def narrate(self, before: ChihouSouseiState, action: int,
                after: ChihouSouseiState) -> list[LogLine]:
        lines = super().narrate(before, action, after)
        p = before.player
        if PLACE <= action < FROM:
            cell = action - PLACE + 1
            card = before.picked[p]
            near = sum(before.tokens[p][nb] for nb in NEIGHBOURS[cell] if before.grid[p][nb] >= 0)
            lines.append(LogLine(f"  {card_name(card)} (power {POWER[card]}) pulls "
                                 f"{min(POWER[card], near)} token(s) from its neighbours"))
            for nb in NEIGHBOURS[cell]:
                if 0 <= before.grid[p][nb] < BIG_CITY:
                    lines.append(LogLine(f"  event of {place_name(before, p, nb)}: "
                                         f"{event_words(before.grid[p][nb])}"))
        if PICK <= action < PLACE and action - PICK == len(before.row) - 1:
            lines.append(LogLine(f"  {city_name(p)} takes the start-player marker"))
        lines += [LogLine(f"  {text}") for text in token_changes(before, after)]
        if after.round > before.round and not after.is_terminal():
            lines.append(LogLine(f"Round {after.round + 1}: {city_name(after.start)} starts; "
                                 "the row: " + ", ".join(card_summary(c) for c in after.row)))
        if after.is_terminal():
            lines.append(LogLine("The game is over: " + ", ".join(
                f"{city_name(s)} {int(t)}" for s, t in enumerate(after.scores()))))
        return lines


def token_changes(before: ChihouSouseiState, after: ChihouSouseiState) -> list[str]:
    """``tokens in Tokyo's tableau: Tokyo (+0,+0) 16→14, Miyagi (+1,+0) 0→2`` per seat that
    changed, and the stock."""
    out = []
    for seat in range(before.n):
        moved = [f"{place_name(after, seat, c)} {before.tokens[seat][c]}→{after.tokens[seat][c]}"
                 for c in after.cells[seat] if before.tokens[seat][c] != after.tokens[seat][c]]
        if moved:
            out.append(f"tokens in {city_name(seat)}'s tableau: " + ", ".join(moved))
    if before.stock != after.stock:
        out.append(f"stock {before.stock}→{after.stock}")
    return out


PRESENTER = ChihouPresenter()
