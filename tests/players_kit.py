"""Helpers of the players' tests: stores opened on shared data, races, a store that crashes.

:class:`Stores` opens any number of store clients on one body of data (the in-memory store is
one object; Redis clients share a key prefix), so that a test can act as several processes,
and reads every stored value back (for "no secret is stored in clear").
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import redis

from server_kit import Client, lasting_moves
from stalactites.players import Passwords, PlayerService, RacePlayer, RaceResult
from stalactites.rooms.rating import NO_PLAY_MOVES
from stalactites.store.players.base import PlayerStore
from stalactites.store.players.memory import MemoryPlayerStore
from stalactites.store.players.redis import RedisPlayerStore

__all__ = [
    "CHEAP",
    "Crash",
    "CrashingStore",
    "InterleavingStore",
    "Stores",
    "anonymous",
    "api",
    "race",
    "play_a_little",
    "race_rated",
    "history",
    "recorded",
]

CHEAP = Passwords(time_cost=1, memory_kib=8, parallelism=1)  # the real ones cost 0.1 s a hash


class Stores:
    """Store clients on one body of data: ``memory``, or Redis at ``urls`` (one node, or
    every master of a cluster) under ``prefix``."""

    def __init__(self, kind: str, urls: list[str] | None = None, prefix: str = "") -> None:
        self.kind, self.urls, self.prefix = kind, urls or [], prefix
        self._memory = MemoryPlayerStore()
        self.opened: list[PlayerStore] = []

    def open(self) -> PlayerStore:
        made: PlayerStore
        if self.kind == "memory":
            made = self._memory
        else:
            made = RedisPlayerStore(self.urls[0], self.prefix, cluster=self.kind == "cluster")
        self.opened.append(made)
        return made

    def service(self, clock: Any, store: PlayerStore | None = None) -> PlayerService:
        """A service on these stores that keeps no board page (each service here may stand
        for a process of its own; one that keeps pages: ``board_page_ttl_ms``)."""
        return PlayerService(store or self.open(), clock, CHEAP, board_page_ttl_ms=0)

    async def close(self) -> None:
        for store in self.opened:
            await store.close()

    def stored_text(self) -> str:
        """Everything stored, keys and values, as one text."""
        if self.kind == "memory":
            return repr(vars(self._memory))
        parts: list[str] = []
        for url in self.urls:
            client = redis.Redis.from_url(url, decode_responses=True)
            try:
                for key in client.scan_iter(match=f"{self.prefix}*", count=1000):
                    parts.append(f"{key}={_value(client, key)}")
            finally:
                client.close()
        return "\n".join(parts)

    def keys(self) -> list[str]:
        return [line.split("=", 1)[0] for line in self.stored_text().splitlines()]


def _value(client: redis.Redis, key: str) -> Any:
    kind = client.type(key)
    read: dict[str, Callable[[str], Any]] = {
        "string": client.get,
        "hash": client.hgetall,
        "zset": lambda k: client.zrange(k, 0, -1, withscores=True),
        "set": client.smembers,
        "list": lambda k: client.lrange(k, 0, -1),
    }
    return read[str(kind)](key)


def race(
    room_id: str,
    *seats: tuple[str | None, int],
    game: str = "stalactites",
    rated: bool = True,
    finished_at: int = 1_800_000_000_000,
    step: str = "ones",
) -> RaceResult:
    """A finished race: each seat a (player id or None, place); first place won in 60 s+."""
    players = tuple(
        RacePlayer(
            player_id=pid,
            name=f"seat{i}",
            place=place,
            status="won" if place == 1 else "timeout",
            elapsed_ms=60_000 + 1000 * i,
            foundation_cards=52 if place == 1 else 20,
            step=step,
        )
        for i, (pid, place) in enumerate(seats)
    )
    return RaceResult(room_id, game, "S-1", finished_at, rated, players)


class Crash(Exception):
    """The process "died" here."""


class CrashingStore:
    """A store that dies on a call of ``method`` once ``after`` of them went through; every
    other method's calls go through."""

    def __init__(self, inner: PlayerStore, method: str, after: int) -> None:
        self._inner, self._method, self._left = inner, method, after

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._inner, name)
        if name != self._method:
            return real

        async def counted(*args: Any) -> Any:
            if self._left == 0:
                raise Crash(name)
            self._left -= 1
            return await real(*args)

        return counted


