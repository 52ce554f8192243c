"""Solver work runs in the process's worker processes, never on the event loop's process."""

from __future__ import annotations

import os

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


async def test_creating_squadron_rooms_runs_no_search_in_the_server_process(
    server: InProcessServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The worker processes import the solver afresh: only a search in this process is caught.
    monkeypatch.setattr(deals, "pick", _no_search_here)
    for game in ("squadron", "stalactites"):
        room_id = await new_room(server.url, game=game)
        status, view = await http("GET", f"{server.url}/api/rooms/{room_id}")
        assert status == 200 and view["certified"] is True
