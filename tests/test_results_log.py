"""The store's results log and rooms' deadlines (store/results/), on every store: a finish
appends its room in the same step, each entry is handed to one consumer until it is
acknowledged or left pending too long, and a room's deadline is written, leased and taken out
as the sweep and the recorder expect."""

from __future__ import annotations

import time

import pytest

from stalactites.store import Due, Finish, FinishResult, Store
from store_kit import END, START, racing

pytestmark = pytest.mark.parametrize("store", ["memory", "redis", "cluster"], indirect=True)


async def finished(store: Store, room_id: str = "r1") -> None:
    row = await store.load_room(room_id, END)
    assert row is not None
    finish = Finish(room_id, row.version, END, [], ['{"type":"results"}'], "[]")
    assert await store.finish(finish) is FinishResult.FINISHED


def now() -> int:
    return time.time_ns() // 1_000_000


async def test_a_finish_appends_its_room_to_the_log_once(store: Store) -> None:
    await racing(store)
    assert await store.results.to_record("a", 10, None) == []  # racing: nothing to record
    await finished(store)
    assert (await store.results.backlog(now())).entries == 1
    [entry] = await store.results.to_record("a", 10, None)
    assert entry.room_id == "r1"
    assert await store.results.to_record("b", 10, None) == []  # taken: no one else's now
    row = await store.load_room("r1", END)
    assert row is not None
    again = Finish("r1", row.version, END, [], [], "[]")
    assert await store.finish(again) is FinishResult.NOT_RACING  # and appends nothing
    assert (await store.results.backlog(now())).entries == 1


async def test_an_acknowledged_entry_leaves_the_log_and_its_room_the_deadlines(
    store: Store,
) -> None:
    await racing(store)
    await finished(store)
    # The finish leaves the room due again a while after it, in case it is never recorded.
    assert await store.results.take_due(END, 1_000, 10) == []
    [entry] = await store.results.to_record("a", 10, None)
    await store.results.recorded(entry)
    backlog = await store.results.backlog(now())
    assert (backlog.entries, backlog.oldest_ms) == (0, None)
    assert await store.results.take_due(END + 3_600_000, 1_000, 10) == []
    assert await store.results.to_record("a", 10, 0) == []  # nothing pending either


async def test_an_entry_left_pending_is_claimed_by_another_consumer_after_the_idle_time(
    store: Store,
) -> None:
    await racing(store)
    await finished(store)
    [entry] = await store.results.to_record("dead", 10, None)  # then its process died
    assert await store.results.to_record("alive", 10, 60_000) == []  # not idle long enough
    [claimed] = await store.results.to_record("alive", 10, 0)
    assert claimed == entry
    await store.results.recorded(claimed)
    assert await store.results.to_record("dead", 10, 0) == []


async def test_the_backlog_tells_how_long_the_oldest_entry_has_waited(store: Store) -> None:
    await racing(store)
    before = now()
    await finished(store)
    later = now() + 5_000
    backlog = await store.results.backlog(later)
    assert backlog.entries == 1
    assert backlog.oldest_ms is not None and 5_000 <= backlog.oldest_ms <= later - before + 1_000


async def test_a_room_appended_again_is_recorded_again(store: Store) -> None:
    await racing(store)
    await finished(store)
    [first] = await store.results.to_record("a", 10, None)
    await store.results.recorded(first)
    await store.results.record_again("r1")  # the sweep found it due and not recorded
    [second] = await store.results.to_record("b", 10, None)
    assert second.room_id == "r1" and second.entry_id != first.entry_id


async def test_due_rooms_are_taken_once_each_for_their_lease(store: Store) -> None:
    results = store.results
    await results.due("early", START)
    await results.due("late", END)
    assert await results.take_due(START - 1, 10_000, 10) == []
    assert await results.take_due(START, 10_000, 10) == ["early"]
    assert await results.take_due(START + 1, 10_000, 10) == []  # leased
    assert await results.take_due(START + 10_000, 10_000, 10) == ["early"]  # lease over
    assert sorted(await results.take_due(END + 20_000, 10_000, 10)) == ["early", "late"]


async def test_an_earlier_deadline_is_kept_and_a_taken_out_room_is_not_put_back(
    store: Store,
) -> None:
    results = store.results
    await results.due("r", START, Due.EARLIER)
    await results.due("r", END, Due.EARLIER)  # a later countdown end: the earlier one stays
    assert await results.take_due(START, 1, 10) == ["r"]
    await results.due("r", None, Due.KEPT)  # done: out
    await results.due("r", END, Due.KEPT)  # a late write of a sweep: not put back
    assert await results.take_due(END + 1, 1, 10) == []
    await results.due("r", END)  # written anew
    assert await results.take_due(END, 1, 10) == ["r"]
