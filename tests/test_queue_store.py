"""The matchmaking queue's store contract: one suite over the in-memory store, the real Redis
and a three-master Redis Cluster.  Time is passed in (the queue's clock parameter), never slept.
"""

from __future__ import annotations

import asyncio

from conftest import QUEUE_T0
from stalactites.store.queue.base import Pairing, QueueEntry, QueueStore, Widening, queue_name

T0 = QUEUE_T0  # the in-memory store's time (conftest.qstore)
LEASE = 5_000
Q = queue_name("stalactites", "choice")
WIDE = Widening(base=100, per_s=25, anyone_after_s=20)


async def join(
    store: QueueStore, player: str, rating: int = 1000, at: int = T0, conn: str = "c"
) -> QueueEntry | None:
    entry = QueueEntry(player, player.title(), rating, at)
    return await store.enqueue(Q, entry, f"{player}-{conn}", at + LEASE)


def ids(pairings: list[Pairing]) -> list[list[str]]:
    return [sorted(entry.player_id for entry in one.players) for one in pairings]


async def test_two_close_players_are_paired_once(qstore: QueueStore) -> None:
    await join(qstore, "ann", 1000)
    await join(qstore, "bob", 1050)
    assert ids(await qstore.pair(Q, T0, WIDE, 2)) == [["ann", "bob"]]
    assert await qstore.pair(Q, T0, WIDE, 2) == []
    assert (await qstore.status(Q, "ann", T0)).joined_ms is None


async def test_concurrent_pairing_steps_pair_each_player_once(qstore: QueueStore) -> None:
    for n in range(20):
        await join(qstore, f"p{n:02}", 1000 + n)
    made = await asyncio.gather(*(qstore.pair(Q, T0, WIDE, 2) for _ in range(6)))
    players = [pid for step in made for room in ids(step) for pid in room]
    assert sorted(players) == [f"p{n:02}" for n in range(20)]


async def test_two_tabs_are_one_entry_and_never_paired_together(qstore: QueueStore) -> None:
    await join(qstore, "ann", conn="tab1")
    kept = await join(qstore, "ann", 1400, at=T0 + 500, conn="tab2")
    assert kept is not None
    assert (kept.rating, kept.joined_ms) == (1000, T0)  # the first tab's entry
    assert (await qstore.status(Q, "ann", T0)).waiting == 1
    assert await qstore.pair(Q, T0 + 30_000, WIDE, 2) == []


async def test_the_window_widens_with_the_wait(qstore: QueueStore) -> None:
    await join(qstore, "ann", 1000)
    await join(qstore, "bob", 1200, at=T0 + 1000)
    assert await qstore.pair(Q, T0 + 1000, WIDE, 2) == []  # 200 apart, window 125
    assert await qstore.pair(Q, T0 + 3_900, WIDE, 2) == []  # window 197.5
    assert ids(await qstore.pair(Q, T0 + 4_000, WIDE, 2)) == [["ann", "bob"]]  # window 200


async def test_anyone_is_near_enough_after_the_longest_wait(qstore: QueueStore) -> None:
    await join(qstore, "ann", 0)
    await join(qstore, "bob", 3000)
    for player in ("ann", "bob"):
        await qstore.touch(Q, player, f"{player}-c", T0 + 30_000)
    assert await qstore.pair(Q, T0 + 19_999, WIDE, 2) == []
    assert len(await qstore.pair(Q, T0 + 20_000, WIDE, 2)) == 1


async def test_the_nearest_rating_is_chosen_for_the_longest_waiter(qstore: QueueStore) -> None:
    await join(qstore, "ann", 1000)
    await join(qstore, "far", 1090, at=T0 + 1)
    await join(qstore, "near", 1010, at=T0 + 2)
    assert ids(await qstore.pair(Q, T0 + 2, WIDE, 2)) == [["ann", "near"]]


async def test_rooms_of_four(qstore: QueueStore) -> None:
    for n in range(5):
        await join(qstore, f"p{n}", 1000 + n)
    assert ids(await qstore.pair(Q, T0, WIDE, 4)) == [["p0", "p1", "p2", "p3"]]
    assert (await qstore.status(Q, "p4", T0)).waiting == 1


