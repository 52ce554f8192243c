"""The results log and the rooms' deadlines, kept in the store so that no finish is lost.

Two things every process shares, whatever dies when:

* **The results log**: each race the store ends is appended to it by the finish itself, in
  the same atomic step (on one Redis server; on a Cluster right after it, see
  :mod:`.redis`).  Any process takes entries (:meth:`ResultsLog.to_record`), stores
  every effect of the race (ratings, histories, the daily board, ...: each idempotent) and only
  then acknowledges the entry (:meth:`ResultsLog.recorded`).  An entry taken by a process that
  died is taken again by another once it has been pending ``claim_idle_ms``.
* **The deadlines**: every room with a deadline ahead (a quick race's time to connect, a
  countdown's end, a race's end) has its next one here, written before the deadline can pass,
  never later than it.  Any process takes the rooms that are due (:meth:`ResultsLog.take_due`,
  each leased for a while so that only one process looks at it) and advances them.  A finished
  room stays until its results are recorded: finding it due again puts it back in the log.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol

__all__ = ["Backlog", "Due", "Entry", "RECHECK_MS", "ResultsLog"]

RECHECK_MS = 60_000
"""A finished room's deadline: when it is looked at again if its results are not recorded by
then (its log entry lost, as when a process died between a Cluster's finish and its append)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of the results log: a room whose finished race is to be recorded."""

    entry_id: str
    room_id: str


@dataclass(frozen=True, slots=True)
class Backlog:
    """Entries not acknowledged yet, and how long the oldest has waited (ms; None: none)."""

    entries: int
    oldest_ms: int | None


class Due(enum.Enum):
    """How :meth:`ResultsLog.due` writes a room's deadline."""

    SET = "set"
    """Whatever was there."""
    EARLIER = "earlier"
    """Only if the room has none, or a later one (a countdown that may have begun already)."""
    KEPT = "kept"
    """Only if the room is still there (not recorded meanwhile); None takes it out."""


class ResultsLog(Protocol):
    async def to_record(self, consumer: str, count: int, claim_idle_ms: int | None) -> list[Entry]:
        """Entries for ``consumer`` to record: (with ``claim_idle_ms``) up to ``count`` taken
        that long ago or longer and not acknowledged, by any consumer, now its; and up to
        ``count`` never taken."""
        ...

    async def recorded(self, entry: Entry) -> None:
        """Every effect of the entry's race is stored: the entry goes, and the room's deadline."""
        ...

    async def record_again(self, room_id: str) -> None:
        """Append a finished room whose results are not recorded yet (its entry was lost)."""
        ...

    async def backlog(self, now_ms: int) -> Backlog: ...

    async def due(self, room_id: str, at_ms: int | None, how: Due = Due.SET) -> None:
        """Write the room's next deadline (unix ms); None: it has none (taken out)."""
        ...

    async def take_due(self, now_ms: int, lease_ms: int, count: int) -> list[str]:
        """Up to ``count`` rooms whose deadline has come, each put off ``lease_ms`` (taken:
        another process looks at it again only if this one has not written it by then)."""
        ...

    def wait_for_aof(self, on: bool) -> None:
        """Whether a race's finish returns only once it is in Redis's append-only file
        (``WAITAOF``, where the server has it: :mod:`.durable`); in memory, nothing."""
        ...
