"""The matchmaking queue in Redis, one node or a Redis Cluster (see :mod:`.base`).

Keys (``P`` the prefix).  Who waits, who is paired and who races, in every queue, share the
hash tag ``{queue}`` (one Cluster slot), so that one script sees a player wherever they are:

* ``P{queue}:entries`` hash: player id -> ``{"q", "n", "r", "j", "a", "l"}`` (the queue
  ``GAME:STEP``, name, rating, joined at, the address hash, and each socket's lease end by
  connection id): one entry per player, in one queue;
* ``P{queue}:pending`` hash: match id -> the pairing and its queue, until it is settled (or
  30 s);
* ``P{queue}:seq``: the match id counter;
* ``P{queue}:paired`` hash: player id -> the pending pairing that holds them;
* ``P{queue}:racing`` hash: player id -> the room of their quick race, and
  ``P{queue}:racing:ends`` sorted set: player id -> when that race is over at the latest
  (its time limit passed: a race whose end no process saw frees its players then);
* ``P{queue}:recent`` sorted set: ``A|B`` (two player ids, in order) -> when they were last
  matched, for :data:`~.base.RECENT_PAIR_MS`;
* ``P{queue}:blocked`` set: ``A|B`` for two players one of whom blocks the other (never
  paired);
* ``P{queue}:result:NAME:PLAYER_ID``: the player's ``matched`` frame of queue NAME, for a
  minute (or until the race is over).

A queue's stock of certified deals is its own, under the hash tag ``{queue:NAME}``:

* ``P{queue:NAME}:deals`` set: the certified deals in stock (``lua/queue/stock.lua``);
* ``P{queue:NAME}:shared`` sorted set: deals taken from the stock, by when they stop being
  shared (the key goes with its last member's time);
* channel ``P{queue:NAME}:bell``: a player id, each time a ``matched`` frame is kept for them.

Each change is one Lua script of ``lua/queue/``; the bells are heard on one subscriber
connection (:class:`~..redis.listener.Listener`), and after a lost subscription every bell rings
with ``""`` (look in the store).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence

from ..redis.cluster import ClusterPipe
from ..redis.listener import Listener
from ..redis.resp import Address, Pipe, Script
from ..redis.scripts import lua
from .base import (
    RECENT_PAIR_MS,
    RESULT_TTL_MS,
    AlreadyQueued,
    DealTaken,
    InQuickRace,
    Pairing,
    QueueBell,
    QueueEntry,
    QueueStatus,
    QuickRoom,
    Widening,
    pair_key,
)

__all__ = ["PENDING_MS", "RedisQueueStore"]

PENDING_MS = 30_000  # a pairing not settled this long (its maker died) frees its players
_SCRIPTS = (
    "enqueue",
    "touch",
    "leave",
    "withdraw",
    "hold",
    "pair",
    "settle",
    "race_over",
    "status",
    "stock",
    "take_deal",
)


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

    def _key(self, name: str) -> str:
        return f"{self._prefix}{{queue}}:{name}"

    def _tag(self, queue: str) -> str:
        """The hash tag of a queue's own keys: its stock of deals and its bell."""
        return f"{self._prefix}{{queue:{queue}}}"

    def _result(self, queue: str, player_id: str) -> str:
        return self._key(f"result:{queue}:{player_id}")

    def _racing(self) -> list[str]:
        return [self._key("racing"), self._key("racing:ends")]

    async def ping(self) -> bool:
        return await self._pipe.ping()

    async def close(self) -> None:
        await self._listener.close()
        await self._pipe.close()

    def _free(self, queue: str, player_id: str) -> list[str]:
        """The keys that say whether a player is free to queue: paired, pending, their matched
        frame of this queue, racing."""
        paired, pending = self._key("paired"), self._key("pending")
        return [paired, pending, self._result(queue, player_id), *self._racing()]

    async def enqueue(
        self,
        queue: str,
        entry: QueueEntry,
        connection_id: str,
        until_ms: int,
        now_ms: int | None = None,
    ) -> QueueEntry | None:
        now = entry.joined_ms if now_ms is None else now_ms
        args = [entry.player_id, entry.name, entry.rating, entry.joined_ms, connection_id]
        args += [until_ms, queue, entry.address, now]
        keys = [self._key("entries"), *self._free(queue, entry.player_id)]
        kept = _refusal(await self._run["enqueue"](keys, args))
        if kept is None:  # held by a pairing, or matched already
            return None
        name, rating, joined, address = kept
        return QueueEntry(entry.player_id, str(name), int(rating), int(joined), str(address))

    async def touch(self, queue: str, player_id: str, connection_id: str, until_ms: int) -> bool:
        args = [player_id, connection_id, until_ms, queue]
        return bool(await self._run["touch"]([self._key("entries")], args))

    async def leave(self, queue: str, player_id: str, connection_id: str) -> bool:
        args = [player_id, connection_id, queue]
        return bool(await self._run["leave"]([self._key("entries")], args))

    async def withdraw(self, queue: str, player_id: str) -> bool:
        return bool(await self._run["withdraw"]([self._key("entries")], [player_id, queue]))

    async def hold(self, queue: str, player_id: str, now_ms: int, queued: bool) -> str | None:
        paired, pending, result, racing, ends = self._free(queue, player_id)
        keys = [self._key("entries"), pending, self._key("seq"), paired, result, racing, ends]
        held = _refusal(await self._run["hold"](keys, [player_id, queue, now_ms, int(queued)]))
        return None if held is None else str(held[0])

    async def pair(self, queue: str, now_ms: int, widening: Widening, size: int) -> list[Pairing]:
        keys = [self._key(name) for name in ("entries", "pending", "seq", "paired")]
        keys += [*self._racing(), self._key("recent"), self._key("blocked")]
        anyone_ms = int(widening.anyone_after_s * 1000)
        args = [now_ms, widening.base, widening.per_s, anyone_ms, size, PENDING_MS, queue]
        args.append(RECENT_PAIR_MS)
        made = []
        for text in await self._run["pair"](keys, args):
            match_id, players = json.loads(text)
            entries = tuple(
                QueueEntry(p[0], p[1], int(p[2]), int(p[3]), str(p[4]) if len(p) > 4 else "")
                for p in players
            )
            made.append(Pairing(str(match_id), entries))
        return made

    async def block_pair(self, one: str, other: str, blocked: bool) -> None:
        key = self._key("blocked")
        await self._pipe.call_at(key, "SADD" if blocked else "SREM", key, pair_key(one, other))

    async def settle(
        self, queue: str, match_id: str, frames: dict[str, str], room: QuickRoom | None = None
    ) -> None:
        await self._settle(queue, match_id, list(frames), list(frames.values()), room)

    async def release(self, queue: str, pairing: Pairing) -> None:
        players = [entry.player_id for entry in pairing.players]
        await self._settle(queue, pairing.match_id, players, [], None)

    async def _settle(
        self,
        queue: str,
        match_id: str,
        players: list[str],
        frames: list[str],
        room: QuickRoom | None,
    ) -> None:
        results = [self._result(queue, player_id) for player_id in players[: len(frames)]]
        keys = [self._key("pending"), self._key("paired"), *self._racing(), self._key("recent")]
        marks = ["", 0, 0] if room is None else [room.room_id, room.ends_by_ms, room.made_ms]
        bell = f"{self._tag(queue)}:bell"
        args = [match_id, RESULT_TTL_MS, bell, len(players), *marks, *players, *frames]
        await self._run["settle"]([*keys, *results], args)

    async def race_over(self, queue: str, room_id: str, player_ids: Sequence[str]) -> None:
        results = [self._result(queue, player_id) for player_id in player_ids]
        await self._run["race_over"]([*self._racing(), *results], [room_id, *player_ids])

    async def paired(self, queue: str, player_id: str) -> bool:
        key = self._key("paired")
        return bool(await self._pipe.call_at(key, "HEXISTS", key, player_id))

    async def take_result(self, queue: str, player_id: str) -> str | None:
        key = self._result(queue, player_id)
        frame: str | None = await self._pipe.call_at(key, "GET", key)
        return frame

    async def status(self, queue: str, player_id: str, now_ms: int) -> QueueStatus:
        args = [player_id, now_ms, queue]
        waiting, joined = await self._run["status"]([self._key("entries")], args)
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


def _refusal(answer: list[str]) -> list[str] | None:
    """A script's answer of a player's place: its values after ``ok``, None for ``held``;
    :class:`AlreadyQueued` or :class:`InQuickRace` for a refusal."""
    kind, *values = answer
    if kind == "queued":
        raise AlreadyQueued(str(values[0]))
    if kind == "racing":
        raise InQuickRace(str(values[0]))
    return None if kind == "held" else values
