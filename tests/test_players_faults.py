"""A rated race on two ``stalactites serve`` processes on Redis: the process that stored the
last finish dies before the results, and the other one ends the race; each player's rating
changes exactly once, and the results show the change."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import redis

from fault_kit import OwnRedis, ServeProcess, StallProxy
from players_kit import anonymous, api, play_a_little, recorded
from server_kit import OPEN_CLIENTS, Client, ProcessServer

pytestmark = pytest.mark.usefixtures("close_clients")

Launch = Callable[[str], ServeProcess]


@pytest.fixture
async def launch(
    tmp_path: Path, redis_prefix: str, spawned: list[ProcessServer]
) -> AsyncIterator[Launch]:
    started: list[ServeProcess] = []

    def start_one(redis_url: str) -> ServeProcess:
        process = ServeProcess(redis_url, redis_prefix, tmp_path / f"serve-{len(started)}.log")
        started.append(process)
        spawned.append(process)
        return process

    yield start_one
    while OPEN_CLIENTS:
        await OPEN_CLIENTS.pop().close()
    for process in started:
        process.stop()


@pytest.fixture
def own_redis(tmp_path: Path) -> AsyncIterator[OwnRedis] | Any:
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    server.stop()


async def _hello(url: str, token: str, last_seq: int | None = None) -> Client:
    client = await Client.open(url)
    await client.hello(token, last_seq)
    return client


async def test_a_rated_race_whose_finishing_process_died_is_rated_once(
    launch: Launch, own_redis: OwnRedis, redis_prefix: str
) -> None:
    async with StallProxy(own_redis.port) as gate:
        first, second = launch(gate.url), launch(own_redis.url)
        status, room, _ = await api(
            "POST", f"{first.url}/api/rooms", {"rated": True, "countdown_s": 0}
        )
        assert status == 201 and room["rated"] is True
        room_id = room["room_id"]
        ann, bob = await anonymous(first.url), await anonymous(second.url)
        for someone in (ann, bob):
            status, _, _ = await api(
                "POST", f"{first.url}/api/rooms/{room_id}/players", {}, someone["token"]
            )
            assert status == 201
        clients = [await _hello(first.ws_url(room_id), p["token"]) for p in (ann, bob)]
        for client in clients:
            await client.send(type="ready")
        for client in clients:  # real play: the race stays rated
            await play_a_little(client, await client.expect("started"))
        await clients[0].send(type="resign")
        await clients[1].expect("finished", player_id=ann["player_id"], status="resigned")
        gate.marker = b"resigned"  # Bob's resignation is stored, then the first process
        await clients[1].send(type="resign")  # reaches Redis no more ...
        await asyncio.wait_for(gate.stalled.wait(), 10)
        first.kill()  # ... and dies before storing the results
        stored = redis.Redis.from_url(own_redis.url, decode_responses=True)
        room_key = f"{redis_prefix}{{room:{room_id}}}:room"
        try:
            assert stored.hget(room_key, "results") is None
            assert stored.hget(room_key, f"finish:{bob['player_id']}") == "resigned"
        finally:
            stored.close()
        # Bob's session names his seat on the second process, which ends the race; every
        # event from the first on.
        watcher = await _hello(second.ws_url(room_id), bob["token"], last_seq=0)
        results = await watcher.expect("results", timeout=15)
        lines = {line["player_id"]: line for line in results["standings"]}
        for someone in (ann, bob):
            line = lines[someone["player_id"]]
            assert line["rated"] is True
            [entry] = await recorded(second.url, someone["player_id"])
            assert (entry["rating_before"], entry["rating_after"]) == (
                line["rating_before"],
                line["rating_after"],
            )
            _, profile, _ = await api("GET", f"{second.url}/api/players/{someone['player_id']}")
            assert profile["ratings"]["stalactites"]["races"] == 1
            assert profile["ratings"]["stalactites"]["rating"] == line["rating_after"]
        third = launch(own_redis.url)  # another process's resuming changes nothing more
        direct = redis.Redis.from_url(own_redis.url)
        try:
            for _ in range(100):
                if not direct.hlen(f"{redis_prefix}{{races}}:pending"):
                    break
                await asyncio.sleep(0.05)
            assert direct.hlen(f"{redis_prefix}{{races}}:pending") == 0
        finally:
            direct.close()
        for someone in (ann, bob):
            _, profile, _ = await api("GET", f"{third.url}/api/players/{someone['player_id']}")
            assert profile["ratings"]["stalactites"]["races"] == 1
        gate.release()
