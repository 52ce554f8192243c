"""What the race-server benchmarks share: servers in subprocesses, JSON over HTTP, racers.

Run as a script, ``python bench/benchkit.py serve --port 0`` is ``stalactites serve`` with
two additions for the benchmarks: on SIGUSR1 the process runs a full garbage collection (so
that a memory figure read from ``/proc`` afterwards holds no garbage), and with tracemalloc on
(PYTHONTRACEMALLOC=1) SIGUSR2 takes a snapshot, then prints what has grown since.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, TypeVar

from websockets.asyncio.client import ClientConnection, connect

__all__ = [
    "NO_LIMITS",
    "REDIS_URL",
    "Racer",
    "Server",
    "delete_keys",
    "drive",
    "median_rows",
    "percentile",
    "post",
    "process_cpu_seconds",
    "race",
    "seat_room_racers",
    "serve_app",
    "start_server",
    "stalactites_command",
]

REDIS_URL = "redis://127.0.0.1:6379/0"
REPO = Path(__file__).resolve().parents[1]
STOP_WAIT_S = 10.0
TRACE_MARK = "tracemalloc:"
TRACE_LINES = 25
TRACE_END = "end"
TRACE_WAIT_S = 120.0
# Every simulated client comes from 127.0.0.1, and flat-out racers send more than a person
# could: the servers run with the rate limits off (per connection: moves, frames of any kind;
# per address: moves, room creation, seats).
NO_LIMITS = {
    "STALACTITES_MOVE_RATE": "0",
    "STALACTITES_FRAME_RATE": "0",
    "STALACTITES_ADDRESS_MOVE_RATE": "0",
    "STALACTITES_CREATE_RATE": "0",
    "STALACTITES_JOIN_RATE": "0",
}
START_WAIT_S = 30.0


# Servers in subprocesses.


@dataclass
class Server:
    """A server process, its ``host:port`` and its log (stderr, kept in a temporary file)."""

    name: str
    process: subprocess.Popen[str]
    url: str
    log: TextIO

    @property
    def pid(self) -> int:
        return self.process.pid

    def rss_bytes(self) -> int:
        """Resident memory now (``VmRSS`` in ``/proc/PID/status``)."""
        return _status_kb(self.pid, "VmRSS") * 1024

    def cpu_seconds(self) -> float:
        """User plus system CPU time used so far (``/proc/PID/stat``)."""
        return process_cpu_seconds(self.pid)

    def collect_garbage(self) -> None:
        """Ask the process for a full garbage collection (servers started by this module)."""
        self.process.send_signal(signal.SIGUSR1)

    def trace_memory(self) -> None:
        """Ask for a memory snapshot, or what has grown since the first (with tracemalloc on:
        servers started by this module with PYTHONTRACEMALLOC=1); see :meth:`traced`."""
        self.process.send_signal(signal.SIGUSR2)

    def traced(self) -> list[str]:
        """The memory growth the server prints after a second :meth:`trace_memory` (waits
        for it; none if it does not come)."""
        deadline = time.monotonic() + TRACE_WAIT_S
        while time.monotonic() < deadline:
            self.log.seek(0)
            lines = [line.rstrip() for line in self.log if line.startswith(TRACE_MARK)]
            if lines and lines[-1] == f"{TRACE_MARK} {TRACE_END}":
                return lines[:-1]
            time.sleep(0.5)
        return []

    def tail(self, lines: int = 20) -> str:
        self.log.seek(0)
        return "".join(self.log.readlines()[-lines:])

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(STOP_WAIT_S)
        self.log.close()


def stalactites_command() -> list[str]:
    """``stalactites serve`` on a port of its own, that collects garbage on SIGUSR1."""
    return [sys.executable, str(Path(__file__).resolve()), "serve", "--port", "0"]


def start_server(name: str, command: list[str], env: Mapping[str, str]) -> Server:
    """Start ``command`` (a server that prints its ``http://127.0.0.1:PORT/``) with
    ``env`` added to this process's environment (a None-like empty value removes one)."""
    environment = dict(os.environ)
    for key, value in env.items():
        if value:
            environment[key] = value
        else:
            environment.pop(key, None)
    # The server's stdout and stderr go to a file (a pipe nobody reads would fill and block
    # it), opened for appending, and read through a file of our own.
    handle, path = tempfile.mkstemp(prefix="bench-server-", suffix=".log")
    os.close(handle)
    with open(path, "a") as writer:
        process = subprocess.Popen(
            command, stdout=writer, stderr=writer, text=True, env=environment, cwd=REPO
        )
    log = open(path)  # closed by Server.stop
    os.unlink(path)
    server = Server(name, process, "", log)
    deadline = time.monotonic() + START_WAIT_S
    while not server.url and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
        log.seek(0)
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", log.read())
        server.url = f"127.0.0.1:{match.group(1)}" if match else ""
    if not server.url:
        log_text = server.tail()
        server.stop()
        raise RuntimeError(f"{name} did not start:\n{log_text}")
    return server


def delete_keys(prefix: str) -> int:
    """Delete every Redis key under ``prefix``; how many there were."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start : start + 1000])
        return len(keys)
    finally:
        client.close()


def process_cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1])
    raise RuntimeError(f"no {key} in /proc/{pid}/status")


# HTTP and figures.


def sample(server: Server, seconds: float, path: str) -> subprocess.Popen[bytes]:
    """py-spy sampling ``server`` for ``seconds`` (GIL holder only), stacks into ``path``."""
    spy = shutil.which("py-spy") or os.path.join(os.path.dirname(sys.executable), "py-spy")
    command = [spy, "record", "--gil", "--nonblocking", "-r", "250", "-f", "raw"]
    command += ["-d", str(max(int(seconds), 1)), "-p", str(server.pid), "-o", path]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def post(url: str, body: dict[str, Any]) -> Any:
    """POST ``body`` as JSON to ``url``; the JSON answer."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile of ``values`` (seconds), in milliseconds; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(int(share * len(ordered)), len(ordered) - 1)] * 1000


# A racer.


@dataclass
class Racer:
    """One seated, started player's socket: alternates a random legal move and an undo, so
    that every action is an engine-checked, stored commit; ``latencies`` holds the time from
    sending each action to its answer (seconds), ``sent_at`` when each was sent
    (``time.perf_counter``)."""

    ws: ClientConnection
    legal: list[str] = field(default_factory=list)
    undo_next: bool = False
    sent: int = 0
    rejected: int = 0
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)

    async def answer(self, action_id: str) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(await self.ws.recv())
            if frame.get("id") == action_id and frame["type"] in ("accepted", "rejected"):
                return frame

    async def act(self, rng: random.Random) -> None:
        self.sent += 1
        action_id = f"a{self.sent}"
        if self.undo_next or not self.legal:
            frame = {"type": "undo", "id": action_id}
        else:
            frame = {"type": "move", "id": action_id, "move": rng.choice(self.legal)}
        began = time.perf_counter()
        await self.ws.send(json.dumps(frame))
        answer = await self.answer(action_id)
        self.latencies.append(time.perf_counter() - began)
        self.sent_at.append(began)
        if answer["type"] == "accepted":
            self.legal = answer.get("legal", self.legal)
            self.undo_next = frame["type"] == "move"
        else:
            self.rejected += 1
            self.undo_next = False

    async def wait_started(self) -> None:
        while True:
            frame = json.loads(await self.ws.recv())
            if frame["type"] == "started":
                self.legal = frame["legal"]
                return


