"""The matchmaker: pairing steps, the rooms they make, and the sockets waiting in this process.

For each queue (a game and a step) with sockets waiting here, one :class:`_Watch` runs: it
renews the waiting sockets' leases, runs the store's pairing step at once when someone joins
and then every ``PAIR_PERIOD_S`` (every process does; the store's step is atomic, so each
pairing is made once, by whichever process ran it), makes the room of each pairing it made, and
once a second tells its sockets how long they have waited and how many are waiting.  A
``matched`` frame reaches a player's sockets on every process through the store's bell.

One quick race at a time: the store refuses to queue (or pair) a player who waits in another
queue or races in a quick race (a pairing's room, or a ghost race from the queue) until their
race is over: for them (their seat finished, or it never began within ``QUICK_CONNECT_MS``:
looked at when they queue again) or for everyone (the room's finish, on whichever process sees
it), or its time limit has passed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol, TypeVar

from ..clock import Clock
from ..config import ServerConfig
from ..engine import GameName
from ..players.ratings import displayed
from ..protocol.match import Matched, MatchedPlayer
from ..protocol.room import RoomStatus
from ..rooms import Play, RoomError, RoomService
from ..rooms.settings import QUICK_CONNECT_MS, CreateRoom, RoomSettings, new_salt
from ..store.players.base import PlayerRecord, Rating
from ..store.queue.base import (
    InQuickRace,
    Pairing,
    QueueEntry,
    QueueRefused,
    QueueStore,
    QuickRoom,
    Widening,
    queue_name,
)
from .addresses import address_key
from .deal_pool import DealPool
from .fallback import GhostFallback

__all__ = [
    "PAIR_PERIOD_S",
    "QUICK_COUNTDOWN_S",
    "RACE_GRACE_MS",
    "Matchmaker",
    "Waiter",
    "ends_by",
    "rating_of",
]

log = logging.getLogger(__name__)

PAIR_PERIOD_S = 0.25  # a queue's pairing step runs at least this often where sockets wait
QUICK_COUNTDOWN_S = 3  # a quick race's countdown, once every seat is connected
LOBBY_DEFAULT = (GameName.STALACTITES, "choice")  # the queue whose deals are dealt at start-up
RACE_GRACE_MS = 30_000  # a quick race is over at the latest this long after its time limit

T = TypeVar("T")


def rating_of(player: PlayerRecord, game: str) -> int:
    """The number the queue pairs by: the player's shown (conservative) rating in the game."""
    return displayed(player.ratings.get(game, Rating()))


def ends_by(settings: RoomSettings, made_ms: int) -> int:
    """When a quick race matched at ``made_ms`` is over at the latest: its seats' time to
    connect, its countdown and its time limit, and :data:`RACE_GRACE_MS`."""
    race_ms = (settings.countdown_s + settings.time_limit_s) * 1000
    return made_ms + QUICK_CONNECT_MS + race_ms + RACE_GRACE_MS


def _queue_of(settings: RoomSettings) -> str:
    step = settings.step if settings.game == GameName.STALACTITES else None
    return queue_name(settings.game, step, settings.pool)


class Waiter(Protocol):
    """A socket waiting in a queue (the match socket)."""

    player_id: str | None
    connection_id: str
    address: str  # the client's address (its host), as the socket sees it

    def queued(self, waited_ms: int, waiting: int) -> None: ...

    def matched(self, frame: str) -> None: ...

    def refused(self, refusal: QueueRefused) -> None:
        """No longer queued: the store refused to queue the player again (see the module)."""
        ...