async def test_a_lapsed_lease_leaves_the_queue(qstore: QueueStore) -> None:
    await join(qstore, "dead", 1000)
    await join(qstore, "live", 1000, at=T0 + LEASE)
    assert (await qstore.status(Q, "live", T0 + LEASE)).waiting == 1
    assert await qstore.pair(Q, T0 + LEASE, WIDE, 2) == []
    assert not await qstore.touch(Q, "dead", "dead-c", T0 + 2 * LEASE)


async def test_a_renewed_lease_keeps_the_entry(qstore: QueueStore) -> None:
    await join(qstore, "ann", 1000)
    assert await qstore.touch(Q, "ann", "ann-c", T0 + 3 * LEASE)
    await join(qstore, "bob", 1000, at=T0 + 2 * LEASE)
    assert ids(await qstore.pair(Q, T0 + 2 * LEASE, WIDE, 2)) == [["ann", "bob"]]


async def test_leaving_takes_the_entry_out_with_its_last_socket(qstore: QueueStore) -> None:
    await join(qstore, "ann", conn="tab1")
    await join(qstore, "ann", conn="tab2")
    assert await qstore.leave(Q, "ann", "ann-tab1")
    assert (await qstore.status(Q, "ann", T0)).joined_ms == T0
    assert await qstore.leave(Q, "ann", "ann-tab2")
    assert (await qstore.status(Q, "ann", T0)).waiting == 0
    assert not await qstore.leave(Q, "ann", "ann-tab2")


async def test_withdraw_wins_once_against_pairing(qstore: QueueStore) -> None:
    await join(qstore, "ann")
    await join(qstore, "bob")
    assert await qstore.withdraw(Q, "ann")
    assert not await qstore.withdraw(Q, "ann")
    assert await qstore.pair(Q, T0, WIDE, 2) == []


async def test_queues_are_apart(qstore: QueueStore) -> None:
    await join(qstore, "ann")
    other = queue_name("squadron", None)
    await qstore.enqueue(other, QueueEntry("bob", "Bob", 1000, T0), "b", T0 + LEASE)
    assert await qstore.pair(Q, T0, WIDE, 2) == []
    assert await qstore.pair(other, T0, WIDE, 2) == []


async def test_settling_keeps_each_frame_and_rings_the_bell(qstore: QueueStore) -> None:
    heard: asyncio.Queue[str] = asyncio.Queue()
    await qstore.subscribe(Q, heard.put_nowait)
    await join(qstore, "ann")
    await join(qstore, "bob")
    (pairing,) = await qstore.pair(Q, T0, WIDE, 2)
    await qstore.settle(Q, pairing.match_id, {"ann": '{"a": 1}', "bob": '{"b": 2}'})
    rung = {await asyncio.wait_for(heard.get(), 5), await asyncio.wait_for(heard.get(), 5)}
    assert rung == {"ann", "bob"}
    assert await qstore.take_result(Q, "ann") == '{"a": 1}'
    assert await qstore.take_result(Q, "ann") == '{"a": 1}'  # kept for the other tabs
    assert await qstore.take_result(Q, "carl") is None
    await qstore.unsubscribe(Q, heard.put_nowait)


async def test_a_pending_pairing_holds_its_players_until_settled(qstore: QueueStore) -> None:
    await join(qstore, "ann")
    await join(qstore, "bob")
    (pairing,) = await qstore.pair(Q, T0, WIDE, 2)
    assert await qstore.paired(Q, "ann") and await qstore.paired(Q, "bob")
    await qstore.settle(Q, pairing.match_id, {"ann": "{}", "bob": "{}"})
    assert not await qstore.paired(Q, "ann")


