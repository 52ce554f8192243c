"""Expiry for the in-memory stores: what they hold is forgotten as the Redis store's keys are.

A Redis key expires ``ttl_ms`` after the last write that set its expiry (a room's after its
last change, a tournament's likewise).  :class:`Expiry` keeps, for each name, the time it is
due (by the server's clock, the one every store caller reads) and answers the names whose
time has come, oldest first; a refresh only moves a name's time, so the heap holds one entry
per name and a sweep costs nothing while nothing is due.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

__all__ = ["Expiry"]


class Expiry:
    """When each name (a room's or a tournament's id) is due to be forgotten."""

    def __init__(self, now_ms: Callable[[], int]) -> None:
        self.now_ms = now_ms
        self._due: dict[str, int] = {}
        self._heap: list[tuple[int, str]] = []  # (a time the name was due by, name)

    def refresh(self, name: str, ttl_ms: int) -> None:
        """The name is due ``ttl_ms`` from now (a later refresh moves it on)."""
        known = name in self._due
        self._due[name] = self.now_ms() + ttl_ms
        if not known:
            heapq.heappush(self._heap, (self._due[name], name))

    def forget(self, name: str) -> None:
        self._due.pop(name, None)  # its heap entry is dropped when it comes up

    def expired(self) -> list[str]:
        """The names whose time has come (each answered once, then forgotten)."""
        now, gone = self.now_ms(), []
        while self._heap and self._heap[0][0] <= now:
            _, name = heapq.heappop(self._heap)
            due = self._due.get(name)
            if due is None:
                continue
            if due > now:  # refreshed since: back in with its new time
                heapq.heappush(self._heap, (due, name))
                continue
            del self._due[name]
            gone.append(name)
        return gone
