"""What spectating needs of the store, on both stores: the room's action stream with commit
times, spectators' leases and their throttled count, the room lists, and the verdicts of the
boards spectators are shown (the first kept wins, so every process shows the same)."""

from __future__ import annotations

import asyncio
import json

import pytest
import redis

from server_kit import REDIS_URL
from stalactites.store import CommitOutcome, Finish, Finisher, FinishResult, NewRoom, RoomRow, Store
from stalactites.store.rooms.base import ActionRow, Bell, Carried, Ring
from stalactites.store.rooms.redis import RedisStore
from store_kit import END, START, T0, TTL, add, commit, racing, ready


async def test_the_action_stream_holds_every_players_actions_with_their_times(
    store: Store,
) -> None:
    await racing(store)
    assert await store.read_actions("r1") == []
    moves = [("ann", 0, "t1-c1", START + 100), ("bob", 0, "t2-c1", START + 200)]
    moves += [("ann", 1, "undo", START + 300), ("bob", 1, "step:ones", START + 400)]
    expected = [ActionRow(now, name, action) for name, _, action, now in moves]
    for count, (name, length, action, now) in enumerate(moves, 1):
        answer = await store.commit(commit(name, length, action, now=now))
        assert answer.outcome is CommitOutcome.APPLIED
        assert answer.action == (count, expected[count - 1])  # its place in the stream
    assert await store.read_actions("r1") == expected
    assert await store.read_actions("r1", 3) == expected[3:]
    assert await store.read_actions("nope") == []


async def test_a_refused_or_conflicting_commit_and_a_resignation_add_no_action(
    store: Store,
) -> None:
    await racing(store)
    assert (await store.commit(commit("ann", 0))).outcome is CommitOutcome.APPLIED
    assert (await store.commit(commit("ann", 0, "t2-c2"))).outcome is CommitOutcome.CONFLICT
    late = commit("ann", 1, "t2-c2", now=END)
    assert (await store.commit(late)).outcome is CommitOutcome.REFUSED
    resign = commit("bob", 0, action=None, finish="resigned")
    resigned = await store.commit(resign)
    assert resigned.outcome is CommitOutcome.APPLIED and resigned.action is None
    assert [row.action for row in await store.read_actions("r1")] == ["t1-c1"]


async def test_spectators_count_while_their_leases_last(store: Store) -> None:
    await make_room(store)
    await store.touch_watcher("r1", "c1", T0 + 1_000)
    await store.touch_watcher("r1", "c2", T0 + 5_000)
    await store.touch_watcher("nope", "c3", T0 + 5_000)  # no room: ignored
    assert (await load(store, T0)).spectators == 2
    assert (await load(store, T0 + 1_000)).spectators == 1  # c1's lease ran out
    await store.drop_watcher("r1", "c2")
    assert (await load(store, T0)).spectators == 1


async def test_the_spectator_count_is_announced_at_most_once_a_gap(store: Store) -> None:
    await make_room(store)
    assert await store.announce_watchers("r1", T0, 1_000) is None  # none, none announced
    await store.touch_watcher("r1", "c1", T0 + 60_000)
    assert await store.announce_watchers("r1", T0, 1_000) is None
    assert await spectator_counts(store) == [1]
    await store.touch_watcher("r1", "c2", T0 + 60_000)
    await store.touch_watcher("r1", "c3", T0 + 60_000)
    assert await store.announce_watchers("r1", T0 + 400, 1_000) == T0 + 1_000  # too soon
    assert await store.announce_watchers("r1", T0 + 999, 1_000) == T0 + 1_000
    assert await spectator_counts(store) == [1]
    assert await store.announce_watchers("r1", T0 + 1_000, 1_000) is None
    assert await spectator_counts(store) == [1, 3]
    assert await store.announce_watchers("r1", T0 + 5_000, 1_000) is None  # no change
    await store.drop_watcher("r1", "c3")
    assert await store.announce_watchers("r1", T0 + 5_000, 1_000) is None
    assert await spectator_counts(store) == [1, 3, 2]
    # Leases that run out count as leaving.
    assert await store.announce_watchers("r1", T0 + 60_000, 1_000) is None
    assert await spectator_counts(store) == [1, 3, 2, 0]
    assert await store.announce_watchers("nope", T0, 1_000) is None


async def test_no_spectator_count_is_announced_once_the_race_has_finished(
    store: Store,
) -> None:
    await racing(store)
    row = await load(store, START)
    lines = [Finisher("ann", 1, "timeout", 60_000), Finisher("bob", 1, "timeout", 60_000)]
    finish = Finish("r1", row.version, END, lines, ['{"type":"results"}'], "[]")
    assert await store.finish(finish) is FinishResult.FINISHED
    await store.touch_watcher("r1", "c1", END + 60_000)
    assert await store.announce_watchers("r1", END, 1_000) is None
    assert await spectator_counts(store) == []
    assert (await load(store, END)).spectators == 1  # the view still counts them


