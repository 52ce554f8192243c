"""The room lists and rematches in the store, in memory, on a real Redis and on a Redis
Cluster: a private room is never listed, a full room leaves the waiting list at once, and a
finished room gets one rematch however many propose at once."""

from __future__ import annotations

import asyncio

import pytest

from stalactites.store import Finish, Finisher, FinishResult, JoinResult, NewRoom, Store
from store_kit import END, START, T0, TTL, add, make_room, racing, ready

EVERY_STORE = pytest.mark.parametrize("store", ["memory", "redis", "cluster"], indirect=True)


async def listed(store: Store, name: str) -> list[str]:
    page = await store.list_rooms(name, None, 50, START)
    return [row.room_id for row in page.rows]


@EVERY_STORE
async def test_a_private_room_is_never_listed(store: Store) -> None:
    await store.create_room(NewRoom("hidden", '{"game": "test"}', 2, T0, listed=False), TTL)
    await make_room(store, "shown")
    assert await listed(store, "waiting") == ["shown"]
    assert (await store.load_room("hidden", T0)) is not None
    for name in ("ann", "bob"):
        assert await add(store, name, "hidden") is JoinResult.JOINED
        await ready(store, name, "hidden")
    assert await listed(store, "racing") == []
    assert (await store.count_rooms(START))["waiting"] == 1


@EVERY_STORE
async def test_a_full_room_leaves_the_waiting_list_at_once(store: Store) -> None:
    await make_room(store, "r1", seats=2)
    await add(store, "ann")
    assert await listed(store, "waiting") == ["r1"]
    await add(store, "bob")
    assert await listed(store, "waiting") == []
    assert (await store.count_rooms(START))["waiting"] == 0
    assert await listed(store, "racing") == []  # full, but nobody ready: no countdown yet
    await ready(store, "ann")
    await ready(store, "bob")
    assert await listed(store, "racing") == ["r1"]


async def _finished(store: Store) -> None:
    await racing(store)
    row = await store.load_room("r1", END)
    assert row is not None
    lines = [Finisher("ann", 1, "timeout", 60_000), Finisher("bob", 2, "timeout", 60_000)]
    finish = Finish("r1", row.version, END, lines, ['{"type":"results"}'], "[]")
    assert await store.finish(finish) is FinishResult.FINISHED


@EVERY_STORE
async def test_a_finished_room_gets_one_rematch_however_many_propose(store: Store) -> None:
    await make_room(store, "early")
    assert await store.rematch("early", "x", '{"type":"rematch"}') is None  # not finished
    assert await store.rematch("nowhere", "x", '{"type":"rematch"}') is None
    await _finished(store)
    before = (await store.load_room("r1", END)).seq  # type: ignore[union-attr]
    proposals = [store.rematch("r1", f"new{i}", f'{{"type":"rematch","n":{i}}}') for i in range(6)]
    answers = await asyncio.gather(*proposals)
    assert len(set(answers)) == 1 and answers[0] in {f"new{i}" for i in range(6)}
    row = await store.load_room("r1", END)
    assert row is not None and row.rematch == answers[0] and row.seq == before + 1
    batch = await store.events_since("r1", before)
    assert [event for _, event in batch.events] == [f'{{"type":"rematch","n":{answers[0][3:]}}}']
