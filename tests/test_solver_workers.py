"""Solver work runs in the process's worker processes, never on the event loop's process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys

import pytest

from server_kit import InProcessServer, http, new_room
from stalactites.rooms import deals
from stalactites.workers import SolverPool, worker_pid


async def test_a_pool_runs_calls_in_another_process() -> None:
    pool = SolverPool(1)
    try:
        assert await pool.run(worker_pid) != os.getpid()
    finally:
        pool.close()


def _no_search_here(*args: object) -> object:
    raise AssertionError("the solver ran on the server's own process")


@pytest.mark.slow
async def test_creating_squadron_rooms_runs_no_search_in_the_server_process(
    server: InProcessServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The worker processes import the solver afresh: only a search in this process is caught.
    monkeypatch.setattr(deals, "pick", _no_search_here)
    for game in ("squadron", "stalactites"):
        room_id = await new_room(server.url, game=game)
        status, view = await http("GET", f"{server.url}/api/rooms/{room_id}")
        assert status == 200 and view["certified"] is True


# A process that starts a pool of two workers, prints their ids, then waits to be killed.
POOL_HOLDER = """
import asyncio, sys, time
from stalactites.workers import SolverPool, worker_pid
async def main():
    pool = SolverPool(2)
    pids = set()
    while len(pids) < 2:  # each call may land on either worker; both have started by then
        pids.update(await asyncio.gather(*(pool.run(worker_pid) for _ in range(4))))
    print(*sorted(pids), flush=True)
    await asyncio.Event().wait()
asyncio.run(main())
"""


async def _ended(pid: int) -> None:
    """Returns when process ``pid`` (not a child of ours) has ended."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    ended = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_reader(fd, ended.set)
    try:
        await ended.wait()
    finally:
        loop.remove_reader(fd)
        os.close(fd)


@pytest.mark.slow
async def test_a_killed_servers_workers_end_with_it() -> None:
    with subprocess.Popen([sys.executable, "-c", POOL_HOLDER], stdout=subprocess.PIPE) as holder:
        assert holder.stdout is not None
        workers = [int(pid) for pid in holder.stdout.readline().split()]
        assert len(workers) == 2 and holder.pid not in workers
        holder.kill()  # SIGKILL: no lifespan's ending, no pool.close()
        holder.wait()
        try:
            await asyncio.wait_for(asyncio.gather(*(_ended(pid) for pid in workers)), 10)
        finally:  # on failure, the workers must not outlive the test
            for pid in workers:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
