"""The word that an arena starts soon: each of its entrants is told, five minutes before its
start, in their notifications (and the tabs they have open).

Every process looks every :data:`LOOK_S` seconds for arenas starting within
:data:`REMIND_MS` and tells each one's entrants once; a notification's id names the arena, so
an entrant told by two processes has one.
"""

from __future__ import annotations

from ..arenas import Arenas
from ..friends.notes import Notes
from ..repeating import Repeating

__all__ = ["LOOK_S", "REMIND_MS", "Reminders"]

LOOK_S = 2.0
REMIND_MS = 5 * 60_000  # entrants are told this long before the start
KNOWN_MOST = 1_000  # arenas remembered as told here


class Reminders:
    def __init__(self, arenas: Arenas, notes: Notes) -> None:
        self.arenas, self.notes = arenas, notes
        self._told: set[str] = set()  # arenas whose entrants this process has told
        self.repeating = Repeating("arena-reminders", LOOK_S, self.remind)

    async def remind(self) -> None:
        """Tell the entrants of each arena starting within :data:`REMIND_MS` (once here)."""
        now = self.arenas.now()
        for arena_id in await self.arenas.store.starting(now + 1, now + REMIND_MS, 100):
            if arena_id in self._told:
                continue
            arena = await self.arenas.load(arena_id)
            about = {
                "arena_id": arena_id,
                "name": arena.settings.name,
                "starts_ms": arena.settings.starts_ms,
            }
            for player_id in arena.entrants:
                await self.notes.add(player_id, f"arena_soon:{arena_id}", "arena_soon", about)
            if len(self._told) >= KNOWN_MOST:
                self._told.clear()
            self._told.add(arena_id)
