"""Presence at scale: 10,000 players online on two server processes, each following 50 others.

    nice .venv/bin/python bench/presence.py [--players N] [--follows F] [--sample S]
                                            [--rounds R] [--clients C] [--rest S] [--seed N]

Starts two ``stalactites serve`` processes on Redis at 127.0.0.1:6379 (a key prefix of their
own, deleted afterwards; the rate limits and the per-address caps off, as every simulated
client comes from 127.0.0.1), makes ``--players`` anonymous players (``POST /api/session``,
the two processes in turn; presence needs no account), and gives each ``--follows`` others,
drawn at random, to follow.  The follow graph is written straight into the store through the
friends' store API (``add(follower, "following", x)`` and ``add(x, "followers", follower)``),
which takes seconds where the 500,000 ``POST /api/me/following`` calls would take many
minutes and need registered players.  Then every player opens a notification socket
(``/ws/notify``, ``hello`` with its session, half on each process) and pings as the web
client's does; the sockets are held by ``--clients`` processes of their own (scale.py's
:class:`~scale.Held`, spoken by hand), so that the clients leave the CPU to the servers.

The measured phase is ``--rounds`` rounds; in each, ``--sample`` players drawn at random go
offline at once (their sockets closed), and once every follower of theirs still online has
had the ``presence`` frame saying so, come back (a new socket and ``hello`` each, all at
once).  Each online follower's socket notes when the ``presence`` frame saying the player is
``online`` arrives; the clock is the machine's monotonic one, shared by the processes.

Figures:

* the time from a player's ``hello`` leaving to each online follower's socket receiving the
  ``presence`` frame: p50, p99 and max over every delivery (goal: p99 under 1 s), and the
  deliveries that never came;
* the store's memory per online player: Redis's ``used_memory`` (``INFO memory``) with the
  players and their follows stored, and again with every socket open, the difference divided
  by the players (a Redis shared with other work counts theirs too);
* the CPU per presence change: each server process's user and system time (``/proc``) over
  the measured phase, divided by the changes (a player going offline or coming online) made
  on it; also net of the servers' CPU at rest (``--rest`` seconds with every socket open:
  lease renewals and pings), and Redis's (``INFO cpu``) per change.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import datetime
import json
import multiprocessing
import os
import random
import sys
import time
import uuid
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import redis
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from benchkit import (
    NO_LIMITS,
    REDIS_URL,
    Server,
    delete_keys,
    percentile,
    post,
    stalactites_command,
    start_server,
)
from scale import NO_CAPS, SERVERS, Client, Held, Seat, commands, logged, raise_fd_limit
from stalactites.store import open_friends_store

GOAL_P99_S = 1.0
PLAYERS, FOLLOWS = 10_000, 50
SOCKETS_PER_CLIENT = 2500  # notification sockets per client process, by default
PING_EVERY_S = 25.0  # as the web client's notification socket (client_web/js/friends/notify.js)
PING_TICK_S = 0.5
OPENING = 50  # sockets being opened at once, per client process
HTTP_THREADS = 8
STORE_AT_ONCE = 20_000  # store calls in flight while writing the follow graph
DELIVERY_WAIT_S = 60.0  # how long a round waits for its presence frames
POLL_S = 0.1
SETTLE_S = 3.0
PRESENCE = b'{"type":"presence"'
LIMITS_OFF = NO_LIMITS | NO_CAPS | {"STALACTITES_SESSION_ADDRESS_RATE": "0"}

Heard = tuple[str, str, str, float]  # follower, followed player, status, when (monotonic)


# Client processes: each holds its players' notification sockets and notes the presence
# frames they hear.


class NotifyHeld(Held):
    """A notification socket spoken by hand (:class:`~scale.Held`'s frames and pings, on
    ``/ws/notify``): when its ``hello`` left, and each ``presence`` frame's arrival."""

    def __init__(
        self, seat: Seat, host: str, counts: list[int], player_id: str, heard: list[Heard]
    ) -> None:
        super().__init__(seat, host, counts)
        self.player_id, self.heard = player_id, heard
        self.hello_at = 0.0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(
            f"GET /ws/notify HTTP/1.1\r\nHost: {self._host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def _send(self, opcode: int, payload: bytes) -> None:
        if opcode == 0x1 and not self.hello_at:
            self.hello_at = time.monotonic()
        super()._send(opcode, payload)

    def _text(self, buffer: bytearray, start: int, end: int) -> None:
        if buffer.startswith(PRESENCE, start):
            self._presence(bytes(buffer[start:end]), time.monotonic())
        else:
            super()._text(buffer, start, end)

    def _frame(self, opcode: int, payload: bytes) -> None:
        """A frame before the welcome (or not text): a ``presence`` frame may come first, as
        the tab hears its channel before its welcome is sent."""
        if opcode == 0x1 and payload.startswith(PRESENCE):
            self._presence(payload, time.monotonic())
        else:
            super()._frame(opcode, payload)

    def _presence(self, payload: bytes, at: float) -> None:
        friend = json.loads(payload)["friend"]
        self.heard.append((self.player_id, friend["player_id"], friend["status"], at))


async def open_notify(
    url: str, seat: Seat, player_id: str, counts: list[int], heard: list[Heard]
) -> NotifyHeld:
    """A notification socket, open and welcomed."""
    host, port = url.rsplit(":", 1)
    loop = asyncio.get_running_loop()
    _, held = await asyncio.wait_for(
        loop.create_connection(
            lambda: NotifyHeld(seat, url, counts, player_id, heard), host, int(port)
        ),
        60,
    )
    try:
        await asyncio.wait_for(asyncio.shield(held.welcomed), 60)
    except BaseException:
        await held.close()
        raise
    return held


@dataclass
class Sockets:
    """One client process's players: their seats (server and session), open sockets, and
    the presence frames heard since the bench last asked."""

    urls: list[str]
    seats: dict[str, Seat]
    held: dict[str, NotifyHeld] = field(default_factory=dict)
    heard: list[Heard] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    counts: list[int] = field(default_factory=lambda: [0])

    async def open(self, players: Iterable[str]) -> dict[str, float]:
        """Open the players' sockets (``OPENING`` at once): when each one's hello left."""
        gate = asyncio.Semaphore(OPENING)

        async def one(player: str) -> None:
            seat = self.seats[player]
            async with gate:
                try:
                    self.held[player] = await open_notify(
                        self.urls[seat.server], seat, player, self.counts, self.heard
                    )
                except Exception as error:  # counted and reported
                    self.failures.append(f"{type(error).__name__}: {error}")

        players = list(players)
        await asyncio.gather(*(one(player) for player in players))
        return {p: self.held[p].hello_at for p in players if p in self.held}

    async def close(self, players: Iterable[str]) -> None:
        for player in players:
            ws = self.held.pop(player, None)
            if ws is not None:
                await ws.close()

    def taken(self) -> list[Heard]:
        heard, self.heard[:] = list(self.heard), []
        return heard

    async def keep_pinging(self) -> None:
        """Each socket a ``ping`` frame every ``PING_EVERY_S``, the sockets spread over it."""
        ticks = max(int(PING_EVERY_S / PING_TICK_S), 1)
        tick = 0
        while True:
            await asyncio.sleep(PING_TICK_S)
            for ws in list(self.held.values())[tick % ticks :: ticks]:
                if ws.state is State.OPEN:
                    with contextlib.suppress(ConnectionClosed):
                        await ws.send('{"type":"ping"}')
            tick += 1


async def client_main(urls: list[str], seats: dict[str, Seat], pipe: Connection) -> None:
    sockets = Sockets(urls, seats)
    pinging = asyncio.create_task(sockets.keep_pinging())
    began = time.perf_counter()
    await sockets.open(seats)
    pipe.send(
        {
            "opened": len(sockets.held),
            "failures": sockets.failures[:3],
            "failed": len(sockets.failures),
            "seconds": time.perf_counter() - began,
        }
    )

    async def answer(command: tuple[Any, ...]) -> Any:
        if command[0] == "off":
            return await sockets.close(command[1])
        if command[0] == "on":
            return await sockets.open(command[1])
        if command[0] == "heard":
            return sockets.taken()
        return sum(ws.state is State.OPEN for ws in sockets.held.values())  # "open"

    await commands(pipe, answer)
    pinging.cancel()
    await sockets.close(list(sockets.held))
    pipe.send("closed")


def child(urls: list[str], seats: dict[str, Seat], pipe: Connection) -> None:
    asyncio.run(client_main(urls, seats, pipe))


def start_client(urls: list[str], seats: dict[str, Seat]) -> Client:
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe()
    process = context.Process(target=child, args=(urls, seats, theirs), daemon=True)
    process.start()
    return Client("clients", process, ours)


def ask_all(clients: list[Client], commands_: list[tuple[Any, ...]]) -> list[Any]:
    """Each client its command, all at once; their answers."""
    for client, command in zip(clients, commands_, strict=True):
        client.pipe.send(command)
    return [client.pipe.recv() for client in clients]


# The players and their follows.


def make_players(urls: list[str], count: int) -> list[tuple[str, str]]:
    """``count`` anonymous players (player id, session token), made on the servers in turn."""

    def one(index: int) -> tuple[str, str]:
        made = post(f"http://{urls[index % SERVERS]}/api/session", {})
        return str(made["player_id"]), str(made["token"])

    with ThreadPoolExecutor(HTTP_THREADS) as pool:
        return list(pool.map(one, range(count)))


def follow_graph(players: list[str], follows: int, rng: random.Random) -> dict[str, list[str]]:
    """Each player's followed players: ``follows`` others at random."""
    graph = {}
    for index, player in enumerate(players):
        picked = rng.sample(range(len(players) - 1), follows)
        graph[player] = [players[n + (n >= index)] for n in picked]
    return graph


async def store_graph(prefix: str, graph: dict[str, list[str]]) -> None:
    """Write the follows straight into the friends' store, ``STORE_AT_ONCE`` calls at once."""
    store = open_friends_store(REDIS_URL, prefix)
    now = int(time.time() * 1000)
    pairs = [(follower, x) for follower, followed in graph.items() for x in followed]
    try:
        for start in range(0, len(pairs), STORE_AT_ONCE // 2):
            calls = []
            for follower, x in pairs[start : start + STORE_AT_ONCE // 2]:
                calls.append(store.add(follower, "following", x, now))
                calls.append(store.add(x, "followers", follower, now))
            await asyncio.gather(*calls)
    finally:
        await store.close()


def followers_of(graph: dict[str, list[str]]) -> dict[str, list[str]]:
    followers: dict[str, list[str]] = {player: [] for player in graph}
    for follower, followed in graph.items():
        for x in followed:
            followers[x].append(follower)
    return followers


def redis_info(section: str) -> dict[str, Any]:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        return dict(client.info(section))
    finally:
        client.close()


def redis_cpu() -> float:
    info = redis_info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


# The measured phase.


@dataclass
class Figures:
    players: int = 0
    sessions_s: float = 0.0
    graph_s: float = 0.0
    opened: list[dict[str, Any]] = field(default_factory=list)
    memory_before: int = 0
    memory_online: int = 0
    rest_s: float = 0.0
    rest_cpu: list[float] = field(default_factory=list)  # each server's, over rest_s
    phase_s: float = 0.0
    phase_cpu: list[float] = field(default_factory=list)
    redis_cpu: float = 0.0
    changes: list[int] = field(default_factory=lambda: [0] * SERVERS)  # made on each server
    latencies: list[float] = field(default_factory=list)
    missed_online: int = 0
    missed_offline: int = 0
    back_unasked: int = 0  # players said online again while their socket was closed
    failed: int = 0  # sockets that did not open again
    open_at_end: int = 0
    logged: dict[str, list[str]] = field(default_factory=dict)


def wait_heard(clients: list[Client], expected: set[tuple[str, str]], status: str) -> Any:
    """Wait until every (follower, player) pair expected has heard ``status``: when each
    did, the pairs that did not within ``DELIVERY_WAIT_S``, and the players of which an
    expected follower heard another status meanwhile."""
    pending, heard_at, other = set(expected), {}, set()
    deadline = time.monotonic() + DELIVERY_WAIT_S
    while pending and time.monotonic() < deadline:
        time.sleep(POLL_S)
        for heard in ask_all(clients, [("heard",)] * len(clients)):
            for follower, player, said, at in heard:
                if (follower, player) not in expected:
                    continue
                if said != status:
                    other.add(player)
                elif (follower, player) in pending:
                    pending.discard((follower, player))
                    heard_at[(follower, player)] = at
    return heard_at, pending, other


def one_round(
    clients: list[Client],
    where: dict[str, tuple[int, int]],
    sample: list[str],
    followers: dict[str, list[str]],
    figures: Figures,
) -> None:
    """The sample offline, then online again: each online follower's delay noted."""
    sampled = set(sample)
    by_client: list[list[str]] = [[] for _ in clients]
    for player in sample:
        client, server = where[player]
        by_client[client].append(player)
        figures.changes[server] += 2
    expected = {(f, x) for x in sample for f in followers[x] if f not in sampled}
    ask_all(clients, [("off", some) for some in by_client])
    _, missed, back = wait_heard(clients, expected, "offline")
    figures.missed_offline += len(missed)
    figures.back_unasked += len(back)
    hello_at: dict[str, float] = {}
    for sent in ask_all(clients, [("on", some) for some in by_client]):
        hello_at.update(sent)
    figures.failed += len(sample) - len(hello_at)
    expected = {(f, x) for f, x in expected if x in hello_at}
    heard_at, missed, _ = wait_heard(clients, expected, "online")
    figures.missed_online += len(missed)
    figures.latencies += [at - hello_at[x] for (_, x), at in heard_at.items()]


def measure(args: argparse.Namespace, prefix: str, servers: list[Server], figures: Figures) -> None:
    urls = [server.url for server in servers]
    rng = random.Random(args.seed)
    began = time.perf_counter()
    made = make_players(urls, args.players)
    figures.sessions_s = time.perf_counter() - began
    players = [player for player, _ in made]
    figures.players = len(players)
    began = time.perf_counter()
    graph = follow_graph(players, args.follows, rng)
    asyncio.run(store_graph(prefix, graph))
    figures.graph_s = time.perf_counter() - began
    followers = followers_of(graph)
    # Player i's socket on server i % SERVERS, held by client process i // SERVERS % clients.
    where = {p: (i // SERVERS % args.clients, i % SERVERS) for i, p in enumerate(players)}
    seats: list[dict[str, Seat]] = [{} for _ in range(args.clients)]
    for player, token in made:
        client, server = where[player]
        seats[client][player] = Seat(server, "", token)
    time.sleep(args.settle)
    figures.memory_before = int(redis_info("memory")["used_memory"])
    clients = [start_client(urls, some) for some in seats]
    try:
        figures.opened = [client.pipe.recv() for client in clients]
        time.sleep(args.settle)
        figures.memory_online = int(redis_info("memory")["used_memory"])
        ask_all(clients, [("heard",)] * len(clients))  # the frames of everyone coming online
        cpu = [server.cpu_seconds() for server in servers]
        began = time.perf_counter()
        time.sleep(args.rest)
        figures.rest_s = time.perf_counter() - began
        figures.rest_cpu = [s.cpu_seconds() - c for s, c in zip(servers, cpu, strict=True)]
        cpu, redis_began = [server.cpu_seconds() for server in servers], redis_cpu()
        began = time.perf_counter()
        for _ in range(args.rounds):
            one_round(clients, where, rng.sample(players, args.sample), followers, figures)
        figures.phase_s = time.perf_counter() - began
        figures.phase_cpu = [s.cpu_seconds() - c for s, c in zip(servers, cpu, strict=True)]
        figures.redis_cpu = redis_cpu() - redis_began
        figures.open_at_end = sum(ask_all(clients, [("open",)] * len(clients)))
    finally:
        for client in clients:
            with contextlib.suppress(OSError):
                client.pipe.send(("close",))
        for client in clients:
            client.process.join(30)
            if client.process.is_alive():
                client.process.terminate()


# Report.


def machine() -> str:
    model = "unknown"
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} cores, {model}"


def report(args: argparse.Namespace, figures: Figures) -> None:
    opened = sum(one["opened"] for one in figures.opened)
    failed = sum(one["failed"] for one in figures.opened)
    slowest = max((one["seconds"] for one in figures.opened), default=0.0)
    print(
        f"players {figures.players} (sessions made in {figures.sessions_s:.1f} s), "
        f"{args.follows} followed each (stored in {figures.graph_s:.1f} s); sockets "
        f"{opened} opened in {slowest:.1f} s by {args.clients} client processes, {failed} failed"
    )
    for one in figures.opened:
        for failure in one["failures"]:
            print(f"  failure: {failure}")
    grown = figures.memory_online - figures.memory_before
    print(
        f"store memory (Redis used_memory): {figures.memory_before / 2**20:.1f} MB with the "
        f"graph, {figures.memory_online / 2**20:.1f} MB with all online: "
        f"{grown / max(opened, 1) / 1024:.2f} KB per online player"
    )
    changes = sum(figures.changes)
    lat = figures.latencies
    print(
        f"measured: {args.rounds} rounds of {args.sample} players offline and back, "
        f"{changes} presence changes in {figures.phase_s:.1f} s"
    )
    p99 = percentile(lat, 0.99)
    met = "met" if lat and p99 < GOAL_P99_S * 1000 else "NOT met"
    print(
        f"  online -> each online follower's socket: {len(lat)} deliveries, p50 "
        f"{percentile(lat, 0.5):.0f} ms, p99 {p99:.0f} ms, max {percentile(lat, 1.0):.0f} ms "
        f"(goal p99 < {GOAL_P99_S * 1000:.0f} ms: {met})"
    )
    print(
        f"  never heard: {figures.missed_online} online, {figures.missed_offline} offline; "
        f"sockets not reopened {figures.failed}; open at the end {figures.open_at_end}; "
        f"said online again before their hello: {figures.back_unasked} players"
    )
    parts, rest_rate = [], []
    for n, (cpu, made) in enumerate(zip(figures.phase_cpu, figures.changes, strict=True)):
        rest = figures.rest_cpu[n] / figures.rest_s if figures.rest_s else 0.0
        rest_rate.append(rest)
        net = cpu - rest * figures.phase_s
        parts.append(
            f"server {n + 1} {cpu * 1000 / max(made, 1):.2f} ms ({made} changes; "
            f"net of rest {net * 1000 / max(made, 1):.2f} ms)"
        )
    print(f"server CPU per presence change: {'; '.join(parts)}")
    total = sum(figures.phase_cpu)
    net_total = total - sum(rest_rate) * figures.phase_s
    print(
        f"  both servers together: {total * 1000 / max(changes, 1):.2f} ms per change (net of "
        f"rest {net_total * 1000 / max(changes, 1):.2f} ms); at rest, all online: "
        f"{', '.join(f'{rate:.3f}' for rate in rest_rate)} cores ({figures.rest_s:.0f} s); "
        f"Redis {figures.redis_cpu * 1000 / max(changes, 1):.2f} ms per change"
    )
    for name, told in figures.logged.items():
        print(f"{name} logged: {', '.join(told) or 'nothing'}")


# Main.


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--players", type=int, default=PLAYERS, help="players online")
    parser.add_argument("--follows", type=int, default=FOLLOWS, help="players each follows")
    parser.add_argument("--sample", type=int, default=100, help="players going off and on at once")
    parser.add_argument("--rounds", type=int, default=20, help="rounds of the measured phase")
    parser.add_argument("--clients", type=int, help="client processes (default: one per 2,500)")
    parser.add_argument("--rest", type=float, default=15.0, help="CPU at rest: seconds")
    parser.add_argument("--settle", type=float, default=SETTLE_S, help="pauses (seconds)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.clients is None:
        args.clients = max(-(-args.players // SOCKETS_PER_CLIENT), 1)
    if not 0 < args.follows < args.players or not 0 < args.sample <= args.players:
        parser.error("--follows and --sample: at least 1, fewer than --players")
    return args


def main() -> None:
    args = parse_args()
    limit = raise_fd_limit(args.players + 1000)
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{now}; {machine()}; load average {os.getloadavg()[0]:.2f}; open files {limit}")
    print(f"command: {' '.join([os.path.basename(sys.executable), *sys.argv])}", flush=True)
    prefix = f"bench-presence:{uuid.uuid4().hex[:8]}:"
    env = LIMITS_OFF | {"REDIS_URL": REDIS_URL, "STALACTITES_REDIS_PREFIX": prefix}
    servers: list[Server] = []
    figures = Figures()
    try:
        for number in range(1, SERVERS + 1):
            servers.append(start_server(f"server {number}", stalactites_command(), env))
        measure(args, prefix, servers, figures)
    finally:
        for server in servers:
            counts = logged(server)
            figures.logged[server.name] = [f"{n} x {what}" for what, n in counts.most_common(4)]
            server.stop()
        delete_keys(prefix)
    report(args, figures)


if __name__ == "__main__":
    main()
