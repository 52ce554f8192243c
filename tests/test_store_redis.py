"""What only the Redis store has: pipelined commits, and scripts Redis has forgotten."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis

from server_kit import REDIS_URL
from stalactites.store import CommitOutcome, NewRoom, StoreError
from stalactites.store.redis.resp import Address, pack
from stalactites.store.rooms.redis import RedisStore
from store_kit import START, T0, add, commit, make_room, racing


@pytest.fixture
async def redis_store(redis_prefix: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(REDIS_URL, redis_prefix, max_events=1000)
    yield store
    await store.close()


async def test_commits_made_together_each_apply_once_and_in_order(redis_store: RedisStore) -> None:
    names = tuple(f"p{n}" for n in range(8))
    await racing(redis_store, names)
    for length in range(5):  # 8 players commit at once, 5 times: 40 scripts, 4 connections
        results = await asyncio.gather(
            *(redis_store.commit(commit(name, length, f"t{length + 1}-c1")) for name in names)
        )
        assert all(result.outcome is CommitOutcome.APPLIED for result in results)
    for name in names:
        assert await redis_store.read_log("r1", name) == [f"t{n}-c1" for n in range(1, 6)]
    seqs = [seq for seq, _ in (await redis_store.events_since("r1", 0)).events]
    assert seqs == list(range(1, len(seqs) + 1))


async def test_a_commit_after_redis_forgot_its_scripts_still_applies(
    redis_store: RedisStore,
) -> None:
    await racing(redis_store)
    client = redis.Redis.from_url(REDIS_URL)
    client.script_flush()  # as after a Redis restart without persistence of scripts
    client.close()
    result = await redis_store.commit(commit("ann", 0, "t1-c1", now=START + 10))
    assert result.outcome is CommitOutcome.APPLIED
    assert await redis_store.read_log("r1", "ann") == ["t1-c1"]


async def test_every_script_runs_when_redis_has_forgotten_it(redis_store: RedisStore) -> None:
    client = redis.Redis.from_url(REDIS_URL)
    client.script_flush()  # each script's first EVALSHA answers NOSCRIPT: it is sent whole
    client.close()
    await racing(redis_store)  # CREATE, JOIN, READY, START
    assert (await redis_store.commit(commit("ann", 0, "t1-c1"))).outcome is CommitOutcome.APPLIED
    batch = await redis_store.events_since("r1", 0)  # EVENTS
    assert [seq for seq, _ in batch.events] == list(range(1, batch.seq + 1))


async def test_a_commit_to_an_unreachable_redis_raises(redis_prefix: str) -> None:
    store = RedisStore("redis://127.0.0.1:9/0", redis_prefix)
    with pytest.raises(StoreError, match="cannot be reached"):
        await store.commit(commit("ann", 0))
    assert not await store.ping()
    await store.close()


def kill_connection(name: str) -> None:
    client = redis.Redis.from_url(REDIS_URL)
    ids = [entry["id"] for entry in client.client_list() if entry.get("name") == name]
    assert ids, f"no connection named {name}"
    for client_id in ids:
        client.client_kill_filter(_id=client_id)
    client.close()


@pytest.mark.slow
async def test_a_lost_subscription_is_made_again_and_every_bell_rings_to_resync(
    redis_store: RedisStore,
) -> None:
    rung: list[int] = []
    await redis_store.subscribe("r1", lambda seq, ring, carried=None: rung.append(seq))
    kill_connection(f"stalactites-bells-{redis_store.origin}")
    for _ in range(100):
        if 0 in rung:
            break
        await asyncio.sleep(0.05)
    assert 0 in rung  # resync: look in the store, bells may have been missed
    await racing(redis_store)  # events after the reconnect ring as before
    assert max(rung) > 0


async def test_a_doorbell_that_fails_leaves_the_others_ringing(redis_store: RedisStore) -> None:
    await racing(redis_store)
    await make_room(redis_store, "r2")
    rung: asyncio.Queue[int] = asyncio.Queue()

    def broken(seq: int, ring: object, carried: object = None, /) -> None:
        raise RuntimeError("a bell that fails")

    await redis_store.subscribe("r1", broken)
    await redis_store.subscribe("r2", lambda seq, ring, carried=None: rung.put_nowait(seq))
    await redis_store.commit(commit("ann", 0, "t1-c1"))  # rings r1's bell: it fails
    await add(redis_store, "cy", "r2")
    assert await asyncio.wait_for(rung.get(), 5) == 1  # heard after, on the same subscription


async def test_commits_carry_on_after_the_commit_connection_is_lost(
    redis_store: RedisStore,
) -> None:
    await racing(redis_store)
    assert (await redis_store.commit(commit("ann", 0, "t1-c1"))).outcome is CommitOutcome.APPLIED
    kill_connection(f"stalactites-commits-{redis_store.origin}")
    await asyncio.sleep(0.2)
    again = await redis_store.commit(commit("ann", 1, "t2-c2"))
    assert again.outcome is CommitOutcome.APPLIED
    assert await redis_store.read_log("r1", "ann") == ["t1-c1", "t2-c2"]


def test_redis_addresses_are_read_from_urls() -> None:
    assert Address.parse("redis://127.0.0.1:6380/2") == Address("127.0.0.1", 6380, db=2)
    secret = Address.parse("rediss://bob:s%40cret@example.invalid/0")
    assert (secret.username, secret.password, secret.tls) == ("bob", "s@cret", True)
    assert Address.parse("unix:///run/redis.sock?db=3") == Address(path="/run/redis.sock", db=3)
    assert pack(("SET", "k", 5)) == b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\n5\r\n"


async def test_presence_and_spectator_leases_expire_with_the_room(redis_prefix: str) -> None:
    store = RedisStore(REDIS_URL, redis_prefix)
    await store.create_room(NewRoom("r1", '{"game": "test"}', 2, T0), 90_000)
    await store.touch_presence("r1", "ann", "c1", T0 + 30_000)
    await store.touch_watcher("r1", "w1", T0 + 30_000)
    client = redis.Redis.from_url(REDIS_URL)
    keys = store.keys("r1")
    for key in (keys.presence, keys.watchers):  # the room's TTL, not a fixed day
        assert 80_000 < client.pttl(key) <= 90_000
    client.close()
    await store.close()
