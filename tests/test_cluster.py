"""The Redis store, races and tournaments on a three-master Redis Cluster.

The cluster is the session's (the conftest's ``cluster`` fixture, from
``tests/cluster_kit.py``: three ``redis-server --cluster-enabled yes`` on free ports, joined
by ``redis-cli --cluster create``), torn down at the end of the run.  The room store's and
the tournament store's contract suites run on it too, in their own modules (their ``store``
and ``tstore`` fixtures have a ``cluster`` parameter).  Here is what only a cluster has:
commands routed to the slot's owner, MOVED, ASK and TRYAGAIN followed while a room's slot
moves between masters, the doorbell subscription made again after it is lost, a race over
real websockets on two server processes while its room's slot moves, and a tournament to
its final standings while its slots move.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import pytest

from cluster_kit import LocalCluster, key_slot_of
from server_kit import (
    Client,
    ProcessServer,
    http,
    new_room,
    play,
    player,
    resign,
    start_race,
    winning_line,
)
from stalactites.config import ServerConfig
from stalactites.store import CommitOutcome, Store, StoreError
from stalactites.store.redis.cluster import key_slot
from stalactites.store.rooms.base import Ring
from stalactites.store.rooms.keys import RoomKeys
from stalactites.store.rooms.redis import RedisStore
from stalactites.store.tournaments.redis import RedisTournamentStore, TournamentKeys
from store_kit import START, T0, add, commit, make_room, racing
from tournament_kit import Watcher, enter, new_tournament, points, seat_in_round, start, view

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


# The tests that take a room store take the conftest's, on the cluster.
ON_THE_CLUSTER = pytest.mark.parametrize("store", ["cluster"], indirect=True)


# What only a cluster has.


def room_slot(cluster: LocalCluster, store: RedisStore, room_id: str) -> int:
    return key_slot_of(cluster, store.keys(room_id).room)


def test_key_slots_are_the_clusters(cluster: LocalCluster) -> None:
    keys = ["foo", "{room:r1}:room", "sr:{room:r1}:log:ann", "a{}b", "{}{x}", "x{y", "é{ü}"]
    assert [key_slot(key) for key in keys] == [key_slot_of(cluster, key) for key in keys]


async def test_rooms_spread_over_the_masters_each_in_one_slot(
    cluster: LocalCluster, redis_prefix: str
) -> None:
    store = RedisStore(cluster.url, redis_prefix, cluster=True)
    rooms = [f"r{n}" for n in range(12)]
    for room_id in rooms:
        await make_room(store, room_id)
        await add(store, "ann", room_id)
    holders: dict[str, int] = {}
    for port in cluster.ports:
        with cluster.node(port) as client:
            for key in client.scan_iter(match=f"{redis_prefix}{{room:*"):
                room_id = key.split("{room:", 1)[1].split("}", 1)[0]
                assert holders.setdefault(room_id, port) == port  # a room on one master
    assert sorted(holders) == sorted(rooms)
    assert len(set(holders.values())) == 3  # twelve rooms use all three masters
    await store.close()


@ON_THE_CLUSTER
async def test_a_commit_follows_its_room_to_the_slots_new_master(
    cluster: LocalCluster, store: Store
) -> None:
    assert isinstance(store, RedisStore)
    await racing(store)
    assert (await store.commit(commit("ann", 0, "t1-c1", "a0"))).outcome is CommitOutcome.APPLIED
    slot = room_slot(cluster, store, "r1")
    before = cluster.owner(slot)
    after = cluster.move_slot(slot)  # the store's map still names the old master: MOVED
    assert after != before and cluster.owner(slot) == after
    assert (await store.commit(commit("ann", 1, "t2-c2", "a1"))).outcome is CommitOutcome.APPLIED
    assert (await store.commit(commit("bob", 0, "t3-c3", "b0"))).outcome is CommitOutcome.APPLIED
    assert await store.read_log("r1", "ann") == ["t1-c1", "t2-c2"]
    row = await store.load_room("r1", START + 2_000)
    assert row is not None and [p.progress.moves for p in row.players] == [2, 1]
    with cluster.node(after) as client:
        assert client.exists(store.keys("r1").room) == 1


@ON_THE_CLUSTER
async def test_a_room_whose_slot_is_being_moved_is_served_by_asking_the_target(
    cluster: LocalCluster, store: Store, redis_prefix: str
) -> None:
    assert isinstance(store, RedisStore)
    await racing(store)
    for name in ("ann", "bob"):
        assert (
            await store.commit(commit(name, 0, "t1-c1", f"{name}0"))
        ).outcome is CommitOutcome.APPLIED
    rung: list[tuple[int, Ring]] = []
    other = RedisStore(cluster.url, redis_prefix, cluster=True)  # another process listening
    await other.subscribe("r1", lambda seq, ring, carried=None: rung.append((seq, ring)))
    move = cluster.begin_move(room_slot(cluster, store, "r1"))
    assert move.migrate_keys() > 0  # the keys are at the target; the owner answers ASK
    applied = await store.commit(commit("ann", 1, "t2-c2", "ann1"))
    assert applied.outcome is CommitOutcome.APPLIED
    again = await store.commit(commit("ann", 1, "t2-c2", "ann1"))
    assert (again.outcome, again.length) == (CommitOutcome.DUPLICATE, 2)
    assert await store.read_log("r1", "ann") == ["t1-c1", "t2-c2"]
    batch = await store.events_since("r1", 0)
    assert [seq for seq, _ in batch.events] == list(range(1, batch.seq + 1))
    row = await store.load_room("r1", START + 2_000)
    assert row is not None and row.players[0].progress.moves == 2
    move.finish()
    assert (await store.commit(commit("bob", 1, "t2-c2", "bob1"))).outcome is CommitOutcome.APPLIED
    # The bells rang all the while, for the other process (the lease read by the commit).
    try:
        await wait_for(
            lambda: (batch.seq, Ring.NEWS) in rung and (batch.seq + 1, Ring.NEWS) in rung
        )
    finally:
        await other.close()


@ON_THE_CLUSTER
async def test_a_commit_whose_keys_a_move_has_split_waits_for_the_move_to_end(
    cluster: LocalCluster, store: Store
) -> None:
    assert isinstance(store, RedisStore)
    await racing(store)
    assert (await store.commit(commit("ann", 0, "t1-c1", "ann0"))).outcome is CommitOutcome.APPLIED
    move = cluster.begin_move(room_slot(cluster, store, "r1"))
    move.migrate_keys()
    # Bob has no log yet: at the target his commit's keys are partly there, partly nowhere.
    pending = asyncio.create_task(store.commit(commit("bob", 0, "t1-c1", "bob0")))
    await wait_for(lambda: tryagains(cluster, move.target) > 0)
    await asyncio.to_thread(move.finish)
    assert (await pending).outcome is CommitOutcome.APPLIED
    assert await store.read_log("r1", "bob") == ["t1-c1"]


def tryagains(cluster: LocalCluster, port: int) -> int:
    with cluster.node(port) as client:
        stats = client.info("errorstats")
    return int(stats.get("errorstat_TRYAGAIN", {}).get("count", 0))


@ON_THE_CLUSTER
async def test_a_lost_doorbell_subscription_is_made_again_on_the_cluster(
    cluster: LocalCluster, store: Store
) -> None:
    assert isinstance(store, RedisStore)
    rung: list[int] = []
    await store.subscribe("r1", lambda seq, ring, carried=None: rung.append(seq))
    killed = 0
    for port in cluster.ports:
        with cluster.node(port) as client:
            for entry in client.client_list(_type="pubsub"):
                if entry["name"] == f"stalactites-bells-{store.origin}":
                    killed += client.client_kill_filter(_id=entry["id"])
    assert killed == 1
    await wait_for(lambda: 0 in rung)  # resync: look in the store
    await racing(store)  # events stored on whichever master ring as before
    await wait_for(lambda: max(rung) > 0)
    assert doorbell_nodes(cluster, store) == 1  # subscribed again (under its own name)


def doorbell_nodes(cluster: LocalCluster, store: RedisStore) -> int:
    """How many masters hold the store's doorbell subscription."""
    held = 0
    for port in cluster.ports:
        with cluster.node(port) as client:
            names = [entry["name"] for entry in client.client_list(_type="pubsub")]
        held += names.count(f"stalactites-bells-{store.origin}")
    return held


