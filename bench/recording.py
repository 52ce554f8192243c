"""Recording finished races from the results log: races recorded per second flat out, the
backlog's age under a steady rate of finishes, and the CPU each recorded race costs.

    .venv/bin/python bench/recording.py [--flat 300] [--rate 50] [--seconds 20]
        [--players 400] [--fsync always|everysec|no]

Starts a ``redis-server`` of its own on a free port (append-only file in a temporary
directory, ``appendfsync always`` by default as in ``docker-compose.yml``; removed
afterwards) and two ``stalactites serve`` processes on it (the rate limits off, as every
client is 127.0.0.1; the results log's settings at their defaults).  Every race is a rated
two-seat room (``countdown_s`` 0, the server's certified deal) of two of ``--players``
anonymous players, its room made on either process, each racer's socket on a different
process.  Before a phase begins its races are all started and each racer has played three
moves; each race then ends with both racers resigning at the same moment, so that its end is
stored by either process, which appends it to the results log, and any process records it
(ratings, histories, the daily board and the tournament checks: ``stalactites.results``).

* **flat out**: ``--flat`` races end at once; the time from the first resignation until every
  room is finished and the log is empty, and races recorded per second;
* **steady**: ``--rate`` races end a second for ``--seconds``, the backlog's oldest entry's
  age sampled every 100 ms from Redis (``XRANGE`` of the log's head against Redis's ``TIME``;
  an empty log is age 0): p50, p99 and the largest (sampled in the flat-out phase too);
* for each phase, the CPU time the two serve processes and Redis used (``/proc/PID/stat``)
  from its first resignation until the log was empty, divided by its races: the whole cost
  of a race's end (the resignations, the finish, the fan-out of its events, the recording);
  and the serve processes' above their CPU at rest (measured for 2 s before the phase, the
  races set up and idle: upkeep, presence, the sweeps' and recorders' polls).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import redis
from websockets.asyncio.client import ClientConnection, connect

from benchkit import (
    NO_LIMITS,
    Server,
    percentile,
    post,
    process_cpu_seconds,
    stalactites_command,
    start_server,
)

PREFIX = "bench-recording:"
LOG = f"{PREFIX}{{results:0}}:log"
SETTINGS = {
    **NO_LIMITS,
    "STALACTITES_SESSION_ADDRESS_RATE": "0",
    "STALACTITES_ADDRESS_CONNECTIONS": "0",
    "STALACTITES_LOG_LEVEL": "warning",
    "STALACTITES_REDIS_PREFIX": PREFIX,
}
RATED = {"rated": True, "countdown_s": 0, "seats": 2}
SETTING_UP = 16  # races being set up at once
MOVES = 3  # each racer's moves before resigning (a race with fewer is not rated)
SAMPLE_S = 0.1
REST_S = 2.0  # CPU at rest is measured this long before each phase
DRAIN_S = 120.0  # a phase's backlog must empty this soon after its last resignation


@dataclass
class Race:
    room_id: str
    sockets: list[ClientConnection]


class OwnRedis:
    """A ``redis-server`` on a free port, its append-only file in a temporary directory."""

    def __init__(self, fsync: str) -> None:
        self.workdir = tempfile.mkdtemp(prefix="bench-recording-")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--dir", self.workdir, "--save", "", "--appendonly", "yes"]
        command += ["--appendfsync", fsync]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 15
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"redis-server did not start on {self.port}") from None
                time.sleep(0.05)
            finally:
                client.close()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)
        shutil.rmtree(self.workdir, ignore_errors=True)


class Bench:
    def __init__(self, servers: list[Server], store: redis.Redis, redis_pid: int) -> None:
        self.servers, self.store, self.redis_pid = servers, store, redis_pid
        self.rng = random.Random(1)
        self.players: list[dict[str, Any]] = []

    def cpu(self) -> tuple[float, float]:
        """CPU seconds so far: the serve processes', Redis's."""
        serving = sum(server.cpu_seconds() for server in self.servers)
        return serving, process_cpu_seconds(self.redis_pid)

    async def sessions(self, count: int) -> None:
        url = f"http://{self.servers[0].url}/api/session"
        made = await asyncio.gather(*(asyncio.to_thread(post, url, {}) for _ in range(count)))
        self.players = list(made)

    async def races(self, count: int) -> list[Race]:
        """``count`` rated races, every one started."""
        gate = asyncio.Semaphore(SETTING_UP)

        async def one() -> Race:
            async with gate:
                return await self.race()

        return list(await asyncio.gather(*(one() for _ in range(count))))

    async def race(self) -> Race:
        one, two = self.rng.sample(self.servers, 2)
        ann, bob = self.rng.sample(self.players, 2)
        room = await asyncio.to_thread(post, f"http://{one.url}/api/rooms", RATED)
        room_id = room["room_id"]
        sockets = []
        for player, server in ((ann, one), (bob, two)):
            url = f"http://{server.url}/api/rooms/{room_id}/players"
            await asyncio.to_thread(seat, url, player["token"])
            ws = await connect(f"ws://{server.url}/ws/rooms/{room_id}", max_queue=None)
            await ws.send(json.dumps({"type": "hello", "token": player["token"]}))
            await ws.send(json.dumps({"type": "ready"}))
            sockets.append(ws)
        await asyncio.gather(*(play(ws) for ws in sockets))
        return Race(room_id, sockets)

    async def drained(self, ending: list[asyncio.Task[None]]) -> float:
        """Wait until every race has ended (its results reached a racer: it is stored finished
        and in the log) and the log is empty; the monotonic time it was seen so."""
        await asyncio.gather(*ending)
        deadline = time.monotonic() + DRAIN_S
        while self.store.xlen(LOG):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the backlog did not empty in {DRAIN_S:.0f} s")
            await asyncio.sleep(0.01)
        return time.monotonic()

    def oldest_age_ms(self) -> float:
        """The age of the log's oldest entry, by Redis's clock (0: the log is empty)."""
        with self.store.pipeline(transaction=False) as pipe:
            pipe.time()
            pipe.xrange(LOG, "-", "+", count=1)
            (seconds, micros), head = pipe.execute()
        if not head:
            return 0.0
        appended_ms = int(head[0][0].split(b"-")[0])
        return max(float(seconds * 1000 + micros / 1000 - appended_ms), 0.0)

    async def at_rest(self) -> tuple[float, float]:
        """CPU the serve processes and Redis use a second with the races set up, nobody
        acting (upkeep, presence, the sweep and the recorders' polls)."""
        (serving, storing), began = self.cpu(), time.monotonic()
        await asyncio.sleep(REST_S)
        elapsed = time.monotonic() - began
        serving_now, storing_now = self.cpu()
        return (serving_now - serving) / elapsed, (storing_now - storing) / elapsed

    async def phase(self, name: str, count: int, rate: float | None) -> dict[str, Any]:
        """``count`` races set up, then ended: all at once, or ``rate`` a second."""
        races = await self.races(count)
        rest = await self.at_rest()
        ages: list[float] = []
        sampling = asyncio.create_task(self.sample(ages))
        cpu, began = self.cpu(), time.monotonic()
        ending = []
        for index, race in enumerate(races):
            if rate is not None:
                await asyncio.sleep(max(began + index / rate - time.monotonic(), 0))
            ending.append(asyncio.create_task(resign(race)))
        done = await self.drained(ending)
        elapsed = done - began
        used = [after - before for after, before in zip(self.cpu(), cpu, strict=True)]
        sampling.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampling
        net = [(spent - idle * elapsed) for spent, idle in zip(used, rest, strict=True)]
        return {
            "phase": name,
            "races": count,
            "seconds": elapsed,
            "per_second": count / elapsed,
            "age": [percentile([a / 1000 for a in ages], share) for share in (0.5, 0.99)]
            + [max(ages, default=0.0)],
            "serve_ms": used[0] * 1000 / count,
            "serve_net_ms": net[0] * 1000 / count,
            "redis_ms": used[1] * 1000 / count,
            "rest": rest,
        }

    async def sample(self, ages: list[float]) -> None:
        while True:
            ages.append(await asyncio.to_thread(self.oldest_age_ms))
            await asyncio.sleep(SAMPLE_S)


def seat(url: str, token: str) -> None:
    """Take a seat with the player's session (Bearer)."""
    request = urllib.request.Request(url, data=b"{}", method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as answer:
        answer.read()


async def frame_of(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(await ws.recv())
        if frame["type"] == kind:
            return frame


async def play(ws: ClientConnection) -> None:
    """Once the race has started, the racer's first ``MOVES`` moves (the first legal one each
    time), each accepted: a race really raced, and so rated."""
    legal = (await frame_of(ws, "started"))["legal"]
    for number in range(MOVES):
        await ws.send(json.dumps({"type": "move", "id": f"m{number}", "move": legal[0]}))
        while (answer := json.loads(await ws.recv()))["type"] not in ("accepted", "rejected"):
            pass
        if answer["type"] != "accepted":
            raise RuntimeError(f"a move was not accepted: {answer}")
        legal = answer["legal"]


async def resign(race: Race) -> None:
    """Both racers resign at the same moment; their sockets close once the results came."""
    await asyncio.gather(*(ws.send(json.dumps({"type": "resign"})) for ws in race.sockets))
    await frame_of(race.sockets[0], "results")
    for ws in race.sockets:
        await ws.close()


def table(rows: list[dict[str, Any]]) -> None:
    print(
        f"{'phase':<12} {'races':>6} {'seconds':>8} {'races/s':>8} {'backlog age ms':>15} "
        f"{'serve CPU ms/race':>18} {'above rest':>11} {'Redis CPU ms/race':>18}"
    )
    print(f"{'':<12} {'':>6} {'':>8} {'':>8} {'p50/p99/max':>15}")
    for row in rows:
        age = "/".join(f"{value:.0f}" for value in row["age"])
        print(
            f"{row['phase']:<12} {row['races']:>6} {row['seconds']:>8.1f} "
            f"{row['per_second']:>8.1f} {age:>15} {row['serve_ms']:>18.1f} "
            f"{row['serve_net_ms']:>11.1f} {row['redis_ms']:>18.2f}"
        )
    for row in rows:
        serving, storing = row["rest"]
        print(
            f"at rest before {row['phase']} ({row['races']} races' sockets open): serve "
            f"processes {serving:.3f} CPUs, Redis {storing:.3f}"
        )


async def main_async(args: argparse.Namespace) -> None:
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(32))
    own = OwnRedis(args.fsync)
    servers: list[Server] = []
    store = redis.Redis.from_url(own.url)
    try:
        env = {**SETTINGS, "REDIS_URL": own.url}
        servers = [start_server(f"serve{n}", stalactites_command(), env) for n in range(2)]
        bench = Bench(servers, store, own.process.pid)
        await bench.sessions(args.players)
        print(
            f"recording: 2 serve processes and their own redis-server (appendfsync "
            f"{args.fsync}) on {os.cpu_count()} CPUs; rated two-seat races, both racers "
            "resigning at once, each on another process"
        )
        flat = await bench.phase("flat out", args.flat, None)
        count = int(args.rate * args.seconds)
        table([flat, await bench.phase(f"steady {args.rate:g}/s", count, args.rate)])
    finally:
        store.close()
        for server in servers:
            server.stop()
        own.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flat", type=int, default=300, help="races ended at once")
    parser.add_argument("--rate", type=float, default=50.0, help="races ended a second")
    parser.add_argument("--seconds", type=float, default=20.0, help="of the steady phase")
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--fsync", choices=["always", "everysec", "no"], default="always")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
