"""This process's arena sockets, by arena: each second, for every arena with a socket here or
running, pair its free entrants, renew the sockets' leases, and send standings that changed
(the top ten, each entrant's own line, the top race) and, once it is over, the podium.
Pairings reach an entrant's sockets on any process through their player's channel
(:mod:`stalactites.live.tabs` hands them over)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from ..arenas import Arenas
from ..arenas.state import Arena, standings
from ..protocol.arenas import ArenaEnded, ArenaLine, ArenaStandings, line_of, status_of

__all__ = ["FEED_S", "Feeds", "Watcher"]

log = logging.getLogger(__name__)

FEED_S = 1.0  # standings at most this often
LEASE_MS = 45_000  # an arena socket's lease on its entrant's presence, renewed each feed
TOP = 10
_NO_LINE, _YOU = '"you":null', '"you":'  # (the only "you" in a standings frame)


class Marked(Protocol):
    async def __call__(self, player_ids: list[str]) -> set[str]: ...


class Watcher(Protocol):
    player_id: str | None

    def send_text(self, text: str) -> None: ...


class Feeds:
    def __init__(self, arenas: Arenas, marked: Marked) -> None:
        self.arenas = arenas
        self.marked = marked
        self.watchers: dict[str, set[Watcher]] = {}
        self._versions: dict[str, int] = {}
        self._renewed: dict[str, int] = {}  # when each arena's leases here were renewed
        self._ended: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="arena-feeds")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def add(self, arena_id: str, watcher: Watcher) -> None:
        """Feed ``arena_id`` to ``watcher`` from now.  It is registered after the last await,
        so no feed reaches it before what its caller sends next (the socket's welcome)."""
        if watcher.player_id is not None:
            until = self.arenas.now() + LEASE_MS
            await self.arenas.store.seen(arena_id, watcher.player_id, until)
        self.watchers.setdefault(arena_id, set()).add(watcher)

    async def remove(self, arena_id: str, watcher: Watcher) -> None:
        here = self.watchers.get(arena_id, set())
        here.discard(watcher)
        if not here:
            self.watchers.pop(arena_id, None)
        player_id = watcher.player_id
        if player_id is not None and all(w.player_id != player_id for w in here):
            await self.arenas.store.gone(arena_id, player_id)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(FEED_S)
            try:
                await self.step()
            except Exception:
                log.exception("arena feeds failed; trying again in %.1f s", FEED_S)

    async def step(self) -> None:
        """One feed: every arena running (to pair) or watched here (to tell)."""
        running = {arena.arena_id for arena in await self.arenas.listed("running", 100)}
        for arena_id in running | set(self.watchers):
            try:
                await self._feed(arena_id, arena_id in running)
            except Exception:
                log.exception("arena %s: its feed failed", arena_id)

    async def _feed(self, arena_id: str, running: bool) -> None:
        if running:
            await self.arenas.pair_now(arena_id)
        watchers = self.watchers.get(arena_id)
        if not watchers:
            return
        now = self.arenas.now()
        if now - self._renewed.get(arena_id, 0) >= LEASE_MS // 3:
            self._renewed[arena_id] = now
            players = {w.player_id for w in watchers if w.player_id is not None}
            await asyncio.gather(
                *(self.arenas.store.seen(arena_id, p, now + LEASE_MS) for p in players)
            )
        arena = await self.arenas.load(arena_id)
        if self._versions.get(arena_id) == arena.version and arena_id in self._ended:
            return
        if self._versions.get(arena_id) != arena.version:
            self._versions[arena_id] = arena.version
            await self.tell(arena, watchers)
        if status_of(arena, now) == "finished" and arena_id not in self._ended:
            self._ended.add(arena_id)
            await self.tell_ended(arena, watchers)

    async def lines(self, arena: Arena) -> list[ArenaLine]:
        hidden = await self.marked(list(arena.entrants))
        return [line_of(entrant, rank) for rank, entrant in enumerate(standings(arena, hidden), 1)]

    async def tell(self, arena: Arena, watchers: set[Watcher]) -> None:
        lines = await self.lines(arena)
        by_player = {line.player_id: line for line in lines}
        racing = [line for line in lines if line.racing]
        top_race = None
        if racing:
            entrant = arena.entrants[racing[0].player_id]
            if entrant.room_id is not None and not entrant.room_id.startswith("pending:"):
                top_race = entrant.room_id
        status = status_of(arena, self.arenas.now())
        frame = ArenaStandings(
            type="standings",
            status=status,
            top=lines[:TOP],
            you=None,
            entrants=len(lines),
            top_race=top_race,
        ).model_dump_json()  # once: each watcher's own line spliced in
        for watcher in list(watchers):
            line = by_player.get(watcher.player_id or "")
            own = (
                frame if line is None else frame.replace(_NO_LINE, _YOU + line.model_dump_json(), 1)
            )
            watcher.send_text(own)

    async def tell_ended(self, arena: Arena, watchers: set[Watcher]) -> None:
        lines = await self.lines(arena)
        by_player = {line.player_id: line for line in lines}
        for watcher in list(watchers):
            frame = ArenaEnded(
                type="ended", podium=lines[:3], you=by_player.get(watcher.player_id or "")
            )
            watcher.send_text(frame.model_dump_json())