@ON_THE_CLUSTER
async def test_the_room_lists_on_the_cluster(store: Store) -> None:
    for number in range(6):
        await make_room(store, f"w{number}")
    page = await store.list_rooms("waiting", None, 10, T0 + 1)
    assert [row.room_id for row in page.rows] == [f"w{n}" for n in range(5, -1, -1)]
    await racing(store)
    racing_page = await store.list_rooms("racing", None, 10, START)
    assert [row.room_id for row in racing_page.rows] == ["r1"]
    assert await store.count_rooms(START) == {"waiting": 6, "racing": 1}  # two slots' keys


async def test_both_stores_answer_pings_from_every_master(
    cluster: LocalCluster, redis_prefix: str
) -> None:
    store = RedisStore(cluster.url, redis_prefix, cluster=True)
    tstore = RedisTournamentStore(cluster.url, redis_prefix, cluster=True)
    assert await store.ping()  # through the stores' own client: every master of the map
    assert await tstore.ping()
    await store.close()
    await tstore.close()


def test_cluster_mode_is_a_switch_in_the_environment() -> None:
    assert ServerConfig.from_env({"STALACTITES_REDIS_CLUSTER": "1"}).redis_cluster is True
    assert ServerConfig.from_env({"STALACTITES_REDIS_CLUSTER": "false"}).redis_cluster is False
    assert ServerConfig.from_env({}).redis_cluster is False
    with pytest.raises(ValueError, match="STALACTITES_REDIS_CLUSTER='on please'"):
        ServerConfig.from_env({"STALACTITES_REDIS_CLUSTER": "on please"})


