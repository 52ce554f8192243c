"""The matchmaking queue in Redis, one node or a Redis Cluster (see :mod:`.queue_base`).

Keys (``P`` the prefix; every key of one queue under the hash tag ``{queue:NAME}``, NAME the
game and step, so that the pairing step touches one Cluster slot):

* ``P{queue:NAME}:entries`` hash: player id -> ``{"n", "r", "j", "l"}`` (name, rating,
  joined at, and each socket's lease end by connection id);
* ``P{queue:NAME}:pending`` hash: match id -> the pairing, until it is settled (or 30 s);
* ``P{queue:NAME}:seq``: the match id counter;
* ``P{queue:NAME}:paired`` hash: player id -> the pending pairing that holds them;
* ``P{queue:NAME}:result:PLAYER_ID``: the player's ``matched`` frame, for a minute;
* ``P{queue:NAME}:deals`` set: the certified deals in stock (``lua/queue/stock.lua``);
* ``P{queue:NAME}:shared`` sorted set: deals taken from the stock, by when they stop being
  shared (the key goes with its last member's time);
* channel ``P{queue:NAME}:bell``: a player id, each time a ``matched`` frame is kept for them.

Each change is one Lua script of ``lua/queue/``; the bells are heard on one subscriber
connection (:class:`~.listener.Listener`), and after a lost subscription every bell rings
with ``""`` (look in the store).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence

from .cluster import ClusterPipe
from .listener import Listener
from .queue_base import (
    RESULT_TTL_MS,
    DealTaken,
    Pairing,
    QueueBell,
    QueueEntry,
    QueueStatus,
    Widening,
)
from .resp import Address, Pipe, Script
from .scripts import lua

__all__ = ["PENDING_MS", "RedisQueueStore"]

PENDING_MS = 30_000  # a pairing not settled this long (its maker died) frees its players
_SCRIPTS = ("enqueue", "touch", "leave", "pair", "settle", "status", "stock", "take_deal")


class RedisQueueStore:
    def __init__(self, url: str, prefix: str = "sr:", cluster: bool = False) -> None:
        address, origin = Address.parse(url), uuid.uuid4().hex[:12]
        calls = address.named(f"stalactites-queue-{origin}")
        self._pipe: Pipe | ClusterPipe = ClusterPipe(calls) if cluster else Pipe(calls)
        self._prefix = prefix
        self._run = {name: Script(self._pipe, lua(f"queue/{name}")) for name in _SCRIPTS}
        others = self._pipe.nodes if isinstance(self._pipe, ClusterPipe) else None
        bells = address.named(f"stalactites-queue-bells-{origin}")
        self._listener = Listener(bells, self._message, self._ring_all, others)
        self._bells: dict[str, list[QueueBell]] = {}  # by channel

    def _tag(self, queue: str) -> str:
        return f"{self._prefix}{{queue:{queue}}}"

    def _entries(self, queue: str) -> str:
        return f"{self._tag(queue)}:entries"

    def _result(self, queue: str, player_id: str) -> str:
        return f"{self._tag(queue)}:result:{player_id}"

    async def ping(self) -> bool:
        return await self._pipe.ping()

    async def close(self) -> None:
        await self._listener.close()
        await self._pipe.close()

    async def enqueue(
        self, queue: str, entry: QueueEntry, connection_id: str, until_ms: int
    ) -> QueueEntry | None:
        args = [entry.player_id, entry.name, entry.rating, entry.joined_ms, connection_id, until_ms]
        paired = f"{self._tag(queue)}:paired"
        keys = [self._entries(queue), paired, self._result(queue, entry.player_id)]
        kept = await self._run["enqueue"](keys, args)
        if not kept:  # held by a pairing, or matched already
            return None
        name, rating, joined = kept
        return QueueEntry(entry.player_id, str(name), int(rating), int(joined))

    async def touch(self, queue: str, player_id: str, connection_id: str, until_ms: int) -> bool:
        args = [player_id, connection_id, until_ms]
        return bool(await self._run["touch"]([self._entries(queue)], args))

    async def leave(self, queue: str, player_id: str, connection_id: str) -> bool:
        return bool(await self._run["leave"]([self._entries(queue)], [player_id, connection_id]))

    async def withdraw(self, queue: str, player_id: str) -> bool:
        key = self._entries(queue)
        return bool(await self._pipe.call_at(key, "HDEL", key, player_id))

    async def pair(self, queue: str, now_ms: int, widening: Widening, size: int) -> list[Pairing]:
        tag = self._tag(queue)
        keys = [f"{tag}:entries", f"{tag}:pending", f"{tag}:seq", f"{tag}:paired"]
        anyone_ms = int(widening.anyone_after_s * 1000)
        args = [now_ms, widening.base, widening.per_s, anyone_ms, size, PENDING_MS]
        made = []
        for text in await self._run["pair"](keys, args):
            match_id, players = json.loads(text)
            entries = tuple(QueueEntry(p[0], p[1], int(p[2]), int(p[3])) for p in players)
            made.append(Pairing(str(match_id), entries))
        return made

    async def settle(self, queue: str, match_id: str, frames: dict[str, str]) -> None:
        await self._settle(queue, match_id, list(frames), list(frames.values()))

    async def release(self, queue: str, pairing: Pairing) -> None:
        players = [entry.player_id for entry in pairing.players]
        await self._settle(queue, pairing.match_id, players, [])

    async def _settle(
        self, queue: str, match_id: str, players: list[str], frames: list[str]
    ) -> None:
        tag = self._tag(queue)
        results = [self._result(queue, player_id) for player_id in players[: len(frames)]]
        keys = [f"{tag}:pending", f"{tag}:paired", *results]
        args = [match_id, RESULT_TTL_MS, f"{tag}:bell", len(players), *players, *frames]
        await self._run["settle"](keys, args)

    async def paired(self, queue: str, player_id: str) -> bool:
        key = f"{self._tag(queue)}:paired"
        return bool(await self._pipe.call_at(key, "HEXISTS", key, player_id))

    async def take_result(self, queue: str, player_id: str) -> str | None:
        key = self._result(queue, player_id)
        frame: str | None = await self._pipe.call_at(key, "GET", key)
        return frame

    async def status(self, queue: str, player_id: str, now_ms: int) -> QueueStatus:
        waiting, joined = await self._run["status"]([self._entries(queue)], [player_id, now_ms])
        return QueueStatus(int(waiting), None if int(joined) < 0 else int(joined))

    # The stock of certified deals.

    async def stock_deals(self, queue: str, deals: Sequence[str], depth: int) -> int:
        keys = [f"{self._tag(queue)}:deals"]
        return int(await self._run["stock"](keys, [depth, *deals]))

    async def take_deal(self, queue: str, now_ms: int, share_ms: int) -> DealTaken | None:
        tag = self._tag(queue)
        taken = await self._run["take_deal"]([f"{tag}:deals", f"{tag}:shared"], [now_ms, share_ms])
        if not taken:
            return None
        deal, source = taken
        return DealTaken(str(deal), source == "shared")

    # Bells.

    async def subscribe(self, queue: str, bell: QueueBell) -> None:
        channel = f"{self._tag(queue)}:bell"
        bells = self._bells.setdefault(channel, [])
        bells.append(bell)
        if len(bells) == 1:
            await self._listener.subscribe(channel)

    async def unsubscribe(self, queue: str, bell: QueueBell) -> None:
        channel = f"{self._tag(queue)}:bell"
        bells = self._bells.get(channel, [])
        if bell in bells:
            bells.remove(bell)
            if not bells:
                del self._bells[channel]
                await self._listener.unsubscribe(channel)

    def _message(self, channel: str, data: str) -> None:
        for bell in list(self._bells.get(channel, ())):
            bell(data)

    def _ring_all(self) -> None:
        for bells in list(self._bells.values()):
            for bell in list(bells):
                bell("")
