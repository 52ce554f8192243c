"""The ghosts' index, one contract for memory, one Redis and a Redis Cluster: runs near a
rating, nearest first, won and other runs apart, indexing again changes only the score."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from cluster_kit import LocalCluster
from conftest import REDIS_URL
from stalactites.store import GhostStore, IndexedRun
from stalactites.store.ghosts.base import IndexBounds
from stalactites.store.ghosts.memory import MemoryGhostStore
from stalactites.store.ghosts.redis import RedisGhostStore

DEAL, T0 = "sr:1", 1_700_000_000_000
POOL = "stalactites:choice"


async def test_runs_within_the_window_come_nearest_first(ghost_store: GhostStore) -> None:
    for room, rating in [("a", 1500), ("b", 1540), ("c", 1420), ("d", 1800), ("e", 1200)]:
        await ghost_store.add_run(
            "stalactites:choice", IndexedRun(room, "p.1", rating, True), DEAL, T0
        )
    near = await ghost_store.near("stalactites:choice", 1510, 100, True, 10)
    assert [run.room_id for run in near] == ["a", "b", "c"]
    assert near[0] == IndexedRun("a", "p.1", 1500, True)
    assert [
        r.room_id for r in await ghost_store.near("stalactites:choice", 1510, 100, True, 2)
    ] == [
        "a",
        "b",
    ]
    wide = await ghost_store.near("stalactites:choice", 1510, 1000, True, 10)
    assert [run.room_id for run in wide] == ["a", "b", "c", "d", "e"]


async def test_won_runs_and_other_runs_and_pools_are_kept_apart(ghost_store: GhostStore) -> None:
    await ghost_store.add_run("stalactites:ones", IndexedRun("won", "p.1", 1500, True), DEAL, T0)
    await ghost_store.add_run("stalactites:ones", IndexedRun("lost", "p.2", 1500, False), DEAL, T0)
    await ghost_store.add_run("squadron", IndexedRun("other-game", "p.3", 1500, True), DEAL, T0)
    assert [r.room_id for r in await ghost_store.near("stalactites:ones", 1500, 50, True, 9)] == [
        "won"
    ]
    assert [r.room_id for r in await ghost_store.near("stalactites:ones", 1500, 50, False, 9)] == [
        "lost"
    ]
    assert await ghost_store.near("stalactites:twos", 1500, 50, True, 9) == []


async def test_indexing_a_run_again_moves_it_and_keeps_one_entry(ghost_store: GhostStore) -> None:
    await ghost_store.add_run("squadron", IndexedRun("r", "p.1", 1500, True), DEAL, T0)
    await ghost_store.add_run("squadron", IndexedRun("r", "p.1", 1700, True), DEAL, T0)
    assert await ghost_store.near("squadron", 1600, 1000, True, 9) == [
        IndexedRun("r", "p.1", 1700, True)
    ]


async def test_ghost_races_due_come_most_overdue_first_until_dropped(
    ghost_store: GhostStore,
) -> None:
    await ghost_store.set_due("late", 100)
    await ghost_store.set_due("later", 300)
    await ghost_store.set_due("latest", 200)
    assert await ghost_store.due(250, 10) == ["late", "latest"]
    assert await ghost_store.due(1000, 2) == ["late", "latest"]
    await ghost_store.set_due("late", 900)  # next due later
    await ghost_store.drop_due("latest")
    assert await ghost_store.due(1000, 10) == ["later", "late"]


# The index's bounds: per deal, and per rating band of each kind.


@pytest.fixture(params=["memory", "redis", "cluster"])
async def small(request: pytest.FixtureRequest, redis_prefix: str) -> AsyncIterator[GhostStore]:
    """An index of tight bounds: bands of 100 points, 3 runs a band, 2 runs a deal."""
    bounds = IndexBounds(band=100, per_band=3, per_deal=2)
    made: GhostStore
    if request.param == "memory":
        made = MemoryGhostStore(bounds)
    elif request.param == "redis":
        made = RedisGhostStore(REDIS_URL, redis_prefix, bounds=bounds)
    else:
        cluster: LocalCluster = request.getfixturevalue("cluster")
        made = RedisGhostStore(cluster.url, redis_prefix, cluster=True, bounds=bounds)
    yield made
    await made.close()


async def rooms_near(store: GhostStore, rating: int, won: bool = True) -> list[str]:
    return sorted(run.room_id for run in await store.near(POOL, rating, 10_000, won, 100))


async def test_a_deal_keeps_its_newest_runs_only(small: GhostStore) -> None:
    for n in range(5):
        await small.add_run(
            POOL, IndexedRun(f"r{n}", f"p.{n}", 1000 + 300 * n, n % 2 == 0), DEAL, T0 + n
        )
    kept = await rooms_near(small, 1000, True) + await rooms_near(small, 1000, False)
    assert sorted(kept) == ["r3", "r4"]  # won and lost runs alike count for the deal
    await small.add_run(POOL, IndexedRun("other", "p.9", 1000, True), "sr:2", T0 + 9)
    assert "other" in await rooms_near(small, 1000)


async def test_a_rating_band_keeps_its_newest_runs_of_each_kind(small: GhostStore) -> None:
    for n in range(5):  # one band (1000 to 1099), each run on a deal of its own
        await small.add_run(
            POOL, IndexedRun(f"w{n}", "p.1", 1000 + 20 * n, True), f"sr:{n}", T0 + n
        )
    await small.add_run(POOL, IndexedRun("lost", "p.1", 1050, False), "sr:9", T0 + 9)
    await small.add_run(POOL, IndexedRun("next", "p.1", 1100, True), "sr:10", T0 + 10)
    assert await rooms_near(small, 1050) == ["next", "w2", "w3", "w4"]
    assert await rooms_near(small, 1050, False) == ["lost"]


async def test_indexing_a_run_again_keeps_its_age(small: GhostStore) -> None:
    for n in range(3):
        await small.add_run(POOL, IndexedRun(f"w{n}", "p.1", 1000, True), f"sr:{n}", T0 + n)
    await small.add_run(POOL, IndexedRun("w0", "p.1", 1010, True), "sr:0", T0 + 5)  # again
    await small.add_run(POOL, IndexedRun("w3", "p.1", 1000, True), "sr:3", T0 + 6)
    assert await rooms_near(small, 1000) == ["w1", "w2", "w3"]  # w0 was still the oldest
