"""The quick races' certified deals: a stock in the store, shared by every process, topped up
ahead by the solver's workers; a room is dealt a stocked deal no other room gets from the
stock, shares one only when the stock is empty, and waits for the solver only when there is
nothing to share.  Real solver workers, the in-memory store and the real Redis."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest

from conftest import REDIS_URL
from stalactites.engine import new_game
from stalactites.matchmaking.deal_pool import DealPool
from stalactites.solver.certify import certify
from stalactites.store.queue.base import QueueStore, queue_name
from stalactites.store.queue.memory import MemoryQueueStore
from stalactites.store.queue.redis import RedisQueueStore
from stalactites.workers import SolverPool

T0 = 1_700_000_000_000
Q = queue_name("stalactites", "choice")


@pytest.fixture(scope="module")
def solver() -> Iterator[SolverPool]:
    pool = SolverPool(1)
    yield pool
    pool.close()


@pytest.fixture(params=["memory", "redis"])
async def qstore(request: pytest.FixtureRequest, redis_prefix: str) -> AsyncIterator[QueueStore]:
    made: QueueStore
    if request.param == "memory":
        made = MemoryQueueStore(lambda: T0)
    else:
        made = RedisQueueStore(REDIS_URL, redis_prefix)
    yield made
    await made.close()


def pool(store: QueueStore, solver: SolverPool, depth: int, now: list[int]) -> DealPool:
    return DealPool(store, solver, depth, 3_000, lambda: now[0])


async def test_the_stock_is_certified_ahead_and_topped_up_after_each_room(
    qstore: QueueStore, solver: SolverPool
) -> None:
    deals = pool(qstore, solver, 4, [T0])
    deals.fill("stalactites", "choice")
    assert await deals.ready("stalactites", "choice") == 4
    chosen = await deals.take("stalactites", "choice")
    assert chosen.certified and chosen.solution is not None
    assert set(chosen.solution) == {"ones", "twos"}  # choice: won by both steps
    assert certify("stalactites", chosen.deal, "choice") is not None
    new_game("stalactites", chosen.deal, "ones")  # a deal id the engine reads
    assert await deals.ready("stalactites", "choice") == 4
    assert (deals.shared, deals.on_demand) == (0, 0)
    await deals.close()


async def test_two_processes_share_one_stock_and_never_deal_it_twice(
    redis_prefix: str, solver: SolverPool
) -> None:
    stores = [RedisQueueStore(REDIS_URL, redis_prefix) for _ in range(2)]
    pools = [pool(store, solver, 6, [T0]) for store in stores]
    for one in pools:
        one.fill("stalactites", "choice")
    counts = [await one.ready("stalactites", "choice") for one in pools]
    assert counts == [6, 6]  # one stock of 6, not 6 a process
    taken = await asyncio.gather(*(pools[n % 2].take("stalactites", "choice") for n in range(6)))
    assert len({one.deal for one in taken}) == 6
    assert sum(one.shared + one.on_demand for one in pools) == 0
    for one in pools:
        await one.close()
    for store in stores:
        await store.close()


async def test_an_empty_stock_shares_a_recent_deal_then_waits_for_the_solver(
    qstore: QueueStore, solver: SolverPool
) -> None:
    now = [T0]
    deals = pool(qstore, solver, 0, now)  # no stock kept: every room's deal on demand
    await qstore.stock_deals(Q, ['{"deal": "sr:7", "lines": {}}'], 1)
    assert (await deals.take("stalactites", "choice")).deal == "sr:7"
    now[0] += 2_999  # within the sharing time (the countdown): no room on it has begun
    assert (await deals.take("stalactites", "choice")).deal == "sr:7"
    assert deals.shared == 1
    now[0] += 1
    chosen = await deals.take("stalactites", "choice")
    assert chosen.deal != "sr:7" and certify("stalactites", chosen.deal, "choice") is not None
    assert deals.on_demand == 1
    await deals.close()
