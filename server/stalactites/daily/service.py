"""The daily deal's attempts, leaderboard, archive and streaks, over a :class:`DailyStore`.

An attempt is a private solo room on the day's deal, tagged ``game|date|attempt`` in its
settings.  It is official, or practice, when its race starts, not when it is made: as its
player says ``ready`` (:meth:`DailyService.starting`, called by the rooms) the store claims
it as the player's official attempt of the day unless one has started already (atomic, on
any processes: the first to start is official).  An attempt not started by the end of its
day never starts (``day_over``), and a race started near midnight ends at midnight, so that
nobody plays a deal the archive has published.  When an official attempt's race ends, it
goes on the day's leaderboard (:meth:`DailyService.record_room`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ..clock import Clock
from ..protocol.room import Standing
from ..rooms import CreateRoom, RoomService
from ..rooms.deals import ChosenDeal
from ..rooms.errors import RoomError
from ..rooms.service import new_room_id
from ..store import DailyStore
from ..store.daily.base import DailyBoard, DailyEntry, DailyPage, streak_of
from .deal import DAILY_GAMES, DAY_MS, certified_daily, daily_seed, date_of, day_number, today

__all__ = ["Attempt", "BoardOf", "DailyService", "Today"]

BoardOf = Callable[[str, str], Awaitable[DailyBoard | None]]
"""Which of the day's boards a player's attempt in a room goes on: ``ranked`` (registered
players), ``guests`` (anonymous ones, apart), or None (kept off: fair play holds it)."""


async def _ranked(player_id: str, room_id: str) -> DailyBoard | None:
    return "ranked"


TIME_LIMIT_S = 900


@dataclass(frozen=True, slots=True)
class Today:
    date: str
    game: str
    step: str | None


@dataclass(frozen=True, slots=True)
class Attempt:
    room_id: str
    player_id: str
    token: str
    official: bool
    date: str


class DailyService:
    def __init__(self, store: DailyStore, rooms: RoomService, clock: Clock, secret: str) -> None:
        self.store, self.rooms, self.clock = store, rooms, clock
        self._secret = (secret or secrets.token_hex(32)).encode()
        self._deals: dict[tuple[str, str], ChosenDeal] = {}
        rooms.daily_start = self.starting  # its attempts' races start through this service
        self.board_of: BoardOf = _ranked  # set by the process (players, fair play)

    def today(self, game: str) -> Today:
        return Today(today(self.clock.now_ms()), game, DAILY_GAMES[game])

    async def secret_deals(self, games: set[str]) -> set[str]:
        """Today's deals of these games (those that have one): secret until the day is over,
        so no answer may name them (a history entry of an attempt finished today, say)."""
        found = set()
        for game in sorted(games & set(DAILY_GAMES)):
            found.add((await self.deal(game, self.today(game).date)).deal)
        return found

    async def deal(self, game: str, date: str) -> ChosenDeal:
        """The day's deal: this process's copy, the store's, or picked now (the same pick on
        every process with the same secret) and kept."""
        found = self._deals.get((game, date))
        if found is None:
            seed = daily_seed(self._secret, game, date)
            deal, lines = await self.rooms.solver.run(certified_daily, game, seed)
            kept = await self.store.keep_deal(game, date, json.dumps([deal, lines]))
            deal, lines = json.loads(kept)
            found = self._deals[(game, date)] = ChosenDeal(deal, True, lines)
            if len(self._deals) > 64:
                self._deals.pop(next(iter(self._deals)))
        return found

    async def attempt(self, game: str, player_id: str, name: str) -> Attempt:
        """A solo room on today's deal, the player seated.  ``official``: none of the player's
        attempts has started today, so this one is official if it is the first to start."""
        day = self.today(game)
        chosen = await self.deal(game, day.date)
        body = CreateRoom.model_validate(
            {"game": game, "step": day.step, "seats": 1, "time_limit_s": TIME_LIMIT_S}
            | {"countdown_s": 0}
            | {"private": True}
        )
        room_id = new_room_id()
        await self.rooms.create(body, chosen, room_id, f"{game}|{day.date}|attempt")
        token = self.seat_token(room_id, player_id)
        seat, token = await self.rooms.join(room_id, name, player_id, token)
        official = await self.store.official(game, day.date, player_id) is None
        return Attempt(room_id, seat, token, official, day.date)

    def seat_token(self, room_id: str, player_id: str) -> str:
        """The seat token of the player's attempt in that room, made again from the secret
        whenever asked: the server hands the player's own attempt back to their session on
        any tab or device (``GET /api/daily/{game}``), where no seat token was kept."""
        mac = hmac.new(self._secret, f"seat|{room_id}|{player_id}".encode(), hashlib.sha256)
        return mac.hexdigest()

    async def starting(self, room_id: str, tag: str, player_id: str) -> int:
        """The attempt's player said ``ready``: refused (``day_over``) once its day is over,
        else claimed as their official attempt if none has started (the store decides, once
        for all processes); when its race must end at the latest (the end of its day)."""
        game, date, _ = tag.split("|")
        if today(self.clock.now_ms()) > date:
            raise RoomError("day_over", f"the daily deal of {date} is over: make a new attempt")
        await self.store.claim(game, date, player_id, room_id, day_number(date))
        return (day_number(date) + 1) * DAY_MS

    async def record_room(self, room_id: str) -> None:
        """Put a finished official attempt on the day's board, once (an effect of the results
        log, :mod:`stalactites.results`); any other room is left alone (practice too: the
        store keeps the official one only), and one that is gone."""
        try:
            settings = await self.rooms.settings(room_id)
        except RoomError:
            return
        if settings.daily is None:  # the store puts the player's official attempt alone
            return
        game, date, _ = settings.daily.split("|")
        row = await self.rooms.load(room_id)
        if row.results_json is None:
            return
        for data in json.loads(row.results_json):
            line = Standing.model_validate(data)
            board = await self.board_of(line.player_id, room_id)
            if board is None:
                continue
            entry = DailyEntry(
                line.player_id,
                line.name,
                room_id,
                line.status == "won",
                line.elapsed_ms,
                line.foundation_cards,
                self.clock.now_ms(),
            )
            await self.store.record(game, date, entry, board)

    async def leaderboard(
        self, game: str, date: str, offset: int, limit: int, board: DailyBoard = "ranked"
    ) -> DailyPage:
        return await self.store.leaderboard(game, date, offset, limit, board)

    async def take_off(self, player_id: str) -> None:
        """Take the player's attempts off every day's boards (fair play: marked)."""
        for day in await self.store.player_days(player_id):
            date = date_of(day)
            for game in DAILY_GAMES:
                await self.store.remove(game, date, player_id)

    async def archive(self, game: str, before: str | None, limit: int) -> list[dict[str, object]]:
        """Past days (before today), newest first: the deal revealed, the winner, how many."""
        current = self.today(game).date
        bound = current if before is None or before > current else before
        days = []
        for date in await self.store.days(game, bound, limit):
            board = await self.store.leaderboard(game, date, 0, 1)
            guests = await self.store.leaderboard(game, date, 0, 1, "guests")
            winner = board.entries[0] if board.entries and board.entries[0].won else None
            days.append(
                {
                    "date": date,
                    "deal": (await self.deal(game, date)).deal,
                    "attempts": board.total + guests.total,
                    "winner": None if winner is None else entry_view(winner),
                }
            )
        return days

    async def official_room(self, game: str, player_id: str) -> str | None:
        """The player's official attempt today; once finished, it is (again: once) put on the
        board, in case the process that ended its race died before it could."""
        found = await self.store.official(game, self.today(game).date, player_id)
        if found is not None:
            try:
                await self.record_room(found)
            except RoomError:  # its room is gone (expired): nothing to put on the board
                pass
        return found

    async def streak(self, player_id: str) -> int:
        days = await self.store.player_days(player_id)
        return streak_of(days, day_number(today(self.clock.now_ms())))


def entry_view(entry: DailyEntry) -> dict[str, object]:
    """An entry as the HTTP answers show it (with its replay's address)."""
    return {
        "player_id": entry.player_id,
        "name": entry.name,
        "room_id": entry.room_id,
        "won": entry.won,
        "elapsed_ms": entry.elapsed_ms,
        "foundation_cards": entry.foundation_cards,
        "finished_ms": entry.finished_ms,
        "replay": f"#/replay/{entry.room_id}",
    }


def check_game(game: str) -> str:
    if game not in DAILY_GAMES:
        raise RoomError("bad_message", f"game: one of {sorted(DAILY_GAMES)}")
    return game
