"""A single-agent gymnasium view of one seat of a MeepleZoo game.

The learner sees its observation vector and ``action_masks()`` (what
sb3-contrib's MaskablePPO asks for); the other seats are played inside
``step()`` by opponents drawn from a pool until it is the learner's turn again
or the game ends.  The learner gets its own terminal reward even when the game
ends on an opponent's move - the public SB3 + PettingZoo recipe gets this wrong.
The engine is driven directly (not through the AEC wrapper) because rollouts
are the hot path of training.
"""

from __future__ import annotations

import time
from typing import Any

import gymnasium as gym
import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.game import Game, GameState
from meeplezoo.envs.core.rewards import resolve_reward_kind, terminal_rewards
from meeplezoo.training.agents.bots import OpponentPool
from meeplezoo.training.agents.opponents import OpponentSpec


class SeatEnv(gym.Env):
    """One learner seat; ``seat="random"`` draws the learner's seat per episode among the
    seats of its ``role`` (every seat in a symmetric game; an asymmetric game needs the
    role or a fixed seat, whose role it then is).

    ``opponents`` is an ``OpponentPool`` or a list of specs accepted by it
    (``"random"``, ``"heuristic"``, ``"self"`` or a checkpoint folder).
    ``shaping`` > 0 adds potential-based reward shaping (Ng et al. 1999): each
    step pays ``shaping * (gamma * phi(s') - phi(s))`` with ``phi`` = the
    learner's points minus the best other player's (solo: its points), as if the game ended now,
    divided by the game's ``score_scale`` (and ``phi`` = 0 at the end).  Such
    shaping leaves the optimal policy unchanged but gives dense feedback.
    ``timers`` (dict) accumulates seconds spent in the engine and encoders
    (``engine``) and in opponents' choices (``opponents``) for ``training.bench``.
    ``illegal_action`` is the Necropolis solo env's option: ``"terminate"`` (default)
    ends the episode on an action outside ``action_masks()`` with ``illegal_reward``
    (default -1) and names it in ``info["illegal_action"]``, so an unmasked learner
    (or gymnasium's and SB3's ``check_env``, which step random actions) gets a penalty;
    ``"raise"`` raises ``IllegalActionError`` naming the legal actions.
    ``render()`` returns the game's text whatever ``render_mode`` (None or ``"ansi"``).
    ``default_role`` is the role when neither ``role`` nor ``seat`` names one: a registered
    id of an asymmetric game needs one to be made without arguments (gymnasium's and SB3's
    checkers, ``gymnasium.make("meeplezoo/HegemonySeat-v1")``), while ``role=`` or ``seat=``
    given to ``make`` still choose, as they do for a ``SeatEnv`` built directly (which has
    none, and asks for the role).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        env_name: str | None = None,
        config: dict[str, Any] | None = None,
        seat: int | str = "random",
        opponents: OpponentPool | list[OpponentSpec] | None = None,
        role: str | None = None,
        reward: str = "auto",
        game_class: type[Game] | None = None,
        seed: int | None = None,
        timers: dict[str, float] | None = None,
        shaping: float = 0.0,
        gamma: float = 0.995,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        default_role: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ConfigError(f"render_mode={render_mode!r}; use None or 'ansi'")
        self.render_mode = render_mode
        if illegal_action not in ("terminate", "raise"):
            raise ConfigError(f"illegal_action={illegal_action!r}; use 'terminate' or 'raise'")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        if game_class is None:
            if env_name is None:
                raise ValueError("SeatEnv needs env_name or game_class")
            game_class = envs.game_class(env_name)
        self.game = game_class(**(config or {}))
        n = self.game.num_players
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise ConfigError(f"seat={seat!r} is not allowed; use 'random' or 0..{n - 1}")
        self.fixed_seat = None if seat == "random" else seat
        self.reward_kind = resolve_reward_kind(reward, n)
        if not isinstance(opponents, OpponentPool):
            opponents = OpponentPool(self.game, opponents or ["random"], seed=seed)
        self.pool = opponents
        if (role is not None and self.fixed_seat is not None
                and self.game.seat_role(self.fixed_seat) != self.game.check_role(role)):
            raise ConfigError(f"seat {self.fixed_seat} plays "
                              f"{self.game.seat_role(self.fixed_seat)!r}, not {role!r}")
        if self.fixed_seat is not None:
            role = self.game.seat_role(self.fixed_seat)
        elif role is None and default_role is not None:
            role = default_role
        if role is None and len(self.game.roles) > 1:
            raise ConfigError(f"{self.game.name} has roles {list(self.game.roles)}: "
                              "name the learner's role (or its seat)")
        self.role = self.game.check_role(role)
        self.role_seats = self.game.role_seats(self.role)
        if not self.role_seats:
            raise ConfigError(f"no seat plays role {self.role!r} at {n} players")
        low, high = self.game.observation_bounds(self.role)
        self.observation_space = gym.spaces.Box(
            low, high, (self.game.observation_size(self.role),), np.float32
        )
        self.action_space = gym.spaces.Discrete(self.game.num_actions(self.role))
        learner = self.fixed_seat if self.fixed_seat is not None else self.role_seats[0]
        self._seed_rng = np.random.default_rng(seed)
        self.timers = timers
        if shaping < 0:
            raise ConfigError(f"shaping={shaping} must be 0 (off) or positive")
        self.shaping = shaping
        self.gamma = gamma
        self._phi = 0.0
        self.state: GameState | None = None
        self.ended_illegally = False
        self.seat = learner
        self.bots: list[Any] = []

    # -- gymnasium API -----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            self.pool.seed(seed + 1)
        n = self.game.num_players
        if self.fixed_seat is not None:
            self.seat = self.fixed_seat
        elif len(self.role_seats) == n:  # the same draw as before roles existed
            self.seat = int(self._seed_rng.integers(n))
        else:
            self.seat = self.role_seats[int(self._seed_rng.integers(len(self.role_seats)))]
        self.bots = [None if s == self.seat else self.pool.draw(s) for s in range(n)]
        self.ended_illegally = False
        t0 = time.perf_counter()
        self.state = self.game.new_initial_state(int(self._seed_rng.integers(2**63 - 1)))
        self._add("engine", t0)
        self._play_opponents()
        obs = self._observe()
        self._phi = self._potential()
        return obs, {"seat": self.seat, "opponents": [getattr(b, "name", "-") for b in self.bots]}

    def step(self, action: int):
        if self.ended_illegally:
            raise RuntimeError("the episode ended on an illegal action; call reset()")
        action = int(action)
        if self.illegal_action == "terminate" and self._masked_out(action):
            return self._end_illegally(action)
        t0 = time.perf_counter()
        self.state.apply(action)
        self._add("engine", t0)
        self._play_opponents()
        obs = self._observe()
        shaped = 0.0
        if self.shaping:
            phi = self._potential()
            shaped = self.shaping * (self.gamma * phi - self._phi)
            self._phi = phi
        if not self.state.is_terminal():
            return obs, shaped, False, False, {}
        state = self.state
        rewards = terminal_rewards(
            self.reward_kind, state.scores(), state.rank_keys(), self.game.score_scale
        )
        info = {"scores": list(state.scores()), "seat": self.seat}
        return obs, float(rewards[self.seat]) + shaped, True, False, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner at its pending decision (all False at the end)."""
        if self.ended_illegally or self.state.is_terminal():
            return np.zeros(self.action_space.n, dtype=bool)
        return self.state.legal_mask()

    def render(self) -> str:
        return self.state.render()

    # -- internals ------------------------------------------------------------------------
    def _masked_out(self, action: int) -> bool:
        """Whether ``action`` is outside the learner's mask at its pending decision (a
        step after the game's end is left to ``apply``, which refuses it)."""
        state = self.state
        if state.is_terminal():
            return False
        mask = state.legal_mask()
        return not (0 <= action < mask.shape[0] and mask[action])

    def _end_illegally(self, action: int):
        """``illegal_action="terminate"``: the episode ends where it stands, with the
        penalty (plus the shaping that any episode end pays: ``phi`` drops to 0)."""
        self.ended_illegally = True
        shaped = self.shaping * -self._phi if self.shaping else 0.0
        self._phi = 0.0
        n = self.action_space.n
        name = self.game.action_name(action, self.role) if 0 <= action < n else action
        info = {"seat": self.seat, "illegal_action": name}
        return self.state.observation(self.seat), self.illegal_reward + shaped, True, False, info

    def _play_opponents(self) -> None:
        state = self.state
        while not state.is_terminal() and state.current_player() != self.seat:
            bot = self.bots[state.current_player()]
            t0 = time.perf_counter()
            action = bot.act(state)
            t1 = time.perf_counter()
            state.apply(action)
            if self.timers is not None:
                self.timers["opponents"] = self.timers.get("opponents", 0.0) + (t1 - t0)
                self._add("engine", t1)

    def _potential(self) -> float:
        if not self.shaping or self.state.is_terminal():
            return 0.0
        scores = self.state.scores()
        if self.game.num_players == 1:  # solo: the points themselves
            return scores[0] / self.game.score_scale
        best_other = max(s for i, s in enumerate(scores) if i != self.seat)
        return (scores[self.seat] - best_other) / self.game.score_scale

    def _observe(self) -> np.ndarray:
        t0 = time.perf_counter()
        obs = self.state.observation(self.seat)
        if not self.state.is_terminal():
            self.state.legal_mask()  # computed here so its cost counts as engine time
        self._add("engine", t0)
        return obs

    def _add(self, key: str, since: float) -> None:
        if self.timers is not None:
            self.timers[key] = self.timers.get(key, 0.0) + time.perf_counter() - since
