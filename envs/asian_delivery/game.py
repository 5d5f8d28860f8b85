"""アジアンデリバリー (Asian Delivery): the Game class (sizes, names, options)."""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.asian_delivery import layout as L
from meeplezoo.envs.asian_delivery import rules, schema
from meeplezoo.envs.asian_delivery.actions import ACTION_NAMES, NUM_ACTIONS
from meeplezoo.envs.asian_delivery.bot import HeuristicBot
from meeplezoo.envs.asian_delivery.render import render_text
from meeplezoo.envs.asian_delivery.round_end import as_if_ended, end_round
from meeplezoo.envs.asian_delivery.setup import new_state
from meeplezoo.envs.asian_delivery.state import AsianDeliveryState
from meeplezoo.envs.core.game import Game, Option
from meeplezoo.envs.core.rules import Rules
from meeplezoo.envs.core.schema import Record


class AsianDeliveryGame(Game):
    """Worker placement and delivery in the city of Hotan, for 3 to 5 players.

    Options (all off = the rules of the draft's body):
    - ``growth_before_refill``: at round end companies grow first, then refill;
    - ``distance_coins``: the port is fixed at figure position 1 and each
      district holds coins (3 VP) by its distance, taken by whoever fulfils
      there first, instead of the step bonus;
    - ``shared_port_dailies``: every player has the same three dailies
      (1, 2, 3 base), fulfilled only at the port;
    - ``random_companies`` (research, not in the draft): each seat is dealt a
      distinct company at random instead of choosing one, so that a company
      trained agents never pick can still be measured.
    """

    name = "asian_delivery_v1"
    title = "アジアンデリバリー (Asian Delivery)"
    min_players = 3
    max_players = 5
    default_players = 4
    options = {
        "growth_before_refill": Option(
            False, (False, True), "round end: grow the companies first, then refill"
        ),
        "distance_coins": Option(
            False,
            (False, True),
            "port fixed at position 1; coins (3 VP) by distance replace the step bonus",
        ),
        "shared_port_dailies": Option(
            False, (False, True), "everyone has the same 1/2/3-base dailies, port only"
        ),
        "random_companies": Option(
            False,
            (False, True),
            "research: companies dealt at random (no choice), for balance measurement",
        ),
    }
    max_decisions = 20_000
    score_scale = 10.0

    def build_rules(self) -> Rules:
        """Per decision kind (``actions.DECISIONS``), its legal actions and its effect
        (``rules.build_rules``)."""
        return rules.build_rules()

    def num_actions(self, role: str | None = None) -> int:
        return NUM_ACTIONS

    def action_name(self, action: int, role: str | None = None) -> str:
        return ACTION_NAMES[self.check_action_index(action, role)]

    def feature_names(self, role: str | None = None) -> list[str]:
        return list(L.FEATURE_NAMES)

    def observation_size(self, role: str | None = None) -> int:
        return L.OBS_SIZE

    def new_initial_state(self, seed: int | None = None) -> AsianDeliveryState:
        return new_state(self, seed)

    def state_schema(self) -> Record:
        """Every saved field, each entry of the state vector with its own range (schema.py)."""
        return schema.state_schema(
            self.num_players,
            self.config["distance_coins"],
            self.config["shared_port_dailies"],
            self.config["random_companies"],
        )

    def state_from_dict(self, data: dict[str, Any]) -> AsianDeliveryState:
        return AsianDeliveryState.from_dict(self, data)

    def heuristic_bot(self, seed: int | None = None) -> Any:
        return HeuristicBot(seed)

    # The game is the top layer: the state reaches the rules above it through these, so no
    # module imports one above it (ARCHITECTURE.md).
    def render_state(self, state: AsianDeliveryState) -> str:
        return render_text(state)

    def as_if_ended(self, state: AsianDeliveryState) -> AsianDeliveryState:
        return as_if_ended(state)

    def start_round_one(self, state: AsianDeliveryState) -> None:
        rules.start_round_one(state)

    def end_round(self, state: AsianDeliveryState) -> None:
        end_round(state)
