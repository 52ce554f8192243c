"""Solver work against racers (issue 18, item 4), one command printing the figures::

    nice .venv/bin/python bench/solver_load.py [--racers N] [--rooms R] [--pace P]
        [--spectators S] [--game stalactites|squadron]

One server (``stalactites serve``, in-memory store, limits off, STALACTITES_SOLVER_WORKERS
as set, default 1) with N racers (default 8) in rooms of two (``--game``, default
Stalactites on ms:1; spectators see the boards live), each acting P times a second (default
10: a random move, then its undo).  After a warm-up of 2 s, the racers alone (idle); then
the same with S spectators in every room (default 2), each board they are shown judged by the
solver's workers (whether it can still be won), the verdicts counted; then, the spectators
gone, while two clients create R Squadron rooms (default 20; each certifies a deal by the
solver).  Goal: the racers' move p99 while watched, and while the rooms are created, within
20 ms of its idle value.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).parent))

from benchkit import (  # noqa: E402
    NO_LIMITS,
    Racer,
    Server,
    percentile,
    post,
    race,
    seat_room_racers,
    stalactites_command,
    start_server,
)

GOAL_MS = 20.0


async def seat_racers(server: Server, count: int, game: str) -> tuple[list[Racer], list[str]]:
    """``count`` racers, started, in rooms of two (whose ids are given too)."""
    settings: dict[str, object] = {"deal": "ms:1", "spectator_delay_s": 0, "undo": True}
    if game == "squadron":
        settings["game"] = "squadron"
    rooms: list[str] = []
    racers = await seat_room_racers(server.url, count, settings, rooms)
    return racers, rooms


def count(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


class Spectators:
    """``per_room`` spectators in each room, reading everything; ``on_boards`` counts the
    verdicts the ``board`` frames carried, ``told`` the ``board_verdict`` frames, by verdict."""

    def __init__(self) -> None:
        self.on_boards: dict[str, int] = {}
        self.told: dict[str, int] = {}
        self.boards = 0
        self._tasks: list[asyncio.Task[None]] = []

    async def watch(self, server: Server, rooms: list[str], per_room: int) -> None:
        for room_id in rooms:
            for _ in range(per_room):
                ws = await connect(f"ws://{server.url}/ws/rooms/{room_id}", max_queue=None)
                await ws.send(json.dumps({"type": "hello", "spectator": True}))
                self._tasks.append(asyncio.create_task(self._read(ws)))

    async def _read(self, ws: ClientConnection) -> None:
        async with ws:
            async for raw in ws:
                frame = json.loads(raw)
                if frame["type"] == "board":
                    self.boards += 1
                    count(self.on_boards, frame.get("verdict", "none"))
                elif frame["type"] == "board_verdict":
                    count(self.told, frame["verdict"])

    async def leave(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def create_rooms(server: Server, count: int, clients: int = 2) -> float:
    """Create ``count`` Squadron rooms from ``clients`` at once; the seconds it took."""
    began = time.perf_counter()
    url = f"http://{server.url}/api/rooms"

    async def creator(share: int) -> None:
        for _ in range(share):
            await asyncio.to_thread(post, url, {"game": "squadron"})

    await asyncio.gather(*(creator(count // clients) for _ in range(clients)))
    return time.perf_counter() - began


async def phase(racers: list[Racer], seconds: float, pace: float, seed: int) -> list[float]:
    for racer in racers:
        racer.latencies.clear()
    await asyncio.gather(
        *(race(r, seconds, pace, random.Random(seed + i)) for i, r in enumerate(racers))
    )
    return [value for racer in racers for value in racer.latencies]


async def loaded(
    racers: list[Racer], server: Server, rooms: int, pace: float
) -> tuple[list[float], float]:
    """The racers' latencies while the rooms are created (they race until it is done)."""
    for racer in racers:
        racer.latencies.clear()
    done = asyncio.Event()
    took = 0.0

    async def make() -> None:
        nonlocal took
        took = await create_rooms(server, rooms)
        done.set()

    async def keep_racing(racer: Racer, rng: random.Random) -> None:
        while not done.is_set():
            await race(racer, 0.5, pace, rng)

    await asyncio.gather(make(), *(keep_racing(r, random.Random(i)) for i, r in enumerate(racers)))
    return [value for racer in racers for value in racer.latencies], took


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--racers", type=int, default=8)
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--pace", type=float, default=10.0)
    parser.add_argument("--idle-s", type=float, default=5.0)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--game", choices=("stalactites", "squadron"), default="stalactites")
    args = parser.parse_args()
    server = start_server("memory", stalactites_command(), dict(NO_LIMITS))
    watching = Spectators()
    try:
        racers, rooms = await seat_racers(server, args.racers, args.game)
        await phase(racers, 2.0, args.pace, 0)  # warm-up (the workers start meanwhile)
        idle = await phase(racers, args.idle_s, args.pace, 1)
        await watching.watch(server, rooms, args.spectators)
        watched = await phase(racers, args.idle_s, args.pace, 2)
        await watching.leave()
        busy, took = await loaded(racers, server, args.rooms, args.pace)
        for racer in racers:
            await racer.ws.close()
    finally:
        server.stop()
    idle_p99, busy_p99 = percentile(idle, 0.99), percentile(busy, 0.99)
    watched_p99 = percentile(watched, 0.99)
    print(
        f"racers: {args.racers} at {args.pace:g} actions/s in {args.game} rooms; "
        f"{args.rooms} Squadron rooms created by 2 clients in {took:.1f} s"
    )
    print(
        f"idle:     {len(idle)} actions, p50 {percentile(idle, 0.5):.1f} ms, p99 {idle_p99:.1f} ms"
    )
    print(
        f"watched:  {len(watched)} actions, p50 {percentile(watched, 0.5):.1f} ms, "
        f"p99 {watched_p99:.1f} ms, max {max(watched, default=0) * 1000:.1f} ms "
        f"({args.spectators} spectators a room: {watching.boards} boards shown, their verdicts "
        f"{dict(sorted(watching.on_boards.items()))}, told later "
        f"{dict(sorted(watching.told.items()))})"
    )
    print(
        f"creating: {len(busy)} actions, p50 {percentile(busy, 0.5):.1f} ms, "
        f"p99 {busy_p99:.1f} ms, max {max(busy, default=0) * 1000:.1f} ms"
    )
    ok = max(busy_p99, watched_p99) - idle_p99 <= GOAL_MS
    print(f"p99 while watched is {watched_p99 - idle_p99:+.1f} ms from idle (goal: within 20)")
    print(
        f"p99 while creating is {busy_p99 - idle_p99:+.1f} ms from idle (goal: within {GOAL_MS:g})"
    )
    print("goal met" if ok else "GOAL NOT MET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