class InterleavingStore:
    """A store whose every call first lets the other coroutines run (as a call to Redis
    does), so that concurrent service calls interleave on the memory store too."""

    def __init__(self, inner: PlayerStore) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._inner, name)

        async def interleaved(*args: Any) -> Any:
            await asyncio.sleep(0)
            return await real(*args)

        return interleaved


def _api_call(
    method: str, url: str, body: Any, headers: dict[str, str]
) -> tuple[int, Any, dict[str, str]]:
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            raw, status, got = answer.read(), answer.status, dict(answer.headers)
    except urllib.error.HTTPError as error:
        raw, status, got = error.read(), error.code, dict(error.headers)
    try:
        return status, json.loads(raw) if raw else None, got
    except json.JSONDecodeError:
        return status, raw.decode(errors="replace"), got


async def api(
    method: str,
    url: str,
    body: Any = None,
    token: str | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any, dict[str, str]]:
    """(status, JSON body, headers) of one request; ``token`` as ``Authorization: Bearer``."""
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    return await asyncio.to_thread(_api_call, method, url, body, sent)


async def anonymous(base: str) -> dict[str, Any]:
    """A new anonymous player's session: ``{"player_id", "name", "token"}``."""
    status, body, _ = await api("POST", f"{base}/api/session", {})
    assert status == 201, body
    return dict(body)


async def recorded(base: str, player_id: str, races: int = 1) -> list[dict[str, Any]]:
    """The player's history once it holds ``races`` races: recording runs in the background
    after the results are out (and after fair play's assessment, which waits on the solver: long
    on a loaded machine), so this reads the history until it shows them, and fails after 60 s."""
    deadline = time.monotonic() + 60
    while True:
        held = await history(base, player_id)
        if len(held) >= races:
            return held
        late = f"{len(held)} of {races} races in the history after 60 s"
        assert time.monotonic() < deadline, late
        await asyncio.sleep(0.02)


async def history(base: str, player_id: str) -> list[dict[str, Any]]:
    """Every race in the player's history, newest first, read page by page."""
    races: list[dict[str, Any]] = []
    first = url = f"{base}/api/players/{player_id}/races"
    while True:
        status, page, _ = await api("GET", url)
        assert status == 200, page
        races += page["races"]
        if page["next"] is None:
            return races
        url = f"{first}?before={quote(page['next'])}"


async def play_a_little(client: Client, started: dict[str, Any]) -> None:
    """Play ``NO_PLAY_MOVES`` moves from the ``started`` frame's board, each leaving a move
    to play, so that a resignation after them is real play and the race stays rated
    (``rooms/rating.py``)."""
    for number, move in enumerate(lasting_moves(started["state"], NO_PLAY_MOVES)):
        answer = await client.move(f"warm-up-{number}", move)
        assert answer["type"] == "accepted", answer


async def race_rated(base: str, sessions: list[dict[str, Any]], races: int) -> None:
    """These players (their sessions, Bearer) race ``races`` rated rooms over websockets,
    each playing a little, then resigning (the first to resign, in turn each one, placed
    last), one after another: each race is in every history before the next begins, so
    each is rated from the ratings the one before left."""
    ws = base.replace("http", "ws", 1)
    held = [len(await recorded(base, made["player_id"], 0)) for made in sessions]
    for number in range(races):
        status, room, _ = await api("POST", f"{base}/api/rooms", {"rated": True, "countdown_s": 0})
        assert status == 201, room
        clients = []
        for made in sessions:
            url = f"{base}/api/rooms/{room['room_id']}/players"
            status, seat, _ = await api("POST", url, {}, made["token"])
            assert status == 201, seat
            client = await Client.open(f"{ws}/ws/rooms/{room['room_id']}")
            await client.hello(made["token"])
            clients.append(client)
        for client in clients:
            await client.send(type="ready")
        for client in clients:
            await play_a_little(client, await client.expect("started"))
        first = clients[number % len(clients)]
        for client in (first, *[c for c in clients if c is not first]):
            await client.send(type="resign")
            await client.expect("finished", player_id=client.you, status="resigned")
        await clients[0].expect("results")
        for client in clients:
            await client.close()
        for made, earlier in zip(sessions, held, strict=True):
            await recorded(base, made["player_id"], earlier + number + 1)
