"""The store contract: one suite, run against the in-memory store, the real Redis and a
three-master Redis Cluster (the session's, from tests/cluster_kit.py).

Time is passed in explicitly (the store never reads a clock), so these tests
set deadlines exactly.  The ``store`` fixture keeps at most 50 events per room.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from stalactites.store import (
    CommitOutcome,
    Finish,
    Finisher,
    FinishResult,
    JoinResult,
    NewPlayer,
    ProgressRow,
    Store,
)
from stalactites.store.rooms.base import Ring
from store_kit import END, START, T0, add, commit, make_room, racing, ready

pytestmark = pytest.mark.parametrize("store", ["memory", "redis", "cluster"], indirect=True)


async def test_a_new_room_waits_with_no_players(store: Store) -> None:
    await make_room(store)
    row = await store.load_room("r1", T0)
    assert row is not None
    assert (row.status, row.seats, row.seq, row.players) == ("waiting", 2, 0, [])
    assert row.settings_json == '{"game": "test"}'
    assert await store.load_room("nope", T0) is None


async def test_players_take_seats_in_order_until_the_room_is_full(store: Store) -> None:
    await make_room(store)
    assert await add(store, "ann") is JoinResult.JOINED
    assert await add(store, "bob") is JoinResult.JOINED
    assert await add(store, "cat") is JoinResult.ROOM_FULL
    assert await add(store, "dan", "nope") is JoinResult.ROOM_NOT_FOUND
    row = await store.load_room("r1", T0)
    assert row is not None
    assert [(p.player_id, p.name, p.seat) for p in row.players] == [
        ("ann", "Ann", 1),
        ("bob", "Bob", 2),
    ]
    assert row.players[0].token_hash == "hash-ann"
    assert row.players[0].progress == ProgressRow(4, 0, None)
    assert row.seq == 2  # each join is a room event


async def test_the_countdown_begins_when_every_seat_is_taken_and_ready(store: Store) -> None:
    await make_room(store)
    await add(store, "ann")
    assert not await ready(store, "ann")
    assert not await ready(store, "ann")  # ready twice changes nothing
    await add(store, "bob")
    assert await ready(store, "bob")
    row = await store.load_room("r1", T0)
    assert row is not None
    assert (row.status, row.starts_at, row.ends_at) == ("countdown", START, END)
    batch = await store.events_since("r1", 0)
    kinds = [json.loads(text)["type"] for _, text in batch.events]
    assert kinds == ["player", "player", "player", "player", "countdown"]  # join, ready, ...
    assert [seq for seq, _ in batch.events] == [1, 2, 3, 4, 5]


async def test_no_one_joins_once_the_countdown_has_begun(store: Store) -> None:
    await make_room(store, seats=1)
    await add(store, "ann")
    await ready(store, "ann")
    assert await add(store, "bob") is JoinResult.ROOM_FULL


async def test_racing_joins_seat_a_player_once_and_no_two_confusable_names(
    store: Store,
) -> None:
    await make_room(store, seats=6)

    def seat(player_id: str, mark: str) -> NewPlayer:
        event = json.dumps({"type": "player", "name": player_id})
        return NewPlayer(player_id, mark, f"hash-{player_id}", T0, ProgressRow(4, 0), event, mark)

    twice = await asyncio.gather(
        store.join("r1", seat("p.1", "ann")), store.join("r1", seat("p.1", "amy"))
    )
    alike = await asyncio.gather(
        store.join("r1", seat("p.2", "bob")), store.join("r1", seat("p.3", "bob"))
    )
    assert sorted(r.value for r in twice) == ["already_seated", "joined"]
    assert sorted(r.value for r in alike) == ["joined", "name_confusable"]
    row = await store.load_room("r1", T0)
    assert row is not None and len(row.players) == 2  # the refused joins changed nothing
    assert await store.join("r1", seat("p.4", "")) is JoinResult.JOINED  # "": not checked
    batch = await store.events_since("r1", 0)
    assert len(batch.events) == 3


async def test_the_race_starts_once_and_only_after_the_countdown(store: Store) -> None:
    await make_room(store, seats=1)
    await add(store, "ann")
    await ready(store, "ann")
    assert not await store.start("r1", START - 1, '{"type":"started"}')
    assert await store.start("r1", START, '{"type":"started"}')
    assert not await store.start("r1", START + 1, '{"type":"started"}')
    row = await store.load_room("r1", START)
    assert row is not None and row.status == "racing"
    started = [t for _, t in (await store.events_since("r1", 0)).events if "started" in t]
    assert len(started) == 1


async def test_a_commit_appends_to_the_log_and_stores_its_event(store: Store) -> None:
    await racing(store)
    result = await store.commit(commit("ann", 0, "t1-c1", "m1"))
    assert result.outcome is CommitOutcome.APPLIED
    assert result.length == 1
    assert len(result.events) == 1
    seq, event = result.events[0]
    assert json.loads(event)["player"] == "ann"
    assert (await store.events_since("r1", seq - 1)).events == [(seq, event)]
    assert await store.read_log("r1", "ann") == ["t1-c1"]
    assert await store.action_index("r1", "ann", "m1") == 1
    row = await store.load_room("r1", START)
    assert row is not None
    assert row.players[0].progress == ProgressRow(4, 1, START + 1_000)


async def test_a_commit_from_a_stale_board_is_a_conflict(store: Store) -> None:
    await racing(store)
    assert (await store.commit(commit("ann", 0, "t1-c1"))).outcome is CommitOutcome.APPLIED
    stale = await store.commit(commit("ann", 0, "t2-c2"))
    assert (stale.outcome, stale.length) == (CommitOutcome.CONFLICT, 1)
    assert await store.read_log("r1", "ann") == ["t1-c1"]


async def test_two_commits_racing_for_one_board_apply_exactly_one(store: Store) -> None:
    await racing(store)
    results = await asyncio.gather(
        store.commit(commit("ann", 0, "t1-c1")), store.commit(commit("ann", 0, "t2-c1"))
    )
    outcomes = sorted(result.outcome.value for result in results)
    assert outcomes == ["applied", "conflict"]
    assert len(await store.read_log("r1", "ann")) == 1


async def test_a_used_client_id_answers_with_the_log_length_it_made(store: Store) -> None:
    await racing(store)
    await store.commit(commit("ann", 0, "t1-c1", "m1"))
    await store.commit(commit("ann", 1, "t2-c2", "m2"))
    again = await store.commit(commit("ann", 2, "t3-f1", "m1"))
    assert (again.outcome, again.length) == (CommitOutcome.DUPLICATE, 1)
    assert await store.read_log("r1", "ann") == ["t1-c1", "t2-c2"]
    assert await store.action_index("r1", "ann", "m3") is None


async def test_client_ids_belong_to_one_player(store: Store) -> None:
    await racing(store)
    await store.commit(commit("ann", 0, "t1-c1", "m1"))
    other = await store.commit(commit("bob", 0, "t1-c1", "m1"))
    assert other.outcome is CommitOutcome.APPLIED


async def test_commits_are_refused_before_the_start(store: Store) -> None:
    await make_room(store)
    await add(store, "ann")
    refused = await store.commit(commit("ann", 0))
    assert (refused.outcome, refused.code) == (CommitOutcome.REFUSED, "not_started")
    missing = await store.commit(commit("zed", 0))
    assert (missing.outcome, missing.code) == (CommitOutcome.REFUSED, "room_not_found")


async def test_commits_are_refused_from_the_end_of_time(store: Store) -> None:
    await racing(store)
    late = await store.commit(commit("ann", 0, now=END))
    assert (late.outcome, late.code) == (CommitOutcome.REFUSED, "already_finished")
    assert await store.read_log("r1", "ann") == []


async def test_a_winner_is_placed_by_the_order_of_wins(store: Store) -> None:
    await racing(store)
    first = await store.commit(commit("bob", 0, "t1-f1", finish="won", cards=52))
    assert first.outcome is CommitOutcome.APPLIED
    finished = json.loads(first.events[1][1])
    assert finished == {
        "type": "finished",
        "player_id": "bob",
        "place": 1,
        "elapsed_ms": 1_000,
        "status": "won",
    }
    assert not first.all_done
    second = await store.commit(commit("ann", 0, "t1-f1", finish="won", now=START + 2_000))
    assert json.loads(second.events[1][1])["place"] == 2
    assert second.all_done
    row = await store.load_room("r1", START)
    assert row is not None
    assert [(p.player_id, p.finish, p.place) for p in row.players] == [
        ("ann", "won", 2),
        ("bob", "won", 1),
    ]


async def test_a_finished_player_can_commit_nothing_more(store: Store) -> None:
    await racing(store)
    await store.commit(commit("ann", 0, None, finish="resigned"))
    after = await store.commit(commit("ann", 0))
    assert (after.outcome, after.code) == (CommitOutcome.REFUSED, "already_finished")
    assert await store.read_log("r1", "ann") == []


async def test_a_race_finishes_once_at_the_version_it_was_judged_at(store: Store) -> None:
    await racing(store)
    await store.commit(commit("ann", 0))
    row = await store.load_room("r1", END)
    assert row is not None
    lines = [Finisher("ann", 1, "timeout", 60_000), Finisher("bob", 2, "timeout", 60_000)]
    stale = Finish("r1", row.version - 1, END, lines, ['{"type":"results"}'], "[]")
    assert await store.finish(stale) is FinishResult.CONFLICT
    final = Finish("r1", row.version, END, lines, ['{"type":"results"}'], '["done"]')
    assert await store.finish(final) is FinishResult.FINISHED
    assert await store.finish(final) is FinishResult.NOT_RACING
    after = await store.load_room("r1", END)
    assert after is not None
    assert (after.status, after.results_json) == ("finished", '["done"]')
    assert [(p.finish, p.place, p.elapsed_ms) for p in after.players] == [
        ("timeout", 1, 60_000),
        ("timeout", 2, 60_000),
    ]


async def test_the_end_keeps_how_early_finishers_finished(store: Store) -> None:
    await racing(store)
    await store.commit(commit("ann", 0, None, finish="resigned", now=START + 500))
    row = await store.load_room("r1", END)
    assert row is not None
    lines = [Finisher("bob", 1, "timeout", 60_000), Finisher("ann", 2, "timeout", 60_000)]
    assert await store.finish(Finish("r1", row.version, END, lines, ["{}"], "[]")) is (
        FinishResult.FINISHED
    )
    after = await store.load_room("r1", END)
    assert after is not None
    assert [(p.finish, p.place, p.elapsed_ms) for p in after.players] == [
        ("resigned", 2, 500),
        ("timeout", 1, 60_000),
    ]


async def test_events_after_a_seq_come_in_order(store: Store) -> None:
    await racing(store)
    for length in range(5):
        await store.commit(commit("ann", length))
    batch = await store.events_since("r1", 3)
    assert [seq for seq, _ in batch.events] == list(range(4, batch.seq + 1))
    assert not batch.gap
    assert (await store.events_since("r1", batch.seq)).events == []


async def test_events_may_be_read_a_few_at_a_time(store: Store) -> None:
    await racing(store)
    for length in range(5):
        await store.commit(commit("ann", length))
    first = await store.events_since("r1", 0, 3)
    assert [seq for seq, _ in first.events] == [1, 2, 3]
    rest = await store.events_since("r1", 3, 100)
    assert [seq for seq, _ in rest.events] == list(range(4, rest.seq + 1))
    assert (await store.events_since("r1", 0, 0)).events == []


async def test_the_log_no_longer_reaches_back_past_its_cap(store: Store) -> None:
    await racing(store)
    for length in range(60):
        await store.commit(commit("ann", length))
    batch = await store.events_since("r1", 0)
    assert batch.gap and batch.events == []
    recent = await store.events_since("r1", batch.seq - 50)
    assert not recent.gap
    assert len(recent.events) == 50


async def test_a_player_is_connected_while_a_lease_runs(store: Store) -> None:
    await make_room(store)
    await add(store, "ann")
    await store.touch_presence("r1", "ann", "c1", T0 + 1_000)
    await store.touch_presence("r1", "ann", "c2", T0 + 3_000)

    async def connected(now: int) -> bool:
        row = await store.load_room("r1", now)
        assert row is not None
        return row.players[0].connected

    assert await connected(T0 + 2_000)
    assert not await connected(T0 + 3_000)
    await store.drop_presence("r1", "ann", "c2")
    assert await connected(T0 + 500)  # c1 still holds its lease
    await store.drop_presence("r1", "ann", "c1")
    assert not await connected(T0 + 500)


async def test_a_rooms_leases_are_renewed_together(store: Store) -> None:
    """Players' presence and spectators' leases, renewed in one call, last as if each had
    been touched alone; a room that is gone keeps nothing."""
    await make_room(store)
    await add(store, "ann")
    await add(store, "bob")
    await store.touch_presence("r1", "ann", "c1", T0 + 1_000)
    await store.touch_watcher("r1", "w1", T0 + 1_000)
    players, watchers = [("ann", "c1"), ("bob", "c2")], ["w1", "w2"]
    await store.touch_leases("r1", players, watchers, T0 + 5_000)
    row = await store.load_room("r1", T0 + 4_000)
    assert row is not None
    assert [player.connected for player in row.players] == [True, True]
    assert row.spectators == 2
    later = await store.load_room("r1", T0 + 5_000)  # every lease ran out
    assert later is not None and later.spectators == 0
    assert [player.connected for player in later.players] == [False, False]
    await store.touch_leases("r1", [], ["w3"], T0 + 9_000)  # spectators alone
    assert (await store.load_room("r1", T0 + 6_000)).spectators == 1  # type: ignore[union-attr]
    crowd = [f"s{n}" for n in range(5_000)]  # more than one call's worth in Lua (unpack)
    await store.touch_leases("r1", [("ann", "c3")], crowd, T0 + 20_000)
    assert (await store.load_room("r1", T0 + 10_000)).spectators == 5_000  # type: ignore[union-attr]
    await store.touch_leases("gone", players, watchers, T0 + 5_000)  # nothing, no error


async def test_presence_is_announced_once_each_time_it_changes(store: Store) -> None:
    await make_room(store)
    await add(store, "ann")
    events = ('{"type":"presence","connected":true}', '{"type":"presence","connected":false}')
    before = (await store.events_since("r1", 0)).seq
    assert not await store.announce_presence("r1", "ann", T0, events)  # never connected
    await store.touch_presence("r1", "ann", "c1", T0 + 1_000)
    await store.touch_presence("r1", "ann", "c2", T0 + 1_000)
    assert await store.announce_presence("r1", "ann", T0, events)
    assert not await store.announce_presence("r1", "ann", T0, events)  # a repeat: nothing
    await store.drop_presence("r1", "ann", "c1")
    assert not await store.announce_presence("r1", "ann", T0, events)  # c2 is still there
    await store.drop_presence("r1", "ann", "c2")
    assert await store.announce_presence("r1", "ann", T0, events)
    batch = await store.events_since("r1", before)
    assert [text for _, text in batch.events] == list(events)
    assert not await store.announce_presence("gone", "ann", T0, events)


async def test_every_stored_event_rings_the_room_bell(store: Store) -> None:
    rung: list[int] = []
    got = asyncio.Event()

    def bell(seq: int, ring: Ring, carried: object = None, /) -> None:
        rung.append(seq)
        got.set()

    await make_room(store)
    await store.subscribe("r1", bell)
    await asyncio.sleep(0.05)  # Redis: let the subscription take effect
    await add(store, "ann")
    await asyncio.wait_for(got.wait(), 5)
    assert rung[-1] == 1
    await store.unsubscribe("r1", bell)


async def test_ping_answers_while_the_store_is_up(store: Store) -> None:
    assert await store.ping()
