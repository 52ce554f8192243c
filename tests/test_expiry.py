"""What the stores hold expires: a room (with its events, logs, leases and actions) and a
tournament are forgotten their TTL after their last change, on the in-memory store as on
Redis, by the server's clock."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import pytest

from conftest import REDIS_URL
from server_kit import InProcessServer, ManualClock, http, make_config
from stalactites.store import MemoryTournamentStore, NewRoom, Store, TournamentStore
from stalactites.store.tournaments.base import NewTournament
from stalactites.store.tournaments.redis import RedisTournamentStore
from store_kit import T0, add, commit, racing

SHORT_MS = 300


async def gone_within(seconds: float, check: Callable[[], Awaitable[bool]]) -> float:
    """How long it took ``check`` to hold (polled: an expiry sends no event to await)."""
    began = time.monotonic()
    while not await check():
        assert time.monotonic() - began < seconds, "still there"
        await asyncio.sleep(0.05)
    return time.monotonic() - began


@pytest.mark.slow
@pytest.mark.parametrize("store", ["memory", "redis", "cluster"], indirect=True)
async def test_a_room_past_its_ttl_is_gone_with_everything_it_held(store: Store) -> None:
    await racing(store)
    assert (await store.commit(commit("ann", 0))).outcome.value == "applied"
    await store.touch_presence("r1", "ann", "c1", T0 + 10**9)
    await store.touch_watcher("r1", "w1", T0 + 10**9)
    await store.create_room(NewRoom("short", '{"game": "test"}', 2, T0), SHORT_MS)
    await add(store, "bob", "short")

    async def short_gone() -> bool:
        return await store.load_room("short", T0) is None

    await gone_within(10, short_gone)
    assert (await store.events_since("short", 0)).events == []
    assert await store.read_log("short", "bob") == []
    assert (await store.list_rooms("waiting", None, 10, T0)).rows == []
    assert await store.load_room("r1", T0) is not None  # an hour's TTL: still there


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["memory", "redis"])
async def test_a_tournament_past_its_ttl_is_gone(kind: str, redis_prefix: str) -> None:
    store: TournamentStore = (
        MemoryTournamentStore()
        if kind == "memory"
        else RedisTournamentStore(REDIS_URL, redis_prefix)
    )
    try:
        await store.create(NewTournament("t1", '{"name": "Cup"}', "hash", T0, T0), SHORT_MS)

        async def tournament_gone() -> bool:
            return await store.load("t1") is None

        await gone_within(10, tournament_gone)
        if kind == "memory":
            assert await store.next_due() is None  # its start is due no more
    finally:
        await store.close()


@pytest.mark.slow
async def test_the_default_server_forgets_an_abandoned_room_by_its_clock(
    clock: ManualClock,
) -> None:
    with InProcessServer(make_config("memory://", room_ttl_s=600), clock) as server:
        status, room = await http("POST", f"{server.url}/api/rooms")
        assert status == 201, room
        url = f"{server.url}/api/rooms/{room['room_id']}"
        clock.advance(599)
        assert (await http("GET", url))[0] == 200
        clock.advance(2)
        assert (await http("GET", url))[0] == 404
        _, page = await http("GET", f"{server.url}/api/rooms?status=waiting")
        assert page["rooms"] == []
