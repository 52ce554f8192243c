"""Race server load benchmark: simulated racers in 2-seat rooms over real websockets.

    .venv/bin/python bench/load.py [--racers N] [--seconds S] [--pace P] [--rounds R]

Three servers, each in a subprocess, measured by the same simulated racers:

* ``baseline``: a bare Starlette websocket endpoint (this file, ``--serve-baseline``)
  that answers each message after one Redis write and publish: one script (RPUSH and
  PUBLISH) run by its hash through the server's own Redis client (``store/redis/resp.py``, one
  connection shared by every socket, as ``stalactites serve`` does), so that the ratio
  compares like with like;
* ``memory``: ``stalactites serve`` on the in-memory store;
* ``redis``: ``stalactites serve`` on Redis at 127.0.0.1:6379 (a key prefix of its
  own, deleted afterwards).

Each racer sits in a 2-seat room (Stalactites, undo on) and alternates a random
legal move and an undo, so that every action is a real, engine-checked, stored
commit that the room's other racer sees as a progress event.  Two phases per
server: ``flat out`` (every racer sends its next action as soon as the last is
answered: throughput) and ``paced`` (each racer sends P actions a second, about
a fast human: latency).  Latency is from sending ``move``/``undo`` to receiving
its ``accepted``.  The servers run with the rate limits off (``benchkit.NO_LIMITS``: moves and
frames per connection, moves per address, as every racer comes from 127.0.0.1), so that
flat-out racers are neither throttled nor disconnected.

Goals (issue 4): with Redis, at least 60% of the baseline's flat-out throughput,
and a paced p99 under 20 ms with 100 racers, on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import connect

from benchkit import (
    NO_LIMITS,
    REDIS_URL,
    Racer,
    Server,
    delete_keys,
    drive,
    median_rows,
    percentile,
    seat_room_racers,
    serve_app,
    stalactites_command,
    start_server,
)

GOAL_SHARE = 0.60
GOAL_P99_MS = 20.0
SERVERS = ("baseline", "memory", "redis")
SETTLE_S = 1.0


# The baseline server.


BASELINE_SCRIPT = """
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PUBLISH', KEYS[2], ARGV[1])
"""


def baseline_app() -> Any:
    """A bare Starlette app: each websocket message is one Redis write and publish, answered."""
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from stalactites.store.redis.resp import Address, Pipe, Script

    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        state["pipe"] = Pipe(Address.parse(REDIS_URL))
        state["append"] = Script(state["pipe"], BASELINE_SCRIPT)
        yield
        await state["pipe"].close()

    async def endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        key, append = f"bench-baseline:{uuid.uuid4().hex}", state["append"]
        try:
            while True:
                text = await websocket.receive_text()
                frame = json.loads(text)
                await append([key, f"{key}:bell"], [text])
                await websocket.send_text(json.dumps({"type": "accepted", "id": frame["id"]}))
        except WebSocketDisconnect:
            await state["pipe"].call("DEL", key)

    return Starlette(routes=[WebSocketRoute("/ws", endpoint)], lifespan=lifespan)


def serve_baseline(port: int) -> None:
    serve_app(baseline_app(), "baseline", port)


# Servers in subprocesses.


def start(name: str, prefix: str) -> Server:
    """One of the three servers; ``redis`` keeps its keys under ``prefix``."""
    env = NO_LIMITS | {"REDIS_URL": ""}  # "": unset
    if name == "baseline":
        command = [sys.executable, __file__, "--serve-baseline"]
    else:
        command = stalactites_command()
    if name == "redis":
        env.update(REDIS_URL=REDIS_URL, STALACTITES_REDIS_PREFIX=prefix)
    return start_server(name, command, env)


# The racers.


async def seat_racers(server: Server, count: int) -> list[Racer]:
    """Rooms of two, every racer connected, ready and started (or just connected: baseline)."""
    if server.name == "baseline":
        return [Racer(await connect(f"ws://{server.url}/ws")) for _ in range(count)]
    return await seat_room_racers(server.url, count)


@dataclass
class Figures:
    server: str
    phase: str
    actions: int
    per_second: float
    p50_ms: float
    p99_ms: float


async def phase(
    racers: list[Racer], server: str, seconds: float, pace: float | None, seed: int
) -> Figures:
    await asyncio.sleep(SETTLE_S)  # let the last phase's answers and events drain first
    latencies, elapsed = await drive(racers, seconds, pace * len(racers) if pace else None, seed)
    name = f"paced {pace:g}/s" if pace else "flat out"
    return Figures(
        server,
        name,
        len(latencies),
        len(latencies) / elapsed,
        percentile(latencies, 0.50),
        percentile(latencies, 0.99),
    )


async def measure(args: argparse.Namespace) -> list[Figures]:
    """Every server up at once; phases interleaved (flat out on each server, then paced on
    each), ``--rounds`` times, so that a busy spell on a shared machine hits them alike."""
    prefix = f"bench-load:{uuid.uuid4().hex[:8]}:"
    servers = []
    try:
        servers += [start(name, prefix) for name in SERVERS]
        fleets = {server.name: await seat_racers(server, args.racers) for server in servers}
        for name, racers in fleets.items():
            await phase(racers, name, min(args.seconds, 2.0), None, 1)  # warm up
        rows: list[Figures] = []
        for round_ in range(args.rounds):
            for pace in (None, args.pace):
                for name, racers in fleets.items():
                    rows.append(await phase(racers, name, args.seconds, pace, 2 + round_))
        for racers in fleets.values():
            for racer in racers:
                await racer.ws.close()
        return median_rows(rows, lambda r: (r.server, r.phase), lambda r: r.per_second)
    finally:
        for server in servers:
            server.stop()
        delete_keys(prefix)


def report(rows: list[Figures], racers: int) -> None:
    print(f"{'server':<9} {'phase':<12} {'actions':>8} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
    for row in rows:
        print(
            f"{row.server:<9} {row.phase:<12} {row.actions:>8} {row.per_second:>9.0f} "
            f"{row.p50_ms:>8.2f} {row.p99_ms:>8.2f}"
        )
    flat = {row.server: row for row in rows if row.phase == "flat out"}
    paced = {row.server: row for row in rows if row.phase != "flat out"}
    share = flat["redis"].per_second / flat["baseline"].per_second
    print()
    verdict = "met" if share >= GOAL_SHARE else "NOT met"
    print(f"redis flat-out throughput / baseline: {share:.0%} (goal >= 60%: {verdict})")
    p99 = paced["redis"].p99_ms
    verdict = "met" if p99 < GOAL_P99_MS else "NOT met"
    print(f"redis paced p99 with {racers} racers: {p99:.2f} ms (goal < 20 ms: {verdict})")


async def main_async(args: argparse.Namespace) -> None:
    report(await measure(args), args.racers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--racers", type=int, default=100, help="simulated racers (even)")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--pace", type=float, default=5.0, help="actions a second, paced phase")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median is shown")
    parser.add_argument("--serve-baseline", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_baseline:
        serve_baseline(args.port)
        return
    if args.racers < 2 or args.racers % 2:
        parser.error("--racers must be an even number, at least 2")
    print(
        f"{args.racers} racers, {args.seconds:g} s a phase, median of {args.rounds} rounds, "
        f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}"
    )
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
