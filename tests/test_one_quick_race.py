"""One quick race at a time, across processes: a player waits in one queue at a time
(``already_queued`` from another queue), is in one quick race at a time (``in_quick_race``
while it is not over for them), and no pairing step on any process pairs a player who races.
Two server processes on one real Redis, and the queue's store on Redis itself."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from conftest import REDIS_URL
from match_kit import MatchClient, race_client
from players_kit import anonymous
from server_kit import Spawn
from stalactites.store.queue.base import (
    AlreadyQueued,
    InQuickRace,
    QueueEntry,
    QuickRoom,
    Widening,
    queue_name,
)
from stalactites.store.queue.redis import RedisQueueStore

pytestmark = pytest.mark.usefixtures("close_clients")


async def socket_of(server: Any, session: dict[str, Any]) -> MatchClient:
    return await MatchClient.said_hello(server, session)


async def queue(client: MatchClient, game: str, step: str | None = None) -> dict[str, Any]:
    """The answer to a ``queue`` frame: ``queued``, ``matched`` or ``error``."""
    await client.send(type="queue", game=game, step=step)
    while True:
        frame = await client.recv()
        if frame["type"] in ("queued", "matched", "error"):
            return frame


async def matched(client: MatchClient, timeout: float = 20) -> dict[str, Any]:
    for frame in client.frames:
        if frame["type"] == "matched":
            return frame
    return await client.expect("matched", timeout=timeout)


async def test_a_player_is_in_one_queue_and_one_quick_race_across_processes(
    spawn: Spawn,
) -> None:
    first, second = spawn(), spawn()
    ann, bob, carl = [await anonymous(first.url) for _ in range(3)]
    ann_here = await socket_of(first, ann)
    assert (await queue(ann_here, "stalactites", "ones"))["type"] == "queued"
    ann_there = await socket_of(second, ann)  # another tab, on the other process
    refused = await queue(ann_there, "squadron")
    assert (refused["type"], refused["code"]) == ("error", "already_queued")
    carl_waits = await socket_of(first, carl)
    assert (await queue(carl_waits, "squadron"))["type"] == "queued"  # ann is not there
    bob_here = await socket_of(second, bob)
    await queue(bob_here, "stalactites", "ones")
    ann_match, bob_match = await matched(ann_here), await matched(bob_here)
    room_id = ann_match["room_id"]
    assert bob_match["room_id"] == room_id
    racing = await queue(ann_there, "squadron")  # racing now: not queued anywhere
    assert (racing["type"], racing["code"]) == ("error", "in_quick_race")
    assert room_id in racing["message"]
    assert (await carl_waits.expect("queued", timeout=3))["waiting"] == 1  # carl still alone
    ann_room = await race_client(first, ann_match)
    bob_room = await race_client(second, bob_match)
    for room in (ann_room, bob_room):
        await room.expect("started", timeout=15)
    await ann_room.send(type="resign")  # the race is over for ann, not for bob
    await ann_room.expect("finished", player_id=ann_room.you, status="resigned")
    assert (await queue(ann_there, "squadron"))["type"] in ("queued", "matched")
    with_carl = await matched(ann_there)
    assert {p["player_id"] for p in with_carl["players"]} == {ann["player_id"], carl["player_id"]}
    bob_elsewhere = await socket_of(first, bob)
    racing = await queue(bob_elsewhere, "squadron")
    assert (racing["type"], racing["code"]) == ("error", "in_quick_race")
    await bob_room.send(type="resign")  # the race is over for everyone
    await bob_room.expect("results")
    assert (await queue(bob_elsewhere, "squadron"))["type"] == "queued"


T0 = 1_700_000_000_000
LEASE = 5_000
ONES, SQUADRON = queue_name("stalactites", "ones"), queue_name("squadron", None)
WIDE = Widening(base=100, per_s=25, anyone_after_s=20)


async def test_no_pairing_step_pairs_a_player_who_races(redis_prefix: str) -> None:
    """Two processes' stores: ann races in a room made from one queue; an entry of hers in
    another queue (written around the queue's checks, as a process of an older version
    would) is never paired, and she is refused until the race is over."""
    one, other = RedisQueueStore(REDIS_URL, redis_prefix), RedisQueueStore(REDIS_URL, redis_prefix)
    try:
        for player in ("ann", "bob"):
            entry = QueueEntry(player, player.title(), 1000, T0)
            await one.enqueue(ONES, entry, f"{player}-c", T0 + LEASE)
        (pairing,) = await one.pair(ONES, T0, WIDE, 2)
        room = QuickRoom("r1", T0, T0 + 60_000)
        frame = '{"type":"matched","room_id":"r1"}'
        await one.settle(ONES, pairing.match_id, {"ann": frame, "bob": frame}, room)
        ann = QueueEntry("ann", "Ann", 1000, T0 + 1)
        with pytest.raises(InQuickRace) as refused:
            await other.enqueue(SQUADRON, ann, "ann-2", T0 + LEASE)
        assert refused.value.room_id == "r1"
        sneaked = '{"q":"squadron:-","n":"Ann","r":1000,"j":1,"a":"","l":{"x":9999999999999}}'
        client = redis.Redis.from_url(REDIS_URL)
        try:
            client.hset(f"{redis_prefix}{{queue}}:entries", "ann", sneaked)
        finally:
            client.close()
        carl = QueueEntry("carl", "Carl", 1000, T0 + 1)
        await other.enqueue(SQUADRON, carl, "carl-c", T0 + LEASE)
        assert await other.pair(SQUADRON, T0 + 2, WIDE, 2) == []
        assert (await other.status(SQUADRON, "", T0 + 2)).waiting == 1  # ann's entry is gone
        await other.race_over(ONES, "r1", ["ann", "bob"])
        assert await other.enqueue(SQUADRON, ann, "ann-2", T0 + LEASE) is not None
        (pairing,) = await one.pair(SQUADRON, T0 + 2, WIDE, 2)
        assert {entry.player_id for entry in pairing.players} == {"ann", "carl"}
        bob = QueueEntry("bob", "Bob", 1000, T0 + 3)
        await other.enqueue(ONES, bob, "bob-c", T0 + LEASE)
        with pytest.raises(AlreadyQueued):
            await one.enqueue(SQUADRON, bob, "bob-2", T0 + LEASE)
    finally:
        await one.close()
        await other.close()


async def test_a_race_past_its_time_limit_frees_its_players(redis_prefix: str) -> None:
    store = RedisQueueStore(REDIS_URL, redis_prefix)
    try:
        for player in ("ann", "bob"):
            await store.enqueue(ONES, QueueEntry(player, "P", 1000, T0), "c", T0 + LEASE)
        (pairing,) = await store.pair(ONES, T0, WIDE, 2)
        room = QuickRoom("r2", T0, T0 + 60_000)
        await store.settle(ONES, pairing.match_id, {"ann": "{}", "bob": "{}"}, room)
        late = QueueEntry("ann", "Ann", 1000, T0 + 59_999)
        with pytest.raises(InQuickRace):
            await store.enqueue(SQUADRON, late, "c2", T0 + 70_000)
        after = QueueEntry("ann", "Ann", 1000, T0 + 60_000)
        assert await store.enqueue(SQUADRON, after, "c2", T0 + 70_000) is not None
    finally:
        await store.close()
