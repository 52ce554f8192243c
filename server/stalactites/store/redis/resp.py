"""The server's Redis client: every command to Redis goes through it.

The server's own rather than a general-purpose client, so that each command costs little, and
it follows a Redis Cluster's redirections (:mod:`.cluster`) correctly while a slot moves.
hiredis parses the replies.  :class:`Pipe` is one connection on which any number of coroutines send
commands: a command to an idle connection leaves at once, the commands of one turn of the
event loop made while replies are awaited leave in one write, and the replies come back in
order; a connection is shared only once its greeting (AUTH, SELECT, CLIENT SETNAME) has been
answered; a connection that answers nothing for ``stall_s`` while replies are awaited is
dropped, failing them (a stalled network must not hold moves unanswered).  :class:`Script`
runs a Lua script on it by its hash.  A command safe to repeat (a read, an idempotent write, a
script made ``repeatable``) whose connection was lost before its reply came (as a pooled
connection is when Redis restarts) is sent once more, on a new connection; others fail with
:class:`LostConnection`.  Subscriptions are :mod:`.listener`'s; on a Redis
Cluster, :class:`.cluster.ClusterPipe` keeps one :class:`Pipe` per master.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import ssl
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast
from urllib.parse import parse_qs, unquote, urlparse

import hiredis

__all__ = [
    "REPEATABLE",
    "Address",
    "Caller",
    "LostConnection",
    "Packed",
    "Pipe",
    "ReplyError",
    "Script",
    "pack",
    "reply_parser",
]

log = logging.getLogger(__name__)

STALL_S = 5.0  # replies awaited and none come for this long: the connection is dropped


REPEATABLE = frozenset(
    ("PING", "EXISTS", "GET", "HGET", "HGETALL", "HMGET", "LRANGE", "LLEN", "ZCOUNT", "ZCARD")
    + ("ZSCORE", "ZRANGE", "ZREVRANGE", "ZREVRANK", "ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "SMEMBERS")
    + ("SCARD", "PTTL")
    + ("ZADD", "ZREM", "ZREMRANGEBYSCORE", "PEXPIRE", "HDEL", "SREM", "CLUSTER")
)
"""Commands sent once more after a lost connection: reads, and writes whose repeat changes
nothing more than the first did (a set's member added or removed, an expiry set)."""


class ReplyError(Exception):
    """An error reply from Redis (``-ERR ...``, ``-NOSCRIPT ...``)."""


class LostConnection(ConnectionError):
    """The connection to Redis was lost (closed or reset, not stalled) before a reply came:
    the command may or may not have run."""


_REPEATS: dict[Any, bool] = {}  # a command's name: whether it is one of REPEATABLE


def _repeatable(command: Any) -> bool:
    known = _REPEATS.get(command)
    if known is None:
        known = str(command).upper() in REPEATABLE
        if len(_REPEATS) < 1000:  # the code's few names, not whatever a caller makes up
            _REPEATS[command] = known
    return known


async def once_more(
    send: Callable[[], Awaitable[Any]], what: str, allowed: Callable[[], bool] = lambda: True
) -> Any:
    """``send()``, and once more if its connection was lost and ``allowed()`` still holds
    (safe only for repeatable work)."""
    try:
        return await send()
    except LostConnection as error:
        if not allowed():
            raise
        log.info("redis connection lost (%s); sending %s once more", error, what)
    return await send()


def pack(args: Sequence[Any]) -> bytes:
    """A command in the Redis protocol.  Text and ints are written into one string and encoded
    once (a non-ASCII string's length counted in its UTF-8 bytes), a :class:`Packed` part as it
    is; bytes take the slower way."""
    parts = [""]
    add = parts.append
    count = len(args)
    for arg in args:
        kind = type(arg)
        if kind is str:
            add(f"${len(arg) if arg.isascii() else len(arg.encode())}\r\n{arg}\r\n")
        elif kind is int:
            text = str(arg)
            add(f"${len(text)}\r\n{text}\r\n")
        elif kind is Packed:
            add(arg.text)
            count += len(arg.args) - 1
        elif isinstance(arg, bytes | bytearray):
            return _pack_bytes(args)
        else:
            text = str(arg)
            add(f"${len(text) if text.isascii() else len(text.encode())}\r\n{text}\r\n")
    parts[0] = f"*{count}\r\n"
    return "".join(parts).encode()


def _pack_bytes(args: Sequence[Any]) -> bytes:
    """:func:`pack` of a command that holds bytes (which need not be UTF-8)."""
    flat = [part for arg in args for part in (arg.args if type(arg) is Packed else (arg,))]
    parts = [b"*%d\r\n" % len(flat)]
    for arg in flat:
        data = arg if isinstance(arg, bytes | bytearray) else str(arg).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


class Packed:
    """A script's keys and first arguments (text and ints) packed once, for the calls that
    repeat them: ``script(packed, more_args)``, and :func:`pack` puts them into the command
    as they are.  ``keys[0]`` routes the script, as a plain list's first key does."""

    __slots__ = ("args", "keys", "text")

    def __init__(self, keys: Sequence[str], args: Sequence[str | int] = ()) -> None:
        self.keys = tuple(keys)
        self.args = (*keys, *args)
        self.text = "".join(f"${len(str(a).encode())}\r\n{a}\r\n" for a in self.args)


@dataclass(frozen=True, slots=True)
class Address:
    host: str = "127.0.0.1"
    port: int = 6379
    path: str | None = None  # a unix socket
    db: int = 0
    username: str | None = None
    password: str | None = None
    tls: bool = False
    name: str | None = None  # shown by CLIENT LIST

    @classmethod
    def parse(cls, url: str) -> Address:
        """``redis://[[user]:password@]host[:port][/db]``, ``rediss://`` (TLS) or
        ``unix:///path?db=N``."""
        parts = urlparse(url)
        query = parse_qs(parts.query)
        db = int(query.get("db", [parts.path.strip("/") or "0"])[0] or 0)
        secret = unquote(parts.password) if parts.password else None
        user = unquote(parts.username) if parts.username else None
        if parts.scheme == "unix":
            return cls(path=parts.path, db=int(query.get("db", ["0"])[0]), password=secret)
        return cls(
            parts.hostname or "127.0.0.1",
            parts.port or 6379,
            None,
            db,
            user,
            secret,
            parts.scheme == "rediss",
        )

    async def open(self, protocol: Callable[[], asyncio.Protocol]) -> asyncio.Transport:
        """A connection read by ``protocol()`` (its transport)."""
        loop = asyncio.get_running_loop()
        if self.path is not None:
            transport, _ = await loop.create_unix_connection(protocol, self.path)
        else:
            context = ssl.create_default_context() if self.tls else None
            transport, _ = await loop.create_connection(protocol, self.host, self.port, ssl=context)
        return transport

    def greeting(self) -> list[tuple[Any, ...]]:
        """The commands a new connection sends first."""
        commands: list[tuple[Any, ...]] = []
        if self.password is not None:
            auth = (self.username, self.password) if self.username else (self.password,)
            commands.append(("AUTH", *auth))
        if self.db:
            commands.append(("SELECT", self.db))
        if self.name:
            commands.append(("CLIENT", "SETNAME", self.name))
        return commands

    def named(self, name: str) -> Address:
        return replace(self, name=name)


def reply_parser(raw: bool = False) -> Any:
    """A hiredis reader of replies (strings decoded, or bytes if ``raw``; error replies as
    :class:`ReplyError`)."""
    if raw:
        return hiredis.Reader(replyError=ReplyError)
    return hiredis.Reader(encoding="utf-8", errors="replace", replyError=ReplyError)


class Pipe:
    """One connection, shared: ``await pipe.call("EVALSHA", ...)`` from anywhere; ``raw``:
    its replies' strings are bytes (``DUMP``'s payloads), not text."""

    def __init__(self, address: Address, stall_s: float = STALL_S, raw: bool = False) -> None:
        self.address = address
        self.raw = raw
        self._stall_s = stall_s
        self._writer: asyncio.Transport | None = None  # the connection that calls may use
        self._reading: _Replies | None = None
        self._waiting: deque[asyncio.Future[Any]] = deque()
        self._out: list[bytes] = []
        self._lock = asyncio.Lock()
        self._replies = 0  # replies read on this connection, for the stall check
        self._stalled = False
        self._closing = False  # closed by close(): nothing is sent once more

    def _open(self) -> bool:
        return not self._closing

    async def call(self, *args: Any) -> Any:
        """Send one command; its reply (an error reply raises :class:`ReplyError`).  One of
        :data:`REPEATABLE` is sent once more if the connection is lost before its reply."""
        return await self._request(args)

    def _request(self, args: tuple[Any, ...]) -> Awaitable[Any]:
        """:meth:`call`'s work; on a connection that is up the command leaves now and what is
        awaited is its reply's future itself, no coroutine between."""
        if _repeatable(args[0]):
            return once_more(lambda: self._call(*args), str(args[0]), self._open)
        return self._call(*args)

    def _call(self, *args: Any) -> Awaitable[Any]:
        writer = self._writer
        if writer is None or writer.is_closing():
            return self._connect_and_call(args)
        return self._sent(args)

    async def _connect_and_call(self, args: tuple[Any, ...]) -> Any:
        await self._connect()
        return await self._sent(args)

    def _sent(self, args: tuple[Any, ...]) -> asyncio.Future[Any]:
        """The command sent (or queued to be); the future of its reply."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._send(pack(args), future)
        return future

    async def ping(self) -> bool:
        """Whether Redis answers a ping within ``stall_s`` (a connection is made if need be)."""
        try:
            answer = await asyncio.wait_for(self.call("PING"), self._stall_s)
        except (TimeoutError, OSError, ReplyError):
            return False
        return answer in ("PONG", b"PONG")

    def call_at(self, key: str, *args: Any) -> Awaitable[Any]:
        """:meth:`call` (what a :class:`Script` runs through: the reply's future itself when
        the connection is up); the key (of a cluster's routing, see
        :class:`.cluster.ClusterPipe`) does not matter on one node."""
        return self._request(args)

    async def call_asking(self, *args: Any) -> Any:
        """``ASKING`` and then the command, back to back: the command's reply (a Redis Cluster
        node importing the command's slot serves it only after ``ASKING``)."""
        if self._writer is None or self._writer.is_closing():
            await self._connect()
        loop = asyncio.get_running_loop()
        asking: asyncio.Future[Any] = loop.create_future()
        future: asyncio.Future[Any] = loop.create_future()
        self._send(pack(("ASKING",)) + pack(args), asking, future)
        replies = await asyncio.gather(asking, future, return_exceptions=True)
        for reply in replies:
            if isinstance(reply, BaseException):
                raise reply
        return replies[1]

    def _send(self, data: bytes, *futures: asyncio.Future[Any]) -> None:
        """Write ``data`` (commands whose replies ``futures`` await, in order)."""
        idle = not self._waiting
        self._waiting.extend(futures)
        if idle and self._writer is not None:  # nothing on its way: no reason to wait
            self._writer.write(data)
        else:  # replies are awaited: gather this turn's commands into one write
            if not self._out:
                asyncio.get_running_loop().call_soon(self._flush)
            self._out.append(data)

    def _flush(self) -> None:
        out, self._out = self._out, []
        if self._writer is not None and not self._writer.is_closing():
            self._writer.write(b"".join(out))

    async def _connect(self) -> None:
        async with self._lock:
            if self._writer is not None and not self._writer.is_closing():
                return
            self._stalled = False
            replies = _Replies(self)
            writer = await self.address.open(lambda: replies)
            self._reading = replies
            try:
                await self._greet(writer)
            except BaseException:  # failed or cancelled (its caller gone): closed, not leaked
                writer.close()
                raise
            self._writer = writer  # only now may other calls use it: it is in the right db
            self._watch(writer, self._replies, 0)

    async def _greet(self, writer: asyncio.Transport) -> None:
        """Send the greeting (AUTH, SELECT, CLIENT SETNAME) and await every reply; a failed
        or unanswered greeting closes the connection."""
        commands = self.address.greeting()
        loop = asyncio.get_running_loop()
        futures = [loop.create_future() for _ in commands]
        self._waiting.extend(futures)
        writer.write(b"".join(pack(command) for command in commands))
        try:
            await asyncio.wait_for(asyncio.gather(*futures), self._stall_s)
        except BaseException:
            writer.abort()
            raise

    def _watch(self, writer: asyncio.Transport, seen: int, quiet: int) -> None:
        """Check the connection every tenth of ``stall_s`` (of the event loop's own running
        time: after the loop itself was held up, one check passes, not many); ten checks in a
        row with replies awaited and none read drop it, which fails the awaited calls."""
        if writer is not self._writer or writer.is_closing():
            return
        quiet = quiet + 1 if self._waiting and self._replies == seen else 0
        if quiet >= 10:
            log.warning("redis answered nothing for %.1f s; dropping the connection", self._stall_s)
            self._stalled = True
            writer.abort()
            return
        loop = asyncio.get_running_loop()
        loop.call_later(self._stall_s / 10, self._watch, writer, self._replies, quiet)

    def _reply(self, reply: Any) -> None:
        """A reply read: it settles the call that waits first."""
        self._replies += 1
        future = self._waiting.popleft()
        if future.done():
            return
        if isinstance(reply, ReplyError):
            future.set_exception(reply)
        else:
            future.set_result(reply)

    def _fail_waiting(self) -> None:
        self._out.clear()  # unsent commands of failed calls must not meet later replies
        stalled = "the connection to Redis answered nothing in time"
        while self._waiting:
            future = self._waiting.popleft()
            if not future.done():
                lost = LostConnection("the connection to Redis was lost")
                future.set_exception(ConnectionError(stalled) if self._stalled else lost)

    async def close(self) -> None:
        self._closing = True
        if self._reading is not None:
            self._reading.close()
            await self._reading.closed


class _Replies(asyncio.Protocol):
    """A :class:`Pipe`'s connection, read as bytes arrive (no task of its own: each reply
    settles its call's future from the event loop's read callback); when it is lost, the
    calls still waiting fail."""

    def __init__(self, pipe: Pipe) -> None:
        self._pipe = pipe
        self._parser = reply_parser(pipe.raw)
        self._transport: asyncio.Transport | None = None
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        parser, reply = self._parser, self._pipe._reply
        try:
            parser.feed(data)
            while (answer := parser.gets()) is not False:
                reply(answer)
        except hiredis.ProtocolError as error:
            log.warning("redis connection lost: %s", error)
            if self._transport is not None:
                self._transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is not None:
            log.warning("redis connection lost: %s", exc)
        self._pipe._fail_waiting()
        if not self.closed.done():
            self.closed.set_result(None)

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()
        elif not self.closed.done():
            self.closed.set_result(None)


class Caller(Protocol):
    """A :class:`Pipe`, or a :class:`.cluster.ClusterPipe` that sends each command to the
    node of ``key``'s slot."""

    def call_at(self, key: str, *args: Any) -> Awaitable[Any]: ...


class Script:
    """A Lua script run by its hash (``await script(keys, args)``); sent whole (EVAL, which
    also caches it) when the node has not got it (NOSCRIPT: it did not run), as after a
    restart, or on a cluster node it is new to.  The first key routes it.  A ``repeatable``
    script (a read, or one guarded so that running it twice changes nothing more) is run once
    more when its connection is lost before the reply."""

    def __init__(self, caller: Caller, text: str, repeatable: bool = False) -> None:
        self._caller = caller
        self._text = text
        self._sha = hashlib.sha1(text.encode()).hexdigest()
        self._repeatable = repeatable

    def __call__(self, keys: Sequence[str] | Packed, args: Sequence[Any] = ()) -> Awaitable[Any]:
        if self._repeatable:
            return once_more(lambda: self._run(keys, args), f"a script ({self._sha[:8]})")
        return self._run(keys, args)

    async def _run(self, keys: Sequence[str] | Packed, args: Sequence[Any]) -> Any:
        if isinstance(keys, Packed):
            sent: Sequence[Any] = (keys,)
            keys = keys.keys
        else:
            sent = keys
        call, key, count = self._caller.call_at, keys[0], len(keys)
        try:
            return await call(key, "EVALSHA", self._sha, count, *sent, *args)
        except ReplyError as error:
            if not str(error).startswith("NOSCRIPT"):
                raise
        return await call(key, "EVAL", self._text, count, *sent, *args)
