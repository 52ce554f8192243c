"""What only the Redis store has: pipelined commits, and scripts Redis has forgotten."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis

from server_kit import REDIS_URL
from stalactites.store import Outcome
from stalactites.store.redis import RedisStore
from test_store_contract import START, commit, racing


@pytest.fixture
async def redis_store(redis_prefix: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(REDIS_URL, redis_prefix, max_events=1000, connections=4)
    yield store
    await store.close()


async def test_commits_made_together_each_apply_once_and_in_order(redis_store: RedisStore) -> None:
    names = tuple(f"p{n}" for n in range(8))
    await racing(redis_store, names)
    for length in range(5):  # 8 players commit at once, 5 times: 40 scripts, 4 connections
        results = await asyncio.gather(
            *(redis_store.commit(commit(name, length, f"t{length + 1}-c1")) for name in names)
        )
        assert all(result.outcome is Outcome.APPLIED for result in results)
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
    assert result.outcome is Outcome.APPLIED
    assert await redis_store.read_log("r1", "ann") == ["t1-c1"]


async def test_a_commit_to_an_unreachable_redis_raises(redis_prefix: str) -> None:
    store = RedisStore("redis://127.0.0.1:9/0", redis_prefix)
    with pytest.raises(redis.RedisError):
        await store.commit(commit("ann", 0))
    assert not await store.ping()
    await store.close()
