"""A cheating state agent, planted by ``tests/training/test_seat_view.py`` as a user would
name one (``tests.training.cheating_agent:Cheater``): at every decision it reads what its
seat may not see from the state it is handed, and keeps what it read in ``READS``.

What it reads (``secrets``), in every game: the engine's chance generator (whose state
foretells the draws to come), and the hidden cards each game's ``resample_hidden`` names:
- Hegemony: the next class's hand, from the state's fields, and again by replaying the
  state's own history from its set-up seed (``origin_seed``);
- チホウソウセイ, アジアンデリバリー, Necropolis Railway (no hidden hands): the deck's order,
  whole and its top three cards (the next ones drawn).
"""

from __future__ import annotations

import zlib
from typing import Any

READS: list[dict[str, Any]] = []  # what each decision read, in order
HANDED: list[Any] = []  # every state handed over (kept alive, so no two share an id)


def secrets(state: Any) -> dict[str, Any]:
    """What a cheater reads of ``state``, by name; each compares by equality."""
    out: dict[str, Any] = {"chance": state.rng.bit_generator.state["state"]["state"]}
    if state.game.name.startswith("hegemony"):
        other = (state.current_player() + 1) % 4
        out["hand"] = tuple(sorted(state.hands[other]))
        replay = state.game.new_initial_state(state.origin_seed)
        for action in state.history:
            replay.apply(action)
        out["replayed_hand"] = tuple(sorted(replay.hands[other]))
    else:
        out["next_cards"] = tuple(state.deck[-3:])
        out["deck"] = tuple(state.deck)
    return out


class Cheater:
    """Reads ``secrets`` and plays a legal move chosen by them (so a game repeats only if
    what it is handed repeats)."""

    name = "cheater"

    def act(self, state: Any) -> int:
        HANDED.append(state)
        read = secrets(state)
        READS.append(read)
        legal = state.legal_actions()
        return int(legal[zlib.crc32(repr(sorted(read.items())).encode()) % len(legal)])
