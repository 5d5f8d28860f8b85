"""A 2-node Ray cluster on this machine for the tests that need a real one (``ray start
--head`` plus a node joining it), and the check that it leaves no process behind.

Everything stays on loopback addresses: the head is named 127.0.0.2 (Ray would swap
127.0.0.1 and ``localhost`` for the machine's network address), and the joining node
reaches it there.  Each ``ray start --block`` ends the processes it started when it is
terminated, so a test stops exactly its own cluster (``ray stop`` would end every Ray
process of the user on the machine)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

pytest.importorskip("ray")

import psutil  # ray's own copy (ray/thirdparty_files), on the path once ray is imported

from tests.rllib.conftest import REPO

HEAD_IP = "127.0.0.2"
START_TIMEOUT_S = 90


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ray_command() -> list[str]:
    """``ray`` run by this interpreter: the nodes' workers then import this checkout (the
    ``ray`` script of a copied virtual environment may name another one's Python)."""
    return [sys.executable, "-m", "ray.scripts.scripts"]


def _start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    """``ray start ... --block``, returned once the node runs (its log says so)."""
    with log.open("w") as out:
        node = subprocess.Popen([*_ray_command(), "start", *args, "--num-cpus=1",
                                 "--disable-usage-stats", "--block"], env=env, stdout=out,
                                stderr=subprocess.STDOUT, cwd=REPO)
    deadline = time.monotonic() + START_TIMEOUT_S
    while "Ray runtime started" not in log.read_text(errors="replace"):
        if node.poll() is not None or time.monotonic() > deadline:
            node.kill()
            raise AssertionError(f"ray start {args[0]} failed:\n{log.read_text()[-3000:]}")
        time.sleep(0.5)
    return node


def _ray_processes(temp: Path, pids: set[int]) -> list[str]:
    """The live processes of this cluster: those named (the nodes' process trees, which
    include Ray's renamed ``ray::...`` workers), and any whose command line names a path
    under ``temp``."""
    found = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        try:
            cmdline = " ".join(proc.info["cmdline"] or [])
            mine = proc.info["pid"] in pids or str(temp) in cmdline
            if mine and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(f"{proc.info['pid']}: {cmdline[:120]}")
        except psutil.Error:
            continue
    return found


@contextmanager
def local_cluster(temp: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """(head address, environment for drivers) of a head and a second node."""
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_TMPDIR": str(temp)}
    port = _free_port()
    nodes: list[subprocess.Popen] = []
    started: set[int] = set()
    try:
        nodes.append(_start(["--head", f"--node-ip-address={HEAD_IP}", f"--port={port}",
                             f"--ray-client-server-port={_free_port()}",
                             "--include-dashboard=false"], env, temp / "head.log"))
        nodes.append(_start([f"--address={HEAD_IP}:{port}"], env, temp / "node.log"))
        yield f"{HEAD_IP}:{port}", env
    finally:
        for node in nodes:
            with suppress(psutil.Error):
                started |= {p.pid for p in psutil.Process(node.pid).children(recursive=True)}
            started.add(node.pid)
        for node in reversed(nodes):  # the joining node first, then the head
            node.terminate()
            try:
                node.wait(timeout=60)
            except subprocess.TimeoutExpired:
                node.kill()
                node.wait()
        deadline = time.monotonic() + 120  # workers of a loaded machine exit slowly
        while _ray_processes(temp, started) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not _ray_processes(temp, started), "Ray processes left behind"
