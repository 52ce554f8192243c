"""Fan-out within one process: a hub per room delivers its events to the local connections.

The store's doorbell (Redis pub/sub, or a call in memory) tells a hub the
newest seq; the hub fetches what it lacks from the stored event log (the
truth) and hands every subscriber each event after its own cursor, in order.
Events this process just stored are offered directly, saving the fetch.  A
hub also keeps the room's deadlines: it sleeps until the countdown or race
end and asks the rooms service to advance the room.  While spectators are
connected it holds their :class:`~stalactites.web.watch.Watch`, which it tells
of new events and of the race's end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from .. import logs
from ..clock import Clock
from ..room_events import event_type, with_seq
from ..store import RoomRow, Store
from .metrics import Histogram
from .watch import Watch

__all__ = ["Hub", "Hubs", "Subscriber"]

log = logging.getLogger(__name__)

RECENT = 512  # frames a hub keeps for subscribers that are a little behind
KNOWN = 64  # newest seqs whose arrival time a hub keeps (fan-out lag)
DEADLINE_EVENTS = ("countdown", "started", "results")
POLL_S = 0.5  # deadline timers re-read the clock at least this often


class Subscriber(Protocol):
    """A connection as a hub sees it."""

    cursor: int  # the last seq handed over
    behind: bool  # events after the cursor wait for room in its queue
    player_id: str | None
    connection_id: str

    def room_for_events(self) -> int:
        """How many more room events its send queue takes now."""
        ...

    def deliver(self, seq: int, frame: str) -> None:
        """Queue one room event frame (never blocks)."""
        ...

    def lost_track(self) -> None:
        """The event log no longer reaches back to ``cursor``: the subscriber must resync."""
        ...

    def stalled(self, now: float, limit_s: float) -> bool:
        """Whether its client has stopped reading (by the monotonic clock)."""
        ...

    def kick(self) -> None:
        """Disconnect it."""
        ...


Advance = Callable[[str], Awaitable[RoomRow]]


class Hub:
    def __init__(
        self,
        room_id: str,
        store: Store,
        advance: Advance,
        clock: Clock,
        lag: Histogram | None = None,
    ) -> None:
        self.room_id = room_id
        self.status: str | None = None  # as the deadline timer last read it
        self.subscribers: set[Subscriber] = set()
        self.idle_since: int | None = None
        self.watch: Watch | None = None  # made by the first spectator's connection
        self._store = store
        self._advance = advance
        self._clock = clock
        self._frames: dict[int, str] = {}
        self._top = 0  # the newest seq in _frames (0: none), kept: max() over them is O(n)
        self._latest = 0
        self._fetch = True
        self._lag = lag
        self._known: dict[int, float] = {}  # seq -> when this process learned of it (monotonic)
        self.inflight = 0  # this process's commits to the room under way
        self._wake = asyncio.Event()
        self._runner = logs.task(self._run(), f"hub:{room_id}", room_id=room_id)
        self._timer: asyncio.Task[None] | None = None
        self.schedule()

    def ring(self, seq: int) -> None:
        """The doorbell: the room has events up to ``seq`` (0: unknown, look in the store;
        negative: up to ``-seq``, stored by this process's commit, whose offer will come)."""
        self._learned(abs(seq))
        if seq < 0:
            self._latest = max(self._latest, -seq)  # no wake: the offer (or its failure) will
            return
        if self.watch is not None:
            self.watch.poke()
        if seq == 0:
            self._fetch = True
        self._latest = max(self._latest, seq)
        self._wake.set()

    def offer(self, stored: list[tuple[int, str]]) -> None:
        """Events this process has just stored."""
        for seq, event in stored:
            self._learned(seq)
            self._keep(seq, event)
        self._wake.set()
        if self.watch is not None:
            self.watch.poke()

    def _learned(self, seq: int) -> None:
        """Note when the events up to ``seq`` became known here (for the fan-out lag)."""
        if self._lag is None or seq <= self._latest:
            return
        now = time.monotonic()
        for each in range(max(self._latest + 1, seq - 8), seq + 1):
            self._known.setdefault(each, now)
        if len(self._known) > 2 * KNOWN:
            floor = seq - KNOWN
            self._known = {key: at for key, at in self._known.items() if key > floor}

    def wake(self) -> None:
        """Deliver again (a subscriber that was behind has room in its queue now)."""
        self._wake.set()

    def add(self, subscriber: Subscriber) -> None:
        self.subscribers.add(subscriber)
        self.idle_since = None
        self._wake.set()

    def discard(self, subscriber: Subscriber, now_ms: int) -> None:
        self.subscribers.discard(subscriber)
        if not self.subscribers:
            self.idle_since = now_ms

    async def close(self) -> None:
        tasks = [task for task in (self._runner, self._timer) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.watch is not None:
            await self.watch.close()

    def _keep(self, seq: int, event: str) -> None:
        if seq in self._frames or seq <= self._latest - RECENT:
            return
        self._frames[seq] = with_seq(seq, event)
        self._top = max(self._top, seq)
        self._latest = max(self._latest, seq)
        kind = event_type(event)
        if kind in DEADLINE_EVENTS:
            self.schedule()
        if kind == "results" and self.watch is not None:
            self.watch.race_over()
        if len(self._frames) > 2 * RECENT:
            floor = self._latest - RECENT
            self._frames = {seq: frame for seq, frame in self._frames.items() if seq > floor}
            self._top = max(self._frames, default=0)

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._deliver()
            except Exception:
                log.exception("room %s: delivering events failed; retrying", self.room_id)
                await asyncio.sleep(0.5)
                self._fetch = True
                self._wake.set()

    async def _deliver(self) -> None:
        if not self.subscribers:
            return
        await self._refresh()
        for subscriber in list(self.subscribers):
            if subscriber in self.subscribers:
                await self._catch_up(subscriber)

    async def _refresh(self) -> None:
        """Fetch, once for everyone, the newest events the recent frames lack."""
        top = self._top if self._frames else min(sub.cursor for sub in self.subscribers)
        if not self._fetch and (top >= self._latest or self.inflight):
            return  # nothing new, or its own commit will offer it (the bell can come first)
        self._fetch = False
        batch = await self._store.events_since(self.room_id, top, RECENT)
        self._latest = max(self._latest, batch.seq)
        for seq, event in batch.events:
            self._keep(seq, event)

    async def _catch_up(self, subscriber: Subscriber) -> None:
        """Hand over the events after the subscriber's cursor, as many as its queue takes; the
        rest wait until its writer has sent some (it wakes the hub).  A subscriber further
        behind than the recent frames reads from the store."""
        after = subscriber.cursor
        end = min(self._latest, after + subscriber.room_for_events())
        if self.inflight:  # the newest events are on their way from this process's commits
            end = min(end, max(self._top, after))
        frames = [(seq, self._frames.get(seq)) for seq in range(after + 1, end + 1)]
        if any(frame is None for _, frame in frames):
            batch = await self._store.events_since(self.room_id, after, end - after)
            if batch.gap:
                self.subscribers.discard(subscriber)
                subscriber.lost_track()
                return
            self._latest = max(self._latest, batch.seq)
            frames = [(seq, with_seq(seq, event)) for seq, event in batch.events]
            for seq, event in batch.events:
                self._keep(seq, event)
        for seq, frame in frames:
            if frame is None or seq != subscriber.cursor + 1:
                break
            subscriber.cursor = seq
            subscriber.deliver(seq, frame)
            self._lagged(seq)
        subscriber.behind = subscriber.cursor < self._latest

    def _lagged(self, seq: int) -> None:
        known = self._known.get(seq)
        if known is not None and self._lag is not None:
            self._lag.observe(time.monotonic() - known)

    # Deadlines.

    def schedule(self) -> None:
        """(Re)start the deadline timer from the room's stored state."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = logs.task(self._deadlines(), f"deadline:{self.room_id}", room_id=self.room_id)

    async def _deadlines(self) -> None:
        while True:
            try:
                row = await self._advance(self.room_id)
                self.status = row.status
                deadline = _next_deadline(row)
            except Exception:
                log.exception("room %s: advancing the room failed; retrying", self.room_id)
                deadline = self._clock.now_ms()
            if deadline is None:
                return
            if deadline <= self._clock.now_ms():  # it did not advance: try again shortly
                await asyncio.sleep(POLL_S)
                continue
            while (left := deadline - self._clock.now_ms()) > 0:
                await asyncio.sleep(min(left / 1000, POLL_S))


def _next_deadline(row: RoomRow) -> int | None:
    if row.status == "countdown":
        return row.starts_at
    if row.status == "racing":
        return row.ends_at
    return None


class Hubs:
    """This process's hubs by room, subscribed to the rooms' doorbells while they exist."""

    def __init__(
        self,
        store: Store,
        advance: Advance,
        clock: Clock,
        linger_ms: int,
        lag: Histogram | None = None,
    ) -> None:
        """``lag``, when given, gets the fan-out lag of every frame handed over."""
        self._store = store
        self._lag = lag
        self._advance = advance
        self._clock = clock
        self._linger_ms = linger_ms
        self._hubs: dict[str, Hub] = {}

    def __len__(self) -> int:
        return len(self._hubs)

    def get(self, room_id: str) -> Hub | None:
        return self._hubs.get(room_id)

    async def open(self, room_id: str) -> Hub:
        """The room's hub, made (and subscribed to the doorbell) if there is none; kept from
        closing until its subscribers have come and gone."""
        hub = self._hubs.get(room_id)
        if hub is None:
            hub = Hub(room_id, self._store, self._advance, self._clock, self._lag)
            self._hubs[room_id] = hub
            await self._store.subscribe(room_id, hub.ring)
        hub.idle_since = None
        return hub

    async def join(self, room_id: str, subscriber: Subscriber) -> Hub:
        hub = await self.open(room_id)
        hub.add(subscriber)
        return hub

    def leave(self, room_id: str, subscriber: Subscriber) -> None:
        hub = self._hubs.get(room_id)
        if hub is not None:
            hub.discard(subscriber, self._clock.now_ms())

    def offer(self, room_id: str, stored: list[tuple[int, str]]) -> None:
        hub = self._hubs.get(room_id)
        if hub is not None:
            hub.offer(stored)

    def expect(self, room_id: str, change: int) -> None:
        hub = self._hubs.get(room_id)
        if hub is not None:
            hub.inflight = max(hub.inflight + change, 0)
            if not hub.inflight:
                hub.wake()

    def statuses(self) -> dict[str, int]:
        """How many of this process's rooms are in each status (as last read)."""
        counts: dict[str, int] = {}
        for hub in self._hubs.values():
            if hub.status is not None:
                counts[hub.status] = counts.get(hub.status, 0) + 1
        return counts

    def subscribers(self) -> list[tuple[str, Subscriber]]:
        return [(room, sub) for room, hub in self._hubs.items() for sub in hub.subscribers]

    async def sweep(self) -> None:
        """Close hubs that have had no subscriber for a while."""
        now = self._clock.now_ms()
        for room_id, hub in list(self._hubs.items()):
            if hub.idle_since is not None and now - hub.idle_since >= self._linger_ms:
                del self._hubs[room_id]
                await self._store.unsubscribe(room_id, hub.ring)
                await hub.close()

    async def close(self) -> None:
        for room_id, hub in list(self._hubs.items()):
            del self._hubs[room_id]
            with contextlib.suppress(Exception):
                await self._store.unsubscribe(room_id, hub.ring)
            await hub.close()
