"""The opponent pool keeps a bounded number of snapshots loaded (a long run with frequent
snapshots must stay flat in memory), and putting one away changes none of its draws."""

from __future__ import annotations

import shutil

from meeplezoo import envs
from meeplezoo.training.agents.bots import OpponentPool
from meeplezoo.training.agents.opponents import checkpoint_folder


def _pool(tmp_path, cap: int) -> OpponentPool:
    game = envs.make_game("necropolis_railway_v1", num_players=2)
    pool = OpponentPool(game, ["self", "random"], seed=7, snapshot_dir=tmp_path)
    pool.MAX_LOADED_SNAPSHOTS = cap
    return pool


def _drawn(pool: OpponentPool, draws: int) -> list[str]:
    names = []
    for _ in range(draws):
        bot = pool.draw()
        agent = getattr(bot, "agent", None)
        names.append(agent.path.name if agent is not None else "random")
        snapshots = [spec for spec in pool._bots if spec not in ("random", "heuristic")]
        assert len(snapshots) <= pool.MAX_LOADED_SNAPSHOTS
    return names


def test_snapshots_loaded_at_once_are_bounded_and_the_draws_do_not_change(tmp_path):
    source = checkpoint_folder("necropolis_railway_v1/ppo_league")
    for step in range(1, 11):
        shutil.copytree(source, tmp_path / f"step_{step:09d}")
    bounded = _drawn(_pool(tmp_path, 3), 200)
    unbounded = _drawn(_pool(tmp_path, 100), 200)
    assert bounded == unbounded
    assert len({name for name in bounded if name != "random"}) > 3  # evictions happened