async def race(racer: Racer, seconds: float, pace: float | None, rng: random.Random) -> None:
    """Act for ``seconds``: ``pace`` actions a second (from a random phase), or flat out
    (each action as soon as the last is answered) when ``pace`` is None."""
    deadline = time.perf_counter() + seconds
    tick = time.perf_counter() + (rng.random() / pace if pace else 0)
    while time.perf_counter() < deadline:
        if pace:
            await asyncio.sleep(max(tick - time.perf_counter(), 0))
            tick += 1 / pace
        await racer.act(rng)


async def drive(
    racers: Sequence[Racer], seconds: float, pace: float | None, seed: int
) -> tuple[list[float], float]:
    """Every racer acting for ``seconds`` (``pace``: actions a second in all, or flat out),
    each with its own seeded choices: every answer's latency (seconds) and the time taken."""
    for racer in racers:
        racer.latencies = []
    each = pace / len(racers) if pace else None
    began = time.perf_counter()
    await asyncio.gather(
        *(race(r, seconds, each, random.Random(seed + i)) for i, r in enumerate(racers))
    )
    elapsed = time.perf_counter() - began
    return [value for racer in racers for value in racer.latencies], elapsed


async def seat_room_racers(
    url: str, count: int, settings: dict[str, Any] | None = None, rooms: list[str] | None = None
) -> list[Racer]:
    """``count`` racers of a race server at ``host:port``, in rooms of two (made with
    ``settings`` besides), every one seated, connected, ready and started; each room's id is
    added to ``rooms`` when given."""
    racers = []
    body = {"seats": 2, "countdown_s": 0, **(settings or {})}
    for _ in range(count // 2):
        room = await asyncio.to_thread(post, f"http://{url}/api/rooms", body)
        if rooms is not None:
            rooms.append(room["room_id"])
        for name in ("A", "B"):
            seat = await asyncio.to_thread(
                post, f"http://{url}/api/rooms/{room['room_id']}/players", {"name": name}
            )
            ws = await connect(f"ws://{url}/ws/rooms/{room['room_id']}")
            await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            await ws.send(json.dumps({"type": "ready"}))
            racers.append(Racer(ws))
    await asyncio.gather(*(racer.wait_started() for racer in racers))
    return racers


RowT = TypeVar("RowT")


def median_rows(
    rows: Sequence[RowT], key: Callable[[RowT], object], by: Callable[[RowT], float]
) -> list[RowT]:
    """Per ``key`` (a server and phase), in the order first seen, the row with the median
    ``by`` over the rounds."""
    chosen = []
    for group in dict.fromkeys(key(row) for row in rows):
        runs = sorted((row for row in rows if key(row) == group), key=by)
        chosen.append(runs[len(runs) // 2])
    return chosen


def serve_app(app: Any, label: str, port: int = 0, http: str = "auto") -> None:
    """Serve a bare benchmark app on uvicorn with the websocket stack of ``stalactites
    serve`` (websockets-sansio, no compression), printing ``{label} on http://127.0.0.1:PORT/``
    once it listens (what :func:`start_server` waits for)."""
    import uvicorn

    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        http=http,
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        log_level="warning",
    )
    server = uvicorn.Server(config)

    async def run() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started and not task.done():
            await asyncio.sleep(0.05)
        bound = server.servers[0].sockets[0].getsockname()[1]
        print(f"{label} on http://127.0.0.1:{bound}/", flush=True)
        await task

    asyncio.run(run())


# ``stalactites serve`` that collects garbage on SIGUSR1.


class MemoryTrace:
    """With tracemalloc on (PYTHONTRACEMALLOC=1): on SIGUSR2, the first time, a snapshot; each
    later time, what has grown since, by source line, printed to stderr as lines that start
    with ``TRACE_MARK``."""

    def __init__(self) -> None:
        self.baseline: tracemalloc.Snapshot | None = None

    def __call__(self, signum: int, frame: object) -> None:
        if not tracemalloc.is_tracing():
            return
        gc.collect()
        snapshot = tracemalloc.take_snapshot()
        if self.baseline is None:
            self.baseline = snapshot
            return
        stats = snapshot.compare_to(self.baseline, "lineno")
        packages: dict[str, int] = {}
        for stat in stats:
            package = _package(stat.traceback[0].filename)
            packages[package] = packages.get(package, 0) + stat.size_diff
        total = sum(packages.values())
        by_package = sorted(packages.items(), key=lambda item: -item[1])
        shares = ", ".join(f"{name} {size / 1024:.0f} KB" for name, size in by_package[:8])
        _trace(f"{total / 1024:.0f} KB in all: {shares}")
        for stat in stats[:TRACE_LINES]:
            where = stat.traceback[0]
            name = "/".join(Path(where.filename).parts[-2:])
            _trace(
                f"{stat.size_diff / 1024:9.0f} KB {stat.count_diff:8d} blocks {name}:{where.lineno}"
            )
        _trace(TRACE_END)


def _trace(line: str) -> None:
    print(f"{TRACE_MARK} {line}", file=sys.stderr, flush=True)


def _package(filename: str) -> str:
    """The package (or standard library module) a source file belongs to."""
    parts = Path(filename).parts
    for anchor in ("site-packages", "server"):
        if anchor in parts[:-1]:
            return parts[parts.index(anchor) + 1].removesuffix(".py")
    if len(parts) >= 2 and parts[-2].startswith("python3"):
        return parts[-1].removesuffix(".py")  # a standard library module
    return parts[-2] if len(parts) >= 2 else filename


def _serve(argv: list[str]) -> int:
    from stalactites.cli import main

    signal.signal(signal.SIGUSR1, lambda signum, frame: gc.collect())
    signal.signal(signal.SIGUSR2, MemoryTrace())
    return main(argv)


if __name__ == "__main__":
    sys.exit(_serve(sys.argv[1:]))
