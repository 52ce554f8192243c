"""The store keeps a finished room's analysis beside its record: the first writer wins, every
process reads the same one, and on Redis it expires with the room (in the room's slot)."""

from __future__ import annotations

import asyncio

import pytest

from server_kit import REDIS_URL
from stalactites.store import Store
from stalactites.store.rooms.redis import RedisStore
from store_kit import make_room


@pytest.mark.parametrize("store", ["memory", "redis", "cluster"], indirect=True)
async def test_the_first_analysis_kept_is_the_one_every_caller_gets(store: Store) -> None:
    await make_room(store)
    assert await store.read_analysis("r1") is None
    kept = await asyncio.gather(*(store.keep_analysis("r1", f'{{"n":{n}}}') for n in range(5)))
    assert len(set(kept)) == 1 and kept[0] is not None
    assert await store.keep_analysis("r1", '{"n":9}') == kept[0]
    assert await store.read_analysis("r1") == kept[0]


@pytest.mark.parametrize("store", ["memory", "redis", "cluster"], indirect=True)
async def test_no_analysis_is_kept_for_a_room_that_is_gone(store: Store) -> None:
    assert await store.keep_analysis("nosuchroom", "{}") is None
    assert await store.read_analysis("nosuchroom") is None


async def test_on_redis_the_analysis_expires_with_the_room(redis_prefix: str) -> None:
    store = RedisStore(REDIS_URL, redis_prefix)
    try:
        await make_room(store)
        await store.keep_analysis("r1", "{}")
        keys = store.keys("r1")
        room_ttl = await store._pipe.call_at(keys.room, "PTTL", keys.room)
        analysis_ttl = await store._pipe.call_at(keys.analysis, "PTTL", keys.analysis)
        assert 0 < analysis_ttl <= room_ttl + 1  # the same expiry, to Redis's rounding of it
        await store._pipe.call_at(keys.room, "PEXPIRE", keys.room, 10 * room_ttl)  # renewed
        assert await store.read_analysis("r1") == "{}"
        analysis_ttl = await store._pipe.call_at(keys.analysis, "PTTL", keys.analysis)
        assert analysis_ttl > room_ttl  # it follows the room's expiry
    finally:
        await store.close()
