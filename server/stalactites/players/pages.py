"""Leaderboard pages a process has just read, kept for a moment (a cache: anything a process
holds is one).

A page of a board is the same for every reader, and the first pages are what most readers
ask for: :class:`RecentPages` keeps each page read (by game, offset and size) for
``ttl_ms`` of the service's clock, so that a crowd of readers costs one store read a page
a second.  What a player may see: a board changed by **another** process up to ``ttl_ms``
late (:data:`BOARD_PAGE_TTL_MS`, a second; no setting changes it); a change made by **this**
process (a race recorded, a rename, a registration, a deletion) drops every page at once,
and a read that began before such a change keeps nothing (the generation it began in is
gone), so a player never sees their own race missing from a page served by the process
that recorded it.  At most ``size`` pages are kept, the oldest dropped first.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

from ..clock import Clock

__all__ = ["BOARD_PAGE_TTL_MS", "RecentPages"]

BOARD_PAGE_TTL_MS = 1000
T = TypeVar("T")
Key = tuple[str, int, int]  # game, offset, size


class RecentPages(Generic[T]):
    def __init__(self, clock: Clock, ttl_ms: int = BOARD_PAGE_TTL_MS, size: int = 256) -> None:
        self._clock, self._ttl_ms, self._size = clock, ttl_ms, size
        self._pages: OrderedDict[Key, tuple[int, list[T]]] = OrderedDict()
        self.generation = 0  # raised by every change made here

    def get(self, key: Key) -> list[T] | None:
        """The page if read less than ``ttl_ms`` ago (a copy of the list), else None."""
        found = self._pages.get(key)
        if found is None or self._ttl_ms <= 0:
            return None
        if self._clock.now_ms() >= found[0]:
            del self._pages[key]
            return None
        return list(found[1])

    def put(self, key: Key, page: list[T], generation: int) -> None:
        """Keep ``page``, read from the store in ``generation`` (nothing if it has ended)."""
        if self._ttl_ms <= 0 or generation != self.generation:
            return
        self._pages[key] = (self._clock.now_ms() + self._ttl_ms, list(page))
        self._pages.move_to_end(key)
        while len(self._pages) > self._size:
            self._pages.popitem(last=False)

    def changed(self) -> None:
        """This process changed a board: every page read before is dropped."""
        self.generation += 1
        self._pages.clear()