async def test_a_late_tab_of_a_paired_or_matched_player_queues_no_one(
    qstore: QueueStore,
) -> None:
    await join(qstore, "ann")
    await join(qstore, "bob")
    (pairing,) = await qstore.pair(Q, T0, WIDE, 2)
    assert await join(qstore, "ann", conn="late-tab") is None  # held by the pending pairing
    await qstore.settle(Q, pairing.match_id, {"ann": "{}", "bob": "{}"})
    assert await join(qstore, "bob", conn="late-tab") is None  # its matched frame is kept
    await join(qstore, "carl")
    assert await qstore.pair(Q, T0, WIDE, 2) == []  # nobody for Carl: no second Ann or Bob
    assert (await qstore.status(Q, "ann", T0)).joined_ms is None


async def test_a_released_pairing_frees_its_players_to_queue_again(qstore: QueueStore) -> None:
    await join(qstore, "ann")
    await join(qstore, "bob")
    (pairing,) = await qstore.pair(Q, T0, WIDE, 2)
    await qstore.release(Q, pairing)
    assert not await qstore.paired(Q, "bob")
    assert await qstore.take_result(Q, "bob") is None
    await join(qstore, "ann")
    await join(qstore, "bob")
    assert ids(await qstore.pair(Q, T0, WIDE, 2)) == [["ann", "bob"]]


async def test_a_released_pairing_settled_late_tells_no_one(qstore: QueueStore) -> None:
    await join(qstore, "ann")
    await join(qstore, "bob")
    (pairing,) = await qstore.pair(Q, T0, WIDE, 2)
    await qstore.release(Q, pairing)
    await qstore.settle(Q, pairing.match_id, {"ann": "{}", "bob": "{}"})
    assert await qstore.take_result(Q, "ann") is None


# The stock of certified deals.


async def test_the_stock_never_holds_more_than_its_depth(qstore: QueueStore) -> None:
    assert await qstore.stock_deals(Q, [], 3) == 0
    assert await qstore.stock_deals(Q, ["d1", "d2"], 3) == 2
    assert await qstore.stock_deals(Q, ["d3", "d4", "d5"], 3) == 3
    assert await qstore.stock_deals(Q, [], 3) == 3


async def test_a_stocked_deal_is_dealt_from_the_stock_once(qstore: QueueStore) -> None:
    await qstore.stock_deals(Q, ["d1", "d2", "d3"], 8)
    taken = [await qstore.take_deal(Q, T0, 0) for _ in range(3)]
    assert sorted(one.deal for one in taken if one is not None) == ["d1", "d2", "d3"]
    assert not any(one.shared for one in taken if one is not None)
    assert await qstore.take_deal(Q, T0, 0) is None  # nothing shared: no sharing time
    assert await qstore.stock_deals(Q, [], 8) == 0


async def test_concurrent_rooms_take_distinct_stocked_deals(qstore: QueueStore) -> None:
    await qstore.stock_deals(Q, [f"d{n}" for n in range(10)], 10)
    taken = await asyncio.gather(*(qstore.take_deal(Q, T0, 3_000) for _ in range(10)))
    assert sorted(one.deal for one in taken if one is not None) == sorted(
        f"d{n}" for n in range(10)
    )


async def test_an_empty_stock_shares_a_deal_only_within_its_sharing_time(
    qstore: QueueStore,
) -> None:
    await qstore.stock_deals(Q, ["d1"], 8)
    first = await qstore.take_deal(Q, T0, 3_000)
    assert first is not None and (first.deal, first.shared) == ("d1", False)
    again = await qstore.take_deal(Q, T0 + 2_999, 3_000)
    assert again is not None and (again.deal, again.shared) == ("d1", True)
    assert await qstore.take_deal(Q, T0 + 3_000, 3_000) is None


async def test_a_fresh_stocked_deal_comes_before_a_shared_one(qstore: QueueStore) -> None:
    await qstore.stock_deals(Q, ["d1"], 8)
    await qstore.take_deal(Q, T0, 3_000)
    await qstore.stock_deals(Q, ["d2"], 8)
    taken = await qstore.take_deal(Q, T0 + 1, 3_000)
    assert taken is not None and (taken.deal, taken.shared) == ("d2", False)
