"""The one PettingZoo AEC environment that drives every MeepleZoo engine.

Each game module calls ``env_functions(GameClass)`` to get the PettingZoo
``env()`` / ``raw_env()`` pair.  Everything the games share lives here: agent
names, spaces (per agent, so asymmetric games fit), seeding, the legality
check, terminal rewards, the truncation cap, save/load and rendering.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from meeplezoo.envs.core.errors import CorruptStateError, EnvOrderError, IllegalActionError
from meeplezoo.envs.core.game import Game, GameState, state_from_saved
from meeplezoo.envs.core.rewards import places, resolve_reward_kind, terminal_rewards, winners
from meeplezoo.envs.core.schema import Int, validate

RENDER_MODES = ("ansi", "human")
MAX_SAVED_DECISIONS = 10**9  # a saved decision count above this is damage, not a long game


def agent_name(seat: int, game: Game | None = None) -> str:
    """``player_<seat>``, or the seat's role where every seat plays a role of its own."""
    if game is not None and game.agents_are_roles:
        return game.seat_role(seat)
    return f"player_{seat}"


class MeepleAECEnv(AECEnv):
    """PettingZoo AEC env over a ``Game``: ``{"observation", "action_mask"}`` dicts.

    Config: ``num_players``, the game's options, ``reward`` ("auto", "rank",
    "win", "score"), ``render_mode`` ("ansi" or "human") and ``max_decisions``
    (safety cap that truncates the episode; default the game's own).  With
    ``render_mode="human"`` the env prints the game after ``reset()`` and after every
    ``step()``, as PettingZoo's classic envs do; ``"ansi"`` returns it from ``render()``.
    Illegal actions raise ``IllegalActionError`` (a ValueError) naming the
    legal ones; wrap with PettingZoo's ``TerminateIllegalWrapper`` to turn
    them into a penalty instead.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "is_parallelizable": False}
    game_class: type[Game]

    def __init__(
        self,
        num_players: int | None = None,
        reward: str = "auto",
        render_mode: str | None = None,
        max_decisions: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = self.game_class(num_players, **options)
        self.reward_kind = resolve_reward_kind(reward, self.game.num_players)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode={render_mode!r} is not allowed; use None, 'ansi' or 'human'"
            )
        self.render_mode = render_mode
        if max_decisions is not None and (not isinstance(max_decisions, int) or max_decisions < 1):
            raise ValueError(f"max_decisions={max_decisions!r} must be a positive integer")
        self.max_decisions = max_decisions or self.game.max_decisions
        self.metadata = {**self.metadata, "name": self.game.name}
        self.possible_agents = [agent_name(i, self.game) for i in range(self.game.num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {}
        self.action_spaces = {}
        self._num_actions: list[int] = []  # per seat: the size of an idle seat's zero mask
        for seat, agent in enumerate(self.possible_agents):
            role = self.game.seat_role(seat)
            low, high = self.game.observation_bounds(role)
            n_actions = self.game.num_actions(role)
            self._num_actions.append(n_actions)
            self.observation_spaces[agent] = spaces.Dict(
                {
                    "observation": spaces.Box(
                        low, high, (self.game.observation_size(role),), np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
                }
            )
            self.action_spaces[agent] = spaces.Discrete(n_actions)
        self._seed_rng: np.random.Generator | None = None
        self.state: GameState | None = None

    # -- spaces and names ---------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def action_name(self, action: int, agent: str | None = None) -> str:
        """Readable name of ``action`` for ``agent`` (default: the agent to move)."""
        if agent is None:
            self._require_reset("action_name() without an agent")
            agent = self.agent_selection
        role = self.game.seat_role(self._seat(agent))
        return self.game.action_name(self.game.check_action_index(action, role), role)

    def agent_role(self, agent: str) -> str:
        """The role ``agent`` plays (``"player"`` in a symmetric game)."""
        return self.game.seat_role(self._seat(agent))

    def _seat(self, agent: str) -> int:
        if agent not in self.agent_name_mapping:
            raise ValueError(f"unknown agent {agent!r}; agents: {self.possible_agents}")
        return self.agent_name_mapping[agent]

    def _require_reset(self, what: str) -> None:
        if self.state is None:
            raise EnvOrderError(f"{self.game.name}: call reset() (or load_state()) before {what}")

    def feature_names(self, agent: str | None = None) -> list[str]:
        """Names of ``agent``'s observation entries (agent optional in a symmetric game)."""
        if agent is None:
            return self.game.feature_names(self.game.check_role(None))
        return self.game.feature_names(self.agent_role(agent))

    # -- episode ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(
                    f"{self.game.name}: reset(seed={seed!r}) needs None or an integer >= 0"
                )
            seed = int(seed)
        if seed is not None or self._seed_rng is None:
            self._seed_rng = np.random.default_rng(seed)
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(None if seed is None else seed + i)
        game_seed = int(self._seed_rng.integers(2**63 - 1))
        self._start(self.game.new_initial_state(game_seed))
        if self.render_mode == "human":  # as PettingZoo's classic envs: print every state
            self.render()

    def _start(self, state: GameState, decisions: int = 0) -> None:
        self.state = state
        self.decisions = decisions
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        if state.is_terminal():
            self._finish()
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
            if decisions >= self.max_decisions:  # a truncated game stays truncated when loaded
                self._truncate()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's features and action mask: fresh arrays the env keeps no hold on."""
        self._require_reset("observe()")
        return self._observe(self._seat(agent))

    def _observe(self, seat: int) -> dict[str, np.ndarray]:
        state = self.state
        if not state.is_terminal() and seat == state.current_player():
            mask = state._mask  # the state's cached mask, read directly: this runs every step
            if mask is None:
                mask = state.legal_mask()
            mask = mask.astype(np.int8)  # a copy: the state keeps its own mask
        else:
            mask = np.zeros(self._num_actions[seat], np.int8)
        return {"observation": state.observation(seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._require_reset("last()")
        return self._last(observe)

    def _last(self, observe: bool) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last`` in one call (it runs once per decision), once reset is known."""
        agent = self.agent_selection
        return (
            self._observe(self.agent_name_mapping[agent]) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        self._require_reset("step()")
        if not self.agents:
            raise EnvOrderError(
                f"{self.game.name}: the episode is over and every agent has left; call reset()"
            )
        self._step(action)

    def _step(self, action: Any) -> None:
        """``step`` once reset is known and an agent is left (the wrapper has checked both)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(
                f"{self.game.name}: {agent} must act (action None is only for finished agents)"
            )
        self._cumulative_rewards[agent] = 0.0
        state = self.state
        state.apply(action)
        self.decisions += 1
        if state.is_terminal():
            self._finish()
            self._accumulate_rewards()
        elif self.decisions >= self.max_decisions:
            self._truncate()
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        if self.render_mode == "human":
            self.render()

    def _truncate(self) -> None:
        for a in self.agents:
            self.truncations[a] = True
            self.infos[a] = {"truncated_after_decisions": self.decisions}

    def _finish(self) -> None:
        state = self.state
        scores = [float(s) for s in state.scores()]
        keys = state.rank_keys()
        rewards = terminal_rewards(self.reward_kind, scores, keys, self.game.score_scale)
        result = {
            "scores": scores,
            "places": [1.0 + p for p in places(keys)],  # 1 = first, as tables count
            "winners": winners(keys),
            "score_breakdown": state.score_breakdown(),
            "decisions": self.decisions,
        }
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(rewards[seat])
            self.terminations[agent] = True
            self.infos[agent] = result
        if getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]

    # -- save / load -------------------------------------------------------------------
    def save_state(self) -> dict[str, Any]:
        """JSON-safe snapshot of the game (RNG included) and the decision count."""
        if self.state is None:
            raise RuntimeError("reset() the env before saving it")
        return {**self.state.to_dict(), "decisions": self.decisions}

    def load_state(self, data: dict[str, Any] | str) -> None:
        """Continue from a snapshot made by ``save_state`` (dict or JSON text)."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as exc:
                raise CorruptStateError(
                    f"{self.game.name}: saved state is not JSON: {exc}"
                ) from exc
        state = state_from_saved(self.game_class, data)
        if state.game.config_dict() != self.game.config_dict():
            raise CorruptStateError(
                f"{self.game.name}: saved state has config {state.game.config_dict()}, "
                f"this env has {self.game.config_dict()}"
            )
        extra = sorted(set(data) - {"env", "config", "state", "decisions"})
        if extra:
            raise CorruptStateError(f"{self.game.name}: saved state has unexpected key(s) {extra}")
        decisions = data.get("decisions", 0)
        try:
            validate(Int(0, MAX_SAVED_DECISIONS), decisions, "decisions")
        except CorruptStateError as exc:
            raise CorruptStateError(f"{self.game.name}: {exc}") from exc
        state.game = self.game
        self._start(state, decisions)

    # -- rendering ---------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.state.render() if self.state is not None else "(not reset)"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order checks, with the hot calls sent straight to the env.

    ``agent_iter()``, ``last()`` and ``step()`` run once per decision; through the
    wrapper's ``__getattr__`` and the env's own reset checks (which the wrapper's
    make redundant) they cost more than a small game's own move, with no check gained.
    """

    env: MeepleAECEnv

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self.env._step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env._last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def agent_iter(self, max_iter: int = 2**63) -> AgentIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return AgentIterable(self, max_iter)


class AgentIterable(AECOrderEnforcingIterable):
    """``agent_iter()`` of ``OrderEnforcing``."""

    def __iter__(self) -> AgentIterator:
        return AgentIterator(self.env, self.max_iter)


class AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent loop, reading the env's agents directly.

    The same checks in the same order: no agent left or the iteration cap reached
    ends the loop; a turn not stepped since the last one fails the same assertion.
    """

    def __init__(self, env: OrderEnforcing, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._raw = env.env

    def __next__(self) -> str:
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        agent = raw.agent_selection
        wrapper = self.env
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return agent


def env_functions(
    game_class: type[Game], page: str | None = None,
) -> tuple[Callable[..., AECEnv], Callable[..., MeepleAECEnv]]:
    """The PettingZoo ``env()`` (wrapped) and ``raw_env()`` constructors of a game.

    ``page`` is the game package's docstring, its documentation page in PettingZoo's way
    (players, actions, observation, rewards, variants, version history, RULES.md): it heads
    the env class's docstring, so ``help()`` on the env shows it."""
    head = page.strip() + "\n\n" if page else f"{game_class.title or game_class.name}: "
    raw_class = type(
        f"{game_class.__name__}Env",
        (MeepleAECEnv,),
        {
            "game_class": game_class,
            "__doc__": f"{head}{MeepleAECEnv.__doc__}",
            "__module__": game_class.__module__,
        },
    )
    raw_class.metadata = {**MeepleAECEnv.metadata, "name": game_class.name}

    def raw_env(**config: Any) -> MeepleAECEnv:
        return raw_class(**config)

    def env(**config: Any) -> AECEnv:
        """The raw env inside PettingZoo's order-enforcing wrapper."""
        return OrderEnforcing(raw_class(**config))

    raw_env.__doc__ = raw_class.__doc__
    raw_env.game_class = env.game_class = game_class  # type: ignore[attr-defined]
    return env, raw_env
