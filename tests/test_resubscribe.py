"""Pub/sub is a doorbell, the log is the truth: a process whose Redis subscription is killed
mid-race (or mid-tournament) resubscribes, and its connections get every event they missed,
in order."""

from __future__ import annotations

import asyncio

import pytest
import redis

from metrics_kit import counted, scrape
from server_kit import (
    REDIS_URL,
    InProcessServer,
    make_config,
    new_room,
    player,
    spectator,
    start_race,
    winning_line,
)
from tournament_kit import Watcher, enter, new_tournament, start

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


def kill_doorbells(server: InProcessServer) -> int:
    """Kill, from Redis, the server's room doorbell subscription (by its connection name: other
    processes share this Redis, so not every pub/sub client); how many were killed."""
    origin = server.app.state.process.store.origin
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    killed = 0
    for connection in client.client_list(_type="pubsub"):
        if connection["name"] == f"stalactites-bells-{origin}":
            killed += client.client_kill_filter(_id=connection["id"])
    client.close()
    return killed


async def test_a_killed_subscription_is_made_again_and_nothing_is_missed(
    redis_prefix: str,
) -> None:
    config = make_config(REDIS_URL, prefix=redis_prefix)
    with InProcessServer(config) as here, InProcessServer(config) as there:
        room_id = await new_room(here.url, deal=DEAL, step="ones", seats=2, countdown_s=0)
        ann = await player(here, room_id, "Ann")
        bob = await player(there, room_id, "Bob")
        watcher = await spectator(here, room_id, max_queue=None)
        await start_race(ann, bob)
        assert (await bob.move("b0", LINE[0]))["type"] == "accepted"
        await ann.expect("progress", player_id=bob.you, moves=1)  # the doorbell works
        assert (await scrape(here.url))[("stalactites_pubsub_reconnects_total", "rooms")] == 0

        assert kill_doorbells(here) == 1
        # Bob's moves go on on the other process while this one is not listening: no
        # doorbell reaches it for them, and none comes after.
        for index, move in enumerate(LINE[1:12], start=1):
            assert (await bob.move(f"b{index}", move))["type"] == "accepted"

        # Every event arrives, in seq order (Client.recv checks each seq follows the last).
        for client in (ann, watcher):
            await client.expect("progress", player_id=bob.you, moves=12, timeout=20)
        bobs = [f for f in ann.frames if f["type"] == "progress" and f["player_id"] == bob.you]
        moves = [frame["moves"] for frame in bobs]
        assert moves[-12:] == list(range(1, 13))
        # (the events may come by another way before the subscription is made again)
        await counted(here.url, ("stalactites_pubsub_reconnects_total", "rooms"))

        # And the new subscription rings as the old one did.
        assert (await ann.move("a0", LINE[0]))["type"] == "accepted"
        await bob.expect("progress", player_id=ann.you, moves=1)
        assert (await bob.move("b12", LINE[12]))["type"] == "accepted"
        await ann.expect("progress", player_id=bob.you, moves=13)
        for client in (ann, bob, watcher):
            await client.close()


def kill_tournament_doorbells(server: InProcessServer) -> int:
    """Kill, from Redis, the server's tournament doorbell subscription (by its connection name,
    or by its local address where the store's pub/sub connection has no name); how many were
    killed."""
    store = server.app.state.process.tournament_store
    if hasattr(store, "origin"):
        wanted = ("name", f"stalactites-tournament-bells-{store.origin}")
    else:
        host, port = store._bells._pubsub.connection._writer.get_extra_info("sockname")[:2]
        wanted = ("addr", f"{host}:{port}")
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    killed = sum(
        client.client_kill_filter(_id=connection["id"])
        for connection in client.client_list(_type="pubsub")
        if connection[wanted[0]] == wanted[1]
    )
    client.close()
    return killed


async def test_a_killed_tournament_subscription_is_made_again_and_nothing_is_missed(
    redis_prefix: str,
) -> None:
    config = make_config(REDIS_URL, prefix=redis_prefix)
    with InProcessServer(config) as here, InProcessServer(config) as there:
        tournament_id, admin = await new_tournament(
            there.url, step="ones", rounds=1, round_time_s=60, break_s=0, deals=[DEAL]
        )
        for name in ("Ann", "Bob", "Cat"):
            await enter(there.url, tournament_id, name)
        watcher = await Watcher.open(here.url, tournament_id)
        await watcher.hello(spectator=True)
        for _ in range(200):  # the socket subscribes right after its welcome: wait for it
            if killed := kill_tournament_doorbells(here):
                break
            await asyncio.sleep(0.05)
        assert killed == 1
        # The tournament starts on the other process while this one is not listening.
        status, body, _ = await start(there.url, tournament_id, f"Bearer {admin}")
        assert status == 200, body
        started = await watcher.expect("round_started", timeout=20)
        assert started["round"] == 1
        # (the round may come by another way before the subscription is made again)
        await counted(here.url, ("stalactites_pubsub_reconnects_total", "tournaments"))
        await watcher.close()
