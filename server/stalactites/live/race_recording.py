"""Rooms' races recorded on their players: ratings in the results, histories, kept rooms.

When a race with persistent players (seats whose id is a player's, :mod:`..rooms.seats`)
ends, a room's or a tournament round's (an entrant with a session has the player's id as
their seat; the room's ``round_of`` names the round for the history), three steps, by
whichever process ends it:

1. :meth:`RaceRecorder.rate`, the room service's rater, called just before the results are
   stored: the race is made pending and its outcome fixed in the players' store (the first
   writer's, :func:`stalactites.players.recording.claim`), and each persistent player's
   ``rating_before``/``rating_after`` goes into the standings, so the results frame and the
   record show the change that will be applied, the same whoever stores them.  A rated
   room's race in which someone resigned without really playing, or nobody played
   (:func:`~stalactites.rooms.rating.no_real_play`), goes as unrated, and each change is
   weighted down for opponents met lately (:mod:`stalactites.players.ratings`): both are
   fixed here, in the outcome, once.
2. :meth:`RaceRecorder.record_room`, an effect of the results log (:mod:`stalactites.results`),
   run by any process once the room is stored finished: the room is kept for good (its
   history entries point at it) and :meth:`~stalactites.players.PlayerService.record_race`
   applies it, once per player; then the ghosts' index is told.
3. :meth:`RaceRecorder.resume_forever`, every ``STALACTITES_PLAYERS_RESUME_S``: any race left
   pending by a process that died between the steps is recorded and its room kept.

Every step is idempotent, so a race is applied exactly once however many processes run them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable

from ..clock import Clock
from ..engine import GameName, Stalactites
from ..players import PlayerService, RacePlayer, RaceResult
from ..players.races import RaceOutcome
from ..protocol.room import Standing
from ..rooms import RoomService
from ..rooms.boards import new_board, rebuild
from ..rooms.rating import no_real_play
from ..rooms.seats import is_persistent
from ..rooms.settings import RoomSettings
from ..store import RoomRow

__all__ = ["RaceRecorder"]

log = logging.getLogger(__name__)

Recorded = Callable[[RaceResult], Awaitable[None]]
"""Told of each race once it is recorded on its players (the ghosts' index)."""


async def _human(player_id: str) -> str:
    return ""


class RaceRecorder:
    def __init__(self, players: PlayerService, rooms: RoomService, clock: Clock) -> None:
        self.players, self.rooms, self.clock = players, rooms, clock
        self._recorded: list[Recorded] = []
        self.pool_of: Callable[[str], Awaitable[str]] = _human  # fair play's (set later)

    def on_recorded(self, listener: Recorded) -> None:
        self._recorded.append(listener)

    async def rate(
        self, row: RoomRow, settings: RoomSettings, standings: list[Standing], now: int
    ) -> list[Standing]:
        steps = await self.steps(row, settings, standings)
        result = race_result(row, settings, standings, now, steps)
        if result is None:
            return standings
        if result.rated and not await self._one_pool(standings):
            result = dataclasses.replace(result, rated=False)
        outcome = await self.players.claim_race(result)
        lines = []
        for line in standings:
            change = outcome.change(line.player_id)
            if change is not None:
                update = {"rated": True, "rating_before": change[0], "rating_after": change[1]}
                line = line.model_copy(update=update)
            lines.append(line)
        return lines

    async def _one_pool(self, standings: list[Standing]) -> bool:
        """Whether the race may be rated as fair play sees its players: all humans, or all
        bots (on their own board); never with a player marked by the moderators, and never
        bots against humans (nobody gains or loses against them)."""
        ids = [line.player_id for line in standings if is_persistent(line.player_id)]
        pools = set(await asyncio.gather(*(self.pool_of(pid) for pid in ids)))
        return pools <= {""} or pools == {"bots"}

    async def steps(
        self, row: RoomRow, settings: RoomSettings, standings: list[Standing]
    ) -> dict[str, str]:
        """Each persistent player's step under ``choice``: the one their board fixed (declared,
        ``step:ones``/``step:twos`` in their log, or by their first foundation play)."""
        if settings.game != GameName.STALACTITES or settings.step != "choice":
            return {}
        ids = [line.player_id for line in standings if is_persistent(line.player_id)]
        # At once: a tournament round may have hundreds of players with a session.
        logs = await asyncio.gather(*(self.rooms.store.read_log(row.room_id, pid) for pid in ids))
        steps = {}
        for player_id, log in zip(ids, logs, strict=True):
            board = rebuild(settings, log)
            name = board.step_name if isinstance(board, Stalactites) else None
            steps[player_id] = name if name in ("ones", "twos") else "none"
        return steps

    async def record_room(self, room_id: str) -> None:
        """Record a finished room's race on its players (an effect of the results log: run
        again, it changes nothing).  Its outcome was fixed by :meth:`rate` before the race was
        stored finished; none: no persistent player raced."""
        found = await self.players.store.outcome(room_id)
        if found is not None:
            await self._record(RaceOutcome.from_json(found[0]).result)

    async def _record(self, result: RaceResult) -> None:
        ids = [seat.player_id for seat in result.players if seat.player_id is not None]
        await self.rooms.store.keep_room(result.room_id, ids)
        await self.players.record_race(result)
        for listener in self._recorded:
            try:
                await listener(result)
            except Exception:  # an index is a hint: the race is recorded whatever it says
                log.exception("room %s: a listener of its recording failed", result.room_id)

    async def resume(self) -> int:
        """Record the races left pending (their rooms kept first); how many there were."""
        pending = await self.players.store.pending(100)
        for _room_id, text in pending:
            await self._record(RaceResult.from_json(text))
        return len(pending)

    async def resume_forever(self, period_s: float) -> None:
        while True:
            await asyncio.sleep(period_s)
            try:
                await self.resume()
            except Exception:
                log.exception("recording pending races failed; trying again in %.1f s", period_s)


def race_result(
    row: RoomRow,
    settings: RoomSettings,
    standings: list[Standing],
    now: int,
    steps: dict[str, str] | None = None,
) -> RaceResult | None:
    """The race as the players' service takes it (None: no persistent player in it);
    ``steps``: each player's own step where the room let them choose.  A rated room's race
    in which someone resigned without really playing is not rated
    (:func:`~stalactites.rooms.rating.no_real_play`)."""
    if not any(is_persistent(line.player_id) for line in standings):
        return None
    seats = {player.player_id: player for player in row.players}
    step = settings.step if settings.step in ("ones", "twos") else "none"
    players = tuple(
        RacePlayer(
            player_id=line.player_id if is_persistent(line.player_id) else None,
            name=seats[line.player_id].name if line.player_id in seats else line.name,
            place=line.place,
            status=line.status,
            elapsed_ms=line.elapsed_ms,
            foundation_cards=line.foundation_cards,
            step=(steps or {}).get(line.player_id, step),
        )
        for line in standings
    )
    ghost = None if settings.ghost is None else settings.ghost.history()
    hints = sum(line.hints for line in standings)
    return RaceResult(
        row.room_id,
        settings.game,
        settings.deal,
        now,
        settings.rated and not no_real_play(standings, new_board(settings).foundation_cards),
        players,
        settings.round_of,
        ghost,
        hints,
        settings.arena,
    )
