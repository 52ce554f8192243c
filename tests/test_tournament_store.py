"""The tournament store contract: one suite, run against the in-memory store, the real Redis
and a three-master Redis Cluster (the session's, from tests/cluster_kit.py).

Time is passed in explicitly (the store never reads a clock).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest
import redis

from cluster_kit import LocalCluster
from conftest import REDIS_URL
from stalactites.store.rooms.base import Ring
from stalactites.store.tournaments.base import (
    Claim,
    EnterResult,
    NewEntrant,
    NewTournament,
    StandingRow,
    StartResult,
    TournamentStore,
    Transition,
)
from stalactites.store.tournaments.memory import MemoryTournamentStore
from stalactites.store.tournaments.redis import RedisTournamentStore

T0 = 1_700_000_000_000
TTL = 3600_000
LEASE = 30_000


@pytest.fixture(params=["memory", "redis", "cluster"])
async def tstore(
    request: pytest.FixtureRequest, redis_prefix: str
) -> AsyncIterator[TournamentStore]:
    made: TournamentStore
    if request.param == "memory":
        made = MemoryTournamentStore()
    elif request.param == "redis":
        made = RedisTournamentStore(REDIS_URL, redis_prefix)
    else:
        cluster: LocalCluster = request.getfixturevalue("cluster")
        made = RedisTournamentStore(cluster.url, redis_prefix, cluster=True)
    yield made
    await made.close()


async def make(store: TournamentStore, tid: str = "t1", starts_at: int | None = None) -> None:
    await store.create(NewTournament(tid, '{"name": "Cup"}', "admin-hash", starts_at, T0), TTL)


def entrant(name: str, score: int = 100) -> NewEntrant:
    line = json.dumps({"player_id": name, "points": 0})
    return NewEntrant(name, name.title(), f"hash-{name}", line, score)


async def enter(store: TournamentStore, name: str, tid: str = "t1", limit: int = 10) -> EnterResult:
    return await store.enter(tid, entrant(name), limit, TTL)


def begin(round_: int, expected: tuple[str, int], tid: str = "t1") -> Transition:
    return Transition(
        tid,
        expected,
        "running",
        round_,
        f"room{round_}",
        T0 + round_ * 60_000,
        None,
        record=(round_, f'{{"round":{round_}}}'),
        events=[f'{{"type":"round_started","round":{round_}}}'],
    )


async def test_a_new_tournament_is_scheduled_with_no_one_in_it(tstore: TournamentStore) -> None:
    await make(tstore)
    row = await tstore.load("t1")
    assert row is not None
    assert (row.status, row.round, row.seq, row.room_id, row.starts_at) == (
        "scheduled",
        0,
        0,
        None,
        None,
    )
    assert row.admin_hash == "admin-hash" and row.settings_json == '{"name": "Cup"}'
    assert row.entrants == [] and row.rounds == []
    assert await tstore.load("nope") is None


async def test_entrants_are_seated_in_order_until_the_tournament_is_full(
    tstore: TournamentStore,
) -> None:
    await make(tstore)
    assert await enter(tstore, "ann", limit=2) is EnterResult.ENTERED
    assert await enter(tstore, "bob", limit=2) is EnterResult.ENTERED
    assert await enter(tstore, "cat", limit=2) is EnterResult.FULL
    assert await enter(tstore, "dan", tid="t2") is EnterResult.NOT_FOUND
    row = await tstore.load("t1")
    assert row is not None
    assert [(e.player_id, e.name, e.token_hash, e.seat) for e in row.entrants] == [
        ("ann", "Ann", "hash-ann", 1),
        ("bob", "Bob", "hash-bob", 2),
    ]
    assert [line.player_id for line in await tstore.standings("t1")] == ["bob", "ann"]


async def test_a_player_id_enters_once_and_a_second_entry_changes_nothing(
    tstore: TournamentStore,
) -> None:
    await make(tstore)
    assert await enter(tstore, "p.00000000000000aa") is EnterResult.ENTERED
    again = NewEntrant("p.00000000000000aa", "Other", "hash-other", '{"points": 0}', 5)
    assert await tstore.enter("t1", again, 10, TTL) is EnterResult.ALREADY_ENTERED
    row = await tstore.load("t1")
    assert row is not None
    assert [(e.name, e.token_hash, e.seat) for e in row.entrants] == [
        ("P.00000000000000Aa", "hash-p.00000000000000aa", 1)
    ]
    assert len(await tstore.standings("t1")) == 1


async def test_no_one_enters_once_the_first_round_has_begun(tstore: TournamentStore) -> None:
    await make(tstore)
    await enter(tstore, "ann")
    assert await tstore.transition(begin(1, ("scheduled", 0)), TTL)
    assert await enter(tstore, "bob") is EnterResult.STARTED


async def test_a_start_request_sets_the_start_to_now_once(tstore: TournamentStore) -> None:
    await make(tstore)
    assert await tstore.request_start("t1", T0 + 5, TTL) is StartResult.STARTING
    assert await tstore.request_start("t1", T0 + 9, TTL) is StartResult.STARTING
    row = await tstore.load("t1")
    assert row is not None and row.starts_at == T0 + 5
    assert await tstore.request_start("t9", T0, TTL) is StartResult.NOT_FOUND
    assert await tstore.transition(begin(1, ("scheduled", 0)), TTL)
    assert await tstore.request_start("t1", T0 + 10, TTL) is StartResult.STARTED


async def test_an_early_start_request_brings_a_later_start_forward(
    tstore: TournamentStore,
) -> None:
    await make(tstore, starts_at=T0 + 60_000)
    assert await tstore.request_start("t1", T0 + 1_000, TTL) is StartResult.STARTING
    row = await tstore.load("t1")
    assert row is not None and row.starts_at == T0 + 1_000
    assert await tstore.claim("t1", T0 + 1_000, LEASE) is not None


async def test_a_transition_applies_only_at_the_expected_status_and_round(
    tstore: TournamentStore,
) -> None:
    await make(tstore)
    assert not await tstore.transition(begin(2, ("scheduled", 1)), TTL)
    assert not await tstore.transition(begin(1, ("break", 0)), TTL)
    assert await tstore.transition(begin(1, ("scheduled", 0)), TTL)
    assert not await tstore.transition(begin(1, ("scheduled", 0)), TTL)
    row = await tstore.load("t1")
    assert row is not None
    assert (row.status, row.round, row.room_id, row.ends_at, row.seq) == (
        "running",
        1,
        "room1",
        T0 + 60_000,
        1,
    )
    assert row.rounds == ['{"round":1}']


async def listed(store: TournamentStore, name: str) -> list[str]:
    return [row.tournament_id for row in await store.list_tournaments(name, 10, T0)]


async def test_the_lists_hold_the_scheduled_newest_first_and_the_running_until_they_finish(
    tstore: TournamentStore,
) -> None:
    for number, tid in enumerate(["old", "mid", "new"]):
        await tstore.create(NewTournament(tid, "{}", "hash", None, T0 + number), TTL)
    assert await listed(tstore, "scheduled") == ["new", "mid", "old"]
    assert (await tstore.list_tournaments("scheduled", 2, T0))[1].tournament_id == "mid"
    assert await listed(tstore, "running") == []
    await tstore.request_start("mid", T0 + 10, TTL)
    assert await tstore.transition(begin(1, ("scheduled", 0), "mid"), TTL)
    assert await listed(tstore, "scheduled") == ["new", "old"]
    assert await listed(tstore, "running") == ["mid"]
    pause = Transition("mid", ("running", 1), "break", 1, None, None, T0 + 99)
    assert await tstore.transition(pause, TTL)
    assert await listed(tstore, "running") == ["mid"]
    over = Transition("mid", ("break", 1), "finished", 1, None, None, None)
    assert await tstore.transition(over, TTL)
    empty = Transition("old", ("scheduled", 0), "finished", 0, None, None, None)
    assert await tstore.transition(empty, TTL)  # nobody entered: over at its start
    assert await listed(tstore, "running") == []
    assert await listed(tstore, "scheduled") == ["new"]


async def test_redis_tournament_lists_mend_themselves_when_a_process_died_halfway(
    redis_prefix: str,
) -> None:
    store = RedisTournamentStore(REDIS_URL, redis_prefix)
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    try:
        await make(store)
        await make(store, "gone")
        await store.request_start("t1", T0, TTL)
        assert await store.transition(begin(1, ("scheduled", 0)), TTL)
        # As if the processes had died before moving them: t1 still listed as scheduled (and
        # not as running), and a tournament whose keys expired still listed too.
        client.delete(f"{redis_prefix}tournaments:running")
        client.zadd(f"{redis_prefix}tournaments:scheduled", {"t1": T0})
        client.delete(f"{redis_prefix}{{tournament:gone}}:t")
        assert await listed(store, "scheduled") == []
        assert client.zrange(f"{redis_prefix}tournaments:scheduled", 0, -1) == []
        assert await listed(store, "running") == ["t1"]  # moved where it belongs
    finally:
        client.close()
        await store.close()


async def test_of_two_processes_racing_to_one_transition_exactly_one_makes_it(
    tstore: TournamentStore,
) -> None:
    await make(tstore)
    answers = await asyncio.gather(
        *(tstore.transition(begin(1, ("scheduled", 0)), TTL) for _ in range(8))
    )
    assert sorted(answers) == [False] * 7 + [True]
    batch = await tstore.events_since("t1", 0)
    assert [event for _, event in batch.events] == ['{"type":"round_started","round":1}']


async def test_ending_a_round_replaces_the_standings_and_keeps_the_round_records(
    tstore: TournamentStore,
) -> None:
    await make(tstore)
    for name in ("ann", "bob", "cat"):
        await enter(tstore, name)
    assert await tstore.transition(begin(1, ("scheduled", 0)), TTL)
    rows = [StandingRow("bob", 900, '{"b":1}'), StandingRow("ann", 500, '{"a":1}')]
    rows.append(StandingRow("cat", 500, '{"c":1}'))
    end = Transition(
        "t1",
        ("running", 1),
        "break",
        1,
        None,
        None,
        T0 + 90_000,
        record=(1, '{"round":1,"done":true}'),
        standings=rows,
        events=['{"type":"round_finished"}'],
    )
    assert await tstore.transition(end, TTL)
    row = await tstore.load("t1")
    assert row is not None
    assert (row.status, row.round, row.room_id, row.ends_at, row.break_ends_at, row.seq) == (
        "break",
        1,
        None,
        None,
        T0 + 90_000,
        2,
    )
    assert row.rounds == ['{"round":1,"done":true}']
    standings = await tstore.standings("t1")
    assert [(line.player_id, line.score, line.line_json) for line in standings] == [
        ("bob", 900, '{"b":1}'),
        ("cat", 500, '{"c":1}'),
        ("ann", 500, '{"a":1}'),
    ]
    assert await tstore.transition(begin(2, ("break", 1)), TTL)
    row = await tstore.load("t1")
    assert row is not None and len(row.rounds) == 2 and row.break_ends_at is None


async def test_scores_as_large_as_a_whole_tournament_stay_exact(tstore: TournamentStore) -> None:
    await make(tstore)
    high = (1 << 53) - 1
    rows = [StandingRow("ann", high, "{}"), StandingRow("bob", high - 1, "{}")]
    step = Transition("t1", ("scheduled", 0), "finished", 0, None, None, None, standings=rows)
    assert await tstore.transition(step, TTL)
    assert [(line.player_id, line.score) for line in await tstore.standings("t1")] == [
        ("ann", high),
        ("bob", high - 1),
    ]


async def test_events_since_a_seq_and_the_doorbell(tstore: TournamentStore) -> None:
    await make(tstore)
    rung: list[int] = []

    def bell(seq: int, ring: Ring, carried: object = None, /) -> None:
        rung.append(seq)

    await tstore.subscribe("t1", bell)
    assert await tstore.transition(begin(1, ("scheduled", 0)), TTL)
    step = Transition(
        "t1", ("running", 1), "finished", 1, None, None, None, events=['{"e":2}', '{"e":3}']
    )
    assert await tstore.transition(step, TTL)
    for _ in range(100):
        if rung and rung[-1] == 3:
            break
        await asyncio.sleep(0.01)
    assert rung[-1] == 3
    batch = await tstore.events_since("t1", 1)
    assert (batch.seq, batch.gap, batch.events) == (3, False, [(2, '{"e":2}'), (3, '{"e":3}')])
    assert (await tstore.events_since("t1", 3)).events == []
    await tstore.unsubscribe("t1", bell)


# The due index.


async def test_a_tournament_with_a_start_time_is_due_then(tstore: TournamentStore) -> None:
    await make(tstore, starts_at=T0 + 10_000)
    assert await tstore.next_due() == T0 + 10_000
    assert await tstore.claim_due(T0 + 9_999, LEASE, 10) == []
    claims = await tstore.claim_due(T0 + 10_000, LEASE, 10)
    assert [claim.tournament_id for claim in claims] == ["t1"]


async def test_a_claimed_tournament_is_not_due_again_until_its_lease_runs_out(
    tstore: TournamentStore,
) -> None:
    await tstore.poke("t1", T0)
    assert len(await tstore.claim_due(T0, LEASE, 10)) == 1
    assert await tstore.claim_due(T0 + LEASE - 1, LEASE, 10) == []
    assert await tstore.claim("t1", T0 + LEASE - 1, LEASE) is None
    assert len(await tstore.claim_due(T0 + LEASE, LEASE, 10)) == 1  # the claimer died


async def test_a_release_sets_the_next_deadline_or_forgets_a_finished_tournament(
    tstore: TournamentStore,
) -> None:
    await tstore.poke("t1", T0)
    (claim,) = await tstore.claim_due(T0, LEASE, 10)
    await tstore.release(claim, T0 + 60_000, T0 + 5)
    assert await tstore.next_due() == T0 + 60_000
    claim_again = await tstore.claim("t1", T0 + 60_000, LEASE)
    assert claim_again is not None
    await tstore.release(claim_again, None, T0 + 60_001)
    assert await tstore.next_due() is None
    assert await tstore.claim_due(T0 + 10**9, LEASE, 10) == []


async def test_a_poke_during_a_claim_makes_the_release_leave_it_due_now(
    tstore: TournamentStore,
) -> None:
    await tstore.poke("t1", T0)
    (claim,) = await tstore.claim_due(T0, LEASE, 10)
    await tstore.poke("t1", T0 + 100_000)  # a change the claimer may not have seen
    await tstore.release(claim, T0 + 60_000, T0 + 50)
    assert await tstore.next_due() == T0 + 50
    (again,) = await tstore.claim_due(T0 + 50, LEASE, 10)
    assert again.generation != claim.generation


async def test_a_poke_brings_a_deadline_forward_never_back(tstore: TournamentStore) -> None:
    await tstore.poke("t1", T0 + 60_000)
    await tstore.poke("t1", T0 + 90_000)
    assert await tstore.next_due() == T0 + 60_000
    await tstore.poke("t1", T0 + 1_000)
    assert await tstore.next_due() == T0 + 1_000


async def test_claims_take_the_earliest_due_first_up_to_the_limit(
    tstore: TournamentStore,
) -> None:
    for index, tid in enumerate(["c", "a", "b"]):
        await tstore.poke(tid, T0 + index)
    claims = await tstore.claim_due(T0 + 10, LEASE, 2)
    assert [claim.tournament_id for claim in claims] == ["c", "a"]
    assert await tstore.claim("zzz", T0 + 10, LEASE) is None
    assert [c.tournament_id for c in await tstore.claim_due(T0 + 10, LEASE, 5)] == ["b"]
    assert isinstance(claims[0], Claim)