async def test_rooms_are_listed_waiting_then_racing_newest_first(store: Store) -> None:
    assert await store.count_rooms(T0) == {"waiting": 0, "racing": 0}
    for number in range(5):
        await make_room(store, f"w{number}", seats=1, created=T0 + number)
    await make_room(store, "r1", seats=1, created=T0 + 10)
    await add(store, "ann", "r1")
    assert await ready(store, "ann", "r1")  # counting down: now in the racing list
    waiting = await store.list_rooms("waiting", None, 10, T0)
    assert [row.room_id for row in waiting.rows] == ["w4", "w3", "w2", "w1", "w0"]
    assert waiting.after is None
    racing_now = await store.list_rooms("racing", None, 10, T0)
    assert [(row.room_id, row.status) for row in racing_now.rows] == [("r1", "countdown")]
    assert await store.start("r1", START, '{"type":"started"}')
    assert [row.status for row in (await store.list_rooms("racing", None, 10, T0)).rows] == [
        "racing"
    ]
    assert await store.count_rooms(START) == {"waiting": 5, "racing": 1}


async def test_a_room_list_is_read_a_page_at_a_time(store: Store) -> None:
    for number in range(5):
        await make_room(store, f"w{number}", seats=1, created=T0 + number // 2)  # ties
    seen, after = [], None
    for _ in range(5):
        page = await store.list_rooms("waiting", after, 2, T0)
        seen += [row.room_id for row in page.rows]
        after = page.after
        if after is None:
            break
    assert seen == ["w4", "w3", "w2", "w1", "w0"]


async def test_a_finished_race_leaves_the_room_lists(store: Store) -> None:
    await racing(store)
    assert [row.room_id for row in (await store.list_rooms("racing", None, 5, T0)).rows] == ["r1"]
    row = await load(store, START)
    lines = [Finisher("ann", 1, "timeout", 60_000), Finisher("bob", 1, "timeout", 60_000)]
    finish = Finish("r1", row.version, END, lines, ['{"type":"results"}'], "[]")
    assert await store.finish(finish) is FinishResult.FINISHED
    assert (await store.list_rooms("racing", None, 5, END)).rows == []
    assert (await store.list_rooms("waiting", None, 5, END)).rows == []


async def test_redis_room_lists_mend_themselves_when_a_process_died_halfway(
    redis_prefix: str,
) -> None:
    store = RedisStore(REDIS_URL, redis_prefix)
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    try:
        await racing(store)  # r1 races
        await make_room(store, "gone", seats=1)
        # As if the processes had died before moving them: r1 still listed as waiting, and
        # a room whose keys expired still listed too.
        client.zadd(f"{redis_prefix}rooms:waiting", {"r1": T0})
        client.delete(f"{redis_prefix}{{room:gone}}:room")
        assert (await store.list_rooms("waiting", None, 5, T0)).rows == []
        assert client.zrange(f"{redis_prefix}rooms:waiting", 0, -1) == []
        listed = await store.list_rooms("racing", None, 5, T0)
        assert [row.room_id for row in listed.rows] == ["r1"]
    finally:
        client.close()
        await store.close()


@pytest.mark.parametrize("name", ["waiting", "racing"])
async def test_an_empty_room_list_has_no_next_page(store: Store, name: str) -> None:
    page = await store.list_rooms(name, None, 20, T0)
    assert (page.rows, page.after) == ([], None)


@pytest.mark.parametrize("store", ["memory", "redis", "cluster"], indirect=True)
async def test_the_first_verdict_kept_for_a_position_is_the_one_every_process_shows(
    store: Store,
) -> None:
    await make_room(store)
    assert await store.read_board_verdict("r1", "p1") is None
    verdicts = ("won", "unknown", "won", "unknown")
    kept = await asyncio.gather(*(store.keep_board_verdict("r1", "p1", v) for v in verdicts))
    assert len(set(kept)) == 1 and kept[0] in verdicts
    assert await store.read_board_verdict("r1", "p1") == kept[0]
    assert await store.keep_board_verdict("r1", "p2", "lost") == "lost"  # another position
    assert await store.keep_board_verdict("r1", "p1", "lost") == kept[0]
    assert await store.keep_board_verdict("gone", "p1", "won") is None  # no such room
    assert await store.read_board_verdict("gone", "p1") is None


async def test_on_redis_board_verdicts_expire_with_the_room_or_within_an_hour(
    redis_prefix: str,
) -> None:
    store = RedisStore(REDIS_URL, redis_prefix)
    try:
        await make_room(store)
        await store.keep_board_verdict("r1", "p1", "won")
        keys = store.keys("r1")
        room_ttl = await store._pipe.call_at(keys.room, "PTTL", keys.room)
        verdicts_ttl = await store._pipe.call_at(keys.verdicts, "PTTL", keys.verdicts)
        assert 0 < verdicts_ttl <= min(room_ttl + 1, 3_600_000)  # to Redis's rounding
        await store._pipe.call_at(keys.room, "PERSIST", keys.room)  # kept for good
        await store.keep_board_verdict("r1", "p2", "lost")
        verdicts_ttl = await store._pipe.call_at(keys.verdicts, "PTTL", keys.verdicts)
        assert 0 < verdicts_ttl <= 3_600_000
    finally:
        await store.close()


async def make_room(store: Store, room_id: str = "r1", seats: int = 2, created: int = T0) -> None:
    await store.create_room(NewRoom(room_id, '{"game": "test"}', seats, created), TTL)


async def load(store: Store, now: int) -> RoomRow:
    row = await store.load_room("r1", now)
    assert row is not None
    return row


async def spectator_counts(store: Store) -> list[int]:
    batch = await store.events_since("r1", 0)
    events = [json.loads(text) for _, text in batch.events]
    return [event["count"] for event in events if event["type"] == "spectators"]


Heard = tuple[int, Ring, Carried | None]


@pytest.mark.parametrize("where", ["redis", "cluster"])
async def test_on_redis_a_commits_bell_carries_its_events_and_action_to_every_process(
    where: str, redis_prefix: str, request: pytest.FixtureRequest
) -> None:
    """Two processes on one Redis: each hears every commit's bell with what it stored, so that
    neither reads it from the store."""
    cluster = where == "cluster"
    url = request.getfixturevalue("cluster").url if cluster else REDIS_URL
    here, there = (RedisStore(url, redis_prefix, cluster=cluster) for _ in range(2))
    heard: dict[RedisStore, asyncio.Queue[Heard]] = {here: asyncio.Queue(), there: asyncio.Queue()}
    try:
        await racing(here)
        for store, queue in heard.items():

            def bell(
                seq: int,
                ring: Ring,
                carried: Carried | None = None,
                /,
                q: asyncio.Queue[Heard] = queue,
            ) -> None:
                q.put_nowait((seq, ring, carried))

            await store.subscribe("r1", bell)
        moved = await here.commit(commit("ann", 0, "t1-c1", now=START + 100))
        resigned = await there.commit(commit("bob", 0, None, finish="resigned", now=START + 200))
        ann = (1, ActionRow(START + 100, "ann", "t1-c1"))
        for store, ours in ((here, moved), (there, resigned)):
            others = resigned if ours is moved else moved
            by_seq: dict[int, tuple[Ring, Carried | None]] = {}
            while len(by_seq) < 2:  # on a cluster, bells of events before may come late
                seq, ring, carried = await asyncio.wait_for(heard[store].get(), 5)
                if seq in (ours.events[-1][0], others.events[-1][0]):
                    by_seq[seq] = (ring, carried)
            # what its bell carries is in the commit's answer: not read
            assert by_seq[ours.events[-1][0]] == (Ring.OUR_COMMIT, None)
            assert by_seq[others.events[-1][0]] == (
                Ring.NEWS,
                Carried(others.events, ann if others is moved else None),
            )
        stored = await here.events_since("r1", moved.events[0][0] - 1, 10)
        assert (
            stored.events[: len(moved.events + resigned.events)] == moved.events + resigned.events
        )
        assert await here.read_actions("r1") == [ann[1]]
        assert moved.action == ann and resigned.action is None
    finally:
        await here.close()
        await there.close()


def rung(url: str, channel: str, cluster: bool) -> redis.client.PubSub:
    """A plain subscriber to a bell's channel, holding no lease: it hears only what is rung."""
    client = redis.RedisCluster.from_url(url) if cluster else redis.Redis.from_url(url)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    if isinstance(client, redis.RedisCluster):  # (when cluster)
        node = client.get_random_node()  # type: ignore[no-untyped-call]  # (untyped in redis-py)
        pubsub = client.pubsub(node=node, ignore_subscribe_messages=True)
    pubsub.subscribe(channel)
    return pubsub


async def heard_on(pubsub: redis.client.PubSub, wait_s: float = 0.3) -> list[str]:
    """The commits' bells (``seq:process`` and what they carry) the plain subscriber heard
    within ``wait_s`` (on a cluster the bells of the room's making may come late: not these)."""
    messages = []
    deadline = asyncio.get_running_loop().time() + wait_s
    while asyncio.get_running_loop().time() < deadline:
        message = await asyncio.to_thread(pubsub.get_message, timeout=0.05)
        if message is not None and ":" in message["data"].decode().partition("\n")[0]:
            messages.append(message["data"].decode())
    return messages


@pytest.mark.slow
@pytest.mark.parametrize("where", ["redis", "cluster"])
async def test_on_redis_a_commit_rings_the_bell_only_when_another_process_listens(
    where: str, redis_prefix: str, request: pytest.FixtureRequest
) -> None:
    """A room heard by the committing process alone gets no bell (its commit's answer carries
    what the bell would); once another process listens every commit rings, and once it has
    given its lease back they are quiet again."""
    cluster = where == "cluster"
    url = request.getfixturevalue("cluster").url if cluster else REDIS_URL
    here, there = (RedisStore(url, redis_prefix, cluster=cluster) for _ in range(2))
    plain = rung(url, here.keys("r1").bell, cluster)
    try:
        await racing(here)
        ours: list[Heard] = []
        await here.subscribe("r1", lambda seq, ring, carried=None: ours.append((seq, ring, None)))
        assert (await here.commit(commit("ann", 0, "t1-c1", now=START + 100))).action
        assert await heard_on(plain) == []  # nobody else listens: quiet
        assert [ring for _, ring, _ in ours if ring is not Ring.NEWS] == []  # (the room's making)
        theirs: list[Heard] = []

        def bell(seq: int, ring: Ring, carried: Carried | None = None) -> None:
            theirs.append((seq, ring, carried))

        await there.subscribe("r1", bell)
        answer = await here.commit(commit("ann", 1, "t2-c2", now=START + 200))
        assert len(await heard_on(plain)) == 1  # rung: another process listens
        assert theirs == [(answer.events[-1][0], Ring.NEWS, Carried(answer.events, answer.action))]
        await there.unsubscribe("r1", bell)
        await here.commit(commit("ann", 2, "undo", now=START + 300))
        assert await heard_on(plain) == []  # its lease given back: quiet again
    finally:
        plain.close()
        await here.close()
        await there.close()


async def test_on_redis_a_lease_that_ran_out_rings_the_bell_for_what_it_missed(
    redis_prefix: str,
) -> None:
    """A lease that has run out (or vanished) is renewed, and its bell is rung as after a lost
    subscription: commits in between may have gone unrung, so the stream reads the store.
    When the bells' subscription is made again, every lease is renewed at once."""
    store = RedisStore(REDIS_URL, redis_prefix)
    try:
        await racing(store)
        heard: list[Heard] = []
        rung = asyncio.Event()

        def bell(seq: int, ring: Ring, carried: Carried | None = None) -> None:
            heard.append((seq, ring, carried))
            rung.set()

        await store.subscribe("r1", bell)
        await store._bell_leases.renew()
        assert heard == []  # still held: nothing missed
        listeners = store.keys("r1").listeners
        await store._pipe.call_at(listeners, "DEL", listeners)  # as if it had run out
        await store._bell_leases.renew()
        assert heard == [(0, Ring.RESUBSCRIBED, None)]
        assert await store._pipe.call_at(listeners, "ZSCORE", listeners, store.origin)
        # Lost while the bells' subscription was lost (a Redis restart, say): renewed once
        # the subscription is made again, not at the next renewal, 30 s on.
        heard.clear()
        rung.clear()
        await store._pipe.call_at(listeners, "DEL", listeners)
        store._resubscribed()
        await asyncio.wait_for(rung.wait(), 5)
        assert heard == [(0, Ring.RESUBSCRIBED, None)]
        assert await store._pipe.call_at(listeners, "ZSCORE", listeners, store.origin)
    finally:
        await store.close()


async def test_on_redis_a_lease_whose_subscription_failed_is_taken_by_the_renewals(
    redis_prefix: str,
) -> None:
    """A subscription that fails (Redis slow to confirm it, a cancelled hello) leaves the
    lease held: the renewals take it within a second, and its bell rings for what it missed."""
    store = RedisStore(REDIS_URL, redis_prefix)
    try:
        await racing(store)
        rung = asyncio.Event()
        channel = store.keys("r1").bell

        async def refused(channel_: str, bell: Bell) -> None:
            store._doorbells._bells[channel_] = bell
            raise TimeoutError("no confirmation")

        store._doorbells.subscribe = refused  # type: ignore[method-assign, assignment]
        with pytest.raises(TimeoutError):
            await store.subscribe("r1", lambda seq, ring, carried=None: rung.set())
        await asyncio.wait_for(rung.wait(), 5)  # the lease taken, its bell rung
        listeners = store.keys("r1").listeners
        assert await store._pipe.call_at(listeners, "ZSCORE", listeners, store.origin)
        assert channel in store._doorbells._bells
    finally:
        await store.close()
