"""Rooms from creation to results: joining, views, readiness, the start and the end.

Moves are :mod:`.play`'s job.  Every change goes through one atomic store
call; the deadlines (countdown end, race end) are checked here whenever a
room is read, and fired by the per-room timers of any process serving it,
and the store decides the one transition that happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from .. import room_events
from ..clock import Clock
from ..config import ServerConfig
from ..protocol.room import (
    PositionVerdict,
    RoomStatus,
    RoomView,
    SquadronBoard,
    StalactitesBoard,
    Standing,
    Welcome,
)
from ..store import (
    Commit,
    CommitOutcome,
    CommitResult,
    Due,
    Finish,
    FinishResult,
    JoinResult,
    NewRoom,
    RoomRow,
    Store,
)
from ..workers import SolverPool
from .berserk import Berserk, berserk_ends
from .boards import BoardCache, new_board
from .deals import ChosenDeal, pick_deal
from .errors import RoomError
from .event_sink import EventSink, Unfollowed
from .ghost_seat import label_standings
from .records import room_record
from .seats import check_seat, new_seat, seat_refusal
from .settings import (
    QUICK_CONNECT_MS,
    CreateRoom,
    RoomSettings,
    new_salt,
    next_deadline,
    quick_deadline,
)
from .solutions import Lines
from .standings import final_results
from .views import (
    DeletedPlayers,
    player_row,
    player_view,
    public_state,
    room_view,
    welcome_frame,
)
from .wire import legal_texts, wire_board

__all__ = [
    "FinishListener",
    "Rater",
    "RoomService",
    "player_row",
    "new_room_id",
    "token_hash",
]

log = logging.getLogger(__name__)

ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
FINISH_ATTEMPTS = 8

ReleasedBoards = tuple[dict[str, StalactitesBoard | SquadronBoard], dict[str, PositionVerdict]]
"""Every player's board as spectators may see it now, by player id (a welcome's ``boards``),
and whether each can still be won as known now (its ``board_verdicts``)."""


FinishListener = Callable[[str], None]
"""Told of each room whose race this process has just ended (the room id)."""

Rater = Callable[[RoomRow, RoomSettings, list[Standing], int], Awaitable[list[Standing]]]
"""Given a race's final standings just before they are stored (with the time), gives them
back with each persistent player's rating change (the players' outcome, fixed once)."""

DailyStart = Callable[[str, str, str], Awaitable[int]]
"""Told that a daily deal's attempt is about to start (room id, its ``daily`` tag, the
player): it refuses with a :class:`RoomError`, or answers when the race ends at the latest."""


def new_room_id() -> str:
    return secrets.token_urlsafe(9)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class RoomService:
    def __init__(
        self, store: Store, config: ServerConfig, clock: Clock, solver: SolverPool | None = None
    ) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        # The solver's worker processes: the process's, or (none given) the service's own.
        self._own_solver = solver is None
        self.solver = SolverPool(config.solver_workers) if solver is None else solver
        self._lines = Lines(self.solver)  # a kept room's winning lines, found again
        self.boards = BoardCache(store, self.settings, self.load)  # players' boards, here
        self._settings: dict[str, RoomSettings] = {}
        self._sink: EventSink = Unfollowed()
        self._finish_listeners: list[FinishListener] = []
        self.rater: Rater | None = None  # the ratings shown in the results (web/players/)
        self.deleted_players: DeletedPlayers | None = None  # unnamed in views (web/process.py)
        # A quick race has begun here (stalactites.matchmaking resigns its absent seats).
        self.on_quick_start: Callable[[str], Awaitable[None]] | None = None
        self.daily_start: DailyStart | None = None  # (stalactites.daily sets it)
        self.berserk = Berserk()  # an arena race's berserk racers (web/process.py: who)
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> int:
        return self.clock.now_ms()

    def set_sink(self, sink: EventSink) -> None:
        """Have ``sink`` follow every commit from now on."""
        self._sink = sink

    def add_finish_listener(self, listener: FinishListener) -> None:
        self._finish_listeners.append(listener)

    async def commit(self, commit: Commit) -> CommitResult:
        """Commit through the store, followed by the sink, which is handed the events and the
        action it stored; a commit that was the last player's finish ends the race."""
        with self._sink.committing(commit.room_id) as followed:
            result = await self.store.commit(commit)
            if result.outcome is CommitOutcome.APPLIED:
                followed.stored(result.events, result.action)
        if result.all_done:  # due now in the store too, should the finish here fail or die
            await self.store.results.due(commit.room_id, self.now(), Due.EARLIER)
            self.finalize_soon(commit.room_id)
        return result

    def finalize_soon(self, room_id: str) -> None:
        """End the race in the background if it is over (see :meth:`finalize`)."""
        self.spawn(self.finalize(room_id))

    def spawn(self, work: Any) -> None:
        """Run a coroutine in the background, keeping it alive until it ends."""
        task: asyncio.Task[None] = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._own_solver:
            self.solver.close()

    # Reading rooms.

    async def load(self, room_id: str) -> RoomRow:
        row = None
        well_formed = ROOM_ID.fullmatch(room_id) is not None
        if well_formed:
            row = await self.store.load_room(room_id, self.now())
        if row is None:  # an id that is no room id at all is not echoed back
            raise RoomError("room_not_found", f"no room {room_id!r}" if well_formed else "no room")
        if room_id not in self._settings:
            if len(self._settings) > 10_000:
                self._settings.clear()
            settings = RoomSettings.model_validate_json(row.settings_json)
            self._settings[room_id] = await self._lines.restored(settings)  # kept: lines again
        return row

    def known_settings(self, room_id: str) -> RoomSettings | None:
        """The room's settings if this process has them already (:meth:`settings` without
        a coroutine, for the path of every move)."""
        return self._settings.get(room_id)

    async def settings(self, room_id: str) -> RoomSettings:
        cached = self._settings.get(room_id)
        if cached is None:
            await self.load(room_id)
            cached = self._settings[room_id]
        return cached

    async def current(self, room_id: str) -> RoomRow:
        """The room after any deadline that has passed has had its effect, and a race that
        everyone has finished is over (its results may be missing if the process that stored
        the last finish died before storing them)."""
        row = await self.load(room_id)
        now = self.now()
        quick_by = quick_deadline(row, self._settings[room_id])
        if quick_by is not None and now >= quick_by:
            await self.ready_absent(row)
            row = await self.load(room_id)
        start_due = row.starts_at is not None and now >= row.starts_at
        if row.status == RoomStatus.COUNTDOWN and start_due:
            await self.start(row)
            row = await self.load(room_id)
        if row.status == RoomStatus.RACING and self._settings[room_id].arena is not None:
            row = await self._berserk_out(row, now)
        if row.status == RoomStatus.RACING and row.ends_at is not None:
            if now >= row.ends_at or all(player.finish is not None for player in row.players):
                await self.finalize(room_id)
                row = await self.load(room_id)
        return row

    def due(self, row: RoomRow) -> int | None:
        """When the room's next deadline falls (unix ms): :func:`.settings.next_deadline`, or
        sooner the end of a berserk racer's time (as far as this process knows of them)."""
        due = next_deadline(row)
        berserk = self.berserk.known(row.room_id)
        if not berserk or row.status != RoomStatus.RACING or row.starts_at is None or due is None:
            return due
        if any(p.finish is None and p.player_id in berserk for p in row.players):
            return min(due, berserk_ends(row.starts_at, due))
        return due

    async def _berserk_out(self, row: RoomRow, now: int) -> RoomRow:
        """The room with its berserk racers' races over once their half of the time is up."""
        assert row.starts_at is not None and row.ends_at is not None
        berserk = await self.berserk.seats(row.room_id, self._settings[row.room_id])
        ends = berserk_ends(row.starts_at, row.ends_at)
        late = [p.player_id for p in row.players if p.finish is None and p.player_id in berserk]
        if not late or now < ends:
            return row
        elapsed = ends - row.starts_at
        for player_id in late:
            for _ in range(FINISH_ATTEMPTS):
                result = await self.end_seat(row.room_id, player_id, "timeout", elapsed)
                if result.outcome is not CommitOutcome.CONFLICT:
                    break
        return await self.load(row.room_id)

    async def end_seat(
        self, room_id: str, player_id: str, finish: str, elapsed_ms: int
    ) -> CommitResult:
        """Store a racer's race as over (``finish``: resigned, timeout) with their board as
        it stands, ``elapsed_ms`` into the race; after a conflict their board is read again."""
        board_ = await self.boards.board(room_id, player_id)
        progress = board_.progress
        event = room_events.progress_event(
            player_id, progress.foundation_cards, progress.moves, finish, elapsed_ms
        )
        commit = Commit(
            room_id=room_id,
            player_id=player_id,
            expected_length=board_.length,
            action=None,
            client_id=None,
            progress=progress,
            finish=finish,
            elapsed_ms=elapsed_ms,
            now_ms=self.now(),
            progress_event=event,
        )
        result = await self.commit(commit)
        if result.outcome is CommitOutcome.CONFLICT:
            await self.boards.reload(room_id, player_id)
        return result

    async def view(self, room_id: str) -> RoomView:
        row = await self.current(room_id)
        return self._withheld(room_view(row, self._settings[room_id], await self._deleted(row)))

    async def _deleted(self, row: RoomRow) -> frozenset[str]:
        """The room's deleted players (none known without the players' store)."""
        known = self.deleted_players
        return frozenset() if known is None else await known.among(row, self._settings[row.room_id])

    def _withheld(self, view: RoomView) -> RoomView:
        """The view without the deal while it is a daily deal's secret."""
        if not self._settings[view.room_id].deal_withheld(self.now()):
            return view
        return view.model_copy(update={"deal": None, "salt": None, "solution": None})

    # Creating and joining.

    async def create(
        self,
        body: CreateRoom,
        chosen: ChosenDeal | None = None,
        room_id: str | None = None,
        daily: str | None = None,
    ) -> RoomView:
        """A new room from ``body``; ``chosen``: its deal, picked already (the daily deal's
        attempts), ``room_id`` fixed in advance, ``daily`` the attempt's tag (settings)."""
        if chosen is None and body.deal is not None:
            chosen = ChosenDeal(body.deal, False, None)
        elif chosen is None:
            chosen = await self.pick_deal(body.game, body.step)
        settings = RoomSettings.resolve(
            body, chosen.deal, chosen.certified, chosen.solution, new_salt()
        )
        if daily is not None:
            settings = settings.model_copy(update={"daily": daily})
        return await self.view(await self.open(settings, room_id))

    async def open(self, settings: RoomSettings, room_id: str | None = None) -> str:
        """Make a room with these settings (``room_id`` fixed in advance, or a new one); its
        id.  A private room is never listed."""
        room_id, now = room_id or new_room_id(), self.now()
        if settings.quick:  # its seats' time to connect ends even if no one is left to see it
            await self.store.results.due(room_id, now + QUICK_CONNECT_MS)
        room = NewRoom(
            room_id, settings.model_dump_json(), settings.seats, now, not settings.private
        )
        await self.store.create_room(room, self.config.room_ttl_s * 1000)
        self._settings[room_id] = settings
        return room_id

    async def pick_deal(self, game: str, step: str | None) -> ChosenDeal:
        """A certified deal, picked in a worker process of :attr:`solver`."""
        return await pick_deal(self.solver, game, step)

    async def join(
        self, room_id: str, name: str, owner: str | None = None, token: str | None = None
    ) -> tuple[str, str]:
        """Seat a new player: their id and their secret token (stored only as a hash).
        ``owner``: the persistent player's id, the seat's id too (None: a guest); ``token``:
        the seat's token, if the caller can make it again for its owner (a daily attempt's:
        :meth:`~stalactites.daily.DailyService.seat_token`), else a random one."""
        settings = await self.settings(room_id)
        check_seat(await self.load(room_id), settings, owner, name)
        player_id = owner or secrets.token_hex(8)
        token = token or secrets.token_urlsafe(32)
        player = new_seat(player_id, name, token_hash(token), self.now(), new_board(settings))
        joined = await self.store.join(room_id, player)  # checks both again, atomically
        if joined is JoinResult.ROOM_NOT_FOUND:
            raise RoomError("room_not_found", f"no room {room_id!r}")
        if joined is JoinResult.SEATS_RESERVED:
            raise RoomError("seats_reserved", "a tournament round's seats are its entrants'")
        if joined is JoinResult.ROOM_FULL:
            raise RoomError("room_full", "the room takes no more players: full or started")
        if joined is not JoinResult.JOINED:
            raise seat_refusal(joined, name)
        return player_id, token

    async def authenticate(self, room_id: str, token: str) -> str:
        """The player whose token this is; every player is compared, in constant time."""
        row = await self.current(room_id)
        digest = token_hash(token)
        found = None
        for player in row.players:
            if hmac.compare_digest(player.token_hash, digest):
                found = player.player_id
        if found is None:
            raise RoomError("unauthorized", "this token is not a player's in this room")
        return found

    # The start.

    async def ready(self, room_id: str, player_id: str) -> None:
        """Mark the player ready; a ready once the waiting is over is refused at once (a second
        ready while waiting changes nothing)."""
        await self._ready(await self.current(room_id), player_id)

    async def _ready(self, row: RoomRow, player_id: str) -> None:
        room_id = row.room_id
        settings = self._settings[room_id]
        player = player_row(row, player_id)
        if row.status == RoomStatus.FINISHED:
            raise RoomError("already_finished", "the race is over")
        if player.finish is not None:
            raise RoomError("already_finished", "you have finished this race")
        if row.status != RoomStatus.WAITING:
            raise RoomError("not_waiting", "the race has begun: everyone racing was ready")
        view = player_view(row.status, player).model_copy(update={"ready": True})
        latest = None
        if settings.daily is not None and self.daily_start is not None:
            latest = await self.daily_start(room_id, settings.daily, player_id)
        starts_at = self.now() + settings.countdown_s * 1000
        ends_at = starts_at + settings.time_limit_s * 1000
        ends_at = ends_at if latest is None else min(ends_at, latest)
        # Before the countdown can begin, so that its end is never missing from the store
        # (the store's sweep takes it out again if this ready began none).
        await self.store.results.due(room_id, starts_at, Due.EARLIER)
        answer = await self.store.ready(
            room_id,
            player_id,
            room_events.player_event(view),
            starts_at,
            ends_at,
            room_events.countdown_event(starts_at, ends_at),
        )
        if answer.code is not None:
            raise RoomError("already_finished", "the race is over")
        if answer.counting_down and settings.countdown_s == 0:
            await self.start(await self.load(room_id))

    async def start(self, row: RoomRow) -> None:
        """Begin a race whose countdown is over (only one caller anywhere succeeds)."""
        assert row.ends_at is not None
        game = new_board(self._settings[row.room_id])
        legal = [str(move) for move in game.generate_legal_moves()]
        event = room_events.started_event(public_state(game.state()), legal, row.ends_at)
        started = await self.store.start(row.room_id, self.now(), event)
        if not started:
            return
        await self.store.results.due(row.room_id, row.ends_at)  # was its start, now past
        if self._settings[row.room_id].quick and self.on_quick_start is not None:
            await self.on_quick_start(row.room_id)

    async def ready_absent(self, row: RoomRow) -> None:
        """A quick race's connecting time is over: every seat not yet ready (not connected) is
        made ready, so that the countdown begins; they are out when the race starts."""
        for player in row.players:
            if not player.ready:
                with contextlib.suppress(RoomError):
                    await self._ready(await self.load(row.room_id), player.player_id)

    # The end.

    async def finalize(self, room_id: str) -> list[Standing] | None:
        """End the race if everyone is done or time is up; the store lets one attempt win.
        The final standings if this call ended the race, else None."""
        for _ in range(FINISH_ATTEMPTS):
            row = await self.load(room_id)
            if row.status != RoomStatus.RACING or row.ends_at is None:
                return None
            done = all(player.finish is not None for player in row.players)
            if not done and self.now() < row.ends_at:
                return None
            result, standings = await self._finish(row)
            if result is FinishResult.FINISHED:
                for listener in self._finish_listeners:
                    listener(room_id)
                return standings
            if result is not FinishResult.CONFLICT:
                return None
        log.warning("room %s: could not finish after %d attempts", room_id, FINISH_ATTEMPTS)
        return None

    async def _finish(self, row: RoomRow) -> tuple[FinishResult, list[Standing]]:
        settings = self._settings[row.room_id]
        final = final_results(row)
        stored = (
            []
            if settings.large
            else [
                room_events.finished_event(line.player_id, line.place, line.elapsed_ms, "timeout")
                for line in final.timed_out
            ]
        )
        standings = label_standings(final.standings, settings.ghost)
        if settings.seats == 1 and settings.counts is None:  # solo practice: hints said
            standings = [
                line.model_copy(
                    update={"hints": await self.store.hints_given(row.room_id, line.player_id)}
                )
                for line in standings
            ]
        if self.rater is not None:
            standings = await self.rater(row, settings, standings, self.now())
        withheld = settings.deal_withheld(self.now())  # a daily deal's, during its day
        stored.append(room_events.results_event(standings, settings, withheld))
        results = json.dumps([line.model_dump() for line in standings])
        finish = Finish(row.room_id, row.version, self.now(), final.finishers, stored, results)
        return await self.store.finish(finish), standings

    # What a player sees.

    async def _resumed(self, row: RoomRow, last_seq: int | None) -> bool:
        """Whether a hello with this ``last_seq`` resumes: the event log still reaches it."""
        if last_seq is None or last_seq > row.seq:
            return False
        return not (await self.store.events_since(row.room_id, last_seq)).gap

    async def welcome(self, room_id: str, player_id: str, last_seq: int | None) -> Welcome:
        row = await self.current(room_id)
        resumed = await self._resumed(row, last_seq)
        state, legal = None, []
        if row.status in (RoomStatus.RACING, RoomStatus.FINISHED):
            game = (await self.boards.checked(room_id, player_id)).game
            state = wire_board(game)
            if row.status == RoomStatus.RACING and player_row(row, player_id).finish is None:
                legal = legal_texts(game)
        room = self._withheld(room_view(row, self._settings[room_id], await self._deleted(row)))
        return welcome_frame(row, room, player_id, last_seq, resumed, state, legal)

    async def spectator_welcome(
        self, room_id: str, last_seq: int | None, boards: Callable[[RoomRow], ReleasedBoards]
    ) -> Welcome:
        """A spectator's welcome; ``boards`` gives every board as spectators see them now (it is
        called last, with nothing awaited after it)."""
        row = await self.current(room_id)
        resumed = await self._resumed(row, last_seq)
        room = self._withheld(room_view(row, self._settings[room_id], await self._deleted(row)))
        released, verdicts = boards(row)
        return welcome_frame(
            row, room, None, last_seq, resumed, boards=released, board_verdicts=verdicts
        )

    async def record(self, room_id: str) -> dict[str, Any]:
        """Every player's game record, once the race is over."""
        row = await self.current(room_id)
        if row.status != RoomStatus.FINISHED:
            raise RoomError("not_started", "the records are shown once the race has finished")
        if self._settings[room_id].deal_withheld(self.now()):
            raise RoomError("not_finished", "a daily deal's records open once its day is over")
        deleted = await self._deleted(row)
        return await room_record(row, self._settings[room_id], self.store, deleted)

    async def kept_record(self, room_id: str) -> dict[str, Any] | None:
        """The finished room's record for the server's own use (fair play's assessment),
        a daily deal's during its day too: never shown; None unless the race is over."""
        row = await self.load(room_id)
        if row.status != RoomStatus.FINISHED:
            return None
        return await room_record(row, await self.settings(room_id), self.store)
