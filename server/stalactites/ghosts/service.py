"""Ghost races: a new room on a run's deal with the run's ghost seated, for one racer.

:meth:`GhostService.race_this_run` makes the room of a chosen run (``POST
/api/rooms/{room_id}/ghost``); :meth:`GhostService.race_ghost` chooses a run from the index
that :meth:`GhostService.index_race` keeps as races are recorded, and makes its room: the entry
point of the quick-race queue when no human is matched.  Only runs that raced are indexed and
chosen (:func:`~.runs.raced`: ``MIN_MOVES`` moves, ``MIN_ELAPSED_MS``); a won run is chosen in
any rating window, the widest included, before a run not won in the nearest.
A ghost race is never rated; the racer's history says whose ghost it was (the room's settings
keep the run, :class:`~stalactites.rooms.ghost_seat.GhostSeat`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from .. import room_events
from ..players import PlayerService, RaceResult, displayed
from ..protocol.room import PlayerView, RoomStatus
from ..rooms import RoomError, RoomService
from ..rooms.boards import new_board
from ..rooms.ghost_seat import GhostSeat
from ..rooms.seats import is_persistent, new_seat, seat_view
from ..rooms.service import token_hash
from ..rooms.settings import RoomSettings, new_salt
from ..store import GhostStore, IndexedRun
from ..store.players.base import Rating
from .runs import ghost_seat, new_seat_id, pool_of, raced

__all__ = ["WINDOWS", "GhostService", "Matched"]

log = logging.getLogger(__name__)

WINDOWS = (100, 250, 500, 1000, 100_000)  # rating windows tried in turn: won runs in every one
CANDIDATES = 10  # runs not yet looked at, asked for in one window (then runs not won in each)


@dataclass(frozen=True, slots=True)
class Matched:
    """A racer's seat in a new ghost race: the room, the racer's seat token, every seat."""

    room_id: str
    token: str
    players: list[PlayerView]


Hidden = Callable[[str, str], Awaitable[bool]]
"""Whether a player's run in a room is kept off every board (fair play): never a ghost."""


async def _shown(player_id: str, room_id: str) -> bool:
    return False


class GhostService:
    def __init__(self, rooms: RoomService, players: PlayerService, index: GhostStore) -> None:
        self.rooms, self.players, self.index = rooms, players, index
        self.hidden: Hidden = _shown  # fair play's say on a run (set by the process)

    async def race_ghost(self, player_id: str, game: str, step: str | None) -> Matched | None:
        """A ghost race for the player on a run of another player that raced: a won run,
        nearest their rating in the narrowest window that has one, else a run not won, the
        same way; None when the index has none that can be raced."""
        record = await self.players.store.load_player(player_id)
        if record is None:
            return None
        rating = displayed(record.ratings.get(game, Rating()))
        pool = pool_of(game, step)
        for won in (True, False):
            tried: set[str] = set()
            for window in WINDOWS:  # nearest first: the runs tried come first again
                runs = await self.index.near(pool, rating, window, won, len(tried) + CANDIDATES)
                for run in runs:
                    if run.member in tried:
                        continue
                    tried.add(run.member)
                    matched = await self._race_indexed(run, player_id)
                    if matched is not None:
                        return matched
        return None

    async def _race_indexed(self, run: IndexedRun, racer_id: str) -> Matched | None:
        """The race of an indexed run, or None: the racer's own, gone, or not a run that
        raced (indexed before the minimums were)."""
        if run.player_id == racer_id:
            return None
        try:
            return await self.race_this_run(run.room_id, run.player_id, racer_id, raced_only=True)
        except RoomError as error:
            log.info("ghost run %s skipped: %s", run.member, error.code)
            return None

    async def race_this_run(
        self,
        source_room_id: str,
        source_player_id: str,
        racer_id: str,
        *,
        raced_only: bool = False,
        arena: str | None = None,
    ) -> Matched:
        """A new room on the run's deal with its ghost ready and the racer seated; with
        ``raced_only``, refused (``run_not_found``) for a run that has not raced; ``arena``:
        an arena's race (a lone entrant's, :mod:`stalactites.arenas`)."""
        source = await self.rooms.current(source_room_id)
        if source.status != RoomStatus.FINISHED:
            raise RoomError("not_finished", "the race of that run has not finished")
        if await self.hidden(source_player_id, source_room_id):
            raise RoomError("run_not_found", "that run is not raced as a ghost")
        record = await self.rooms.record(source_room_id)
        ghost = ghost_seat(record, source_player_id, racer_id, new_seat_id(), raced_only=raced_only)
        settings = ghost_room(await self.rooms.settings(source_room_id), ghost, arena)
        room_id = await self.rooms.open(settings)
        await self._seat_ghost(room_id, settings, ghost)
        name = (await self.players.names_of([racer_id]))[racer_id]
        _, token = await self.rooms.join(room_id, name, racer_id)
        await self.index.set_due(room_id, self.rooms.now())  # every process looks after it
        view = await self.rooms.view(room_id)
        return Matched(room_id, token, view.players)

    async def _seat_ghost(self, room_id: str, settings: RoomSettings, ghost: GhostSeat) -> None:
        deal, seat_id, name = new_board(settings), ghost.seat_id, ghost.name
        now, secret = self.rooms.now(), token_hash(new_salt())  # nobody holds its token
        seat = new_seat(seat_id, name, secret, now, deal, connected=True, ghost_of=name)
        await self.rooms.store.join(room_id, seat)
        view = seat_view(seat_id, name, deal, ready=True, connected=True, ghost_of=name)
        ready = room_events.player_event(view)
        await self.rooms.store.ready(room_id, seat_id, ready, now, now, "")  # never last

    async def index_race(self, result: RaceResult) -> None:
        """Index each persistent player's run of a recorded race on a certified deal, if it
        raced (:func:`~.runs.raced`)."""
        settings = await self.rooms.settings(result.room_id)
        if not settings.certified:
            return
        pool = pool_of(settings.game, settings.step)
        row = await self.rooms.current(result.room_id)
        moves = {player.player_id: player.progress.moves for player in row.players}
        for seat in result.players:
            if seat.player_id is None or not is_persistent(seat.player_id):
                continue
            if not raced(moves.get(seat.player_id, 0), seat.elapsed_ms):
                continue
            if await self.hidden(seat.player_id, result.room_id):  # held, or its player marked
                continue
            record = await self.players.store.load_player(seat.player_id)
            if record is None:
                continue
            rating = displayed(record.ratings.get(result.game, Rating()))
            run = IndexedRun(result.room_id, seat.player_id, rating, seat.status == "won")
            await self.index.add_run(pool, run, settings.deal, self.rooms.now())


def ghost_room(source: RoomSettings, ghost: GhostSeat, arena: str | None = None) -> RoomSettings:
    """A ghost race's room on the source room's deal and rules: two seats, a new salt, the
    ghost's; never rated, listed, a daily attempt, a round or a quick race again (a quick
    race's start puts out every seat not connected, and a ghost never connects), nor an
    arena's race but for ``arena``'s."""
    return source.model_copy(
        update={
            "seats": 2,
            "salt": new_salt(),
            "rated": False,
            "ghost": ghost,
            "private": True,
            "daily": None,
            "round_of": None,
            "quick": False,
            "arena": arena,
        }
    )
