"""Ray as ``training.rllib.train`` sets it up, without starting it: usage statistics off
(Ray's documented ``RAY_USAGE_STATS_ENABLED=0``) unless the user turned them on, and no
env runner restarts unless asked (each run with restarts prints an ERROR line from Ray's
core worker, ray-project/ray#53727)."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("ray.rllib")

from meeplezoo.training.rllib import train

USAGE = "RAY_USAGE_STATS_ENABLED"


@pytest.fixture
def environ(monkeypatch):
    """A copy of the environment for the test to change (init_ray sets variables)."""
    copy = dict(os.environ)
    copy.pop(USAGE, None)
    monkeypatch.setattr(os, "environ", copy)
    return copy


@pytest.fixture
def ray_init(monkeypatch, environ):
    """``ray.init`` replaced by a recorder of the usage-stats setting it would read."""
    import ray

    seen: list[str | None] = []
    monkeypatch.setattr(ray, "init", lambda *a, **k: seen.append(environ.get(USAGE)))
    return seen


@pytest.mark.parametrize("address", [None, "auto"])
def test_ray_starts_with_usage_stats_off(ray_init, tmp_path, address):
    train.init_ray(address, str(tmp_path / "ray"))
    assert ray_init == ["0"]


def test_a_user_who_turned_usage_stats_on_keeps_them(ray_init, environ, tmp_path):
    environ[USAGE] = "1"
    train.init_ray(None, str(tmp_path / "ray"))
    assert ray_init == ["1"]


@pytest.mark.parametrize("flag, restart", [([], False), (["--restart-env-runners"], True)])
def test_env_runners_restart_only_when_asked(flag, restart):
    argv = ["--env", "toy_roles_v0", "--register", "toy_roles_v0=tests.core.roles_toy",
            "--iterations", "1", "--num-env-runners", "2", "--out", "unused", *flag]
    args = train.build_parser().parse_args(argv)
    config = train.ppo_config(train.env_config_of(args), args)
    assert config.restart_failed_env_runners is restart
