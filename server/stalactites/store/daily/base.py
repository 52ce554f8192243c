"""The daily deal's store: each day's deal, who made the day's official attempt, the day's
leaderboard, the days each game had, and each player's days played (for the streak).

A day of a game is ``(game, date)``, the date an ISO UTC date (``2026-12-01``).  A player's
first attempt of a day to start is their official one: :meth:`DailyStore.claim`, called as
an attempt starts, decides it atomically (two attempts started at once from two tabs, on any
processes: one is official).  The
leaderboard holds official attempts once finished, ranked by :func:`rank_key`: a day has
two (:data:`DailyBoard`), the registered players' and, apart, the anonymous players'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

__all__ = ["DailyBoard", "DailyEntry", "DailyPage", "DailyStore", "rank_key", "streak_of"]

DailyBoard = Literal["ranked", "guests"]
"""A day's two boards: registered players' attempts, ranked; anonymous players', apart."""


@dataclass(frozen=True, slots=True)
class DailyEntry:
    """One finished official attempt."""

    player_id: str
    name: str
    room_id: str
    won: bool
    elapsed_ms: int
    foundation_cards: int
    finished_ms: int  # when the attempt finished (ties are broken by who finished first)


@dataclass(frozen=True, slots=True)
class DailyPage:
    entries: list[DailyEntry]
    total: int  # official attempts on the leaderboard that day


def rank_key(entry: DailyEntry) -> str:
    """The entry's place as text: sorted as text, the leaderboard's order (won before not
    won, then less time, then more foundation cards, then who finished first)."""
    cards = max(0, 999 - entry.foundation_cards)
    return (
        f"{0 if entry.won else 1}{entry.elapsed_ms:012d}{cards:03d}"
        f"{entry.finished_ms:015d}|{entry.player_id}"
    )


def streak_of(days: list[int], today: int) -> int:
    """Days in a row with an official attempt, ending today (or yesterday, while today's is
    still to come); ``days`` are day numbers (days since 1970-01-01), any order."""
    played = set(days)
    day = today if today in played else today - 1
    count = 0
    while day in played:
        count, day = count + 1, day - 1
    return count


class DailyStore(Protocol):
    async def close(self) -> None: ...

    async def keep_deal(self, game: str, date: str, deal: str) -> str:
        """Store the day's deal unless stored already: the stored one."""
        ...

    async def claim(self, game: str, date: str, player_id: str, room_id: str, day: int) -> str:
        """The player's official room of the day: ``room_id`` if it is the first of their
        attempts to start (claimed as it starts; atomically: one first however many start at
        once), else the earlier one.  Also notes the day among the game's days and the
        player's days (``day``: its number)."""
        ...

    async def official(self, game: str, date: str, player_id: str) -> str | None:
        """The player's official room of the day, if one of their attempts has started."""
        ...

    async def record(
        self, game: str, date: str, entry: DailyEntry, board: DailyBoard = "ranked"
    ) -> bool:
        """Put a finished attempt on one of the day's boards if it is the player's official
        one (once: a repeat changes nothing).  Whether it is there."""
        ...

    async def remove(self, game: str, date: str, player_id: str) -> None:
        """Take the player's attempt off the day's boards (fair play: a marked player)."""
        ...

    async def leaderboard(
        self, game: str, date: str, offset: int, limit: int, board: DailyBoard = "ranked"
    ) -> DailyPage:
        """The day's official attempts on one board in rank order, ``limit`` from ``offset``."""
        ...

    async def days(self, game: str, before: str | None, limit: int) -> list[str]:
        """The game's days with an attempt, newest first, before ``before`` (a date)."""
        ...

    async def player_days(self, player_id: str) -> list[int]:
        """The day numbers of the player's official attempts (any game)."""
        ...
