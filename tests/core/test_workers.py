"""Worker processes end with the run (``envs.core.workers``): an exception out of the pool
kills its workers instead of waiting for them, and SIGTERM becomes an exception the run's
clean-up sees.  A whole command stopped by a signal: ``tests/training/test_balance.py``."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from meeplezoo.envs.core import workers


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def gone_within(pids: list[int], seconds: float) -> list[int]:
    """The ``pids`` still running after up to ``seconds``."""
    end = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def _sleep_then_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_an_exception_out_of_the_pool_kills_its_workers_at_once():
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="stop"), workers.process_pool(2) as pool:
        running = [pool.submit(_sleep_then_pid, 60) for _ in range(4)]  # a minute each
        time.sleep(0.5)
        pids = sorted(pool._processes)  # the pool's worker processes, by pid
        assert len(pids) == 2 and not any(f.done() for f in running)
        raise RuntimeError("stop")
    assert time.monotonic() - start < 20  # the minute of work was not awaited
    assert not gone_within(pids, 5)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_sigterm_in_the_pool_kills_the_workers_and_the_next_wait_raises_stopped():
    """The handler kills the workers and raises nothing (an exception wherever the main
    thread is could leave a lock of the pool's held); waiting on them raises ``Stopped``."""
    start = time.monotonic()
    with (workers.stop_on_sigterm(),  # should the pool not handle it: never pytest's end
          pytest.raises(workers.Stopped), workers.process_pool(2) as pool):
        running = [pool.submit(_sleep_then_pid, 60) for _ in range(4)]
        time.sleep(0.5)
        pids = sorted(pool._processes)
        os.kill(os.getpid(), signal.SIGTERM)
        assert pool.stopped == [signal.SIGTERM]  # handled, and nothing raised here
        running[0].result()
    assert time.monotonic() - start < 20 and len(pids) == 2
    assert not gone_within(pids, 5)
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_a_normal_end_waits_for_every_result():
    with workers.process_pool(2) as pool:
        futures = [pool.submit(_sleep_then_pid, 0.01) for _ in range(4)]
    assert all(f.done() and f.result() > 0 for f in futures)


def test_sigterm_raises_stopped_in_the_main_thread_and_the_handler_is_restored():
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    with pytest.raises(workers.Stopped) as stop, workers.stop_on_sigterm():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises before this ends
    assert stop.value.signum == signal.SIGTERM and str(stop.value) == "stopped by SIGTERM"
    assert isinstance(stop.value, KeyboardInterrupt)  # every Ctrl-C clean-up runs for it
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_the_default_is_two_workers_or_the_cores_there_are(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 16)
    assert workers.default_workers() == workers.DEFAULT_WORKERS == 2
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert workers.default_workers() == 1
