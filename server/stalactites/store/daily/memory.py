"""The daily deal's store in memory (see :mod:`.base`); every method runs without
awaiting, so each is atomic on one event loop."""

from __future__ import annotations

from dataclasses import dataclass, field

from .base import DailyBoard, DailyEntry, DailyPage, rank_key

__all__ = ["MemoryDailyStore"]


@dataclass
class _Day:
    deal: str | None = None
    official: dict[str, str] = field(default_factory=dict)  # player -> room
    board: dict[str, DailyEntry] = field(default_factory=dict)  # rank key -> entry
    guests: dict[str, DailyEntry] = field(default_factory=dict)  # the same, anonymous players


class MemoryDailyStore:
    def __init__(self) -> None:
        self._days: dict[tuple[str, str], _Day] = {}
        self._player_days: dict[str, set[int]] = {}

    def _day(self, game: str, date: str) -> _Day:
        return self._days.setdefault((game, date), _Day())

    async def close(self) -> None:
        pass

    async def keep_deal(self, game: str, date: str, deal: str) -> str:
        day = self._day(game, date)
        if day.deal is None:
            day.deal = deal
        return day.deal

    async def claim(self, game: str, date: str, player_id: str, room_id: str, day: int) -> str:
        official = self._day(game, date).official.setdefault(player_id, room_id)
        self._player_days.setdefault(player_id, set()).add(day)
        return official

    async def official(self, game: str, date: str, player_id: str) -> str | None:
        found = self._days.get((game, date))
        return None if found is None else found.official.get(player_id)

    async def record(
        self, game: str, date: str, entry: DailyEntry, board: DailyBoard = "ranked"
    ) -> bool:
        day = self._day(game, date)
        if day.official.get(entry.player_id) != entry.room_id:
            return False
        entries = day.board if board == "ranked" else day.guests
        if not any(kept.player_id == entry.player_id for kept in entries.values()):
            entries[rank_key(entry)] = entry
        return True

    async def remove(self, game: str, date: str, player_id: str) -> None:
        day = self._days.get((game, date))
        for entries in () if day is None else (day.board, day.guests):
            for key in [key for key, kept in entries.items() if kept.player_id == player_id]:
                del entries[key]

    async def leaderboard(
        self, game: str, date: str, offset: int, limit: int, board: DailyBoard = "ranked"
    ) -> DailyPage:
        day = self._days.get((game, date), _Day())
        entries = day.board if board == "ranked" else day.guests
        ranked = [entries[key] for key in sorted(entries)]
        return DailyPage(ranked[offset : offset + limit], len(ranked))

    async def days(self, game: str, before: str | None, limit: int) -> list[str]:
        dates = sorted(
            (date for (kind, date), day in self._days.items() if kind == game and day.official),
            reverse=True,
        )
        return [date for date in dates if before is None or date < before][:limit]

    async def player_days(self, player_id: str) -> list[int]:
        return sorted(self._player_days.get(player_id, set()))
