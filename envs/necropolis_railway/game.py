"""London Necropolis Railway (Daniel Newman, 2022) as a MeepleZoo engine.

1-4 players; 1 is the solo variant (row discard after each turn, 5 mortuaries
of each kind), a single-agent task whose reward is the score.  See RULES.md.
"""

from __future__ import annotations

from typing import Any

from envs.core.errors import CorruptStateError
from envs.core.game import Game
from envs.necropolis_railway import actions as A
from envs.necropolis_railway import data as D
from envs.necropolis_railway.observation import LAYOUT
from envs.necropolis_railway.state import NecropolisState


class NecropolisRailwayGame(Game):
    name = "necropolis_railway_v1"
    title = "London Necropolis Railway"
    min_players = min(D.PLAYER_COUNTS)
    max_players = max(D.PLAYER_COUNTS)
    default_players = 2
    options = {}
    max_decisions = 5_000
    score_scale = 25.0  # reward='score': points / 25 (solo scores run about 20-120)

    def num_actions(self, player: int = 0) -> int:
        return A.NUM_ACTIONS

    def action_name(self, action: int, player: int = 0) -> str:
        return A.NAMES[self.check_action_index(action)]

    def feature_names(self, player: int = 0) -> list[str]:
        return LAYOUT.names

    def observation_size(self, player: int = 0) -> int:
        return LAYOUT.size

    def new_initial_state(self, seed: int | None = None) -> NecropolisState:
        return NecropolisState(self, seed)

    def state_from_dict(self, data: dict[str, Any]) -> NecropolisState:
        try:
            return NecropolisState.from_dict(self, data)
        except CorruptStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise CorruptStateError(f"{self.name}: saved state is damaged ({exc!r:.200})") from exc

    def heuristic_bot(self, seed: int | None = None) -> Any:
        from envs.necropolis_railway.bot import GreedyBot

        return GreedyBot(seed)
