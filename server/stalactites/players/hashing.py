"""Password hashing off the event loop, a few at a time: a queue, not a pile.

An argon2id hash or verification takes 64 MiB and about 0.1 s of one core
(:mod:`.passwords`).  :class:`Hashing` runs each in a worker thread, at most ``at_once`` of
them at a time in this process; the others wait their turn, first come first served, holding
no memory but their request's.  A caller that gives up waiting (its client went away) leaves
the queue; one whose hash has started holds its place until the hash ends, so the bound holds
whatever the callers do.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import TypeVar

__all__ = ["HASHING_AT_ONCE", "Hashing"]

HASHING_AT_ONCE = 2  # password hashes running at once per process (128 MiB of argon2 memory)

T = TypeVar("T")


class Hashing:
    """Runs password work in worker threads, at most ``at_once`` at a time; ``running`` says
    how many run now and ``most`` the most that ever ran at once."""

    def __init__(self, at_once: int = HASHING_AT_ONCE) -> None:
        if at_once < 1:
            raise ValueError(f"at least one hash at a time, not {at_once!r}")
        self.at_once = at_once
        self.running = 0
        self.most = 0
        self._turns = asyncio.Semaphore(at_once)

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` in a worker thread, once a turn is free."""
        await self._turns.acquire()
        self.running += 1
        self.most = max(self.most, self.running)
        loop = asyncio.get_running_loop()
        done = loop.run_in_executor(None, functools.partial(work, *args))
        done.add_done_callback(self._finished)
        return await asyncio.shield(done)  # (cancelled: the thread still ends its turn)

    def _finished(self, done: asyncio.Future[T]) -> None:
        self.running -= 1
        self._turns.release()
        if not done.cancelled():
            done.exception()  # (read: a caller that gave up is not told, nor is the log)
