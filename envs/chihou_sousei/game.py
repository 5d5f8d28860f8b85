"""``ChihouSouseiGame``: configuration, catalogue sizes and state factories."""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.chihou_sousei.actions import ACTION_NAMES, NUM_ACTIONS
from meeplezoo.envs.chihou_sousei.bot import ChihouBot
from meeplezoo.envs.chihou_sousei.observation import LAYOUT
from meeplezoo.envs.chihou_sousei.render import render_state
from meeplezoo.envs.chihou_sousei.rules import build_rules
from meeplezoo.envs.chihou_sousei.saved import state_schema
from meeplezoo.envs.chihou_sousei.state import ChihouSouseiState
from meeplezoo.envs.core.game import Game, Option
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.core.rules import Rules
from meeplezoo.envs.core.schema import Record


class ChihouSouseiGame(Game):
    """地方創生 (Regional Revival): send people from your big city out to the regions."""

    name = "chihou_sousei_v1"
    title = "地方創生 (Chihou Sousei)"
    min_players = 2
    max_players = 4
    default_players = 4
    options = {
        "forced_move_any_player": Option(
            False,
            (False, True),
            "a forced move may move a token inside another player's tableau",
        ),
        "population_scoring": Option(
            "largest",
            ("largest", "mode"),
            "k for population scoring: the largest count on a card, or the most "
            "frequent non-zero count",
        ),
    }
    max_decisions = 1_000  # random games take about 60 (2p) to 125 (4p) decisions
    score_scale = 10.0

    def build_rules(self) -> Rules:
        """One ``Choice`` per decision kind: its options and its step (``rules.py``)."""
        return build_rules()

    def num_actions(self, role: str | None = None) -> int:
        return NUM_ACTIONS

    def action_name(self, action: int, role: str | None = None) -> str:
        return ACTION_NAMES[self.check_action_index(action, role)]

    def feature_names(self, role: str | None = None) -> list[str]:
        return LAYOUT.names

    def new_initial_state(self, seed: int | None = None) -> ChihouSouseiState:
        state = ChihouSouseiState(self)
        state._setup(new_rng(seed))
        return state

    def state_schema(self) -> Record:
        """Every saved field, typed and bounded for this player count (see ``saved``)."""
        return state_schema(self.num_players)

    def state_from_dict(self, data: dict[str, Any]) -> ChihouSouseiState:
        return ChihouSouseiState.from_dict(self, data)

    def heuristic_bot(self, seed: int | None = None) -> Any:
        return ChihouBot(seed)

    def render_state(self, state: ChihouSouseiState) -> str:
        """The text view (the game is the top layer: the state reaches it through here)."""
        return render_state(state)
