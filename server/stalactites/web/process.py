"""What one server process holds while it runs, made in the app's lifespan, never at import.

A :class:`Process` holds the stores (rooms', tournaments'), the services over them, this
process's fan-out of room and tournament events (:mod:`..live.fanout`), the spectator counts, the
tournament scheduler, the per-address limits, the metrics and the open websockets; its upkeep
disconnects stalled clients, renews presence leases and closes idle streams.  Rooms whose race
ends here are handed to the tournament whose round they are.  Routes and sockets reach it with
:func:`process_of`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import platform
import time
import uuid
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from starlette.requests import HTTPConnection

from ..arenas import Arenas
from ..arenas.schedule import Schedule, parse
from ..clock import Clock
from ..config import ServerConfig
from ..daily import DailyService
from ..fairplay.record import FairRecord
from ..fairplay.service import FairPlay
from ..friends import Friends
from ..friends.daily_notes import daily_beaten
from ..ghosts import GhostReplay, GhostService
from ..live.alarms import Alarms
from ..live.arena_feeds import Feeds
from ..live.arena_reminders import Reminders
from ..live.fanout import Fanout, Stream, Subscriber
from ..live.metrics import Metrics
from ..live.race_recording import RaceRecorder
from ..live.rooms.room_stream import RoomHooks
from ..live.rooms.spectator_count import SpectatorCount
from ..live.standings_feed import StandingsFeed, TournamentEvents
from ..live.tabs import Tabs
from ..matchmaking import GhostRaces, Matchmaker
from ..players import PlayerService
from ..protocol.room import RoomStatus
from ..results import Recorder, Sweep
from ..rooms import Play, RoomService
from ..rooms.analyses import Analyses
from ..rooms.seats import is_persistent
from ..rooms.views import DeletedPlayers
from ..store import open_stores
from ..store.daily.base import DailyBoard
from ..tournaments import Scheduler, TournamentService
from ..tournaments.rounds import tournament_of_room
from ..workers import SolverPool
from .connection import CLOSE_RESTART, Connection
from .limits import AddressBuckets, Limits
from .players.sign_in_limits import SignInLimits

__all__ = ["Process", "process_of", "running"]

log = logging.getLogger(__name__)

RENEWED_AT_ONCE = 64  # rooms whose leases the upkeep renews together
WALKED_AT_ONCE = 256  # rooms whose subscribers the stall check walks in one step


class Process:
    """Everything this process holds; :meth:`start` its background work, :meth:`close` it all."""

    def __init__(self, config: ServerConfig, clock: Clock) -> None:
        self.config, self.clock = config, clock
        self.metrics = Metrics()
        self.limits = Limits(config)  # per client address, in this process
        self.sockets: set[Connection[Any, Any]] = set()  # open websockets
        self._no_sockets = asyncio.Event()  # set whenever the last websocket has closed
        self._no_sockets.set()
        self.draining = False  # shutting down: no new websockets
        linger_ms = int(config.presence_ttl_s * 1000)
        self.alarms = Alarms(clock)  # the rooms' deadlines, ghosts and spectators' boards
        # Rooms.
        stores = open_stores(
            config.store_url,
            config.redis_prefix,
            config.max_events,
            config.redis_cluster,
            clock.now_ms,
        )
        self.store = stores.rooms
        self.store.results.wait_for_aof(config.durable_finish)
        self.solver = SolverPool(config.solver_workers)  # solver work, off the event loop
        self.rooms = RoomService(self.store, config, clock, self.solver)
        self.analyses = Analyses(self.rooms, self.solver)
        self.play = Play(self.rooms, self.rooms.boards, self.store, clock, self.rooms.berserk)
        self.room_fanout: Fanout[RoomHooks] = Fanout(
            "room", self.store, self._room_hooks, clock, linger_ms, self.metrics.fanout_seconds
        )
        self.rooms.set_sink(self.room_fanout)
        self.spectator_count = SpectatorCount(self.store, clock, linger_ms)
        # Tournaments.
        self.tournament_store = stores.tournaments
        self.tournaments = TournamentService(self.tournament_store, self.rooms, config, clock)
        self.scheduler = Scheduler(self.tournaments, clock)
        self.tournament_fanout: Fanout[StandingsFeed] = Fanout(
            "tournament", TournamentEvents(self.tournament_store), self._standings, clock, None
        )
        self.tournaments.add_sink(self.tournament_fanout.offer)
        # Players (web/players/): their races are rated and recorded as rooms finish.
        self.player_store = stores.players
        self.players = PlayerService(self.player_store, clock)
        self.races = RaceRecorder(self.players, self.rooms, clock)
        self.rooms.rater = self.races.rate
        self.rooms.deleted_players = DeletedPlayers(self.player_store.players_exist, clock)
        self.players.deletions.append(self.rooms.deleted_players.deleted)
        # Ghost races: runs indexed as races are recorded, ghosts replayed by room streams.
        self.ghost_store = stores.ghosts
        self.ghosts = GhostService(self.rooms, self.players, self.ghost_store)
        self.ghost_replay = GhostReplay(self.rooms, self.play, self.ghost_store)
        self.races.on_recorded(self.ghosts.index_race)
        # The daily deal (daily/): official attempts go on the day's leaderboard as they end.
        self.daily_store = stores.daily
        self.daily = DailyService(self.daily_store, self.rooms, clock, config.daily_secret)
        # Finished races recorded from the store's results log, by any process, exactly once
        # (stalactites.results): on players, the day's board, the round's tournament.  Rooms'
        # deadlines are kept in the store too, and advanced by any process.
        claim_ms = int(config.results_claim_s * 1000)
        consumer = f"{platform.node()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self.recorder = Recorder(
            self.store.results, consumer, clock, claim_ms, config.results_poll_s
        )
        # Fair play (fairplay/): every finished run assessed first, so that a run held is
        # never put on a board; the boards ask it before showing a player or a run.
        self.fairplay_store = stores.fairplay
        self.fairplay = FairPlay(
            self.fairplay_store, self.rooms, self.solver, clock, config.fairplay_holds
        )
        self.players.board_of = self.fairplay.board_of
        self.races.pool_of = self.fairplay.pool_of
        self.ghosts.hidden = self.fairplay.hidden
        self.daily.board_of = self._daily_board
        self.fairplay.boards_changed.append(self._fair_boards)
        self.recorder.add("fairplay", self.fairplay.assess_room)
        self.recorder.add("players", self.races.record_room)
        self.recorder.add("daily", self.daily.record_room)
        self.recorder.add("tournament", self.round_ended)
        self.rooms.add_finish_listener(self.recorder.wake)
        self.sweep = Sweep(self.rooms, clock, config.results_poll_s)
        # Quick races (stalactites.matchmaking): the queue in the store, pairings made here.
        self.queue_store = stores.queue
        self.matchmaker = Matchmaker(
            self.queue_store,
            self.rooms,
            self.play,
            config,
            clock,
            GhostRaces(self.ghosts, self.players),
        )
        # Friends (friends/): follows, presence, challenges, notifications; their channel's
        # frames handed to this process's open tabs.
        lease_ms = int(config.friends_lease_s * 1000)
        self.friends_store = stores.friends
        self.friends = Friends(
            self.friends_store,
            self.player_store,
            self.matchmaker,
            self.fairplay.pool_of,
            clock,
            lease_ms,
        )
        self.tabs = Tabs(self.friends, lease_ms)
        # Arenas (arenas/): paired, seated and scored by any process; their races scored as
        # an effect of the results log; the standing schedule made once.
        self.arena_store = stores.arenas
        self.arenas = Arenas(
            self.arena_store,
            self.rooms,
            self.matchmaker,
            clock,
            self.friends_store.publish,
            self.fairplay.hidden,
            self.ghosts,
        )
        self.rooms.berserk.of = self.arenas.berserk_of
        self.arena_feeds = Feeds(self.arenas, self._marked)
        self.arena_schedule = Schedule(self.arenas, parse(config.arena_schedule))
        self.arena_reminders = Reminders(self.arenas, self.friends.notes)
        self.recorder.add("arena", self.arenas.record_room)
        self.rooms.add_finish_listener(self._arena_race_over)
        self.recorder.add("friends", self._friends_room)
        self.players.deletions.append(self._forget_friend)
        self.rooms.add_finish_listener(self._race_over)
        self.sign_in_limits = SignInLimits(
            AddressBuckets(config.signin_address_rate, config.signin_address_burst),
            AddressBuckets(config.signin_username_rate, config.signin_username_burst),
        )
        self._upkeep: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._resume: asyncio.Task[None] | None = None
        self._ghosts: asyncio.Task[None] | None = None
        self._recording: asyncio.Task[None] | None = None
        self._sweeping: asyncio.Task[None] | None = None

    async def _daily_board(self, player_id: str, room_id: str) -> DailyBoard | None:
        """The day's board a player's attempt goes on: none while fair play keeps it off,
        the guests' for an anonymous player."""
        if not is_persistent(player_id) or await self.fairplay.hidden(player_id, room_id):
            return None
        record = await self.player_store.load_player(player_id)
        return "ranked" if record is not None and record.registered else "guests"

    async def _fair_boards(self, player_id: str, record: FairRecord) -> None:
        """Set every board from the player's fair-play record: the rating boards; a marked
        player's daily attempts off; runs decided on (cleared) back on the day's board, and their
        arena points counted."""
        await self.players.sync_boards(player_id)
        if record.marked:
            await self.daily.take_off(player_id)
            given = await self.players.refund_opponents(player_id)
            if given:
                log.info("player %s marked: %s given back", player_id, given)
            await self._tell_marked(player_id, record, given)
            return
        for run in record.runs:
            if run.held and not run.under_review:
                await self.daily.record_room(run.room_id)
                await self.arenas.cleared(player_id, run.room_id)

    async def _marked(self, player_ids: list[str]) -> set[str]:
        """Which of these players are marked (their arena points are removed)."""
        marked = await self.fairplay_store.members("marked", 0, 100_000)
        return {player_id for player_id, _ in marked} & set(player_ids)

    async def _friends_room(self, room_id: str) -> None:
        """A recorded race's effects on friends: recent opponents; a daily attempt's
        ``daily_beaten`` notes (see :mod:`stalactites.friends.daily_notes`)."""
        await self.friends.follows.record_room(self.rooms, room_id)
        await daily_beaten(self.friends, self.daily, self.rooms, room_id)

    async def racer_arrived(self, room_id: str, player_id: str) -> None:
        """A racer's socket joined their room: they are racing (for their followers) until
        the race ends, unless it is over."""
        if not is_persistent(player_id):
            return
        row = await self.rooms.current(room_id)
        if row.status == RoomStatus.FINISHED:
            return
        settings = await self.rooms.settings(room_id)
        until = (
            row.ends_at
            or self.clock.now_ms() + (settings.countdown_s + settings.time_limit_s + 60) * 1000
        )
        await self.friends.presence.racing(player_id, room_id, not settings.private, until)

    def _forget_friend(self, player_id: str) -> None:
        """A player deleted here: their lists, settings and notifications go too."""
        self._spawn(self.friends_store.forget(player_id), f"forget:{player_id}")

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _arena_race_over(self, room_id: str) -> None:
        """A race ended here: if it was an arena's, its racers are paired again at once."""
        self._spawn(self._arena_freed(room_id), f"arena-race-over:{room_id}")

    async def _arena_freed(self, room_id: str) -> None:
        try:
            await self.arenas.race_over(room_id)
        except Exception:  # (its scoring frees its racers instead)
            log.exception("room %s: its arena's racers were not freed at its end", room_id)

    def _race_over(self, room_id: str) -> None:
        """A race ended here (the rooms' finish listener): its racers are no longer racing."""
        self._spawn(self._not_racing(room_id), f"not-racing:{room_id}")

    async def _not_racing(self, room_id: str) -> None:
        try:
            for seat in (await self.rooms.load(room_id)).players:
                if is_persistent(seat.player_id):
                    await self.friends.presence.racing(seat.player_id, None, False, 0)
        except Exception:  # (their racing runs out with the race's time instead)
            log.exception("room %s: its racers' presence was not updated", room_id)

    async def _tell_marked(self, player_id: str, record: FairRecord, given: dict[str, int]) -> None:
        """A player marked: each of their reporters is told their report was acted on, each
        opponent given rating back is told how much (once each: the notes' ids)."""
        found = await self.player_store.load_player(player_id)
        about = {"player_id": player_id, "name": found.name if found is not None else ""}
        notes = self.friends.notes
        for report in record.reports:
            note_id = f"report:{report.report_id}"
            await notes.add(report.reporter_id, note_id, "report_acted", about)
        for opponent, points in given.items():
            refund = about | {"points": points}
            await notes.add(opponent, f"refund:{player_id}", "refund", refund)

    def _room_hooks(self, stream: Stream[RoomHooks]) -> RoomHooks:
        def started() -> None:  # the boards of the players here, before their first moves
            players = {sub.player_id for sub in stream.subscribers if sub.player_id is not None}
            try:
                self.play.race_started(stream.stream_id, players)
            except Exception:  # (the events go on; each first move reads its board instead)
                log.exception("room %s: the racers' boards were not made", stream.stream_id)

        return RoomHooks(
            stream.stream_id,
            self.rooms.current,
            self.alarms,
            self.ghost_replay.advance,
            started,
            self.rooms.due,
        )

    def _standings(self, stream: Stream[StandingsFeed]) -> StandingsFeed:
        return StandingsFeed(stream.stream_id, self.tournaments, stream.subscribers)

    def start(self) -> None:
        self._upkeep = asyncio.create_task(self.upkeep(), name="upkeep")
        resume = self.races.resume_forever(self.config.players_resume_s)
        self._resume = asyncio.create_task(resume, name="players-resume")
        self._ghosts = asyncio.create_task(self.ghost_replay.poll_forever(), name="ghosts-due")
        self._recording = asyncio.create_task(self.recorder.run_forever(), name="results")
        self._sweeping = asyncio.create_task(self.sweep.run_forever(), name="deadlines")
        self.solver.warm()
        self.scheduler.start()
        self.matchmaker.start()
        self.tabs.start()
        self.arena_feeds.start()
        if self.arena_schedule.lines:
            self.arena_schedule.repeating.start()
        self.arena_reminders.repeating.start()

    async def close(self) -> None:
        """Stop the background work and close the stores (tournaments first: they use rooms)."""
        await self.tournament_fanout.close()
        await self.scheduler.close()
        await self.tournament_store.close()
        for task in (self._upkeep, self._resume, self._ghosts, self._recording, self._sweeping):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.tabs.stop()
        await self.arena_feeds.stop()
        await self.arena_schedule.repeating.stop()
        await self.arena_reminders.repeating.stop()
        for task in list(self._background):
            task.cancel()
        await self.matchmaker.close()
        await self.queue_store.close()
        await self.room_fanout.close()
        self.alarms.close()
        await self.spectator_count.close()
        await self.rooms.close()
        await self.player_store.close()
        await self.ghost_store.close()
        await self.daily_store.close()
        await self.fairplay_store.close()
        await self.friends_store.close()
        await self.arena_store.close()
        await self.store.close()
        self.solver.close()

    async def round_ended(self, room_id: str) -> None:
        """A recorded race's effect: if it was a round, its tournament is due now (it counts
        the round once, from the rooms' results)."""
        tournament_id = tournament_of_room(room_id)
        if tournament_id is not None:
            await self.scheduler.now_due(tournament_id)

    # Websockets.

    async def serve_socket(self, socket: Connection[Any, Any]) -> None:
        """Run one websocket while the process runs; refused (1012) once it is draining."""
        if self.draining:
            await socket.websocket.close(CLOSE_RESTART)
            return
        self.sockets.add(socket)
        self._no_sockets.clear()
        try:
            await socket.serve()
        finally:
            self.sockets.discard(socket)
            if not self.sockets:
                self._no_sockets.set()
            log.info("websocket closed (%s)", socket.role, extra={"player_id": socket.player_id})

    def connections(self) -> dict[str, int]:
        """Open websockets by role."""
        counts: dict[str, int] = {}
        for socket in self.sockets:
            counts[socket.role] = counts.get(socket.role, 0) + 1
        return counts

    def room_statuses(self) -> dict[str, int]:
        """How many of the rooms served here are in each status (as their timers last read)."""
        counts: dict[str, int] = {}
        for stream in self.room_fanout.streams():
            status = stream.hooks.deadline.status
            if status is not None:
                counts[status] = counts.get(status, 0) + 1
        return counts

    async def drain(self, grace_s: float) -> None:
        """Close every websocket with 1012 (the server restarts) once the frame it is handling
        is answered, so that moves being committed finish; wait ``grace_s`` at most."""
        self.draining = True
        log.info("draining %d websockets", len(self.sockets))
        for socket in list(self.sockets):
            socket.restart()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._no_sockets.wait(), grace_s)
        for socket in list(self.sockets):  # still busy after the grace time: cut off
            socket.restart(now=True)

    # Upkeep.

    async def upkeep(self) -> None:
        """Forever: disconnect stalled clients (every half ``send_timeout_s``); renew the
        leases of this process's connections to rooms (every third of ``presence_ttl_s``);
        close idle room streams."""
        config = self.config
        renewal = max(config.presence_ttl_s / 3, 0.05)
        period = max(min(renewal, config.send_timeout_s / 2), 0.05)
        every = max(int(renewal // period), 1)  # periods between two renewals (not longer)
        for tick in itertools.count(1):
            await asyncio.sleep(period)
            try:
                await self._drop_stalled()
                if tick % every == 0:
                    await self._renew()
                await self.room_fanout.sweep()
            except Exception:
                log.exception("upkeep failed; trying again in %.1f s", period)

    async def _drop_stalled(self) -> None:
        """Disconnect the subscribers found stalled: each stream's set is walked as it is (no
        list of every subscriber is made), in batches of ``WALKED_AT_ONCE`` streams with a turn
        of the loop between them, so that a large walk never holds up racers' moves."""
        now, limit = time.monotonic(), self.config.send_timeout_s
        streams = list(self.room_fanout.streams())
        for start in range(0, len(streams), WALKED_AT_ONCE):
            if start:
                await asyncio.sleep(0)
            stalled = [
                subscriber
                for stream in streams[start : start + WALKED_AT_ONCE]
                for subscriber in stream.subscribers
                if subscriber.stalled(now, limit)
            ]
            for subscriber in stalled:
                subscriber.kick()

    async def _renew(self) -> None:
        """Renew the leases of players and spectators, one store call a room, ``RENEWED_AT_ONCE``
        rooms' calls to the store together (each batch's subscribers listed as it goes, not
        all of them first in one step of the loop); have spectator counts checked (a lease of
        another process's that ran out counts as leaving)."""
        until = self.clock.now_ms() + int(self.config.presence_ttl_s * 1000)
        streams = list(self.room_fanout.streams())
        for start in range(0, len(streams), RENEWED_AT_ONCE):
            some = [
                (stream.stream_id, list(stream.subscribers))
                for stream in streams[start : start + RENEWED_AT_ONCE]
                if stream.subscribers
            ]
            calls = (self._leases(room_id, subs, until) for room_id, subs in some)
            for (room_id, subscribers), failed in zip(
                some, await asyncio.gather(*calls, return_exceptions=True), strict=True
            ):
                if isinstance(failed, Exception):  # the others are renewed all the same
                    log.warning("room %s: leases not renewed: %s", room_id, failed)
                if any(subscriber.player_id is None for subscriber in subscribers):
                    self.spectator_count.changed(room_id)

    async def _leases(self, room_id: str, subscribers: list[Subscriber], until: int) -> None:
        """Renew one room's leases, but those whose connections have left since (their leases
        are dropped)."""
        here = [sub for sub in subscribers if self.room_fanout.subscribed(room_id, sub)]
        players = [(sub.player_id, sub.connection_id) for sub in here if sub.player_id is not None]
        watchers = [sub.connection_id for sub in here if sub.player_id is None]
        if players or watchers:
            await self.store.touch_leases(room_id, players, watchers, until)


@asynccontextmanager
async def running(config: ServerConfig, clock: Clock) -> AsyncIterator[Process]:
    """The process, its background work started; all of it undone on the way out."""
    process = Process(config, clock)
    process.start()
    try:
        yield process
    finally:
        await process.close()


def process_of(connection: HTTPConnection) -> Process:
    """The process serving a request or a websocket (the lifespan's state)."""
    process: Process = connection.state.process
    return process
