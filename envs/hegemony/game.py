"""Hegemony: Lead Your Class to Victory (Varnavas Timotheou, 2023) as a MeepleZoo engine.

Four classes, each a role with its own action catalogue and observation: the Working
Class, the Middle Class, the Capitalist Class and the State.  See RULES.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeplezoo.envs.core.errors import ConfigError, CorruptStateError
from meeplezoo.envs.core.game import Game, Option
from meeplezoo.envs.core.rules import Rules
from meeplezoo.envs.hegemony import (
    hidden,
    invariants,
    observation,
    production,
    render,
)
from meeplezoo.envs.hegemony.actions import ROLE_NAMES, catalogue
from meeplezoo.envs.hegemony.bot import HegemonyBot
from meeplezoo.envs.hegemony.rules import build_rules
from meeplezoo.envs.hegemony.saved import state_schema
from meeplezoo.envs.hegemony.setup import new_game
from meeplezoo.envs.hegemony.state import HegemonyState

VARIANTS = {
    "initial_p6": Option("B", ("B", "A"), "starting section of policy 6 (§1.2, §12 #7)"),
    "mc_prep_arrivals": Option(
        "memo", ("memo", "published"),
        "MC's new workers in Preparation: memo +1 unskilled; published +1 unskilled and "
        "+1 skilled of MC's choice (§2.1, §12 #1)"),
    "mc_policy_vp": Option("memo", ("memo", "published"),
                           "MC's end-game policy VP: memo 1/4/8/12/18, published 1/3/6/10/15 "
                           "(§9, §12 #2)"),
    "cc_end_loans": Option("memo", ("memo", "published"),
                           "CC's loans at game end: repay 55 like everyone (memo), or -5 VP per "
                           "loan without repaying (published) (§9, §12 #3)"),
    "cc_export_vp": Option(False, (False, True),
                           "CC gains +1 VP per Foreign Market transaction (§3.9, §12 #4)"),
    "swap_target": Option("unskilled", ("unskilled", "any"),
                          "Swap Workers brings in an unskilled (memo) or any unemployed worker "
                          "(§4.4, §12 #5)"),
    "demonstration_discard": Option(
        "memo", ("memo", "published"),
        "the Demonstration token is re-checked after every action (memo) or only after a "
        "build plus assignment (published) (§3.6, §12 #6)"),
    "price_high_requires_policy": Option(
        False, (False, True), "High prices need 6A / 4C / 5C (§5.11, §12 #10)"),
    "mc_scoring_compare": Option(
        "vp", ("vp", "position"),
        "MC's scoring compares the printed VP value or the track position with its fully "
        "operational companies (§8, §12 #14)"),
}


class HegemonyGame(Game):
    name = "hegemony_v1"
    title = "Hegemony: Lead Your Class to Victory"
    roles = ROLE_NAMES
    min_players = max_players = default_players = 4
    options = VARIANTS
    max_decisions = 20_000
    score_scale = 50.0
    # A search level whose network has no value cuts its playouts here: a game is about 700
    # decisions, and full playouts cost 1.96 s a decision at @hard; 20 decisions cost 0.067 s
    # (2026-12-03; on 160 fresh paired deals @hard was then no stronger than the team: -6.2
    # points, -15.0 to +3.1).
    search_playout_depth = 20
    balance_stats = "meeplezoo.envs.hegemony.balance_stats"  # balance columns (core.balance)

    def build_rules(self) -> Rules:
        """The rules object (``rules.py``): the agenda table that joins every phase module,
        the phase rules cards run, the card primitives with their costs and the card table.
        It sits above the state, so the game holds it and every state reads it here."""
        return build_rules()

    def seat_role(self, seat: int) -> str:
        if not (isinstance(seat, (int, np.integer)) and 0 <= seat < 4):
            raise ConfigError(f"{self.name}: seat {seat!r} is not a seat 0..3")
        return ROLE_NAMES[seat]

    def num_actions(self, role: str | None = None) -> int:
        return catalogue(self.check_role(role)).size

    def action_name(self, action: int, role: str | None = None) -> str:
        role = self.check_role(role)
        return catalogue(role).names[self.check_action_index(action, role)]

    def feature_names(self, role: str | None = None) -> list[str]:
        return observation.layout(self.check_role(role)).names

    def new_initial_state(self, seed: int | None = None) -> Any:
        return new_game(self, seed)

    def state_schema(self) -> Any:
        return state_schema()

    def heuristic_bot(self, seed: int | None = None) -> Any:
        """The scripted opponent: plays whichever class is to move (``bot.HegemonyBot``)."""
        return HegemonyBot(seed)

    # The state reaches the rules above it through these (ARCHITECTURE.md): the game is the
    # top of the package and imports them, so no module imports one above it.
    def encode(self, state: HegemonyState, player: int) -> np.ndarray:
        return observation.encode(state, player)

    def render_state(self, state: HegemonyState, viewer: int | None = None) -> str:
        return render.render(state, viewer)

    def as_if_ended(self, state: HegemonyState) -> HegemonyState:
        return production.as_if_ended(state)

    def rank_keys_of(self, state: HegemonyState) -> list[tuple]:
        return production.rank_keys(state)

    def check_invariants(self, state: HegemonyState) -> None:
        invariants.check_invariants(state)

    def resample_hidden(self, state: HegemonyState, player: int,
                        rng: np.random.Generator) -> HegemonyState:
        return hidden.resample_hidden(state, player, rng)

    def state_from_dict(self, data: dict[str, Any]) -> Any:
        """Rebuild a schema-checked save by replaying its moves from its set-up seed, and
        refuse it unless the replay reaches exactly the saved position: a loaded game is
        always one that legal play reaches, whatever was edited in the file."""
        state = new_game(self, data["origin_seed"])
        for step, action in enumerate(data["history"]):
            if state.is_terminal() or not state.legal_mask()[action]:
                raise CorruptStateError(
                    f"saved move {step} ({action}) is not legal in the replayed game")
            state.apply(action)
        replayed = state._to_dict()
        for key, value in data.items():
            if replayed.get(key) != value:
                raise CorruptStateError(
                    f"field {key} differs from the position its own moves lead to")
        return state
