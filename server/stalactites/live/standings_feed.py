"""What a tournament's stream does besides delivering its events: it sends the ``standings``.

A tournament's :class:`~stalactites.live.fanout.Stream` is made with a :class:`StandingsFeed`:
whenever the standings change it sends them to the stream's subscribers, at most once a second
(live during a round, looked at every second), and soon after tournament events have gone out
(a round's end changes them).  :class:`TournamentEvents` is the tournament store as the
fan-out's :class:`~stalactites.live.fanout.Source`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from ..protocol.tournament import TOURNAMENT_EVENTS
from ..store import EventBatch
from ..store.rooms.base import ActionRow, Bell
from ..tournaments import TournamentService, TournamentStore
from .fanout import Subscriber

__all__ = ["STANDINGS_EVERY_S", "StandingsFeed", "TournamentEvents"]

log = logging.getLogger(__name__)

STANDINGS_EVERY_S = 1.0


class StandingsFeed:
    """One tournament's standings, sent to ``subscribers`` (its stream's) when they change."""

    def __init__(
        self, tournament_id: str, service: TournamentService, subscribers: set[Subscriber]
    ) -> None:
        self.tournament_id = tournament_id
        self._service = service
        self._subscribers = subscribers
        self._events_came = False  # tournament events came; wanted once they have gone out
        self._wanted = asyncio.Event()
        self._last_standings: str | None = None
        self._last_sent = float("-inf")  # monotonic seconds
        self._task = asyncio.create_task(self._run(), name=f"standings:{tournament_id}")

    def news(self) -> None:
        pass

    def kept(self, kind: str | None) -> None:
        if kind in TOURNAMENT_EVENTS:
            self._events_came = True

    def acted(self, count: int, row: ActionRow) -> None:
        pass  # a tournament's stream stores no actions

    def missed(self) -> None:
        pass  # the stream itself reads its events again

    def delivered(self) -> None:
        if self._events_came:
            self._events_came = False
            self._wanted.set()

    async def close(self) -> None:
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        """Every second, or soon after tournament events: send the standings if they changed."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wanted.wait(), STANDINGS_EVERY_S)
            self._wanted.clear()
            wait = self._last_sent + STANDINGS_EVERY_S - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                await self._send()
            except Exception:
                log.exception("tournament %s: standings failed", self.tournament_id)

    async def _send(self) -> None:
        if not self._subscribers:
            return
        text = (await self._service.standings_frame(self.tournament_id)).model_dump_json()
        if text == self._last_standings:
            return
        self._last_standings, self._last_sent = text, time.monotonic()
        for subscriber in list(self._subscribers):
            subscriber.send_text(text)


class TournamentEvents:
    """The tournament store's event log and doorbells, as the fan-out reads them."""

    def __init__(self, store: TournamentStore) -> None:
        self._store = store

    async def events_since(self, tournament_id: str, seq: int, limit: int, /) -> EventBatch:
        """Every event after ``seq`` (the log is never trimmed; ``limit`` is not needed)."""
        return await self._store.events_since(tournament_id, seq)

    async def subscribe(self, tournament_id: str, bell: Bell, /) -> None:
        await self._store.subscribe(tournament_id, bell)

    async def unsubscribe(self, tournament_id: str, bell: Bell, /) -> None:
        await self._store.unsubscribe(tournament_id, bell)