class Matchmaker:
    def __init__(
        self,
        store: QueueStore,
        rooms: RoomService,
        play: Play,
        config: ServerConfig,
        clock: Clock,
        fallback: GhostFallback | None = None,
    ) -> None:
        self.store, self.rooms, self.config, self.clock = store, rooms, config, clock
        self.play = play
        rooms.on_quick_start = self.quick_started
        rooms.add_finish_listener(self._finished)
        self._tasks: set[asyncio.Task[None]] = set()
        self.fallback = fallback
        self.widening = Widening(
            config.match_window_base, config.match_window_per_s, config.match_anyone_after_s
        )
        share_ms = int(min(config.match_deal_share_s, QUICK_COUNTDOWN_S) * 1000)
        self.deals = DealPool(store, rooms.solver, config.match_deal_pool, share_ms, self.now)
        self._watches: dict[str, _Watch] = {}
        self.rooms_made = 0  # pairings this process made rooms of (for the bench)

    def start(self) -> None:
        """Start dealing the lobby's default queue's pool (the others' start with their first
        waiting socket here), so that a quick race's room waits for no solver."""
        self.deals.fill(*LOBBY_DEFAULT)

    async def _watch(self, game: str, step: str | None, pool: str = "") -> _Watch:
        step = (step or "choice") if game == GameName.STALACTITES else None
        queue = queue_name(game, step, pool)
        watch = self._watches.get(queue)
        if watch is None:
            watch = self._watches[queue] = _Watch(self, queue, game, step, pool)
            await watch.start()
        return watch

    async def join(
        self,
        waiter: Waiter,
        player: PlayerRecord,
        game: str,
        step: str | None,
        ghost: bool,
        pool: str = "",
    ) -> int | None:
        """Queue the waiter's player (its lease added to the player's entry): when they joined;
        None if the waiter got its ``matched`` frame at once (a race another tab of theirs was
        matched into and that has not finished, or a ghost race).  :class:`QueueRefused` when
        the player waits in another queue or races in a quick race (see the module)."""
        watch = await self._watch(game, step, pool)
        if await self._still_racing(watch, waiter):
            return None
        address = address_key(waiter.address)
        rating = rating_of(player, game)
        entry = QueueEntry(player.player_id, player.name, rating, self.now(), address)
        if ghost and not pool and await watch.ghost(player.player_id, [waiter], queued=False):
            return None
        return await watch.add(waiter, entry)

    async def ghost_now(self, waiter: Waiter, game: str, step: str | None, pool: str = "") -> bool:
        """A player already queued asks for a ghost at once: True if their sockets have the
        ``matched`` frame of one; else they stay queued, their place (and time) kept."""
        assert waiter.player_id is not None
        if pool:  # bots and marked players race no humans' ghosts
            return False
        watch = await self._watch(game, step, pool)
        return await watch.ghost_instead(waiter.player_id)

    async def ghost_ready(self, player_id: str, game: str, step: str | None) -> bool:
        """Whether another player's recorded run is there for this player to race (never on
        a server without ghost races): what ``queued`` frames say, so that a player alone in
        a new server's queue is not promised a ghost."""
        if self.fallback is None:
            return False
        step = (step or "choice") if game == GameName.STALACTITES else None
        return await self.fallback.has_run(player_id, game, step)

    async def waiting(self, game: str, step: str | None, pool: str = "") -> int:
        """How many wait in the queue now."""
        watch = await self._watch(game, step, pool)
        return (await self.store.status(watch.queue, "", self.now())).waiting

    async def _still_racing(self, watch: _Watch, waiter: Waiter) -> bool:
        """True if the waiter's player was matched in this queue into a race that is not over
        for them: the waiter has its ``matched`` frame.  A race over for them is forgotten."""
        assert waiter.player_id is not None
        frame = await self.store.take_result(watch.queue, waiter.player_id)
        if frame is None:
            return False
        room_id = Matched.model_validate_json(frame).room_id
        if await self._racing_in(room_id, waiter.player_id):
            waiter.matched(frame)
            return True
        await self.store.race_over(watch.queue, room_id, [waiter.player_id])
        return False

    async def _racing_in(self, room_id: str, player_id: str) -> bool:
        """Whether the player's race in that room is not over for them: the room not finished,
        their seat not finished, and the race begun or still within its time to connect."""
        try:
            row = await self.rooms.current(room_id)
        except RoomError:
            return False
        seat = next((one for one in row.players if one.player_id == player_id), None)
        if row.status == RoomStatus.FINISHED or seat is None or seat.finish is not None:
            return False
        return row.status != RoomStatus.WAITING or self.now() < row.created_ms + QUICK_CONNECT_MS

    async def admit(self, player_id: str, attempt: Callable[[], Awaitable[T]]) -> T:
        """A store step that refuses a player racing (:class:`InQuickRace`); when that race is
        over for them (:meth:`_racing_in`), they are marked free and it runs once more."""
        try:
            return await attempt()
        except InQuickRace as busy:
            if not busy.room_id or await self._racing_in(busy.room_id, player_id):
                raise
            settings = await self.rooms.settings(busy.room_id)
            await self.store.race_over(_queue_of(settings), busy.room_id, [player_id])
        return await attempt()

    def _finished(self, room_id: str) -> None:
        """A race has ended here (the rooms' finish listener): a quick race's players are free."""
        task = asyncio.create_task(self._race_over(room_id), name=f"race-over:{room_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _race_over(self, room_id: str) -> None:
        try:
            settings = await self.rooms.settings(room_id)
            if not settings.quick and settings.ghost is None:
                return
            players = [seat.player_id for seat in (await self.rooms.load(room_id)).players]
            await self.store.race_over(_queue_of(settings), room_id, players)
        except Exception:  # its players' marks run out with its time limit instead
            log.exception("room %s: its quick race's players were not freed", room_id)

    async def leave(self, waiter: Waiter, game: str, step: str | None, pool: str = "") -> bool:
        """Take the waiter out (its player's entry goes with their last socket)."""
        queue = queue_name(game, (step or "choice") if game == GameName.STALACTITES else None, pool)
        watch = self._watches.get(queue)
        return False if watch is None else await watch.remove(waiter)

    def now(self) -> int:
        return self.clock.now_ms()

    async def make_room(
        self, game: str, step: str | None, pairing: Pairing, pool: str = ""
    ) -> tuple[dict[str, str], QuickRoom]:
        """The pairing's room, rated, on a certified deal, a seat per player: each player's
        ``matched`` frame (JSON) by player id, and the room."""
        made_ms = self.now()
        seated = [(entry.player_id, entry.name) for entry in pairing.players]
        room_id, tokens, settings = await self.open_race(game, step, seated, True, pool)
        players = [
            MatchedPlayer(player_id=e.player_id, name=e.name, rating=e.rating)
            for e in pairing.players
        ]
        self.rooms_made += 1
        frames = {
            player_id: Matched(
                type="matched", room_id=room_id, token=token, players=players
            ).model_dump_json()
            for player_id, token in tokens.items()
        }
        return frames, QuickRoom(room_id, made_ms, ends_by(settings, made_ms))

    async def open_race(
        self,
        game: str,
        step: str | None,
        players: list[tuple[str, str]],
        rated: bool,
        pool: str = "",
        time_limit_s: int | None = None,
        arena: str | None = None,
    ) -> tuple[str, dict[str, str], RoomSettings]:
        """A private quick room on a certified deal with a seat for each ``(player_id,
        name)``, each ready once connected (a pairing's, a challenge's, an arena's): the
        room's id, each seat's token by player id, and its settings."""
        chosen = await self.deals.take(game, step)
        limit = {} if time_limit_s is None else {"time_limit_s": time_limit_s}
        body = CreateRoom(
            game=game,  # type: ignore[arg-type]
            step=step,  # type: ignore[arg-type]
            seats=len(players),
            rated=rated,
            countdown_s=QUICK_COUNTDOWN_S,
            **limit,  # type: ignore[arg-type]
        )
        settings = RoomSettings.resolve(body, chosen.deal, True, chosen.solution, new_salt())
        room_id = await self.rooms.open(
            settings.model_copy(
                update={"quick": True, "private": True, "pool": pool, "arena": arena}
            )
        )
        seats = await asyncio.gather(  # at once: each join is atomic in the store
            *(self.rooms.join(room_id, name, player_id) for player_id, name in players)
        )
        tokens = {
            player_id: token for (player_id, _), (_, token) in zip(players, seats, strict=True)
        }
        return room_id, tokens, settings

    async def quick_started(self, room_id: str) -> None:
        """A quick race has begun (the rooms service's ``on_quick_start``): every seat not
        connected now resigns (it did not connect within its time)."""
        row = await self.rooms.load(room_id)
        for player in row.players:
            if not player.connected and player.finish is None:
                with contextlib.suppress(RoomError):
                    await self.play.resign(room_id, player.player_id)

    async def close(self) -> None:
        for watch in list(self._watches.values()):
            await watch.close()
        self._watches.clear()
        for task in list(self._tasks):
            task.cancel()
        await self.deals.close()


class _Watch:
    """One queue's waiting sockets in this process, and its pairing step."""

    def __init__(
        self, maker: Matchmaker, queue: str, game: str, step: str | None, pool: str = ""
    ) -> None:
        self.maker, self.queue, self.game, self.step = maker, queue, game, step
        self.pool = pool
        self.waiters: dict[str, dict[str, Waiter]] = {}  # player id -> connection id -> waiter
        self.entries: dict[str, QueueEntry] = {}  # as the store keeps them
        self._poke = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def start(self) -> None:
        await self.maker.store.subscribe(self.queue, self._bell)
        self._task = asyncio.create_task(self._run(), name=f"queue:{self.queue}")
        self.maker.deals.fill(self.game, self.step)

    def _lease(self) -> int:
        return self.maker.now() + int(self.maker.config.match_lease_s * 1000)

    async def add(self, waiter: Waiter, entry: QueueEntry) -> int:
        assert waiter.player_id is not None
        self.waiters.setdefault(entry.player_id, {})[waiter.connection_id] = waiter
        try:
            kept = await self._enqueue(entry, waiter.connection_id)
        except QueueRefused:
            mine = self.waiters.get(entry.player_id, {})
            mine.pop(waiter.connection_id, None)
            if not mine:
                self.waiters.pop(entry.player_id, None)
            raise
        if kept is None:  # matched already, or about to be: the frame reaches this tab too
            self._spawn(self._deliver(entry.player_id))
            return entry.joined_ms
        self.entries[entry.player_id] = kept
        self._poke.set()
        return kept.joined_ms

    async def _enqueue(self, entry: QueueEntry, connection_id: str) -> QueueEntry | None:
        maker = self.maker
        lease, now = self._lease(), maker.now()
        return await maker.admit(
            entry.player_id,
            lambda: maker.store.enqueue(self.queue, entry, connection_id, lease, now),
        )

    async def remove(self, waiter: Waiter) -> bool:
        player_id = waiter.player_id
        mine = self.waiters.get(player_id or "", {})
        if player_id is None or mine.pop(waiter.connection_id, None) is None:
            return False
        if not mine:
            del self.waiters[player_id]
            self.entries.pop(player_id, None)
        return await self.maker.store.leave(self.queue, player_id, waiter.connection_id)

    def _bell(self, player_id: str) -> None:
        targets = [player_id] if player_id else list(self.waiters)
        for one in targets:
            if one in self.waiters:
                self._spawn(self._deliver(one))

    async def _deliver(self, player_id: str) -> None:
        frame = await self.maker.store.take_result(self.queue, player_id)
        if frame is None:
            return
        for waiter in list(self.waiters.pop(player_id, {}).values()):
            waiter.matched(frame)
        self.entries.pop(player_id, None)

    async def _run(self) -> None:
        last_tick = 0.0
        loop = asyncio.get_running_loop()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poke.wait(), PAIR_PERIOD_S)
            self._poke.clear()
            try:
                await self._pair()
                if loop.time() - last_tick >= 1.0:
                    last_tick = loop.time()
                    await self._tick()
            except Exception:
                log.exception("queue %s: the pairing step failed; trying again", self.queue)

    async def _pair(self) -> None:
        if not self.waiters:
            return
        maker = self.maker
        size = maker.config.match_room_size
        for pairing in await maker.store.pair(self.queue, maker.now(), maker.widening, size):
            self._spawn(self._settle(pairing))

    async def _settle(self, pairing: Pairing) -> None:
        try:
            frames, room = await self.maker.make_room(self.game, self.step, pairing, self.pool)
        except Exception:
            log.exception("queue %s: the room of pairing %s failed", self.queue, pairing.match_id)
            await self.maker.store.release(self.queue, pairing)  # its sockets queue them again
            return
        await self.maker.store.settle(self.queue, pairing.match_id, frames, room)

    async def _tick(self) -> None:
        """Renew the leases, queue again whoever was paired but never matched, and tell every
        waiting socket how long and how many."""
        store, now = self.maker.store, self.maker.now()
        until = self._lease()
        for player_id, mine in list(self.waiters.items()):
            for connection_id in list(mine):
                if not await store.touch(self.queue, player_id, connection_id, until):
                    await self._unqueued(player_id)
                    break
        if self.maker.fallback is not None:
            await self._ghosts(now)
        if not self.waiters:
            return
        status = await store.status(self.queue, "", now)
        for player_id, mine in list(self.waiters.items()):
            entry = self.entries.get(player_id)
            waited = 0 if entry is None else max(now - entry.joined_ms, 0)
            for waiter in list(mine.values()):
                waiter.queued(waited, status.waiting)

    async def _unqueued(self, player_id: str) -> None:
        """The store has no entry of this player's: matched (the frame is on its way), paired
        (the room is being made), or not at all (a pairing given up, a lease lost): queued
        again with their original time."""
        await self._deliver(player_id)
        store = self.maker.store
        entry = self.entries.get(player_id)
        if player_id not in self.waiters or entry is None:
            return
        if await store.paired(self.queue, player_id):
            return
        await self._requeue(player_id, entry)
        self._poke.set()

    async def _requeue(self, player_id: str, entry: QueueEntry) -> None:
        """Queue the player's waiters here again with their entry; if the store refuses (another
        tab queued them elsewhere, or they race), the waiters are told and let go."""
        try:
            for connection_id in list(self.waiters.get(player_id, {})):
                await self._enqueue(entry, connection_id)
        except QueueRefused as refusal:
            self.entries.pop(player_id, None)
            for waiter in list(self.waiters.pop(player_id, {}).values()):
                waiter.refused(refusal)

    async def ghost(self, player_id: str, waiters: list[Waiter], queued: bool) -> bool:
        """Race a ghost instead: True if the fallback made one and the player's sockets have
        its frame.  The player is held in the store first (out of the queue; with ``queued``,
        only if still queued here), so that no human pairing happens too, and marked racing
        in the ghost's room; none made, the hold is let go (and they are not queued)."""
        maker = self.maker
        if maker.fallback is None:
            return False
        now = maker.now()
        match_id = await maker.admit(
            player_id, lambda: maker.store.hold(self.queue, player_id, now, queued)
        )
        if match_id is None:  # paired or matched meanwhile: the frame is on its way
            return False
        matched = None
        try:
            matched = await maker.fallback.race_ghost(player_id, self.game, self.step)
        finally:
            if matched is None:
                alone = Pairing(match_id, (QueueEntry(player_id, "", 0, now),))
                await maker.store.release(self.queue, alone)
        if matched is None:
            return False
        frame = matched.model_dump_json()
        settings = await maker.rooms.settings(matched.room_id)
        room = QuickRoom(matched.room_id, now, ends_by(settings, now))
        told = [*self.waiters.pop(player_id, {}).values(), *waiters]
        self.entries.pop(player_id, None)
        await maker.store.settle(self.queue, match_id, {player_id: frame}, room)
        for waiter in told:
            waiter.matched(frame)
        return True

    async def _ghosts(self, now: int) -> None:
        """Waiters without a partner for ``match_ghost_after_s`` race a ghost, if there are
        ghosts (else they stay queued)."""
        after_ms = self.maker.config.match_ghost_after_s * 1000
        for player_id, entry in list(self.entries.items()):
            if now - entry.joined_ms >= after_ms:
                with contextlib.suppress(QueueRefused):  # queued here: never refused
                    await self.ghost_instead(player_id)

    async def ghost_instead(self, player_id: str) -> bool:
        """The queued player races a ghost: taken out of the queue, then matched with a ghost;
        or, none found, queued again as they were (True: the ghost race was made)."""
        entry = self.entries.get(player_id)
        if entry is None or player_id not in self.waiters:
            return False
        if await self.ghost(player_id, [], queued=True):
            return True
        if await self.maker.store.paired(self.queue, player_id):
            return False  # paired meanwhile: the matched frame is on its way
        await self._requeue(player_id, entry)
        return False

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(Exception):
            await self.maker.store.unsubscribe(self.queue, self._bell)
