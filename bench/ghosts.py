"""Ghost-race timing benchmark, one command printing the figures::

    nice .venv/bin/python bench/ghosts.py [--races N] [--actions M] [--gap-ms G]

Two server processes on the local Redis (a key prefix of their own, deleted afterwards).  One
player makes a source run on a certified deal: M moves, one every G ms, then a resignation.
Then N other players each race that run's ghost at once (``POST /api/rooms/{id}/ghost`` on
either process, the racer's socket on the other), and every ghost action's lateness is read
from the racers' frames: the ``progress`` event's race-clock reading (``at_ms``) less the
recorded one.  Printed: p50, p99 and the largest lateness over all ghost actions (the goal:
every one within the 500 ms the tests hold it to), the servers' CPU time, the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import urllib.request
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from websockets.asyncio.client import connect  # noqa: E402

from benchkit import (  # noqa: E402
    NO_LIMITS,
    REDIS_URL,
    Server,
    delete_keys,
    percentile,
    stalactites_command,
    start_server,
)

TOLERANCE_MS = 500


def call(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body or {}).encode(), method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


async def http(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
    return await asyncio.to_thread(call, method, url, body, token)


async def frames_until(ws: Any, done: Any) -> list[dict[str, Any]]:
    seen = []
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
        seen.append(frame)
        if done(frame):
            return seen


async def source_run(base: str, actions: int, gap_s: float) -> tuple[str, str, list[int]]:
    """The source run's room, its runner's id and the recorded race-clock times."""
    runner = await http("POST", f"{base}/api/session")
    room = await http("POST", f"{base}/api/rooms", {"seats": 1, "countdown_s": 0})
    seat = await http("POST", f"{base}/api/rooms/{room['room_id']}/players", {}, runner["token"])
    async with connect(f"ws://{base[7:]}/ws/rooms/{room['room_id']}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
        await ws.send(json.dumps({"type": "ready"}))
        legal = (await frames_until(ws, lambda f: f["type"] == "started"))[-1]["legal"]
        for index in range(actions):
            await asyncio.sleep(gap_s)
            frame = {"type": "move", "id": f"s{index}", "move": legal[0]} if legal else {}
            await ws.send(json.dumps(frame or {"type": "undo", "id": f"s{index}"}))
            answer = await frames_until(ws, lambda f, i=index: f.get("id") == f"s{i}")
            legal = answer[-1]["legal"]
        await asyncio.sleep(gap_s)
        await ws.send(json.dumps({"type": "resign"}))
        await frames_until(ws, lambda f: f["type"] == "results")
    record = await http("GET", f"{base}/api/rooms/{room['room_id']}/record")
    line = next(p for p in record["players"] if p["player_id"] == runner["player_id"])
    times = [a["at_ms"] for a in line["actions"]] + [line["elapsed_ms"]]
    return room["room_id"], runner["player_id"], times


async def ghost_race(asked: str, socket: str, room_id: str, runner: str) -> list[int]:
    """One racer's ghost race; the ghost's progress readings (at_ms) as the racer got them."""
    racer = await http("POST", f"{asked}/api/session")
    made = await http(
        "POST", f"{asked}/api/rooms/{room_id}/ghost", {"player_id": runner}, racer["token"]
    )
    ghost = next(p["player_id"] for p in made["room"]["players"] if p["ghost_of"])
    async with connect(f"ws://{socket[7:]}/ws/rooms/{made['room_id']}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
        await ws.send(json.dumps({"type": "ready"}))
        seen = await frames_until(ws, lambda f: f["type"] == "finished" and f["player_id"] == ghost)
        await ws.send(json.dumps({"type": "resign"}))
    return [f["at_ms"] for f in seen if f["type"] == "progress" and f["player_id"] == ghost]


async def main(races: int, actions: int, gap_ms: int) -> int:
    prefix = f"bench:ghosts:{uuid.uuid4().hex[:8]}:"
    env = {**NO_LIMITS, "REDIS_URL": REDIS_URL, "STALACTITES_REDIS_PREFIX": prefix}
    servers: list[Server] = [start_server(n, stalactites_command(), env) for n in "AB"]
    try:
        bases = [f"http://{server.url}" for server in servers]
        room_id, runner, wanted = await source_run(bases[0], actions, gap_ms / 1000)
        cpu = [server.cpu_seconds() for server in servers]
        got = await asyncio.gather(
            *(ghost_race(bases[i % 2], bases[1 - i % 2], room_id, runner) for i in range(races))
        )
        cpu_used = sum(server.cpu_seconds() for server in servers) - sum(cpu)
    finally:
        for server in servers:
            server.stop()
        delete_keys(prefix)
    late = [g - w for times in got for g, w in zip(times, wanted, strict=True)]
    complete = all(len(times) == len(wanted) for times in got)
    print(f"{races} ghost races at once over 2 processes, {len(wanted)} ghost actions each")
    print(f"every ghost action once: {'yes' if complete else 'NO'}")
    print(
        f"lateness (at_ms less recorded): p50 {percentile([x / 1000 for x in late], 0.5):.0f} ms,"
        f" p99 {percentile([x / 1000 for x in late], 0.99):.0f} ms, max {max(late)} ms,"
        f" min {min(late)} ms (goal: 0 to {TOLERANCE_MS} ms)"
    )
    print(f"servers' CPU during the ghost races: {cpu_used:.2f} s")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if complete and 0 <= min(late) and max(late) <= TOLERANCE_MS else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=50)
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--gap-ms", type=int, default=100)
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.races, args.actions, args.gap_ms)))
