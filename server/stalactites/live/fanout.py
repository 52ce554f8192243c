"""Fan-out within one process: a stream of seq-numbered events (a room's, a tournament's),
delivered from the store's log to this process's subscribers, each after its own cursor.

A :class:`Stream` is one room's or one tournament's events in this process.  The store's
doorbell rings it with the newest seq and a :class:`~stalactites.store.rooms.base.Ring` saying why;
it fetches what it lacks from the stored log (the truth), once for all its subscribers, and
hands every subscriber each event after its cursor, in order, as many as its send queue takes
(the rest when its writer has sent some).  Events this process has just stored are handed over
by whoever stored them, saving the fetch: :meth:`Stream.offer`, or, for a room's commit, the
:class:`StreamCommit` that :meth:`Fanout.committing` gives it (with the action it stored, for
the hooks).  While any commit of this
process's is under way the stream fetches nothing newer than what it holds (the commit brings
it); when the last one ends it looks again, in case one failed after storing.  Which to do is
decided in one place, :meth:`Stream._should_fetch`.  On Redis a commit's doorbell carries the
events it stored (:class:`~stalactites.store.rooms.base.Carried`): every other process takes
them as offered, without a fetch, and the action it stored goes to the stream's hooks.

What a kind of stream does besides delivering (a room's deadlines and spectators' boards, a
tournament's standings) is its :class:`StreamHooks`.  A :class:`Fanout` holds the process's
streams of one kind by id, each subscribed to its doorbell while it exists.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import Any, Generic, Protocol, TypeVar

from .. import logs
from ..clock import Clock
from ..room_events import event_type, with_seq
from ..store import EventBatch
from ..store.rooms.base import ActionRow, Bell, Carried, Ring
from .metrics import FanoutLag, Histogram

__all__ = ["Fanout", "Source", "Stream", "StreamCommit", "StreamHooks", "Subscriber"]

log = logging.getLogger(__name__)

RECENT = 512  # frames a stream keeps for subscribers that are a little behind
RETRY_S = 0.5


class Subscriber(Protocol):
    """A connection as the fan-out (and the process's upkeep) sees it."""

    cursor: int  # the last seq handed over
    behind: bool  # events after the cursor wait for room in its queue
    player_id: str | None
    connection_id: str

    def room_for_events(self) -> int:
        """How many more events its send queue takes now."""

    def deliver(self, seq: int, frame: str) -> None:
        """Queue one event frame (never blocks)."""

    def send_text(self, text: str) -> None:
        """Queue any other frame (never blocks)."""

    def lost_track(self) -> None:
        """The event log no longer reaches back to ``cursor``: the subscriber must resync."""

    def stalled(self, now: float, limit_s: float) -> bool:
        """Whether its client has stopped reading (by the monotonic clock)."""

    def kick(self) -> None:
        """Disconnect it."""

    def cork(self) -> None:
        """Hold what is sent to it from now until :meth:`uncork` (one commit's frames)."""

    def uncork(self) -> None:
        """Send what was held, in one write where it can."""


class StreamHooks(Protocol):
    """What a kind of stream does besides delivering its events."""

    def news(self) -> None:
        """There are events newer than those handed over (rung for, or offered)."""

    def kept(self, kind: str | None) -> None:
        """An event of this type has come into the stream (each event once)."""

    def acted(self, count: int, row: ActionRow) -> None:
        """An action was stored as the ``count``-th of the room's action stream (as another
        process's commit's doorbell carried it, or this process's commit answered; each may
        come more than once, or never: a lost bell)."""

    def missed(self) -> None:
        """Bells may have been missed (the subscription was lost and made again): what they
        would have carried is to be read from the store."""

    def delivered(self) -> None:
        """Every subscriber has been handed what it could take of what is held."""

    async def close(self) -> None: ...


class Source(Protocol):
    """Where a kind of stream is stored: its event log and its doorbells."""

    async def events_since(self, stream_id: str, seq: int, limit: int, /) -> EventBatch: ...

    async def subscribe(self, stream_id: str, bell: Bell, /) -> None: ...

    async def unsubscribe(self, stream_id: str, bell: Bell, /) -> None: ...


HooksT = TypeVar("HooksT", bound=StreamHooks)


class Stream(Generic[HooksT]):
    """One stream's events in this process and the subscribers they go to.  ``hooks_for``
    makes its hooks (given the stream); ``lag``, when given, gets the fan-out lag of every
    frame handed over."""

    def __init__(
        self,
        kind: str,
        stream_id: str,
        source: Source,
        hooks_for: Callable[[Stream[HooksT]], HooksT],
        lag: Histogram | None = None,
    ) -> None:
        self.stream_id = stream_id
        self.subscribers: set[Subscriber] = set()
        self.idle_since: int | None = None  # ms: when the last subscriber left
        self._kind = kind
        self._source = source
        self._frames: dict[int, str] = {}
        self._top = 0  # the newest seq in _frames (0: none), kept: max() over them is O(n)
        self._latest = 0  # the newest seq known to be stored
        self._must_fetch = True  # look in the store whatever is known (new, resubscribed, failed)
        self._commits = 0  # this process's commits to the stream under way
        self._lag = None if lag is None else FanoutLag(lag)
        self._wake = asyncio.Event()
        self.hooks = hooks_for(self)
        fields = {f"{kind}_id": stream_id}
        self._runner = logs.task(self._run(), f"fanout:{kind}:{stream_id}", **fields)

    # What tells it of events.

    def ring(self, seq: int, ring: Ring, carried: Carried | None = None) -> None:
        """The doorbell: the stream has events up to ``seq``; a commit's may carry them."""
        if ring is Ring.NEWS and carried is not None:  # another process's commit: as stored here
            return self.committed(carried.events, carried.action)
        self._learned(seq)
        if ring is Ring.OUR_COMMIT:  # no wake: the commit hands them over (or, failing, ends)
            self._latest = max(self._latest, seq)
            return
        self.hooks.news()
        if ring is Ring.RESUBSCRIBED:
            self.hooks.missed()
            self._must_fetch = True
        self._latest = max(self._latest, seq)
        self._wake.set()

    def offer(self, stored: list[tuple[int, str]]) -> None:
        """Events this process has just stored: [(seq, event)], handed over at once."""
        for seq, event in stored:
            self._learned(seq)
            self._keep(seq, event)
        self.hooks.news()
        self._hand_over()

    def commit_began(self) -> None:
        self._commits += 1

    def committed(
        self, stored: list[tuple[int, str]], action: tuple[int, ActionRow] | None
    ) -> None:
        """A commit's events (:meth:`offer`) and its action (to the hooks), this process's or
        another's, each subscriber corked meanwhile: the events and the board the action shows
        spectators go to each in one write."""
        corked = list(self.subscribers)
        for subscriber in corked:
            subscriber.cork()
        try:
            self.offer(stored)
            if action is not None:
                self.hooks.acted(*action)
        finally:
            for subscriber in corked:
                subscriber.uncork()

    def commit_ended(self) -> None:
        self._commits = max(self._commits - 1, 0)
        if not self._commits and not self._settled():
            self._wake.set()  # a commit that failed after storing offered nothing: look

    def wake(self) -> None:
        """Deliver again (a subscriber that was behind has room in its queue now)."""
        self._wake.set()

    # Its subscribers.

    def add(self, subscriber: Subscriber) -> None:
        self.subscribers.add(subscriber)
        self.idle_since = None
        self._wake.set()

    def discard(self, subscriber: Subscriber, now_ms: int) -> None:
        self.subscribers.discard(subscriber)
        if not self.subscribers:
            self.idle_since = now_ms

    async def close(self) -> None:
        self._runner.cancel()
        await asyncio.gather(self._runner, return_exceptions=True)
        await self.hooks.close()

    # Delivering.

    def _learned(self, seq: int) -> None:
        if self._lag is not None and seq > self._latest:
            self._lag.learned(self._latest, seq)

    def _keep(self, seq: int, event: str) -> None:
        if seq in self._frames or seq <= self._latest - RECENT:
            return
        self._frames[seq] = with_seq(seq, event)
        self._top = max(self._top, seq)
        self._latest = max(self._latest, seq)
        self.hooks.kept(event_type(event))
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
                log.exception("%s %s: delivering events failed", self._kind, self.stream_id)
                await asyncio.sleep(RETRY_S)
                self._must_fetch = True
                self._wake.set()

    async def _deliver(self) -> None:
        if not self.subscribers:
            return
        await self._refresh()
        for subscriber in list(self.subscribers):
            if subscriber in self.subscribers:
                await self._catch_up(subscriber)
        self.hooks.delivered()

    def _hand_over(self) -> None:
        """Hand every subscriber the held events after its cursor, now, without a turn of the
        runner; what needs the store (or room in a queue) is left to the runner."""
        for subscriber in list(self.subscribers):
            self._hand(subscriber, self._top)
        self.hooks.delivered()
        if not self._settled():
            self._wake.set()

    def _settled(self) -> bool:
        """Whether the runner has nothing to do: every subscriber has every event known to be
        stored, or all but those a commit of this process's under way brings."""
        if self._must_fetch:
            return False
        known = self._top if self._commits else self._latest
        return all(subscriber.cursor >= known for subscriber in self.subscribers)

    def _hand(self, subscriber: Subscriber, end: int) -> None:
        """Hand over the held events after the subscriber's cursor up to ``end``, in order, as
        many as its queue takes; stops at the first not held."""
        end = min(end, subscriber.cursor + subscriber.room_for_events())
        seq = subscriber.cursor + 1
        while seq <= end and (frame := self._frames.get(seq)) is not None:
            subscriber.cursor = seq
            subscriber.deliver(seq, frame)
            if self._lag is not None:
                self._lag.delivered(seq)
            seq += 1
        self._mark(subscriber)

    def _mark(self, subscriber: Subscriber) -> None:
        """Behind: events after its cursor wait for room in its queue; not those that wait for
        a fetch or for a commit of this process's, which come without its client reading (else
        a busy room's subscribers would look stalled and be closed as too slow)."""
        subscriber.behind = subscriber.cursor < self._latest and subscriber.room_for_events() <= 0

    def _should_fetch(self, top: int) -> bool:
        """Whether to read the store for the events after ``top``: when told to look, or when
        newer ones are known to be stored and no commit of this process's will bring them."""
        return self._must_fetch or (top < self._latest and not self._commits)

    async def _refresh(self) -> None:
        """Fetch, once for everyone, the newest events the recent frames lack."""
        top = self._top if self._frames else min(sub.cursor for sub in self.subscribers)
        if not self._should_fetch(top):
            return
        self._must_fetch = False
        batch = await self._source.events_since(self.stream_id, top, RECENT)
        self._latest = max(self._latest, batch.seq)
        for seq, event in batch.events:
            self._keep(seq, event)

    async def _catch_up(self, subscriber: Subscriber) -> None:
        """Hand over the events after the subscriber's cursor, as many as its queue takes; the
        rest wait until its writer has sent some (it wakes the stream).  A subscriber further
        behind than the recent frames reads from the store."""
        after = subscriber.cursor
        end = min(self._latest, after + subscriber.room_for_events())
        if self._commits:  # the newest events are on their way from this process's commits
            end = min(end, max(self._top, after))
        frames = [(seq, self._frames.get(seq)) for seq in range(after + 1, end + 1)]
        if any(frame is None for _, frame in frames):
            batch = await self._source.events_since(self.stream_id, after, end - after)
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
            if self._lag is not None:
                self._lag.delivered(seq)
        self._mark(subscriber)


class StreamCommit:
    """One commit of this process's to a stream, followed as a context manager (the rooms
    service's :class:`~stalactites.rooms.service.FollowedCommit`): inside it the stream
    fetches nothing the commit brings; :meth:`stored` hands over the events and the action it
    stored."""

    __slots__ = ("_stream",)

    def __init__(self, stream: Stream[Any] | None) -> None:
        self._stream = stream  # None: no subscriber here, nobody to tell

    def __enter__(self) -> StreamCommit:
        if self._stream is not None:
            self._stream.commit_began()
        return self

    def stored(
        self, events: list[tuple[int, str]], action: tuple[int, ActionRow] | None = None
    ) -> None:
        if self._stream is not None:
            self._stream.committed(events, action)

    def __exit__(self, kind: object, *exc: object) -> None:
        if self._stream is not None:
            if kind is not None:  # failed, maybe after storing: its bell may not ring here
                self._stream.ring(0, Ring.RESUBSCRIBED)
            self._stream.commit_ended()


class Fanout(Generic[HooksT]):
    """This process's streams of one ``kind`` ("room", "tournament") by id, each subscribed to
    its doorbell while it exists.  A stream whose subscribers have all gone is closed once it
    has had none for ``linger_ms`` (by :meth:`sweep`), or at once if ``linger_ms`` is None."""

    def __init__(
        self,
        kind: str,
        source: Source,
        hooks_for: Callable[[Stream[HooksT]], HooksT],
        clock: Clock,
        linger_ms: int | None,
        lag: Histogram | None = None,
    ) -> None:
        """``lag``, when given, gets the fan-out lag of every frame handed over."""
        self._kind = kind
        self._source = source
        self._hooks_for = hooks_for
        self._clock = clock
        self._linger_ms = linger_ms
        self._lag = lag
        self._streams: dict[str, Stream[HooksT]] = {}

    def __len__(self) -> int:
        return len(self._streams)

    def streams(self) -> Iterator[Stream[HooksT]]:
        return iter(self._streams.values())

    async def open(self, stream_id: str) -> Stream[HooksT]:
        """The stream, made (and subscribed to the doorbell) if there is none; kept from
        closing until its subscribers have come and gone."""
        stream = self._streams.get(stream_id)
        if stream is None:
            stream = Stream(self._kind, stream_id, self._source, self._hooks_for, self._lag)
            self._streams[stream_id] = stream
            await self._source.subscribe(stream_id, stream.ring)
            # A joiner that came meanwhile may have read the store before the bell was heard
            # (and, on Redis, before this process's lease on it was taken): look again.
            stream.ring(0, Ring.RESUBSCRIBED)
        stream.idle_since = None
        return stream

    async def join(self, stream_id: str, subscriber: Subscriber) -> Stream[HooksT]:
        stream = await self.open(stream_id)
        stream.add(subscriber)
        return stream

    async def leave(self, stream_id: str, subscriber: Subscriber) -> None:
        stream = self._streams.get(stream_id)
        if stream is None:
            return
        stream.discard(subscriber, self._clock.now_ms())
        if not stream.subscribers and self._linger_ms is None:
            await self._close(stream_id, stream)

    def offer(self, stream_id: str, stored: list[tuple[int, str]]) -> None:
        """Events this process has just stored in the stream: [(seq, event)]."""
        stream = self._streams.get(stream_id)
        if stream is not None:
            stream.offer(stored)

    def committing(self, stream_id: str) -> StreamCommit:
        """A commit of this process's to the stream (see :class:`StreamCommit`)."""
        return StreamCommit(self._streams.get(stream_id))

    def subscribed(self, stream_id: str, subscriber: Subscriber) -> bool:
        stream = self._streams.get(stream_id)
        return stream is not None and subscriber in stream.subscribers

    async def sweep(self) -> None:
        """Close streams that have had no subscriber for a while."""
        now, linger_ms = self._clock.now_ms(), self._linger_ms or 0
        for stream_id, stream in list(self._streams.items()):
            if stream.idle_since is not None and now - stream.idle_since >= linger_ms:
                await self._close(stream_id, stream)

    async def _close(self, stream_id: str, stream: Stream[HooksT]) -> None:
        del self._streams[stream_id]
        with contextlib.suppress(Exception):
            await self._source.unsubscribe(stream_id, stream.ring)
        await stream.close()

    async def close(self) -> None:
        for stream_id, stream in list(self._streams.items()):
            await self._close(stream_id, stream)
