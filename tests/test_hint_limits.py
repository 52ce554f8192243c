"""Hints are practice only, and never crowd out other solver work.

A flood of hints once held the process's only solver worker for 16-21 s while a finished
room's analysis waited behind them in the pool's first-come queue.  Now each seat has one hint
in the pool at a time and a rate (429 ``rate_limited`` with ``Retry-After`` beyond), hints
wait behind every other kind of solver work (an analysis, a new room's deal) and few wait at
all; and a race that counts (rated, a daily deal's attempt, a tournament round) gives
no hint (403 ``hints_off``), whatever its number of seats.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Iterator
from typing import Any

import pytest

from daily_kit import attempt
from players_kit import anonymous, api
from server_kit import (
    Client,
    InProcessServer,
    ManualClock,
    http,
    make_config,
    new_room,
    player,
    resign,
    start_race,
)
from stalactites.workers import Kind, SolverPool
from tournament_kit import Watcher, enter, new_tournament, seat_in_round, start

pytestmark = pytest.mark.usefixtures("close_clients")

SLOW = {"game": "squadron", "deal": "ms:3"}  # its first hint searches its whole budget (~0.5 s)
FAST = {"game": "stalactites", "deal": "ms:4", "step": "ones"}  # a hint in a few ms


@pytest.fixture
def hinting() -> Iterator[InProcessServer]:
    """A server of its own: one solver worker, no quick-race deals certified ahead, and a
    seat's hints limited to a burst of 2 (then one every 100 s)."""
    config = make_config("memory://", match_deal_pool=0, hint_rate=0.01, hint_burst=2)
    with InProcessServer(config, ManualClock()) as running:
        yield running


def pool_of(server: InProcessServer) -> SolverPool:
    pool: SolverPool = server.app.state.process.solver
    return pool


async def until(condition: Any) -> None:
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, "the pool never got there"
        await asyncio.sleep(0.01)


Seat = tuple[str, str]  # a room id, and a seat's token in it


async def racing_solo(server: InProcessServer, **settings: Any) -> Seat:
    """A solo room whose race is on: the room and its player's token."""
    room_id = await new_room(server.url, seats=1, countdown_s=0, **settings)
    client = await player(server, room_id, "Ann")
    await start_race(client)
    return room_id, client.token


async def ask_hint(server: InProcessServer, room_id: str, token: str) -> tuple[int, Any, Any]:
    return await api("POST", f"{server.url}/api/rooms/{room_id}/hint", {"token": token})


async def hint_for(server: InProcessServer, seat: Seat) -> tuple[int, Any, Any]:
    return await ask_hint(server, *seat)


# Each seat's limits.


async def test_a_seat_has_one_hint_in_the_pool_at_a_time(hinting: InProcessServer) -> None:
    ann = await racing_solo(hinting, **SLOW)
    busy = hinting.call(pool_of(hinting).run(time.sleep, 1.5))  # the worker is taken
    answers = await asyncio.gather(*(hint_for(hinting, ann) for _ in range(4)))
    await busy
    assert sorted(status for status, _, _ in answers) == [200, 429, 429, 429]
    for status, body, headers in answers:
        if status == 429:
            assert body["code"] == "rate_limited" and "still being searched" in body["message"]
            assert int(headers["retry-after"]) >= 1


async def test_a_seat_asks_hints_at_its_rate(hinting: InProcessServer) -> None:
    ann = await racing_solo(hinting, **FAST)
    assert [(await hint_for(hinting, ann))[0] for _ in range(2)] == [200, 200]  # the burst
    status, body, headers = await hint_for(hinting, ann)
    assert (status, body["code"]) == (429, "rate_limited")
    assert int(headers["retry-after"]) >= 90  # one hint every 100 s after the burst
    bob = await racing_solo(hinting, **FAST)  # another seat has its own allowance
    assert (await hint_for(hinting, bob))[0] == 200


# Hints and the other kinds of solver work.


async def finished_solo(server: InProcessServer) -> str:
    room_id = await new_room(server.url, seats=1, countdown_s=0, **FAST)
    client = await player(server, room_id, "Cy")
    await start_race(client)
    assert (await client.move("m0", "t4-f4"))["type"] == "accepted"
    await resign(client)
    await client.expect("results")
    return room_id


