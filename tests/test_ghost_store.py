"""The ghosts' index, one contract for memory, one Redis and a Redis Cluster: runs near a
rating, nearest first, won and other runs apart, indexing again changes only the score."""

from __future__ import annotations

from stalactites.store import GhostStore, IndexedRun


async def test_runs_within_the_window_come_nearest_first(ghost_store: GhostStore) -> None:
    for room, rating in [("a", 1500), ("b", 1540), ("c", 1420), ("d", 1800), ("e", 1200)]:
        await ghost_store.add_run("stalactites:choice", IndexedRun(room, "p.1", rating, True))
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
    await ghost_store.add_run("stalactites:ones", IndexedRun("won", "p.1", 1500, True))
    await ghost_store.add_run("stalactites:ones", IndexedRun("lost", "p.2", 1500, False))
    await ghost_store.add_run("squadron", IndexedRun("other-game", "p.3", 1500, True))
    assert [r.room_id for r in await ghost_store.near("stalactites:ones", 1500, 50, True, 9)] == [
        "won"
    ]
    assert [r.room_id for r in await ghost_store.near("stalactites:ones", 1500, 50, False, 9)] == [
        "lost"
    ]
    assert await ghost_store.near("stalactites:twos", 1500, 50, True, 9) == []


async def test_indexing_a_run_again_moves_it_and_keeps_one_entry(ghost_store: GhostStore) -> None:
    await ghost_store.add_run("squadron", IndexedRun("r", "p.1", 1500, True))
    await ghost_store.add_run("squadron", IndexedRun("r", "p.1", 1700, True))
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
