"""The arenas' store's interface: each arena's header (its settings and a version raised by
every change) and its parts: entrants (one document each), the free entrants, the pairings
whose rooms are being made, the races scored; the entrants' socket leases; the index of
arenas by start.

A change (:class:`ArenaChange`) is computed from the parts read (by
:mod:`stalactites.arenas.state`) and applied in one atomic step only if every entrant it
rewrites is as it was read, every pairing it ends is still there and the race it scores is
not scored yet; else nothing is written and it is read and computed again.  So two processes
never put one entrant in two races, and a race is scored once.  A recurring arena's id names
its slot, so creating it is done once however many processes try.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["ArenaChange", "ArenaParts", "ArenaStore"]


@dataclass(slots=True)
class ArenaChange:
    entrants: dict[str, tuple[str | None, str]] = field(default_factory=dict)  # id: (was, now)
    free: dict[str, int] = field(default_factory=dict)  # entrants free now, since when
    busy: list[str] = field(default_factory=list)  # entrants free no longer
    pending: dict[str, str] = field(default_factory=dict)  # pairings made: match id: document
    settled: list[str] = field(default_factory=list)  # pairings ended (seated or undone)
    scored: str | None = None  # the race scored
    rooms: int = 0  # races made

    def __bool__(self) -> bool:
        return bool(self.entrants or self.free or self.busy or self.pending or self.settled)


@dataclass(frozen=True, slots=True)
class ArenaParts:
    header: str  # the arena's settings (JSON)
    version: int
    rooms: int
    entrants: dict[str, str]  # those asked for: id: document
    pending: dict[str, str]
    scored: bool  # the race asked about is scored already
    count: int = 0  # entrants in all


class ArenaStore(Protocol):
    async def create(
        self, arena_id: str, header: str, admin_hash: str, starts_ms: int, ttl_ms: int
    ) -> bool:
        """Store a new arena, kept ``ttl_ms``; False if the id is taken."""
        ...

    async def read(
        self, arena_id: str, entrants: list[str] | None, room_id: str | None = None
    ) -> ArenaParts | None:
        """The arena's header, the entrants asked for (None: all), its pending pairings, and
        whether ``room_id`` is scored; None: no such arena."""
        ...

    async def free(self, arena_id: str) -> list[str]:
        """The entrants free now."""
        ...

    async def apply(self, arena_id: str, change: ArenaChange) -> bool:
        """Apply the change if what it was computed from still holds (see the module)."""
        ...

    async def admin_hash(self, arena_id: str) -> str | None: ...

    async def starting(self, from_ms: int, until_ms: int, limit: int) -> list[str]:
        """Arenas starting in ``[from_ms, until_ms)``, the earliest first."""
        ...

    async def lock(self, arena_id: str, owner: str, ms: int) -> bool:
        """Take the arena's pairing lock for ``ms`` unless another owner holds it: one
        process pairs an arena at a time (two at once would only undo each other's work)."""
        ...

    async def unlock(self, arena_id: str, owner: str) -> None:
        """Give the pairing lock back if ``owner`` holds it."""
        ...

    async def seen(self, arena_id: str, player_id: str, until_ms: int) -> None:
        """The player has an arena socket open until ``until_ms`` (a lease, renewed)."""
        ...

    async def gone(self, arena_id: str, player_id: str) -> None:
        """The player's last arena socket here closed."""
        ...

    async def present(self, arena_id: str, now_ms: int) -> set[str]:
        """The players whose lease lasts."""
        ...

    async def close(self) -> None: ...