def test_a_cluster_has_database_0_only(cluster: LocalCluster) -> None:
    with pytest.raises(ValueError, match="database 0 only"):
        RedisStore(cluster.url.replace("/0", "/1"), cluster=True)


async def test_a_commit_to_an_unreachable_cluster_raises(redis_prefix: str) -> None:
    store = RedisStore("redis://127.0.0.1:9/0", redis_prefix, cluster=True)
    with pytest.raises(StoreError, match="cannot be reached"):
        await store.commit(commit("ann", 0))
    assert not await store.ping()
    await store.close()


async def wait_for(condition: Callable[[], bool]) -> None:
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the condition did not come true")


# Races and tournaments over real websockets, served by processes on the cluster.


@pytest.fixture
def spawn_on(
    cluster: LocalCluster, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[int], ProcessServer]]:
    """``spawn_on(n)``: a ``stalactites serve`` process on the cluster, told of its n-th node
    only (STALACTITES_REDIS_CLUSTER=1); all are stopped afterwards."""
    monkeypatch.setenv("STALACTITES_REDIS_CLUSTER", "1")
    started: list[ProcessServer] = []

    def spawn(node: int) -> ProcessServer:
        started.append(ProcessServer(f"redis://127.0.0.1:{cluster.ports[node]}/0", redis_prefix))
        return started[-1]

    yield spawn
    for process in started:
        process.stop()


async def ready_all(*clients: Client) -> None:
    await start_race(*clients)


async def play_seen(mover: Client, watcher: Client, moves: list[str], done: int) -> None:
    """``mover`` plays ``moves`` (``done`` made before); ``watcher`` sees each one."""
    for index, move in enumerate(moves, start=done):
        answer = await mover.move(f"{mover.you}-{index}", move)
        assert answer["type"] == "accepted", answer
        progress = await watcher.expect("progress", player_id=mover.you)
        assert progress["moves"] == index + 1


