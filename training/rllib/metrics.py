"""Per-role metrics of self-play episodes, logged by every env runner.

In self-play the policies' mean returns sum to zero and say nothing about strength;
what does: each role's and each seat's win share (a co-win is a 1/k share, as in
``training.evaluate``) and how long games run.  Strength against fixed opponents is
measured by ``train.py`` with ``training.evaluate`` on the exported policies.
"""

from __future__ import annotations

from typing import Any

from ray.rllib.callbacks.callbacks import RLlibCallback

from meeplezoo.envs.core.rewards import win_share


class RoleMetrics(RLlibCallback):
    """Logs ``win_share/<role>``, ``seat_win_share/<seat>``, ``truncated_games`` and
    ``decisions`` per episode, from the last infos the env wrapper gives every agent
    (result, seat and role)."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None,
                       **kwargs: Any) -> None:
        if metrics_logger is None:
            return
        infos = [ep.get_infos(-1) for ep in episode.agent_episodes.values()]
        infos = [info for info in infos if "seat" in info]
        truncated = not any("winners" in info for info in infos)
        metrics_logger.log_value("truncated_games", float(truncated), reduce="mean")
        if truncated:  # stopped at the decision cap: nobody won
            return
        metrics_logger.log_value("decisions", float(infos[0]["decisions"]), reduce="mean")
        for info in infos:  # seats too: in a symmetric game every role's share is 1/n
            share = win_share(info["seat"], info["winners"])
            metrics_logger.log_value(f"win_share/{info['role']}", share, reduce="mean")
            metrics_logger.log_value(f"seat_win_share/{info['seat']}", share, reduce="mean")
