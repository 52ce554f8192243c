"""The friends' store in Redis, one node or a Redis Cluster (see :mod:`.base`).

Keys (``P`` the prefix), a player's in one slot:

* ``P{fr:ID}:following`` ``:followers`` ``:blocked`` ``:opponents`` sorted sets (id: ms);
* ``P{fr:ID}:hidden`` ("1": presence hidden); ``P{fr:ID}:tabs`` sorted set (tab: lease end),
  expiring with its newest lease; ``P{fr:ID}:racing`` the room raced in, expiring;
* ``P{fr:FROM}:to:TO`` the pair's open challenge, ``ID|EXPIRES_MS``, expiring with it;
  ``P{fr:ID}:sent`` and ``:received`` sorted sets (challenge: expiry);
* ``P{fr:ID}:notes`` hash (id: document), ``:note_order`` sorted set (id: ms), ``:read``;
* ``P{presence}:online`` sorted set (player: newest lease end), one for all players;
* ``P{ch:ID}`` a challenge's document, kept a day after it was made.

A player's frames are published on the channel ``Pnotes:ID``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..redis.cluster import ClusterPipe
from ..redis.listener import Listener
from ..redis.resp import Address, Pipe, Script
from ..redis.scripts import lua
from .base import NOTES_KEPT, Listen, ListName

__all__ = ["RedisFriendsStore"]

CHALLENGE_KEPT_MS = 86_400_000  # a challenge's document is kept this long after it is made


class RedisFriendsStore:
    def __init__(self, url: str, prefix: str = "sr:", cluster: bool = False) -> None:
        address = Address.parse(url).named("stalactites-friends")
        self._pipe: Pipe | ClusterPipe = ClusterPipe(address) if cluster else Pipe(address)
        self._prefix = prefix
        self._channel = f"{prefix}notes:"
        others = self._pipe.nodes if isinstance(self._pipe, ClusterPipe) else None
        self._listener = Listener(
            address.named("stalactites-notes"), self._message, self._resubscribed, others
        )
        self._on_frame: Listen | None = None
        self._on_resubscribed: Callable[[], None] = lambda: None
        self._tab_on = Script(self._pipe, lua("friends/tab_on"))
        self._tab_off = Script(self._pipe, lua("friends/tab_off"))
        self._settle = Script(self._pipe, lua("friends/settle"))
        self._open = Script(self._pipe, lua("friends/open"))
        self._note = Script(self._pipe, lua("friends/note"), repeatable=True)

    def _key(self, player_id: str, what: str) -> str:
        return f"{self._prefix}{{fr:{player_id}}}:{what}"

    def _call(self, key: str, *args: Any) -> Any:
        return self._pipe.call_at(key, *args)

    @property
    def _online(self) -> str:
        return f"{self._prefix}{{presence}}:online"

    # Lists.
    async def add(self, player_id: str, name: ListName, member: str, ms: int) -> bool:
        key = self._key(player_id, name)
        return bool(await self._call(key, "ZADD", key, "NX", ms, member))

    async def remove(self, player_id: str, name: ListName, member: str) -> bool:
        key = self._key(player_id, name)
        return bool(await self._call(key, "ZREM", key, member))

    async def members(
        self, player_id: str, name: ListName, offset: int, limit: int
    ) -> list[tuple[str, int]]:
        key = self._key(player_id, name)
        found = await self._call(
            key, "ZRANGE", key, offset, offset + limit - 1, "REV", "WITHSCORES"
        )
        return [(str(found[i]), int(float(found[i + 1]))) for i in range(0, len(found), 2)]

    async def count(self, player_id: str, name: ListName) -> int:
        key = self._key(player_id, name)
        return int(await self._call(key, "ZCARD", key))

    async def contains(self, player_id: str, name: ListName, members: list[str]) -> list[bool]:
        if not members:
            return []
        key = self._key(player_id, name)
        return [score is not None for score in await self._call(key, "ZMSCORE", key, *members)]

    async def keep_newest(self, player_id: str, name: ListName, kept: int) -> None:
        key = self._key(player_id, name)
        await self._call(key, "ZREMRANGEBYRANK", key, 0, -kept - 1)

    async def forget(self, player_id: str) -> None:
        names = ("following", "followers", "blocked", "opponents", "hidden", "notes")
        keys = [self._key(player_id, name) for name in (*names, "note_order", "read")]
        await self._call(keys[0], "DEL", *keys)

    # Settings.
    async def hidden(self, player_id: str) -> bool:
        key = self._key(player_id, "hidden")
        return bool(await self._call(key, "EXISTS", key))

    async def set_hidden(self, player_id: str, hidden: bool) -> None:
        key = self._key(player_id, "hidden")
        await (self._call(key, "SET", key, "1") if hidden else self._call(key, "DEL", key))

    # Presence.
    async def tab_on(
        self, player_id: str, tab: str, until_ms: int, now_ms: int, renew: bool = False
    ) -> bool:
        args = [tab, until_ms, now_ms, "1" if renew else "0"]
        held = int(await self._tab_on([self._key(player_id, "tabs")], args))
        if held < 0:
            return False  # (a renewal of a tab closed meanwhile: not held again)
        await self._call(self._online, "ZADD", self._online, "GT", until_ms, player_id)
        return held == 1

    async def tab_off(self, player_id: str, tab: str, now_ms: int) -> bool:
        if not await self._tab_off([self._key(player_id, "tabs")], [tab, now_ms]):
            return False
        return bool(await self._call(self._online, "ZREM", self._online, player_id))

    async def set_racing(self, player_id: str, room_id: str | None, until_ms: int) -> None:
        key = self._key(player_id, "racing")
        if room_id is None:
            await self._call(key, "DEL", key)
        else:
            await self._call(key, "SET", key, room_id, "PXAT", until_ms)

    async def presence(self, player_ids: list[str], now_ms: int) -> list[str | None]:
        if not player_ids:
            return []
        leases = await self._call(self._online, "ZMSCORE", self._online, *player_ids)
        online = [lease is not None and float(lease) > now_ms for lease in leases]
        here = [self._key(one, "racing") for one, on in zip(player_ids, online, strict=True) if on]
        rooms = iter(await self._rooms(here))
        return [str(next(rooms) or "") if on else None for on in online]

    async def _rooms(self, keys: list[str]) -> list[Any]:
        """The values at ``keys``: one ``MGET`` on one node; in a cluster, where the keys'
        slots differ, a ``GET`` each."""
        if not keys:
            return []
        if isinstance(self._pipe, ClusterPipe):
            return list(await asyncio.gather(*(self._call(key, "GET", key) for key in keys)))
        return list(await self._call(keys[0], "MGET", *keys))

    async def expired(self, now_ms: int, limit: int) -> list[str]:
        key = self._online
        due = await self._call(key, "ZRANGE", key, "-inf", now_ms, "BYSCORE", "LIMIT", 0, limit)
        gone = []
        for player in map(str, due):  # ZREM: one caller anywhere takes each
            if await self._call(key, "ZREM", key, player):
                gone.append(player)
        return gone

    async def online_count(self, now_ms: int) -> int:
        return int(await self._call(self._online, "ZCOUNT", self._online, f"({now_ms}", "+inf"))

    # Challenges.
    def _challenge(self, challenge_id: str) -> str:
        return f"{self._prefix}{{ch:{challenge_id}}}"

    async def open_challenge(
        self,
        challenge_id: str,
        from_id: str,
        to_id: str,
        document: str,
        now_ms: int,
        expires_ms: int,
    ) -> str | None:
        pair = self._key(from_id, f"to:{to_id}")
        held = await self._open([pair], [challenge_id, now_ms, expires_ms])
        if held is not None:
            return str(held)
        key = self._challenge(challenge_id)
        await self._call(key, "SET", key, document, "PXAT", now_ms + CHALLENGE_KEPT_MS)
        for who, side in ((from_id, "sent"), (to_id, "received")):
            listed = self._key(who, side)
            await self._call(listed, "ZREMRANGEBYSCORE", listed, "-inf", now_ms)
            await self._call(listed, "ZADD", listed, expires_ms, challenge_id)
        return None

    async def challenge(self, challenge_id: str) -> str | None:
        key = self._challenge(challenge_id)
        found = await self._call(key, "GET", key)
        return None if found is None else str(found)

    async def settle(self, challenge_id: str, status: str, document: str) -> bool:
        return bool(await self._settle([self._challenge(challenge_id)], [status, document]))

    async def closed(self, from_id: str, to_id: str, challenge_id: str) -> None:
        for who, side in ((from_id, "sent"), (to_id, "received")):
            listed = self._key(who, side)
            await self._call(listed, "ZREM", listed, challenge_id)
        pair = self._key(from_id, f"to:{to_id}")
        if str(await self._call(pair, "GET", pair)).startswith(f"{challenge_id}|"):
            await self._call(pair, "DEL", pair)

    async def challenges_of(self, player_id: str, now_ms: int) -> list[str]:
        ids: list[str] = []
        for side in ("sent", "received"):
            key = self._key(player_id, side)
            ids += map(str, await self._call(key, "ZRANGE", key, f"({now_ms}", "+inf", "BYSCORE"))
        found = await asyncio.gather(*(self.challenge(one) for one in ids))
        return [document for document in found if document is not None]

    async def sent_count(self, player_id: str, now_ms: int) -> int:
        key = self._key(player_id, "sent")
        return int(await self._call(key, "ZCOUNT", key, f"({now_ms}", "+inf"))

    # Notifications.
    async def note(self, player_id: str, note_id: str, document: str, ms: int) -> bool:
        keys = [self._key(player_id, "notes"), self._key(player_id, "note_order")]
        return bool(await self._note(keys, [note_id, document, ms, NOTES_KEPT]))

    async def notes(self, player_id: str, limit: int) -> list[str]:
        order, notes = self._key(player_id, "note_order"), self._key(player_id, "notes")
        ids = await self._call(order, "ZRANGE", order, 0, limit - 1, "REV")
        if not ids:
            return []
        found = await self._call(notes, "HMGET", notes, *ids)
        return [str(document) for document in found if document is not None]

    async def read_ms(self, player_id: str) -> int:
        key = self._key(player_id, "read")
        return int(await self._call(key, "GET", key) or 0)

    async def mark_read(self, player_id: str, ms: int) -> None:
        key = self._key(player_id, "read")
        current = int(await self._call(key, "GET", key) or 0)
        if ms > current:  # (two marks at once: the later call's, close enough)
            await self._call(key, "SET", key, ms)

    # Channels.
    async def publish(self, player_id: str, frame: str) -> None:
        channel = self._channel + player_id
        await self._call(channel, "PUBLISH", channel, frame)

    async def listen(self, player_id: str) -> None:
        await self._listener.subscribe(self._channel + player_id)

    async def unlisten(self, player_id: str) -> None:
        await self._listener.unsubscribe(self._channel + player_id)

    def on_frame(self, listener: Listen, resubscribed: Callable[[], None]) -> None:
        self._on_frame, self._on_resubscribed = listener, resubscribed

    def _message(self, channel: str, data: str) -> None:
        if self._on_frame is not None and channel.startswith(self._channel):
            self._on_frame(channel[len(self._channel) :], data)

    def _resubscribed(self) -> None:
        self._on_resubscribed()

    async def close(self) -> None:
        await self._listener.close()
        await self._pipe.close()
