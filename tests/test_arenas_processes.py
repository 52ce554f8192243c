"""Arenas across two server processes on one real Redis: entrants whose sockets are on either
process are paired exactly once (none in two races, none with themselves) and not back to
back with the same opponent while others are free; a process killed mid-arena loses nothing
and counts nothing twice; the standing schedule makes each slot's arena once."""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

import pytest
import redis

from arena_kit import ArenaClient
from friends_kit import registered
from players_kit import api
from server_kit import REDIS_URL, Client, ProcessServer, Spawn

pytestmark = pytest.mark.usefixtures("close_clients")

NO_SCHEDULE = {"STALACTITES_ARENA_SCHEDULE": ""}


async def _socket(server: ProcessServer, arena_id: str, who: dict[str, Any]) -> ArenaClient:
    client = await ArenaClient.open(f"ws://127.0.0.1:{server.port}/ws/arenas/{arena_id}")
    await client.welcome(who["token"])
    return client


async def _resign_race(server: ProcessServer, frames: list[dict[str, Any]]) -> None:
    seats = []
    for frame in frames:
        seat = await Client.open(server.ws_url(frame["room_id"]))
        await seat.hello(frame["token"])
        seats.append(seat)
    await seats[0].expect("started")
    for seat in seats:
        await seat.send(type="resign")
    await seats[0].expect("results")
    for seat in seats:
        await seat.close()


async def _entered(
    servers: list[ProcessServer], count: int
) -> tuple[str, list[dict[str, Any]], list[ArenaClient]]:
    players = [await registered(servers[0].url, "racer") for _ in range(count)]
    body = {"name": "Two processes", "duration_min": 30}
    status, made, _ = await api("POST", f"{servers[0].url}/api/arenas", body, players[0]["token"])
    assert status == 201, made
    arena_id = made["arena"]["arena_id"]
    sockets = []
    for number, who in enumerate(players):
        server = servers[number % len(servers)]
        url = f"{server.url}/api/arenas/{arena_id}/players"
        assert (await api("POST", url, None, who["token"]))[0] == 200
        sockets.append(await _socket(server, arena_id, who))
    return arena_id, players, sockets


async def test_entrants_on_two_processes_are_paired_once_and_not_back_to_back(
    spawn: Spawn,
) -> None:
    servers = [spawn(**NO_SCHEDULE), spawn(**NO_SCHEDULE)]
    _, players, sockets = await _entered(servers, 4)
    first = [await client.expect("paired", timeout=15) for client in sockets]
    rooms: dict[str, list[int]] = {}
    for number, frame in enumerate(first):
        rooms.setdefault(frame["room_id"], []).append(number)
    assert sorted(map(len, rooms.values())) == [2, 2]  # each in one race, none alone
    await asyncio.gather(
        *(
            _resign_race(servers[members[0] % 2], [first[n] for n in members])
            for members in rooms.values()
        )
    )
    second = [await client.expect("paired", timeout=20) for client in sockets]
    again: dict[str, set[int]] = {}
    for number, frame in enumerate(second):
        again.setdefault(frame["room_id"], set()).add(number)
    assert not set(again) & set(rooms)
    assert all(set(pair) not in list(again.values()) for pair in rooms.values())
    for client in sockets:  # each got exactly its two pairings
        assert [frame["type"] for frame in client.frames].count("paired") == 2


async def test_a_process_killed_mid_arena_loses_nothing_and_counts_nothing_twice(
    spawn: Spawn,
) -> None:
    env = NO_SCHEDULE | {"STALACTITES_RESULTS_CLAIM_S": "1"}
    doomed, survivor = spawn(**env), spawn(**env)
    arena_id, players, sockets = await _entered([doomed, survivor], 2)
    paired = [await client.expect("paired", timeout=15) for client in sockets]
    seats = []
    for frame in paired:
        seat = await Client.open(survivor.ws_url(frame["room_id"]))
        await seat.hello(frame["token"])
        seats.append(seat)
    await seats[0].expect("started")
    doomed.kill()  # Ann's arena socket dies with it; the race goes on elsewhere
    for seat in seats:
        await seat.send(type="resign")
    await seats[0].expect("results")
    deadline = asyncio.get_running_loop().time() + 20
    while True:
        status, one, _ = await api("GET", f"{survivor.url}/api/arenas/{arena_id}")
        counted = [line["races"] for line in one["standings"]]
        if counted == [1, 1] or asyncio.get_running_loop().time() > deadline:
            break
        await sockets[1].expect("standings", timeout=5)
    assert counted == [1, 1]  # scored once, by the process left


async def test_the_schedule_makes_each_slot_once_across_processes(
    spawn: Spawn, redis_prefix: str
) -> None:
    # An hourly arena lasting the hour: its current slot is never over, so each process makes
    # two, this hour's and the next, whatever the time of day (one lasting 50 minutes has
    # only the next in an hour's last ten).  Where the hour turns during the test, a process
    # started after it makes the next hour's two, so three in all.
    env = {"STALACTITES_ARENA_SCHEDULE": "stalactites/ones@60/60"}
    hour = this_hour()
    one, two = spawn(**env), spawn(**env)
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    deadline = time.monotonic() + 30
    try:
        index = f"{redis_prefix}{{arenas}}:index"
        made = cast(list[str], client.zrange(index, 0, -1))  # decode_responses
        while len(made) < 2:  # (each process makes them as it starts)
            assert time.monotonic() < deadline, made
            await asyncio.sleep(0.05)
            made = cast(list[str], client.zrange(index, 0, -1))  # decode_responses
        kept = [client.hget(f"{redis_prefix}{{arena:{arena_id}}}", "version") for arena_id in made]
    finally:
        client.close()
    listings = []
    for server in (one, two):
        status, listed, _ = await api("GET", f"{server.url}/api/arenas?status=scheduled")
        listings.append([a["arena_id"] for a in listed["arenas"]])
    turned = this_hour() != hour
    slots = [slot_id(hour + n * 3600) for n in range(3 if turned else 2)]
    runs = [slots[start : start + len(made)] for start in range(len(slots) - len(made) + 1)]
    assert made in runs  # this hour's and the next (and the one after, once it turned)
    assert kept == ["1"] * len(made)  # made once, never again
    if not turned:  # (as the hour turns, a listing may come before the next slot is made)
        assert listings == [[max(made)], [max(made)]]


def this_hour() -> int:
    """The start of this hour, in seconds since the epoch."""
    return int(time.time()) // 3600 * 3600


def slot_id(at: int) -> str:
    """The scheduled hourly Stalactites arena starting at ``at`` (seconds since the epoch)."""
    return "s-stalactites-ones-60-" + time.strftime("%Y%m%d%H%M", time.gmtime(at))
