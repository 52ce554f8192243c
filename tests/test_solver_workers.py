"""Solver work runs in the process's worker processes, never on the event loop's process."""

from __future__ import annotations

import ast
import asyncio
import contextlib
import importlib
import os
import re
import signal
import subprocess
import sys

import pytest

from server_kit import InProcessServer, http, new_room
from source_kit import imported_from, modules
from stalactites.rooms import deals
from stalactites.workers import PRELOAD, SolverPool, worker_pid


async def test_a_pool_runs_calls_in_another_process() -> None:
    pool = SolverPool(1)
    try:
        assert await pool.run(worker_pid) != os.getpid()
    finally:
        pool.close()


def test_the_forkserver_preloads_the_module_of_every_function_a_worker_runs() -> None:
    """A new worker is forked with what it runs already imported: no worker pays the import of
    a package (the rooms', fair play's) on its first call."""
    handed = _functions_handed_to_pools()
    assert "stalactites.rooms.deals" in handed  # the search below finds the calls
    assert handed == set(PRELOAD)


def _functions_handed_to_pools() -> set[str]:
    """The modules of the functions the server's code hands to a pool by name:
    ``….solver.run(f, …)``, ``….pool.run(f, …)`` and ``….executor.submit(f)``."""
    found: set[str] = set()
    for module, (path, is_package) in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # a name in this module: where it comes from, and its name there
        names = {
            node.name: (module, node.name)
            for node in tree.body
            if isinstance(node, ast.FunctionDef)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = imported_from(module, is_package, node)
                if source is not None:
                    names.update({a.asname or a.name: (source, a.name) for a in node.names})
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("run", "submit")
                and re.search(r"(solver|pool|executor)$", ast.unparse(node.func.value))
                and node.args
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id in names
            ):
                source, name = names[node.args[0].id]
                dotted = "stalactites" + (f".{source}" if source else "")
                found.add(getattr(importlib.import_module(dotted), name).__module__)
    return found


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
