"""A greedy network's moves remembered by what its seat sees, for the searches.

Inside a search the network moves the other seats at every step of every simulation, and
in most games it is asked the same question again and again: the simulations of one
search share their first moves, and a re-deal of what the searcher cannot see often
leaves an opponent's own view unchanged (in 地方創生, 44% of the opponents' calls in a
16-simulation search repeat one already made in that search, measured on six positions).
A greedy network's move is a function of its seat's observation and legal mask alone, so
the answer can be kept and given again, and the search is the same search, only cheaper.

Only a greedy network (``PolicyBot`` or ``TeamBot`` of non-stochastic agents) can be
remembered: a sampled one must draw afresh, and a bot that reads the state (the heuristic
bots) may answer differently for one view.  ``remembered`` refuses those rather than
change what they play.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeplezoo.envs.core.game import GameState
from meeplezoo.training.agents.ismcts import view_digest
from meeplezoo.training.agents.opponents import PolicyBot, TeamBot

DEFAULT_SIZE = 1 << 16  # answers kept; the oldest goes first (about 2 MB at most)


class RememberedBot:
    """``bot`` (a greedy ``PolicyBot`` or ``TeamBot``) with its answers kept by role,
    observation and legal mask; plays exactly as ``bot`` does."""

    def __init__(self, bot: PolicyBot | TeamBot, size: int = DEFAULT_SIZE) -> None:
        if size < 1:
            raise ValueError(f"size {size}: a memory keeps at least one answer")
        self.bot = bot
        self.name = bot.name
        self.size = size
        self.answers: dict[tuple[int, int], int] = {}
        self.asked = 0
        self.recalled = 0

    def _agent(self, state: GameState, seat: int) -> Any:
        if isinstance(self.bot, TeamBot):
            return self.bot.by_role[state.game.seat_role(seat)].agent
        return self.bot.agent

    def act(self, state: GameState) -> int:
        seat = state.current_player()
        agent = self._agent(state, seat)
        observation = np.ascontiguousarray(state.observation(seat), dtype=np.float32)
        mask = state.legal_mask()
        # one team member's answer is not another's
        key = (id(agent), view_digest(observation, mask))
        self.asked += 1
        action = self.answers.get(key)
        if action is not None:
            self.recalled += 1
            return action
        action = int(agent.act(observation, mask))
        if len(self.answers) >= self.size:
            del self.answers[next(iter(self.answers))]
        self.answers[key] = action
        return action


def remembered(bot: Any, size: int = DEFAULT_SIZE) -> RememberedBot:
    """``bot`` with a memory (``RememberedBot``); a ``ValueError`` for a bot whose move is
    not a function of its seat's view (sampled networks, bots that read the state)."""
    if isinstance(bot, PolicyBot):
        agents = [bot.agent]
    elif isinstance(bot, TeamBot):
        agents = [b.agent for b in bot.by_role.values()]
    else:
        raise ValueError(f"{getattr(bot, 'name', bot)!r}: only a network's greedy moves can be "
                         "remembered (a PolicyBot or TeamBot); a bot that reads the state may "
                         "answer one view in two ways")
    sampled = [getattr(a, "name", "?") for a in agents if getattr(a, "stochastic", False)]
    if sampled:
        raise ValueError(f"{', '.join(sampled)}: a sampled network draws each move afresh; "
                         "only greedy networks can be remembered")
    return RememberedBot(bot, size)
