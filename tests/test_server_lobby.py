"""Before the race: seats, ready, the countdown on the server clock, who is connected."""

from __future__ import annotations

import asyncio

import pytest
import redis
from redis.crc import key_slot

from server_kit import REDIS_URL, InProcessServer, ManualClock, http, new_room, player

pytestmark = pytest.mark.usefixtures("close_clients")


async def test_the_countdown_starts_the_race_on_the_server_clock(
    any_server: InProcessServer, clock: ManualClock
) -> None:
    room_id = await new_room(any_server.url, countdown_s=10, time_limit_s=60)
    ann = await player(any_server, room_id, "Ann")
    bob = await player(any_server, room_id, "Bob")
    welcome = ann.frames[0]
    assert welcome["state"] is None and welcome["legal"] == []
    await ann.send(type="ready")
    ready = await bob.expect("player")
    assert ready["player"]["player_id"] == ann.you and ready["player"]["ready"] is True
    await bob.send(type="ready")
    countdown = await ann.expect("countdown")
    assert countdown["ends_at"] - countdown["starts_at"] == 60_000
    _, view = await http("GET", f"{any_server.url}/api/rooms/{room_id}")
    assert (view["status"], view["starts_at"]) == ("countdown", countdown["starts_at"])
    early = await ann.move("m1", "t1-c1")
    assert early["code"] == "not_started"
    clock.advance(10)
    started = await ann.expect("started", timeout=5)  # fired by the room's deadline timer
    assert started["ends_at"] == countdown["ends_at"]
    assert started["legal"] and "deal" not in started["state"]
    assert (await bob.expect("started"))["state"] == started["state"]
    assert (await ann.move("m2", "t1-c1"))["type"] == "accepted"


async def test_the_race_ends_on_time_with_no_one_watching(
    server: InProcessServer, clock: ManualClock
) -> None:
    room_id = await new_room(server.url, seats=1, countdown_s=0, time_limit_s=60)
    ann = await player(server, room_id, "Ann")
    await ann.send(type="ready")
    await ann.expect("started")
    await ann.close()
    clock.advance(61)
    _, view = await http("GET", f"{server.url}/api/rooms/{room_id}")  # reading it settles it
    assert view["status"] == "finished"
    assert view["players"][0]["status"] == "timeout" and view["players"][0]["place"] == 1
    assert view["deal"] is not None


async def test_a_player_shows_as_connected_while_a_socket_is_open(
    server: InProcessServer,
) -> None:
    room_id = await new_room(server.url)
    ann = await player(server, room_id, "Ann")

    async def connected() -> bool:
        _, view = await http("GET", f"{server.url}/api/rooms/{room_id}")
        return bool(view["players"][0]["connected"])

    assert await connected()
    await ann.close()
    for _ in range(50):
        if not await connected():
            break
        await asyncio.sleep(0.05)
    assert not await connected()


async def test_ping_is_answered_and_hello_comes_once(server: InProcessServer) -> None:
    room_id = await new_room(server.url)
    ann = await player(server, room_id, "Ann")
    await ann.send(type="ping")
    assert (await ann.reply())["type"] == "pong"
    await ann.send(type="hello", token=ann.token)
    assert (await ann.expect("error"))["code"] == "bad_message"
    await ann.send(type="ready")
    await ann.send(type="ready")  # ready twice is ready
    assert (await ann.expect("player"))["player"]["ready"] is True
    await ann.send(type="ping")
    assert (await ann.reply())["type"] == "pong"  # no second player event came before it


async def test_a_rooms_redis_keys_share_one_cluster_slot(
    redis_server: InProcessServer, redis_prefix: str
) -> None:
    room_id = await new_room(redis_server.url, seats=1, countdown_s=0)
    ann = await player(redis_server, room_id, "Ann")
    await ann.send(type="ready")
    started = await ann.expect("started")
    await ann.move("m1", started["legal"][0])
    client = redis.Redis.from_url(REDIS_URL)
    keys = [key.decode() for key in client.scan_iter(match=f"{redis_prefix}*")]
    keys = [key for key in keys if "{room:" in key]  # not the room lists, shared by all rooms
    ttls = [client.pttl(key) for key in keys]
    client.close()
    assert {key.split(":")[-1] for key in keys if key.count(":") >= 3} >= {"room", "events"}
    assert len(keys) >= 5  # room, events, log, ids, presence
    assert len({key_slot(key.encode()) for key in keys}) == 1
    assert all(ttl > 0 for ttl in ttls)  # everything expires
