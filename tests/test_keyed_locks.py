"""A player's actions are handled one at a time: the keyed locks of ``rooms/boards.py``."""

from __future__ import annotations

import asyncio

import pytest

from stalactites.rooms.boards import KeyedLocks

KEY = ("room", "player")


async def test_holders_of_one_key_take_turns_first_come_first_served() -> None:
    order: list[str]
    locks, order = KeyedLocks(), []
    first_in, go_on = asyncio.Event(), asyncio.Event()

    async def first() -> None:
        async with locks.hold(KEY):
            first_in.set()
            await go_on.wait()
            order.append("first")

    async def later(name: str) -> None:
        async with locks.hold(KEY):
            order.append(name)

    tasks = [asyncio.create_task(first())]
    await first_in.wait()
    tasks += [asyncio.create_task(later(name)) for name in ("second", "third")]
    await asyncio.sleep(0)  # both are waiting now
    assert order == []
    go_on.set()
    await asyncio.gather(*tasks)
    assert order == ["first", "second", "third"]
    assert len(locks) == 0


async def test_other_keys_are_not_held_up() -> None:
    locks = KeyedLocks()
    async with locks.hold(KEY):
        async with locks.hold(("room", "other player")):
            assert len(locks) == 2
    assert len(locks) == 0


async def test_a_waiter_cancelled_neither_takes_nor_keeps_the_key() -> None:
    order: list[str]
    locks, order = KeyedLocks(), []
    async with locks.hold(KEY):
        waiter = asyncio.create_task(locks.hold(KEY).__aenter__())
        after = asyncio.create_task(_append(locks, order, "after"))
        await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
    await after
    assert order == ["after"]
    assert len(locks) == 0


@pytest.mark.parametrize("cancelled_first", [False, True], ids=["handed-first", "cancelled-first"])
async def test_a_waiter_cancelled_before_it_ran_hands_the_key_on(cancelled_first: bool) -> None:
    """The key let go to a waiter whose task is cancelled before it runs, in either order: the
    key goes on to the next waiter, and neither the release nor the cancelled waiter fails."""
    order: list[str]
    locks, order = KeyedLocks(), []
    holder = locks.hold(KEY)
    await holder.__aenter__()
    waiter = asyncio.create_task(_append(locks, order, "cancelled"))
    after = asyncio.create_task(_append(locks, order, "after"))
    await asyncio.sleep(0)
    if cancelled_first:
        waiter.cancel()  # its turn is cancelled now, its task runs later...
        await holder.__aexit__(None, None, None)  # ...after the key is let go
    else:
        await holder.__aexit__(None, None, None)  # the key goes to the first waiter...
        waiter.cancel()  # ...cancelled before it ran
    (ended,) = await asyncio.gather(waiter, return_exceptions=True)
    assert isinstance(ended, asyncio.CancelledError)
    await after
    assert order == ["after"]
    assert len(locks) == 0


async def _append(locks: KeyedLocks, order: list[str], name: str) -> None:
    async with locks.hold(KEY):
        order.append(name)


async def test_a_free_key_is_taken_at_once_and_a_held_one_is_not() -> None:
    order: list[str]
    locks, order = KeyedLocks(), []
    assert locks.take(KEY)
    assert not locks.take(KEY)
    assert not locks.take(KEY)  # refused twice, still held once
    waiter = asyncio.create_task(_append(locks, order, "waiter"))
    await asyncio.sleep(0)
    assert order == []
    locks.release(KEY)  # handed to the waiter of hold()
    assert not locks.take(KEY)
    await waiter
    assert order == ["waiter"]
    assert len(locks) == 0
    assert locks.take(KEY)
    locks.release(KEY)
    assert len(locks) == 0
