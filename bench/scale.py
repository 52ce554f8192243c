"""Load at scale: 10,000 concurrent websocket clients against two server processes on one Redis.

    nice .venv/bin/python bench/scale.py [--connections N] [--racers R] [--spectators S]
                                         [--seconds T] [--pace P] [--flat-seconds F]
                                         [--holders H] [--settle S] [--rest S]
                                         [--by-second] [--spread] [--trace-memory]
                                         [--py-spy FILE]

Starts two ``stalactites serve`` processes on Redis at 127.0.0.1:6379 (a key prefix of
their own, deleted afterwards; the rate limits and the per-address caps off, per connection and
per address, as every simulated client comes from 127.0.0.1 and the flat-out phase is not to be
throttled) and, over HTTP, seats three kinds of clients, every socket of a room on the same
process, the rooms taking the two in turn, as ``deploy/nginx.conf.template`` routes a room's
websockets (``--spread``: a room's sockets on both processes, as a load balancer without room
affinity would put them):

* racers: 2-seat rooms (Stalactites, undo on; ``--spread``: one racer on each process);
  every racer alternates a random legal move and an undo, each an engine-checked, stored
  commit;
* spectators watching the racing rooms, spread over them; half the racing rooms show the
  boards live to spectators (``spectator_delay_s`` 0), the other half 30 s behind;
* players waiting: 2-seat rooms with both seats taken, never ready (the rest of the
  connections).

By default a tenth of the connections are racers and two fifths spectators (8 on each racing
room), the rest players waiting.  The idle connections ping every ``PING_EVERY_S`` as the web
client does (a silent spectator is closed after ``STALACTITES_SPECTATOR_IDLE_S``).  The racers
run in one client process and the idle connections in ``--holders`` others (by default one per
2,500 of them), so that the racers' latencies are not held up by a client busy reading
thousands of sockets; each client process's CPU use is printed, and the racer process's
event-loop lag, to show where the client itself is the bottleneck.  Every client socket
speaks the websocket protocol by hand (:class:`Held`: the same handshake, frames and pings as
the websockets library's, their frames counted rather than decoded but for a racer's answers),
so that the clients leave the machine's CPU to the servers.

Figures:

* connections held: opened (a ``welcome`` received), failed, and still open after each phase;
* server memory per idle connection: each server's RSS (``VmRSS`` in ``/proc/PID/status``,
  after a full garbage collection and a pause) before any socket is open and with every
  connection open and idle, the difference divided by the connections it holds;
* paced phase, every connection open: each racer an action every ``1/pace`` seconds;
  moves per second, and p50/p99 latency from sending ``move``/``undo`` to its ``accepted``;
* flat-out phase (``--flat-seconds``, 0 to skip): every racer sends its next action as soon
  as the last is answered: moves per second the two processes sustain, and the latencies;
* CPU at rest: every connection open, nobody moving, for ``--rest`` seconds;
* the control: the paced phase again once the idle connections are closed (the racers
  alone), to tell what holding them costs from what the machine's other work costs;
* CPU used by each process and by the whole machine during each phase, and the p99 of each
  second's moves (the median second and the worst): a busy spell on a shared machine shows
  up as one bad second, a server that cannot keep up as every second bad (``--by-second``
  prints every second's);
* with ``--py-spy FILE``: server 1 sampled through the paced phase (``py-spy record --gil``,
  collapsed stacks into FILE);
* with ``--trace-memory``: what server 1's allocations grew by between the two memory
  readings, by package and by source line (tracemalloc, which inflates the memory figures).

Goals (issues 7 and 19): 10,000 connections held with a paced p99 under 50 ms, and at most
30 KB of server memory per idle connection.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import contextlib
import json
import multiprocessing
import os
import random
import resource
import sys
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from benchkit import (
    NO_LIMITS,
    REDIS_URL,
    Racer,
    Server,
    delete_keys,
    percentile,
    post,
    process_cpu_seconds,
    race,
    sample,
    stalactites_command,
    start_server,
)

GOAL_CONNECTIONS = 10_000
GOAL_P99_MS = 50.0
GOAL_BYTES = 30 * 1024
RACER_SHARE, SPECTATOR_SHARE = 0.1, 0.4  # of the connections, by default (the rest wait)
IDLE_PER_HOLDER = 2500  # idle sockets per holder process, by default
PING_EVERY_S = 15.0  # as the web client (client_web/js/shared/connection.js)
PING_TICK_S = 0.5  # a holder pings a slice of its sockets this often
SERVERS = 2
SETTLE_S = 3.0  # pause after a garbage collection, and before each phase (--settle)
OPENING = 50  # sockets being opened at once, per client process
HTTP_THREADS = 8
TIME_LIMIT_S = 3600
DEALS = 32000  # the rooms' deals: ms:1 to ms:32000, at random
DELAYED_S = 30  # spectator delay of every other racing room (the others: 0)
LAG_TICK_S = 0.01
REST_S = 10.0  # CPU is measured this long with every connection open, nobody moving (--rest)
# Every client comes from 127.0.0.1: the caps on one address's connections and spectator
# sockets (per process) are off too.
NO_CAPS = {"STALACTITES_ADDRESS_CONNECTIONS": "0", "STALACTITES_ADDRESS_SPECTATORS": "0"}


# The plan: which socket goes where, seated over HTTP.


@dataclass(frozen=True)
class Seat:
    """One socket to open: on which server, to which room, with which hello."""

    server: int
    room_id: str
    token: str | None  # None: a spectator
    ready: bool = False  # send ready after the welcome (racers)

    def hello(self) -> dict[str, Any]:
        if self.token is None:
            return {"type": "hello", "spectator": True}
        return {"type": "hello", "token": self.token}


@dataclass
class Plan:
    racers: list[Seat] = field(default_factory=list)
    idle: list[Seat] = field(default_factory=list)  # spectators and players waiting


def make_room(url: str, seats: int, delay_s: int) -> str:
    """A room on a deal named here (a room left to pick its own deal waits for the solver to
    certify one: seconds of CPU for each of thousands of rooms)."""
    body = {
        "deal": f"ms:{random.randrange(1, DEALS + 1)}",
        "seats": seats,
        "countdown_s": 0,
        "time_limit_s": TIME_LIMIT_S,
        "spectator_delay_s": delay_s,
    }
    room: dict[str, Any] = post(f"http://{url}/api/rooms", body)
    return str(room["room_id"])


def join(url: str, room_id: str, name: str) -> str:
    seat: dict[str, Any] = post(f"http://{url}/api/rooms/{room_id}/players", {"name": name})
    return str(seat["token"])


def seat_pair(
    urls: list[str], index: int, ready: bool, delay_s: int, spread: bool
) -> tuple[str, list[Seat]]:
    """A 2-seat room made on one server, both seats taken; both sockets on the room's server
    (the ``index``-th room's), or with ``spread`` one on each."""
    room_id = make_room(urls[index % SERVERS], 2, delay_s)
    seats = []
    for seat_no in range(2):
        token = join(urls[(index + seat_no) % SERVERS], room_id, f"P{seat_no + 1}")
        server = seat_no % SERVERS if spread else index % SERVERS
        seats.append(Seat(server, room_id, token, ready))
    return room_id, seats


def make_plan(
    urls: list[str], racers: int, spectators: int, waiting: int, spread: bool = False
) -> Plan:
    plan = Plan()
    with ThreadPoolExecutor(HTTP_THREADS) as pool:
        race_rooms = list(
            pool.map(
                lambda i: seat_pair(urls, i, True, 0 if (i // 2) % 2 == 0 else DELAYED_S, spread),
                range(racers // 2),
            )
        )
        waiting_rooms = list(
            pool.map(lambda i: seat_pair(urls, i, False, 0, spread), range(waiting // 2))
        )
    for _, seats in race_rooms:
        plan.racers += seats
    for _, seats in waiting_rooms:
        plan.idle += seats
    room_ids = [room_id for room_id, _ in race_rooms]
    for j in range(spectators):
        room = j % len(room_ids)
        server = (j // len(room_ids) if spread else room) % SERVERS  # both in turn, or the room's
        plan.idle.append(Seat(server, room_ids[room], None))
    return plan


# Client processes: each opens its sockets, then answers the bench's commands over a pipe.


ANSWERS = (b'{"type":"accepted"', b'{"type":"rejected"')  # a racer's, once it races


class Held(asyncio.Protocol):
    """A client's socket, spoken by hand: the handshake, ``hello`` and the ``welcome`` (then
    ``ready`` for a racer), then every frame counted without being decoded (but pongs), the
    server's pings answered, the client's own ``ping`` frames sent; a racer's socket keeps the
    frames a :class:`~benchkit.Racer` reads for :meth:`recv` (every one up to ``started``,
    then its answers), and skips the rest (the room's events) unread.  Reading 4,000
    spectators' frames through the websockets library took a fifth of a core on the machine
    the servers run on, and the 1,000 racers' 0.3 cores; this takes a fraction of that, so
    the servers get the CPU.  What the servers see is the same: the same handshake, frames
    and pings (masked, as a client's must be, with a zero key)."""

    def __init__(self, seat: Seat, host: str, counts: list[int]) -> None:
        self.counts = counts
        self.state = State.CONNECTING
        self.close_code: int | None = None
        self.welcomed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._seat, self._host = seat, host
        self._buffer = bytearray()
        self._transport: asyncio.Transport | None = None
        self._kept: collections.deque[str] | None = collections.deque() if seat.ready else None
        self._arrived = asyncio.Event()
        self._racing = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(
            f"GET /ws/rooms/{self._seat.room_id} HTTP/1.1\r\nHost: {self._host}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if self.state is State.CONNECTING:
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(self._buffer[: self._buffer.find(b"\r\n")])
            del self._buffer[: end + 4]
            if b" 101 " not in status:
                return self._fail(f"handshake refused: {status.decode(errors='replace')}")
            self.state = State.OPEN
            self._send(0x1, json.dumps(self._seat.hello()).encode())
        self._frames()

    def connection_lost(self, exc: Exception | None) -> None:
        self.state = State.CLOSED
        if self.close_code is None:
            self.close_code = 1006
        self._fail("closed before the welcome")
        self._arrived.set()

    def _fail(self, why: str) -> None:
        if not self.welcomed.done():
            self.welcomed.set_exception(RuntimeError(why))
        if self._transport is not None:
            self._transport.close()

    def _frames(self) -> None:
        buffer, start = self._buffer, 0
        while len(buffer) - start >= 2:
            opcode, length, head = buffer[start] & 0x0F, buffer[start + 1] & 0x7F, 2
            if length >= 126:
                head = 4 if length == 126 else 10
                if len(buffer) - start < head:
                    break
                length = int.from_bytes(buffer[start + 2 : start + head], "big")
            end = start + head + length
            if len(buffer) < end:
                break
            if opcode == 0x1 and self.welcomed.done():
                self._text(buffer, start + head, end)
            else:
                self._frame(opcode, bytes(buffer[start + head : end]))
            start = end
        del buffer[:start]

    def _text(self, buffer: bytearray, start: int, end: int) -> None:
        """A text frame after the welcome: counted (but pongs), or kept for a racer."""
        if buffer.startswith(b'{"type":"pong"', start):
            return
        self.counts[0] += 1
        if self._kept is None:
            return
        if self._racing and not buffer.startswith(ANSWERS, start):
            return
        self._racing = self._racing or buffer.find(b'"type":"started"', start, start + 40) >= 0
        self._kept.append(buffer[start:end].decode())
        self._arrived.set()

    def _frame(self, opcode: int, payload: bytes) -> None:
        if opcode == 0x1 and not self.welcomed.done():
            if payload.startswith(b'{"type":"welcome"'):
                self.welcomed.set_result(None)
                if self._seat.ready:
                    self._send(0x1, b'{"type": "ready"}')
            else:
                self._fail(payload[:200].decode(errors="replace"))
        elif opcode == 0x9:  # the server's keepalive ping
            self._send(0xA, payload)
        elif opcode == 0x8:
            self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
            self._send(0x8, payload[:2])
            self.state = State.CLOSED
            if self._transport is not None:
                self._transport.close()

    def _send(self, opcode: int, payload: bytes) -> None:
        if self.state is not State.OPEN or self._transport is None:
            return
        size = len(payload)
        head = bytes((0x80 | opcode, 0x80 | size)) if size < 126 else bytes((0x80 | opcode, 0xFE))
        if size >= 126:
            head += size.to_bytes(2, "big")
        self._transport.write(head + b"\0\0\0\0" + payload)  # masked with a zero key

    async def send(self, text: str) -> None:
        if self.state is not State.OPEN:
            raise ConnectionClosed(None, None)
        self._send(0x1, text.encode())

    async def recv(self) -> str:
        """A racer's next kept frame."""
        assert self._kept is not None
        while not self._kept:
            if self.state is not State.OPEN:
                raise ConnectionClosed(None, None)
            self._arrived.clear()
            await self._arrived.wait()
        return self._kept.popleft()

    async def close(self) -> None:
        self._send(0x8, (1000).to_bytes(2, "big"))
        self.state = State.CLOSED
        if self._transport is not None:
            self._transport.close()


async def open_held(url: str, seat: Seat, counts: list[int]) -> Held:
    """An idle client's socket, open and welcomed (see :class:`Held`)."""
    host, port = url.rsplit(":", 1)
    loop = asyncio.get_running_loop()
    _, held = await asyncio.wait_for(
        loop.create_connection(lambda: Held(seat, url, counts), host, int(port)), 60
    )
    try:
        await asyncio.wait_for(asyncio.shield(held.welcomed), 60)
    except BaseException:
        await held.close()
        raise
    return held


@dataclass
class Opened:
    sockets: list[tuple[Seat, Held]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


Opener = Callable[[str, Seat], Awaitable[Any]]


async def open_all(
    urls: list[str], seats: list[Seat], opener: Opener, opened: Opened | None = None
) -> Opened:
    opened = Opened() if opened is None else opened
    gate = asyncio.Semaphore(OPENING)
    began = time.perf_counter()

    async def one(seat: Seat) -> None:
        async with gate:
            try:
                opened.sockets.append((seat, await opener(urls[seat.server], seat)))
            except Exception as error:  # counted and reported: the figure is the failures
                opened.failures.append(f"{type(error).__name__}: {error}")

    await asyncio.gather(*(one(seat) for seat in seats))
    opened.seconds = time.perf_counter() - began
    return opened


def connected_report(opened: Opened) -> dict[str, Any]:
    by_server = [0] * SERVERS
    for seat, _ in opened.sockets:
        by_server[seat.server] += 1
    return {
        "opened": len(opened.sockets),
        "by_server": by_server,
        "failed": len(opened.failures),
        "failures": opened.failures[:5],
        "seconds": opened.seconds,
    }


def still_open(opened: Opened) -> dict[str, Any]:
    closed: dict[str, int] = {}
    for _, ws in opened.sockets:
        if ws.state is not State.OPEN:
            code = str(ws.close_code)
            closed[code] = closed.get(code, 0) + 1
    return {"open": len(opened.sockets) - sum(closed.values()), "closed_by_code": closed}


async def commands(pipe: Connection, answer: Callable[[tuple[Any, ...]], Awaitable[Any]]) -> None:
    """Answer the bench's commands until ``close``."""
    while True:
        command: tuple[Any, ...] = await asyncio.to_thread(pipe.recv)
        if command[0] == "close":
            return
        pipe.send(await answer(command))


async def keep_pinging(opened: Opened) -> None:
    """Each socket opened a ``ping`` frame every ``PING_EVERY_S``, the sockets spread over it
    (while the others are still being opened too: a spectator silent for a minute is closed)."""
    ticks = max(int(PING_EVERY_S / PING_TICK_S), 1)
    ping = json.dumps({"type": "ping"})
    tick = 0
    while True:
        await asyncio.sleep(PING_TICK_S)
        for _, ws in opened.sockets[tick % ticks :: ticks]:
            if ws.state is State.OPEN:
                with contextlib.suppress(ConnectionClosed):
                    await ws.send(ping)
        tick += 1


async def holder_main(urls: list[str], seats: list[Seat], pipe: Connection) -> None:
    opened = Opened()
    pinging = asyncio.create_task(keep_pinging(opened))  # from the first socket opened on
    counts = [0]  # frames received, pongs left out
    await open_all(urls, seats, lambda url, seat: open_held(url, seat, counts), opened)
    pipe.send(connected_report(opened))

    async def answer(command: tuple[Any, ...]) -> Any:
        return still_open(opened) | {"frames": counts[0]}

    await commands(pipe, answer)
    pinging.cancel()
    await asyncio.gather(*(ws.close() for _, ws in opened.sockets), return_exceptions=True)
    pipe.send("closed")


async def keep_racing(racer: Racer, seconds: float, pace: float | None, seed: int) -> None:
    try:
        await race(racer, seconds, pace, random.Random(seed))
    except ConnectionClosed:
        pass  # counted as not open at the end


async def loop_lag(samples: list[float], stop: asyncio.Event) -> None:
    """How late ``asyncio.sleep`` wakes this process: the client's own delay."""
    while not stop.is_set():
        began = time.perf_counter()
        await asyncio.sleep(LAG_TICK_S)
        samples.append(time.perf_counter() - began - LAG_TICK_S)


async def run_phase(racers: list[Racer], seconds: float, pace: float | None) -> dict[str, Any]:
    for racer in racers:
        racer.latencies, racer.sent_at, racer.rejected = [], [], 0
    lags: list[float] = []
    stop = asyncio.Event()
    lagging = asyncio.create_task(loop_lag(lags, stop))
    began = time.perf_counter()
    await asyncio.gather(*(keep_racing(r, seconds, pace, i) for i, r in enumerate(racers)))
    elapsed = time.perf_counter() - began
    stop.set()
    await lagging
    latencies = [value for racer in racers for value in racer.latencies]
    by_second: dict[int, list[float]] = {}
    for racer in racers:
        for sent, latency in zip(racer.sent_at, racer.latencies, strict=True):
            by_second.setdefault(int(sent - began), []).append(latency)
    p99s = sorted((percentile(values, 0.99), second) for second, values in by_second.items())
    return {
        "actions": len(latencies),
        "rejected": sum(racer.rejected for racer in racers),
        "per_second": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 0.50),
        "p99_ms": percentile(latencies, 0.99),
        "max_ms": percentile(latencies, 1.0),
        "lag_p99_ms": percentile(lags, 0.99),
        "second_p99_median_ms": p99s[len(p99s) // 2][0] if p99s else 0.0,
        "second_p99_worst": p99s[-1] if p99s else (0.0, 0),
        "second_p99s": [percentile(by_second[second], 0.99) for second in sorted(by_second)],
        "elapsed": elapsed,
    }


async def racer_main(urls: list[str], seats: list[Seat], pipe: Connection) -> None:
    counts = [0]
    opened = await open_all(urls, seats, lambda url, seat: open_held(url, seat, counts))
    racers = [Racer(ws) for _, ws in opened.sockets]
    started = await asyncio.gather(
        *(asyncio.wait_for(racer.wait_started(), 60) for racer in racers), return_exceptions=True
    )
    racing = [racer for racer, result in zip(racers, started, strict=True) if result is None]
    pipe.send(connected_report(opened) | {"racing": len(racing)})

    async def answer(command: tuple[Any, ...]) -> Any:
        if command[0] == "race":
            return await run_phase(racing, command[1], command[2])
        return still_open(opened)

    await commands(pipe, answer)
    await asyncio.gather(*(ws.close() for _, ws in opened.sockets), return_exceptions=True)
    pipe.send("closed")


def child(role: str, urls: list[str], seats: list[Seat], pipe: Connection) -> None:
    main = racer_main if role == "racers" else holder_main
    asyncio.run(main(urls, seats, pipe))


@dataclass
class Client:
    """A client process, seen from the bench."""

    role: str
    process: multiprocessing.process.BaseProcess
    pipe: Connection

    def ask(self, *command: Any) -> Any:
        self.pipe.send(command)
        return self.pipe.recv()

    def cpu_seconds(self) -> float:
        assert self.process.pid is not None
        return process_cpu_seconds(self.process.pid)


def start_client(role: str, urls: list[str], seats: list[Seat]) -> Client:
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe()
    process = context.Process(target=child, args=(role, urls, seats, theirs), daemon=True)
    process.start()
    return Client(role, process, ours)


# Measuring.


class CpuMeter:
    """CPU used (in cores) by the servers, Redis, the client processes and the whole machine
    over a span."""

    def __init__(self, servers: list[Server], clients: list[Client]) -> None:
        self.servers, self.clients = servers, clients
        self.began = self._now()

    def _now(self) -> dict[str, float]:
        import redis

        now = {"wall": time.perf_counter()}
        for server in self.servers:
            now[server.name] = server.cpu_seconds()
        for client in self.clients:
            now[client.role] = now.get(client.role, 0.0) + client.cpu_seconds()
        connection = redis.Redis.from_url(REDIS_URL)
        info = connection.info("cpu")
        connection.close()
        now["redis"] = float(info["used_cpu_sys"]) + float(info["used_cpu_user"])
        now["whole machine"] = machine_busy_seconds()
        return now

    def shares(self) -> dict[str, float]:
        end = self._now()
        wall = end["wall"] - self.began["wall"]
        return {key: (end[key] - self.began[key]) / wall for key in end if key != "wall"}


def machine_busy_seconds() -> float:
    """CPU time every core has spent busy so far (``/proc/stat``: user, nice, system, irq,
    softirq and steal; not idle or iowait; guest time is already in user and nice)."""
    with open("/proc/stat") as stat:
        ticks = [int(value) for value in stat.readline().split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def logged(server: Server) -> Counter[str]:
    """What a server logged that tells of trouble: its warnings and errors, and the clients
    whose send queue overflowed (by message; a client closed as stalled is not logged, its
    close code 1013 is counted with the sockets still open)."""
    server.log.seek(0)
    counts: Counter[str] = Counter()
    for line in server.log:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        message = str(entry.get("message", ""))
        if entry.get("level") in ("warning", "error", "critical") or "too slow" in message:
            lines = str(entry.get("exception", "")).strip().splitlines()
            where = [line.strip() for line in lines if line.strip().startswith("File ")]
            why = f"{lines[-1][:100]} ({where[-1][:160]})" if where else message.split(": ")[-1]
            counts[f"{entry.get('level')} {entry.get('logger')}: {why}"] += 1
    return counts


def settled_rss(servers: list[Server], settle: float) -> list[int]:
    """Each server's RSS after a full garbage collection and a pause."""
    for server in servers:
        server.collect_garbage()
    time.sleep(settle)
    return [server.rss_bytes() for server in servers]


def raise_fd_limit(needed: int) -> int:
    """Raise the soft limit on open files to the hard limit (the servers inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, needed)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    if target < needed:
        raise SystemExit(f"open files limited to {target}; {needed} are needed")
    return target


@dataclass
class Results:
    planned: int
    seating_s: float = 0.0  # making the rooms and taking the seats over HTTP
    connected: list[dict[str, Any]] = field(default_factory=list)
    rss_before: list[int] = field(default_factory=list)
    rss_idle: list[int] = field(default_factory=list)
    rest: dict[str, float] = field(default_factory=dict)  # CPU with nobody moving
    traced: list[str] = field(default_factory=list)  # --trace-memory: server 1's growth
    logged: dict[str, Counter[str]] = field(default_factory=dict)  # warnings, kicks by server
    phases: list[tuple[str, dict[str, Any], dict[str, float], int, int]] = field(
        default_factory=list
    )  # name, racer figures, cpu shares, connections open after, spectator frames

    @property
    def opened_by_server(self) -> list[int]:
        return [sum(c["by_server"][i] for c in self.connected) for i in range(SERVERS)]


def phase(
    clients: list[Client], servers: list[Server], settle: float, name: str, *command: Any
) -> Any:
    racers, holders = clients[0], clients[1:]
    time.sleep(settle)  # the last phase's answers and events drain first
    frames_before = sum(h.ask("count")["frames"] for h in holders)
    meter = CpuMeter(servers, clients)
    figures = racers.ask(*command)
    shares = meter.shares()
    counts = [client.ask("count") for client in clients]
    frames = sum(c["frames"] for c in counts[1:]) - frames_before
    closed: dict[str, int] = {}
    for count in counts:
        for code, n in count["closed_by_code"].items():
            closed[code] = closed.get(code, 0) + n
    figures["closed_by_code"] = closed
    return name, figures, shares, sum(c["open"] for c in counts), frames


def measure(args: argparse.Namespace, servers: list[Server], results: Results) -> None:
    urls = [server.url for server in servers]
    waiting = args.connections - args.racers - args.spectators
    began = time.perf_counter()
    plan = make_plan(urls, args.racers, args.spectators, waiting, args.spread)
    results.seating_s = time.perf_counter() - began
    results.planned = len(plan.racers) + len(plan.idle)
    results.rss_before = settled_rss(servers, args.settle)
    if args.trace_memory:
        servers[0].trace_memory()
    clients = [start_client("racers", urls, plan.racers)]
    for h in range(args.holders):
        clients.append(start_client("holders", urls, plan.idle[h :: args.holders]))
    try:
        results.connected = [client.pipe.recv() for client in clients]
        time.sleep(args.settle)
        results.rss_idle = settled_rss(servers, args.settle)
        if args.trace_memory:
            servers[0].trace_memory()
            results.traced = servers[0].traced()
        meter = CpuMeter(servers, clients)
        time.sleep(args.rest)
        results.rest = meter.shares()
        paced = f"paced {args.pace:g}/s"

        def run(some: list[Client], name: str, seconds: float, pace: float | None) -> None:
            results.phases.append(phase(some, servers, args.settle, name, "race", seconds, pace))

        spy = sample(servers[0], args.seconds, args.py_spy) if args.py_spy else None
        run(clients, paced, args.seconds, args.pace)
        if spy is not None:
            spy.wait()
        if args.flat_seconds > 0:
            run(clients, "flat out", args.flat_seconds, None)
        close(clients[1:])  # the control: the same racers without the idle connections
        run(clients[:1], f"{paced}, racers only", args.seconds, args.pace)
        close(clients[:1])
    finally:
        for client in clients:
            client.process.join(10)
            if client.process.is_alive():
                client.process.terminate()


def close(clients: list[Client]) -> None:
    """Have the client processes close their sockets and end."""
    for client in clients:
        client.pipe.send(("close",))
    for client in clients:
        if client.pipe.poll(30):
            client.pipe.recv()
        client.process.join(10)


# Report.


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def report(results: Results, servers: list[Server], args: argparse.Namespace) -> None:
    opened = sum(c["opened"] for c in results.connected)
    failed = sum(c["failed"] for c in results.connected)
    racing = results.connected[0]["racing"]
    pairs = zip(results.opened_by_server, servers, strict=True)
    where = ", ".join(f"{n} on {server.name}" for n, server in pairs)
    print(
        f"connections: {results.planned} planned, {opened} opened ({where}), "
        f"{failed} failed; {racing} racers racing"
    )
    for connected in results.connected:
        for failure in connected["failures"]:
            print(f"  failure: {failure}")
    slowest = max(c["seconds"] for c in results.connected)
    print(
        f"  seating them over HTTP took {results.seating_s:.1f} s, opening every socket "
        f"{slowest:.1f} s ({len(results.connected)} client processes)"
    )
    per_connection = []
    for server, before, idle, held in zip(
        servers, results.rss_before, results.rss_idle, results.opened_by_server, strict=True
    ):
        share = (idle - before) / held if held else 0.0
        per_connection.append(share)
        print(
            f"memory {server.name}: {before / 2**20:.1f} MB before, {idle / 2**20:.1f} MB with "
            f"{held} idle connections: {share / 1024:.1f} KB per connection"
        )
    if results.traced:
        print(f"memory {servers[0].name} grew by (tracemalloc, the largest source lines):")
        for line in results.traced:
            print(f"  {line.removeprefix('tracemalloc:').strip()}")
    print()
    header = f"{'phase':<24} {'moves':>7} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"
    print(f"{header} {'rejected':>8} {'open after':>10} {'spectator frames/s':>18}")
    for name, figures, _, still, frames in results.phases:
        print(
            f"{name:<24} {figures['actions']:>7} {figures['per_second']:>8.0f} "
            f"{figures['p50_ms']:>8.2f} {figures['p99_ms']:>8.2f} {figures['max_ms']:>8.2f} "
            f"{figures['rejected']:>8} {still:>10} {frames / figures['elapsed']:>18.0f}"
        )
    for name, figures, _, _, _ in results.phases:
        if figures["closed_by_code"]:
            codes = ", ".join(f"{n} with {code}" for code, n in figures["closed_by_code"].items())
            print(f"  closed by the end of {name}: {codes} (close codes)")
    print()
    print(
        f"CPU during each phase, in cores ({os.cpu_count()} here; the whole machine includes "
        "other work), and the racer client's event-loop lag p99:"
    )
    parts = ", ".join(f"{key} {value:.2f}" for key, value in results.rest.items())
    print(f"  at rest ({args.rest:g} s, every connection open, nobody moving): {parts}")
    for name, figures, shares, _, _ in results.phases:
        parts = ", ".join(f"{key} {value:.2f}" for key, value in shares.items())
        print(f"  {name}: {parts} (lag {figures['lag_p99_ms']:.1f} ms)")
    print()
    print("p99 of each second's moves: the median second, and the worst (seconds into the phase)")
    for name, figures, _, _, _ in results.phases:
        worst, second = figures["second_p99_worst"]
        print(
            f"  {name}: median second {figures['second_p99_median_ms']:.2f} ms, "
            f"worst {worst:.2f} ms (at {second} s)"
        )
        if args.by_second:
            print("    " + " ".join(f"{value:.0f}" for value in figures["second_p99s"]))
    print()
    paced_name, paced, _, paced_open, _ = results.phases[0]
    held = min(opened, paced_open)
    print("goals (issues 7 and 19):")
    print(
        f"  {GOAL_CONNECTIONS:,} connections held: {opened} opened, {paced_open} open after the "
        f"paced phase: {verdict(held >= GOAL_CONNECTIONS and failed == 0)}"
    )
    print(
        f"  p99 move latency under {GOAL_P99_MS:g} ms with them connected ({paced_name}): "
        f"{paced['p99_ms']:.2f} ms: {verdict(paced['p99_ms'] < GOAL_P99_MS)}"
    )
    worst = max(per_connection)
    print(
        f"  at most {GOAL_BYTES // 1024} KB of server memory per idle connection: "
        f"{worst / 1024:.1f} KB (the larger of the two): {verdict(worst <= GOAL_BYTES)}"
    )


# Main.


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=GOAL_CONNECTIONS, help="sockets")
    parser.add_argument(
        "--racers", type=int, help="racers (even), in 2-seat rooms (default: a tenth)"
    )
    parser.add_argument(
        "--spectators", type=int, help="spectators of racing rooms (default: two fifths)"
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the paced phase")
    parser.add_argument("--pace", type=float, default=1.0, help="actions a second per racer")
    parser.add_argument("--flat-seconds", type=float, default=10.0, help="flat-out phase; 0: none")
    parser.add_argument(
        "--trace-memory",
        action="store_true",
        help="trace server 1's allocations (slower, more memory) and show what the sockets hold",
    )
    parser.add_argument(
        "--py-spy", default="", metavar="FILE", help="sample server 1 in the paced phase"
    )
    parser.add_argument("--by-second", action="store_true", help="print each second's p99")
    parser.add_argument(
        "--spread",
        action="store_true",
        help="a room's sockets on both servers (no room affinity at the balancer)",
    )
    parser.add_argument("--settle", type=float, default=SETTLE_S, help="pauses (seconds)")
    parser.add_argument("--rest", type=float, default=REST_S, help="CPU at rest: seconds")
    parser.add_argument("--holders", type=int, help="processes for idle sockets")
    args = parser.parse_args()
    if args.racers is None:
        args.racers = 2 * round(args.connections * RACER_SHARE / 2)
    if args.spectators is None:
        args.spectators = round(args.connections * SPECTATOR_SHARE)
    if args.holders is None:
        args.holders = max(-(-(args.connections - args.racers) // IDLE_PER_HOLDER), 1)
    if args.racers < 2 or args.racers % 2:
        parser.error("--racers must be an even number, at least 2")
    waiting = args.connections - args.racers - args.spectators
    if args.spectators < 0 or waiting < 0 or waiting % 2:
        parser.error(
            "--connections less --racers and --spectators (players waiting in rooms "
            "of two) must be an even number, at least 0"
        )
    if args.holders < 1 or args.pace <= 0:
        parser.error("--holders and --pace must be positive")
    return args


def main() -> None:
    args = parse_args()
    limit = raise_fd_limit(args.connections + 1000)  # a client process may hold them all
    print(
        f"{args.connections} connections: {args.racers} racers, {args.spectators} spectators, "
        f"{args.connections - args.racers - args.spectators} players waiting; "
        f"{SERVERS} servers on Redis, "
        f"{'a room on both' if args.spread else 'each room on one'}; "
        f"paced {args.seconds:g} s, flat out {args.flat_seconds:g} s; "
        f"open files limit {limit}; python {sys.version.split()[0]}, "
        f"load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    prefix = f"bench-scale:{uuid.uuid4().hex[:8]}:"
    env = NO_LIMITS | {"REDIS_URL": REDIS_URL, "STALACTITES_REDIS_PREFIX": prefix} | NO_CAPS
    if args.trace_memory:
        env["PYTHONTRACEMALLOC"] = "1"
    servers: list[Server] = []
    results = Results(0)
    try:
        for number in range(1, SERVERS + 1):
            servers.append(start_server(f"server {number}", stalactites_command(), env))
        measure(args, servers, results)
    finally:
        for server in servers:
            results.logged[server.name] = logged(server)
            server.stop()
        delete_keys(prefix)
    report(results, servers, args)
    for name, counts in results.logged.items():
        told = ", ".join(f"{n} x {message}" for message, n in counts.most_common(4)) or "nothing"
        print(f"{name} logged (warnings, errors, send queues overflowed): {told}")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
