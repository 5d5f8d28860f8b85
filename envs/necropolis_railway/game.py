"""London Necropolis Railway (Daniel Newman, 2022) as a MeepleZoo engine.

1-4 players; 1 is the solo variant (row discard after each turn, 5 mortuaries
of each kind), a single-agent task whose reward is the score.  See RULES.md.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.core.errors import CorruptStateError
from meeplezoo.envs.core.game import Game
from meeplezoo.envs.core.rules import Rules
from meeplezoo.envs.core.schema import Record
from meeplezoo.envs.necropolis_railway import actions as A
from meeplezoo.envs.necropolis_railway import data as D
from meeplezoo.envs.necropolis_railway.bot import GreedyBot
from meeplezoo.envs.necropolis_railway.observation import LAYOUT
from meeplezoo.envs.necropolis_railway.render import render
from meeplezoo.envs.necropolis_railway.saved import check_agenda, state_schema
from meeplezoo.envs.necropolis_railway.state import NecropolisState, build_agenda


class NecropolisRailwayGame(Game):
    name = "necropolis_railway_v1"
    title = "London Necropolis Railway"
    min_players = min(D.PLAYER_COUNTS)
    max_players = max(D.PLAYER_COUNTS)
    default_players = 2
    options = {}
    max_decisions = 5_000
    score_scale = 25.0  # reward='score': points / 25 (solo scores run about 20-120)

    def build_rules(self) -> Rules:
        """The agenda table of every decision and step (``state.build_agenda``)."""
        return Rules(agenda=build_agenda())

    def num_actions(self, role: str | None = None) -> int:
        return A.NUM_ACTIONS

    def action_name(self, action: int, role: str | None = None) -> str:
        return A.NAMES[self.check_action_index(action, role)]

    def feature_names(self, role: str | None = None) -> list[str]:
        return LAYOUT.names

    def observation_size(self, role: str | None = None) -> int:
        return LAYOUT.size

    def new_initial_state(self, seed: int | None = None) -> NecropolisState:
        return NecropolisState(self, seed)

    def state_schema(self) -> Record:
        """Every saved field, typed and bounded for this player count (see ``saved``)."""
        return state_schema(self.num_players)

    def state_from_dict(self, data: dict[str, Any]) -> NecropolisState:
        """Rebuild a schema-checked save; the agenda is checked before its pending decision's
        legal actions are computed from it."""
        state = NecropolisState.from_dict(self, data)
        try:
            check_agenda(state)
        except AssertionError as exc:
            raise CorruptStateError(f"state.agenda does not fit the position: {exc}") from exc
        state._legal = state.pending_legal()
        return state

    def heuristic_bot(self, seed: int | None = None) -> Any:
        return GreedyBot(seed)

    def render_state(self, state: NecropolisState) -> str:
        """The text view (the game is the top layer: the state reaches it through here)."""
        return render(state)
