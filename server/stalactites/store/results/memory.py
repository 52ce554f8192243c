"""The in-memory store's results log and deadlines (one process; see :mod:`.base`)."""

from __future__ import annotations

from collections.abc import Callable

from .base import RECHECK_MS, Backlog, Due, Entry

__all__ = ["MemoryResults"]


class MemoryResults:
    """See :class:`~.base.ResultsLog`.  Nothing awaits, so each call is atomic."""

    def __init__(self, now_ms: Callable[[], int]) -> None:
        self._now_ms = now_ms
        self._entries: dict[str, str] = {}  # entry id -> room id, oldest first
        self._taken: dict[str, tuple[str, int]] = {}  # entry id -> (consumer, when)
        self._due: dict[str, int] = {}  # room id -> its next deadline
        self._count = 0

    def finished(self, room_id: str, now_ms: int) -> None:
        """A race ended (called by the store's finish, in the same step)."""
        self._append(room_id)
        self._due[room_id] = now_ms + RECHECK_MS

    def _append(self, room_id: str) -> None:
        self._count += 1
        self._entries[f"{self._now_ms()}-{self._count}"] = room_id

    async def to_record(self, consumer: str, count: int, claim_idle_ms: int | None) -> list[Entry]:
        now = self._now_ms()
        found: list[Entry] = []
        for entry_id, room_id in self._entries.items():
            if len(found) == count:
                break
            taken = self._taken.get(entry_id)
            if taken is None or (claim_idle_ms is not None and now - taken[1] >= claim_idle_ms):
                self._taken[entry_id] = (consumer, now)
                found.append(Entry(entry_id, room_id))
        return found

    async def recorded(self, entry: Entry) -> None:
        self._due.pop(entry.room_id, None)
        self._entries.pop(entry.entry_id, None)
        self._taken.pop(entry.entry_id, None)

    async def record_again(self, room_id: str) -> None:
        self._append(room_id)

    async def backlog(self, now_ms: int) -> Backlog:
        first = next(iter(self._entries), None)
        oldest = None if first is None else max(now_ms - int(first.split("-")[0]), 0)
        return Backlog(len(self._entries), oldest)

    async def due(self, room_id: str, at_ms: int | None, how: Due = Due.SET) -> None:
        there = self._due.get(room_id)
        if how is Due.KEPT and there is None:
            return
        if at_ms is None:
            self._due.pop(room_id, None)
        elif how is not Due.EARLIER or there is None or at_ms < there:
            self._due[room_id] = at_ms

    def wait_for_aof(self, on: bool) -> None:
        """Nothing to wait for: nothing is written to a file."""

    async def take_due(self, now_ms: int, lease_ms: int, count: int) -> list[str]:
        due = sorted((at, room_id) for room_id, at in self._due.items() if at <= now_ms)
        taken = [room_id for _, room_id in due[:count]]
        for room_id in taken:
            self._due[room_id] = now_ms + lease_ms
        return taken
