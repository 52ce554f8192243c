"""The players' contract on a three-master Redis Cluster, and what only a cluster has.

The contract suite (``tests/test_players_contract.py``) runs on the cluster too (its
``stores`` fixture has a ``cluster`` case).  Here: each player's keys in one slot, a race's
players on different masters recorded exactly once by two clients at once, and a race
recorded while a player's slot moves to another master.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from cluster_kit import LocalCluster, key_slot_of
from players_kit import Stores, race
from server_kit import ManualClock
from stalactites.players import PlayerService
from stalactites.store.players.redis import RedisPlayerStore


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def service(stores: Stores, clock: ManualClock) -> PlayerService:
    return stores.service(clock)


@pytest.fixture
async def stores(cluster: LocalCluster, redis_prefix: str) -> AsyncIterator[Stores]:
    """The contract suite's stores, on the cluster (every master's keys read for checks)."""
    urls = [f"redis://127.0.0.1:{port}/0" for port in cluster.ports]
    made = Stores("cluster", urls, redis_prefix)
    yield made
    await made.close()


def player_slot(cluster: LocalCluster, store: RedisPlayerStore, player_id: str) -> int:
    return key_slot_of(cluster, store.keys(player_id).player)


async def players_on_two_masters(cluster: LocalCluster, service: PlayerService) -> tuple[str, str]:
    """Two new players whose keys are on different masters."""
    assert isinstance(service.store, RedisPlayerStore)
    first = (await service.create_anonymous()).player_id
    home = cluster.owner(player_slot(cluster, service.store, first))
    for _ in range(50):
        other = (await service.create_anonymous()).player_id
        if cluster.owner(player_slot(cluster, service.store, other)) != home:
            return first, other
    raise AssertionError("fifty players on one master of three")


async def test_a_players_keys_share_one_slot(cluster: LocalCluster, service: PlayerService) -> None:
    a, b = await players_on_two_masters(cluster, service)
    await service.record_race(race("r1", (a, 1), (b, 2)))
    store = service.store
    assert isinstance(store, RedisPlayerStore)
    keys = store.keys(a)
    names = [keys.player, keys.sessions, keys.races, keys.history, keys.wins("stalactites:ones")]
    assert len({key_slot_of(cluster, key) for key in names}) == 1


async def test_a_race_on_three_masters_is_recorded_once_by_two_clients_at_once(
    cluster: LocalCluster, stores: Stores, clock: ManualClock
) -> None:
    one, two = stores.service(clock), stores.service(clock)
    a, b = await players_on_two_masters(cluster, one)
    result = race("r1", (a, 1), (b, 2))
    outcomes = await asyncio.gather(*(s.record_race(result) for s in (one, two, one, two)))
    assert all(outcome == outcomes[0] for outcome in outcomes)
    for pid in (a, b):
        assert (await two.profile(pid)).ratings["stalactites"].races == 1


async def test_a_race_is_recorded_while_a_players_slot_moves(
    cluster: LocalCluster, service: PlayerService
) -> None:
    a, b = await players_on_two_masters(cluster, service)
    await service.record_race(race("r1", (a, 1), (b, 2)))
    store = service.store
    assert isinstance(store, RedisPlayerStore)
    slot = player_slot(cluster, store, a)
    before = cluster.owner(slot)
    after = cluster.move_slot(slot)  # the client's map still names the old master: MOVED
    assert after != before
    await service.record_race(race("r2", (a, 1), (b, 2), finished_at=1_800_000_000_001))
    profile = await service.profile(a)
    assert profile.ratings["stalactites"].races == 2
    assert [r.room_id for r in (await service.history(a)).races] == ["r2", "r1"]