@pytest.mark.usefixtures("close_clients")
async def test_a_race_on_two_processes_goes_on_while_its_rooms_slot_moves(
    cluster: LocalCluster, spawn_on: Callable[[int], ProcessServer], redis_prefix: str
) -> None:
    first, second = spawn_on(0), spawn_on(1)
    room_id = await new_room(first.url, deal=DEAL, step="ones", countdown_s=0)
    ann = await player(first, room_id, "Ann")
    bob = await player(second, room_id, "Bob")
    await ready_all(ann, bob)
    slot = key_slot_of(cluster, RoomKeys(redis_prefix, room_id).room)
    third = len(LINE) // 3
    await play_seen(ann, bob, LINE[:third], 0)
    await play_seen(bob, ann, LINE[:3], 0)

    owner = cluster.move_slot(slot)  # both processes' maps are out of date: MOVED
    await play_seen(ann, bob, LINE[third : 2 * third], third)
    await play_seen(bob, ann, LINE[3:5], 3)

    move = cluster.begin_move(slot)  # the keys go to the next master, the slot not yet: ASK
    assert move.migrate_keys() > 0
    await play_seen(ann, bob, LINE[2 * third : 2 * third + 5], 2 * third)
    await play_seen(bob, ann, LINE[5:7], 5)
    with cluster.node(move.source) as source:  # everything was served by the target
        assert source.execute_command("CLUSTER COUNTKEYSINSLOT", slot) == 0
    move.finish()
    assert cluster.owner(slot) == move.target != owner

    await play_seen(ann, bob, LINE[2 * third + 5 :], 2 * third + 5)
    assert (await bob.expect("finished", player_id=ann.you))["place"] == 1
    await bob.send(type="resign")
    for client in (ann, bob):
        results = await client.expect("results")
        standings = [(line["place"], line["moves"]) for line in results["standings"]]
        assert standings == [(1, len(LINE)), (2, 7)]
    status, record = await http("GET", f"{second.url}/api/rooms/{room_id}/record")
    assert status == 200
    assert [p["record"]["moves"] for p in record["players"]] == [LINE, LINE[:7]]
    with cluster.node(move.target) as client:
        assert client.exists(RoomKeys(redis_prefix, room_id).room) == 1


@pytest.mark.usefixtures("close_clients")
async def test_a_tournament_on_two_processes_reaches_its_final_standings(
    cluster: LocalCluster, spawn_on: Callable[[int], ProcessServer], redis_prefix: str
) -> None:
    one, two = spawn_on(1), spawn_on(2)
    settings = {"step": "ones", "rounds": 2, "round_time_s": 60, "break_s": 0}
    tournament_id, admin = await new_tournament(one.url, **settings, deals=[DEAL, DEAL])
    ann_id, ann = await enter(one.url, tournament_id, "Ann")
    bob_id, bob = await enter(two.url, tournament_id, "Bob")
    spectator = await Watcher.open(two.url, tournament_id)
    await spectator.hello(spectator=True)
    status, _, _ = await start(one.url, tournament_id, f"Bearer {admin}")
    assert status == 200

    first = (await spectator.expect("round_started", round=1))["room_id"]
    await play(await seat_in_round(one, first, ann), LINE, "a")
    await resign(await seat_in_round(two, first, bob))
    round1 = await spectator.expect("round_finished", round=1, timeout=15)
    # The tournament's slot and the due index's move to other masters as round 2 begins.
    tournament_key = TournamentKeys(redis_prefix, tournament_id).tournament
    for key in (tournament_key, f"{redis_prefix}{{tournaments}}:due"):
        cluster.move_slot(key_slot_of(cluster, key))

    second = (await spectator.expect("round_started", round=2, timeout=15))["room_id"]
    await resign(await seat_in_round(one, second, ann))
    await play(await seat_in_round(two, second, bob), LINE, "b")
    round2 = await spectator.expect("round_finished", round=2, timeout=15)
    final = await spectator.expect("finished", timeout=15)

    every = [*round1["results"], *round2["results"]]
    assert all(line["points"] == points(line) for line in every)
    totals = {
        pid: sum(x["points"] for x in every if x["player_id"] == pid) for pid in (ann_id, bob_id)
    }
    table = {s["player_id"]: (s["points"], s["rounds_won"]) for s in final["standings"]}
    assert table == {ann_id: (totals[ann_id], 1), bob_id: (totals[bob_id], 1)}
    kinds = [f["type"] for f in spectator.frames if "seq" in f and f["type"] != "welcome"]
    assert kinds == ["round_started", "round_finished"] * 2 + ["finished"]  # each exactly once
    shown = await view(one.url, tournament_id)
    assert shown["status"] == "finished" and shown["standings"] == final["standings"]
