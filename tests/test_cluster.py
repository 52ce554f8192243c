"""The Redis store, races and tournaments on a three-master Redis Cluster.

The module starts its own cluster (``tests/cluster_kit.py``: three ``redis-server
--cluster-enabled yes`` on free ports, joined by ``redis-cli --cluster create``) and
tears it down at the end.  The room store's and the tournament store's contract suites
run here again, unchanged, on cluster stores (their ``store`` and ``tstore`` fixtures are
redefined below); then what only a cluster has: commands routed to the slot's owner,
MOVED and ASK followed while a room's slot moves between masters, a race over real
websockets with two server processes, and a tournament to its final standings.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator

import pytest

import test_store_contract
import test_tournament_store
from cluster_kit import LocalCluster, key_slot_of
from stalactites.store import Outcome, Store
from stalactites.store.cluster import key_slot
from stalactites.store.redis import RedisStore
from stalactites.tournaments.redis_store import RedisTournamentStore
from stalactites.tournaments.store import TournamentStore
from test_store_contract import START, add, commit, make_room, racing

# The two contract suites, collected again in this module: here they run on the cluster.
for _suite in (test_store_contract, test_tournament_store):
    for _name, _case in vars(_suite).items():
        if _name.startswith("test_") and callable(_case):
            globals()[_name] = _case


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster() as running:
        yield running


@pytest.fixture
async def store(cluster: LocalCluster, redis_prefix: str) -> AsyncIterator[Store]:
    """The contract suite's store, on the cluster."""
    made = RedisStore(cluster.url, redis_prefix, max_events=50, cluster=True)
    yield made
    await made.close()


@pytest.fixture
async def tstore(cluster: LocalCluster, redis_prefix: str) -> AsyncIterator[TournamentStore]:
    """The tournament contract suite's store, on the cluster."""
    made = RedisTournamentStore(cluster.url, redis_prefix, cluster=True)
    yield made
    await made.close()


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
    holders = {}
    for port in cluster.ports:
        with cluster.node(port) as client:
            for key in client.scan_iter(match=f"{redis_prefix}{{room:*"):
                room_id = key.split("{room:", 1)[1].split("}", 1)[0]
                assert holders.setdefault(room_id, port) == port  # a room on one master
    assert sorted(holders) == sorted(rooms)
    assert len(set(holders.values())) == 3  # twelve rooms use all three masters
    await store.close()


async def test_a_commit_follows_its_room_to_the_slots_new_master(
    cluster: LocalCluster, store: Store
) -> None:
    assert isinstance(store, RedisStore)
    await racing(store)
    assert (await store.commit(commit("ann", 0, "t1-c1", "a0"))).outcome is Outcome.APPLIED
    slot = room_slot(cluster, store, "r1")
    before = cluster.owner(slot)
    after = cluster.move_slot(slot)  # the store's map still names the old master: MOVED
    assert after != before and cluster.owner(slot) == after
    assert (await store.commit(commit("ann", 1, "t2-c2", "a1"))).outcome is Outcome.APPLIED
    assert (await store.commit(commit("bob", 0, "t3-c3", "b0"))).outcome is Outcome.APPLIED
    assert await store.read_log("r1", "ann") == ["t1-c1", "t2-c2"]
    row = await store.load_room("r1", START + 2_000)
    assert row is not None and [p.progress.moves for p in row.players] == [2, 1]
    with cluster.node(after) as client:
        assert client.exists(store.keys("r1").room) == 1


async def test_a_room_whose_slot_is_being_moved_is_served_by_asking_the_target(
    cluster: LocalCluster, store: Store
) -> None:
    assert isinstance(store, RedisStore)
    await racing(store)
    for name in ("ann", "bob"):
        assert (await store.commit(commit(name, 0, "t1-c1", f"{name}0"))).outcome is Outcome.APPLIED
    rung: list[int] = []
    await store.subscribe("r1", rung.append)
    move = cluster.begin_move(room_slot(cluster, store, "r1"))
    assert move.migrate_keys() > 0  # the keys are at the target; the owner answers ASK
    applied = await store.commit(commit("ann", 1, "t2-c2", "ann1"))
    assert applied.outcome is Outcome.APPLIED
    again = await store.commit(commit("ann", 1, "t2-c2", "ann1"))
    assert (again.outcome, again.length) == (Outcome.DUPLICATE, 2)
    assert await store.read_log("r1", "ann") == ["t1-c1", "t2-c2"]
    batch = await store.events_since("r1", 0)
    assert [seq for seq, _ in batch.events] == list(range(1, batch.seq + 1))
    row = await store.load_room("r1", START + 2_000)
    assert row is not None and row.players[0].progress.moves == 2
    move.finish()
    assert (await store.commit(commit("bob", 1, "t2-c2", "bob1"))).outcome is Outcome.APPLIED
    # The bells rang all the while (minus: a commit of this store's own).
    await wait_for(lambda: -(batch.seq + 1) in rung)


async def wait_for(condition: Callable[[], bool]) -> None:
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the condition did not come true")
