"""Ray for the Ray tests: every file under the project's ``runs/`` (short, for Ray's
socket paths), no auth token written to the home folder, nothing left running.
``ray_here``: Ray in the test process; ``two_nodes``: a real 2-node cluster on this
machine (``tests/rllib/local_cluster.py``)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MAX_TEMP_LENGTH = 40  # Ray's unix socket paths add ~70 characters to its temp dir (limit 107)


def short_temp_dir(prefix: str) -> Path:
    """A fresh folder under the project's ``runs/``, or under the system's temp dir where
    the clone's path is too long for Ray's socket paths."""
    runs = REPO / "runs"
    runs.mkdir(exist_ok=True)
    base = runs if len(str(runs)) + 12 <= MAX_TEMP_LENGTH else Path(tempfile.gettempdir())
    return Path(tempfile.mkdtemp(prefix=prefix, dir=base))


@pytest.fixture(scope="session")
def ray_here():
    """One Ray instance in this test process for the in-process training tests."""
    import ray

    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    temp = short_temp_dir("ray-")
    ray.init(_temp_dir=str(temp), include_dashboard=False, num_cpus=1,
             logging_level="ERROR", log_to_driver=False)
    yield
    ray.shutdown()
    shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture
def two_nodes():
    """(head address, environment for drivers) of a head and a second node on loopback;
    both stopped after the test, and no Ray process of theirs left behind."""
    from tests.rllib.local_cluster import local_cluster

    temp = short_temp_dir("rc-")
    try:
        with local_cluster(temp) as cluster:
            yield cluster
    finally:
        shutil.rmtree(temp, ignore_errors=True)
