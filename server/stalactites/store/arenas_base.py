"""The arenas' store's interface: each arena one document changed by compare and set, and
the index of arenas by start.

An arena (:class:`stalactites.arenas.state.Arena` as JSON: its settings, entrants, pending
pairings and the races scored) is written only if nobody wrote in between (else read and
computed again): every change is a pure function of the arena read
(:mod:`stalactites.arenas.state`).  The organiser's admin token is kept hashed beside it.
A recurring arena's id names its slot, so creating it is done once however many processes
try (``create`` refuses an id taken).
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["ArenaStore"]


class ArenaStore(Protocol):
    async def create(
        self, arena_id: str, document: str, admin_hash: str, starts_ms: int, ttl_ms: int
    ) -> bool:
        """Store a new arena (version 1), kept ``ttl_ms``; False if the id is taken."""
        ...

    async def read(self, arena_id: str) -> tuple[str | None, int]:
        """The arena as JSON (None: none) and its version."""
        ...

    async def write(self, arena_id: str, document: str, version: int) -> bool:
        """Store the arena as version ``version + 1`` if the stored one is ``version`` still."""
        ...

    async def admin_hash(self, arena_id: str) -> str | None: ...

    async def starting(self, from_ms: int, until_ms: int, limit: int) -> list[str]:
        """Arenas starting in ``[from_ms, until_ms)``, the earliest first."""
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
