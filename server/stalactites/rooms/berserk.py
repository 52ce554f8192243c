"""Berserk seats: an arena's racer who went berserk before the start races on half the
time, with no undo and no hints (``docs/tournaments.md``, "Arenas").

Who went berserk is the arena's to say (:data:`BerserkOf`, given by ``web/process.py``);
it is fixed once the race starts, so each process asks once per room, after the start.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from .settings import RoomSettings

__all__ = ["Berserk", "BerserkOf", "berserk_ends"]

BerserkOf = Callable[[str, str], Awaitable[frozenset[str]]]
"""(arena id, room id) -> the ids of the room's racers who went berserk."""

KNOWN_MOST = 10_000  # rooms remembered


def berserk_ends(starts_at: int, ends_at: int) -> int:
    """When a berserk racer's time is up: half the race's time after its start."""
    return starts_at + (ends_at - starts_at) // 2


class Berserk:
    """The berserk racers of the arena rooms raced here, asked for once the race is on."""

    def __init__(self) -> None:
        self.of: BerserkOf | None = None
        self._known: dict[str, frozenset[str]] = {}

    def known(self, room_id: str) -> frozenset[str]:
        """The room's berserk racers as this process knows them (none, if not asked yet)."""
        return self._known.get(room_id, frozenset())

    async def seats(self, room_id: str, settings: RoomSettings) -> frozenset[str]:
        """The room's berserk racers; call only once its race has started."""
        if settings.arena is None or self.of is None:
            return frozenset()
        found = self._known.get(room_id)
        if found is None:
            found = await self.of(settings.arena, room_id)
            if len(self._known) >= KNOWN_MOST:
                self._known.clear()
            self._known[room_id] = found
        return found
