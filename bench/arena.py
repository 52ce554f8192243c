"""An arena at scale: entrants played by bots, in one arena, across two server processes.

    .venv/bin/python bench/arena.py [--entrants N] [--seconds T] [--think S] [--warm-up W]

Starts two ``stalactites serve`` processes on Redis at 127.0.0.1:6379 (a key prefix of the
bench's own, deleted afterwards; rate limits off, no standing schedule), makes an arena and
``--entrants`` players (anonymous sessions), enters them all and opens each one's arena
socket, half on each process.  Every entrant is a bot: on ``paired`` it connects to its race
on the same process, waits for the start, thinks ``--think`` seconds (at random up to that),
resigns, reads the results and waits for its next ``paired``.  After a warm-up (a minute) the
bench measures for ``--seconds``:

* from a race's end (its ``results`` read by the racer) to the racer's next ``paired``: p50,
  p99 and the worst, over every race run (goal: p99 under 250 ms);
* races run a second, and ``standings`` frames received a second (each entrant's socket
  gets them at most once a second while they change);
* the servers' CPU over the phase (both processes), per race and per standings frame sent
  (all of the servers' work divided, not the standings' alone);
* Redis's memory per entrant: ``used_memory`` after every entrant has entered and raced,
  less before the arena was made, divided by the entrants.

Each race waits its quick room's 3 s countdown, so an entrant races about once every
``3 + think/2`` seconds at most.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import time
import uuid
from typing import Any

import redis
from websockets.asyncio.client import ClientConnection, connect

from benchkit import (
    NO_LIMITS,
    REDIS_URL,
    delete_keys,
    percentile,
    post,
    stalactites_command,
    start_server,
)

WARM_UP_S = 60.0


def _session(base: str) -> dict[str, Any]:
    return dict(post(f"{base}/api/session", {}))


def _asked(base: str, path: str, token: str) -> Any:
    """POST an empty JSON body with a session; the JSON answer."""
    import urllib.request

    request = urllib.request.Request(f"{base}{path}", data=b"{}", method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def _made(base: str, token: str) -> str:
    """A three-hour arena made by the player of ``token``: its id."""
    import urllib.request

    body = json.dumps({"name": "bench", "duration_min": 180}).encode()
    request = urllib.request.Request(f"{base}/api/arenas", data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return str(json.loads(answer.read())["arena"]["arena_id"])


class Figures:
    def __init__(self) -> None:
        self.measuring = False
        self.waits: list[float] = []  # race end to the next paired (s)
        self.races = 0
        self.standings = 0
        self.failures = 0


async def _recv(socket: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(await socket.recv())
        if frame["type"] == kind:
            return frame


async def _entrant(
    host: str, arena_id: str, token: str, think: float, figures: Figures, rng: random.Random
) -> None:
    async with connect(f"ws://{host}/ws/arenas/{arena_id}", max_size=1 << 22) as arena:
        await arena.send(json.dumps({"type": "hello", "token": token}))
        ended_at: float | None = None
        paired: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def read() -> None:
            async for raw in arena:
                frame = json.loads(raw)
                if frame["type"] == "paired":
                    paired.put_nowait(frame)
                elif frame["type"] == "standings" and figures.measuring:
                    figures.standings += 1

        reader = asyncio.create_task(read())
        try:
            while True:
                frame = await paired.get()
                if ended_at is not None and figures.measuring:
                    figures.waits.append(time.monotonic() - ended_at)
                try:
                    await _race(host, frame, think, rng)
                except Exception:
                    figures.failures += 1
                ended_at = time.monotonic()
                if figures.measuring:
                    figures.races += 1
        finally:
            reader.cancel()


async def _race(host: str, paired: dict[str, Any], think: float, rng: random.Random) -> None:
    async with connect(f"ws://{host}/ws/rooms/{paired['room_id']}", max_size=1 << 22) as room:
        await room.send(json.dumps({"type": "hello", "token": paired["token"]}))
        await _recv(room, "started")
        await asyncio.sleep(rng.uniform(0, think))
        await room.send(json.dumps({"type": "resign"}))
        await _recv(room, "results")


def _used_memory() -> int:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        return int(client.info("memory")["used_memory"])
    finally:
        client.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--warm-up", type=float, default=WARM_UP_S)
    args = parser.parse_args()
    prefix = f"bench-arena:{uuid.uuid4().hex[:8]}:"
    env = NO_LIMITS | {
        "REDIS_URL": REDIS_URL,
        "STALACTITES_REDIS_PREFIX": prefix,
        "STALACTITES_ARENA_SCHEDULE": "",
        "STALACTITES_SESSION_ADDRESS_RATE": "0",
        "STALACTITES_ADDRESS_CONNECTIONS": "0",
        "STALACTITES_FAIRPLAY_HOLDS": "0",
        "STALACTITES_LOG_LEVEL": "warning",
    }
    servers = [start_server(f"server {n}", stalactites_command(), env) for n in (1, 2)]
    try:
        bases = [f"http://{server.url}" for server in servers]
        before = _used_memory()
        sessions = await asyncio.gather(
            *(asyncio.to_thread(_session, bases[n % 2]) for n in range(args.entrants))
        )
        arena_id = _made(bases[0], sessions[0]["token"])
        await asyncio.gather(
            *(
                asyncio.to_thread(
                    _asked, bases[n % 2], f"/api/arenas/{arena_id}/players", s["token"]
                )
                for n, s in enumerate(sessions)
            )
        )
        figures, rng = Figures(), random.Random(7)
        bots = [
            asyncio.create_task(
                _entrant(servers[n % 2].url, arena_id, s["token"], args.think, figures, rng)
            )
            for n, s in enumerate(sessions)
        ]
        await asyncio.sleep(args.warm_up)
        cpu = [server.cpu_seconds() for server in servers]
        start = time.monotonic()
        figures.measuring = True
        await asyncio.sleep(args.seconds)
        figures.measuring = False
        elapsed = time.monotonic() - start
        used = sum(server.cpu_seconds() for server in servers) - sum(cpu)
        memory = _used_memory() - before
        for bot in bots:
            bot.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
    finally:
        for server in servers:
            server.stop()
        delete_keys(prefix)
    waits = figures.waits
    print(
        f"bench/arena.py on {os.cpu_count()} cores ({platform.processor() or platform.machine()})"
    )
    print(f"  entrants {args.entrants}, think up to {args.think:g} s, measured {elapsed:.0f} s")
    print(
        f"  race end -> next paired: p50 {percentile(waits, 0.5):.0f} ms, "
        f"p99 {percentile(waits, 0.99):.0f} ms, worst {max(waits, default=0) * 1000:.0f} ms "
        f"({len(waits)} races; goal p99 < 250 ms)"
    )
    print(
        f"  races {figures.races / elapsed:.1f}/s, "
        f"standings frames {figures.standings / elapsed:.0f}/s, failed races {figures.failures}"
    )
    races = max(figures.races, 1)
    print(
        f"  servers' CPU {used / elapsed:.2f} cores: {used / races * 1000:.1f} ms a race, "
        f"{used / max(figures.standings, 1) * 1000:.2f} ms a standings frame (all work)"
    )
    print(
        f"  Redis memory {memory / args.entrants:.0f} B an entrant ({memory / 1e6:.1f} MB: "
        "sessions, players, the arena, its races' rooms and records)"
    )


if __name__ == "__main__":
    asyncio.run(main())
