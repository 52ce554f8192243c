"""The ghosts' store: the index of runs a ghost may be made of (see :mod:`stalactites.ghosts`).

Runs are indexed by pool (a game and its step policy, ``stalactites:choice``, ``squadron``)
and by whether they were won, each scored by the runner's shown rating when the race was
recorded.  :meth:`GhostStore.near` answers the runs of a pool whose score is within a window
of a rating, nearest first.  Indexing a run twice changes nothing but its score.

The index is bounded (:class:`IndexBounds`): a pool keeps at most ``per_deal`` runs of one deal
(a daily deal is raced by everyone: its oldest runs go as new ones come) and, of won runs and
of the others apart, at most ``per_band`` runs in each rating band of ``band`` points (the
oldest indexed go first), so a pool holds at most ``2 * per_band`` runs per band, whatever the
number of races recorded.

The store also keeps when each ghost race is next due (:meth:`GhostStore.set_due`), so that
every process can find the ghost races due, whether or not it serves their rooms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["DEFAULT_BOUNDS", "GhostStore", "IndexBounds", "IndexedRun"]


@dataclass(frozen=True, slots=True)
class IndexBounds:
    band: int = 100  # rating points of one band
    per_band: int = 50  # runs of one kind (won or not) kept per band of a pool
    per_deal: int = 8  # runs of one deal kept per pool
    deal_ttl_ms: int = 30 * 86_400_000  # Redis: a deal's count is forgotten this long after


DEFAULT_BOUNDS = IndexBounds()


@dataclass(frozen=True, slots=True)
class IndexedRun:
    room_id: str
    player_id: str  # the runner's seat, a persistent player's id
    rating: int  # the runner's shown rating in the run's game when it was recorded
    won: bool

    @property
    def member(self) -> str:
        return f"{self.room_id}|{self.player_id}"


class GhostStore(Protocol):
    async def add_run(self, pool: str, run: IndexedRun, deal: str, at_ms: int) -> None:
        """Index the run (on ``deal``, at ``at_ms``) in ``pool`` (again: only its score
        changes), then drop the oldest runs past the bounds (see the module)."""

    async def near(
        self, pool: str, rating: int, window: int, won: bool, limit: int
    ) -> list[IndexedRun]:
        """At most ``limit`` runs of ``pool`` (won or not) scored within ``window`` of
        ``rating``, nearest first (ties by room id)."""

    async def set_due(self, room_id: str, at_ms: int) -> None:
        """Note that the ghost race ``room_id`` is next due at ``at_ms`` (unix ms)."""

    async def drop_due(self, room_id: str) -> None:
        """The ghost race has nothing left due."""

    async def due(self, now_ms: int, limit: int) -> list[str]:
        """At most ``limit`` ghost races due by ``now_ms``, the most overdue first."""

    async def close(self) -> None: ...
