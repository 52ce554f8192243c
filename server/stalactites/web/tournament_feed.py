"""Fan-out of tournaments within one process: a feed per tournament with local listeners.

The store's doorbell (Redis pub/sub, or a call in memory) wakes a feed; it
fetches the tournament events its listeners lack from the stored log (the
truth) and hands each listener every event after its cursor, in order.  A
feed also sends the ``standings``: whenever they change, at most once a
second (live during a round, looked at every second), and soon after each
round ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Protocol

from ..room_events import event_type, with_seq
from ..tournament_protocol import TOURNAMENT_EVENTS
from ..tournaments import TournamentService, TournamentStore

__all__ = ["Feed", "Feeds", "Listener"]

log = logging.getLogger(__name__)

STANDINGS_EVERY_S = 1.0


class Listener(Protocol):
    """A connection as a feed sees it."""

    cursor: int  # the last tournament event seq handed over

    def deliver(self, seq: int, frame: str) -> None:
        """Queue one tournament event frame (never blocks)."""
        ...

    def send_text(self, text: str) -> None:
        """Queue any other frame (never blocks)."""
        ...


class Feed:
    def __init__(self, tournament_id: str, store: TournamentStore, service: TournamentService):
        self.tournament_id = tournament_id
        self.listeners: set[Listener] = set()
        self._store = store
        self._service = service
        self._wake = asyncio.Event()
        self._standings_wanted = asyncio.Event()
        self._last_standings: str | None = None
        self._last_sent = float("-inf")  # monotonic seconds
        self._tasks = [
            asyncio.create_task(self._events(), name=f"feed:{tournament_id}"),
            asyncio.create_task(self._standings(), name=f"standings:{tournament_id}"),
        ]

    def ring(self, seq: int) -> None:
        """The doorbell: the tournament has events up to ``seq``."""
        self._wake.set()

    def offer(self, stored: list[tuple[int, str]]) -> None:
        """Events this process has just stored: handed at once to listeners right before them
        (the others catch up from the log)."""
        for seq, event in stored:
            frame = with_seq(seq, event)
            for listener in list(self.listeners):
                if listener.cursor == seq - 1:
                    listener.cursor = seq
                    listener.deliver(seq, frame)
        self._standings_wanted.set()
        self._wake.set()

    def add(self, listener: Listener) -> None:
        self.listeners.add(listener)
        self._wake.set()

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _events(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._deliver()
            except Exception:
                log.exception("tournament %s: delivering events failed", self.tournament_id)
                await asyncio.sleep(0.5)
                self._wake.set()

    async def _deliver(self) -> None:
        if not self.listeners:
            return
        low = min(listener.cursor for listener in self.listeners)
        batch = await self._store.events_since(self.tournament_id, low)
        frames = {seq: with_seq(seq, event) for seq, event in batch.events}
        for listener in list(self.listeners):
            while listener.cursor + 1 in frames:
                listener.cursor += 1
                listener.deliver(listener.cursor, frames[listener.cursor])
        if any(event_type(event) in TOURNAMENT_EVENTS for _, event in batch.events):
            self._standings_wanted.set()

    async def _standings(self) -> None:
        """Every second, or soon after a round ends: send the standings if they changed."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._standings_wanted.wait(), STANDINGS_EVERY_S)
            self._standings_wanted.clear()
            wait = self._last_sent + STANDINGS_EVERY_S - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                await self._send_standings()
            except Exception:
                log.exception("tournament %s: standings failed", self.tournament_id)

    async def _send_standings(self) -> None:
        if not self.listeners:
            return
        text = (await self._service.standings_frame(self.tournament_id)).model_dump_json()
        if text == self._last_standings:
            return
        self._last_standings, self._last_sent = text, time.monotonic()
        for listener in list(self.listeners):
            listener.send_text(text)


class Feeds:
    """This process's feeds by tournament, subscribed to the doorbell while they have listeners."""

    def __init__(self, store: TournamentStore, service: TournamentService) -> None:
        self._store = store
        self._service = service
        self._feeds: dict[str, Feed] = {}

    def __len__(self) -> int:
        return len(self._feeds)

    async def join(self, tournament_id: str, listener: Listener) -> Feed:
        feed = self._feeds.get(tournament_id)
        if feed is None:
            feed = Feed(tournament_id, self._store, self._service)
            self._feeds[tournament_id] = feed
            await self._store.subscribe(tournament_id, feed.ring)
        feed.add(listener)
        return feed

    def offer(self, tournament_id: str, stored: list[tuple[int, str]]) -> None:
        feed = self._feeds.get(tournament_id)
        if feed is not None:
            feed.offer(stored)

    async def leave(self, tournament_id: str, listener: Listener) -> None:
        feed = self._feeds.get(tournament_id)
        if feed is None:
            return
        feed.listeners.discard(listener)
        if not feed.listeners:
            del self._feeds[tournament_id]
            with contextlib.suppress(Exception):
                await self._store.unsubscribe(tournament_id, feed.ring)
            await feed.close()

    async def close(self) -> None:
        for tournament_id, feed in list(self._feeds.items()):
            del self._feeds[tournament_id]
            with contextlib.suppress(Exception):
                await self._store.unsubscribe(tournament_id, feed.ring)
            await feed.close()