async def test_hints_wait_behind_an_analysis_and_a_new_rooms_deal(
    hinting: InProcessServer,
) -> None:
    pool = pool_of(hinting)
    finished = await finished_solo(hinting)
    seats = [await racing_solo(hinting, **SLOW) for _ in range(5)]
    done: list[str] = []

    async def timed(label: str, request: Awaitable[tuple[int, Any, Any]]) -> int:
        status, body, _ = await request
        done.append(label)
        return status

    busy = hinting.call(pool.run(time.sleep, 3))  # the worker is taken meanwhile
    await until(lambda: pool.running("work") == 1)
    hints = [
        asyncio.ensure_future(timed(f"hint{number}", hint_for(hinting, seat)))
        for number, seat in enumerate(seats[:4])
    ]
    await until(lambda: pool.waiting("hint") == 4)
    status, body, _ = await hint_for(hinting, seats[4])  # the hints' queue is full
    assert (status, body["code"]) == (429, "rate_limited") and "busy" in body["message"]
    analysis = asyncio.ensure_future(
        timed("analysis", api("GET", f"{hinting.url}/api/rooms/{finished}/analysis"))
    )
    created = asyncio.ensure_future(
        timed("deal", api("POST", f"{hinting.url}/api/rooms", {"game": "squadron"}))
    )
    await until(lambda: pool.waiting("analysis") == 1 and pool.waiting("work") == 1)
    await busy
    assert await asyncio.gather(analysis, created, *hints) == [200, 201, 200, 200, 200, 200]
    assert set(done[:2]) == {"analysis", "deal"}, done  # before every hint queued first
    assert pool.started["hint"] == 4


async def test_hints_run_on_at_most_half_the_workers() -> None:
    pool = SolverPool(2)
    hint = Kind("hint", priority=1, share=0.5)
    try:
        await asyncio.gather(*(pool.run(time.sleep, 0.01) for _ in range(2)))  # both started
        done: list[str] = []

        async def timed(label: str, work: Awaitable[None]) -> None:
            await work
            done.append(label)

        calls = [timed(f"hint{n}", pool.run(time.sleep, 0.3, kind=hint)) for n in range(3)]
        hints = [asyncio.ensure_future(call) for call in calls]
        await until(lambda: pool.running("hint") == 1 and pool.waiting("hint") == 2)
        await timed("work", pool.run(time.sleep, 0))  # the other worker is free for it
        seen: list[int] = []
        while not all(h.done() for h in hints):
            seen.append(pool.running("hint"))
            await asyncio.sleep(0.01)
        assert done[0] == "work" and max(seen) == 1, (done, seen)
    finally:
        pool.close()


async def test_a_call_that_leaves_while_waiting_gives_its_place_back() -> None:
    pool = SolverPool(1)
    try:
        busy = asyncio.ensure_future(pool.run(time.sleep, 0.3))
        await until(lambda: pool.running("work") == 1)
        waiting = asyncio.ensure_future(pool.run(time.sleep, 5))
        await until(lambda: pool.waiting("work") == 1)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        assert pool.waiting("work") == 0
        await busy
        await pool.run(time.sleep, 0)  # the worker was given back, not to the cancelled call
        assert pool.started["work"] == 2 and pool.running("work") == 0
    finally:
        pool.close()


# Races that count.


async def test_no_hint_in_any_daily_deal_attempt_during_its_day(server: InProcessServer) -> None:
    ann = await anonymous(server.url)
    attempts = [await attempt(server.url, "stalactites", ann["token"]) for _ in range(2)]
    answers = []
    for made in attempts:  # the official one (the first started), then a practice one
        client = await Client.open(server.ws_url(made["room_id"]))
        await client.hello(made["token"])
        await start_race(client)
        answers.append(await ask_hint(server, made["room_id"], made["token"]))
    for status, body, _ in answers:  # a practice hint is a line for the official race
        assert (status, body["code"]) == (403, "hints_off")
        assert "daily deal's attempt" in body["message"]
    _, view = await http("GET", f"{server.url}/api/rooms/{attempts[0]['room_id']}")
    assert view["players"][0]["moves"] == 0 and view["status"] == "racing"


async def test_no_hint_in_a_tournament_round_even_for_its_one_entrant(
    server: InProcessServer,
) -> None:
    settings = {"step": "ones", "rounds": 1, "round_time_s": 60, "break_s": 0}
    tournament_id, admin = await new_tournament(server.url, **settings, deals=["ms:4"])
    _, token = await enter(server.url, tournament_id, "Ann")
    watcher = await Watcher.open(server.url, tournament_id)
    await watcher.hello(spectator=True)
    assert (await start(server.url, tournament_id, f"Bearer {admin}"))[0] == 200
    room_id = (await watcher.expect("round_started", round=1))["room_id"]
    await seat_in_round(server, room_id, token)
    status, body, _ = await ask_hint(server, room_id, token)
    assert (status, body["code"]) == (403, "hints_off") and "tournament round" in body["message"]


async def test_no_hint_in_a_rated_race(server: InProcessServer) -> None:
    sessions = [await anonymous(server.url) for _ in range(2)]
    status, room, _ = await api("POST", f"{server.url}/api/rooms", {"rated": True})
    assert status == 201, room
    url = f"{server.url}/api/rooms/{room['room_id']}/players"
    seats = [(await api("POST", url, {}, made["token"]))[1] for made in sessions]
    status, body, _ = await ask_hint(server, room["room_id"], seats[0]["token"])
    assert (status, body["code"]) == (403, "hints_off") and "rated" in body["message"]
