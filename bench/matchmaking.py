"""Quick races at load: players arriving at a steady rate on two server processes sharing one
real Redis, each queueing on ``/ws/match`` as the web client's Race now does.

    nice .venv/bin/python bench/matchmaking.py [--players 1000] [--rate 20] [--step choice]
        [--workers 1] [--pool 64] [--certify 100]

It starts two ``stalactites serve`` processes on Redis (under a key prefix of its own, deleted
afterwards), makes ``--players`` anonymous players (``POST /api/session``), then every
``1/--rate`` seconds one more of them opens ``/ws/match`` on the next process in turn, says
hello and queues for Stalactites under ``--step`` (every player is new, so every pair is
compatible at once).  It prints first what certifying a deal costs under ``--step``
(``--certify`` random candidates certified here, as the solver's workers do: CPU per certified
deal, and how many candidates were rejected).  Then, once every player is matched: the p50,
p99 and max of the time from the moment a player's partner sent its ``queue`` frame (the later
of the two: a compatible partner is queued) to the player's ``matched`` frame (goal: p99 < 250
ms); players matched per second over the whole run and over its last 10 seconds; the CPU per
match of the two server processes, of their solver workers (certifying the deals) and of Redis
(``INFO cpu``; a Redis shared with others counts their work too); and how often the stock of
``--pool`` certified deals ran dry and how many rooms then waited for a deal certified on
demand (the servers' warnings).  ``--workers`` is each process's
``STALACTITES_SOLVER_WORKERS``.  Matched players do not go on to race.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

import redis
from websockets.asyncio.client import connect

from benchkit import (
    NO_LIMITS,
    REDIS_URL,
    delete_keys,
    percentile,
    post,
    process_cpu_seconds,
    stalactites_command,
    start_server,
)
from stalactites.engine import DealId
from stalactites.engine.deals import splitmix64
from stalactites.solver.certify import certify

LIMITS_OFF = {
    **NO_LIMITS,
    "STALACTITES_SIGNIN_ADDRESS_RATE": "0",
    "STALACTITES_SIGNIN_USERNAME_RATE": "0",
    "STALACTITES_ADDRESS_CONNECTIONS": "0",
}


def children_cpu(pid: int) -> float:
    """CPU seconds of a process's children so far (the solver's workers)."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        for child in children:
            try:
                total += process_cpu_seconds(int(child)) + children_cpu(int(child))
            except (FileNotFoundError, ProcessLookupError):
                pass
    return total


def certifying(step: str, candidates: int) -> None:
    """What certifying a deal costs here: CPU per certified deal, and the rejected share."""
    words = splitmix64(int.from_bytes(os.urandom(8)))
    start, certified = time.process_time(), 0
    for _ in range(candidates):
        certified += certify("stalactites", DealId("sr", next(words)), step) is not None
    spent = time.process_time() - start
    print(
        f"certifying under {step}: {spent / max(certified, 1) * 1000:.1f} ms of CPU per "
        f"certified deal; {candidates - certified} of {candidates} candidates rejected"
    )


def warnings_of(servers: list[Any]) -> dict[str, int]:
    """How many rooms the servers logged as dealt a shared deal or one certified on demand."""
    counts = {"certified on demand": 0, "stock of certified deals ran out": 0}
    for server in servers:
        server.log.seek(0)
        text = server.log.read()
        for what in counts:
            counts[what] += text.count(what)
    return counts


def redis_cpu() -> float:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        info = client.info("cpu")
        return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])
    finally:
        client.close()


async def player(url: str, session: dict[str, Any], step: str, seen: dict[str, Any]) -> None:
    """One player: hello, queue (its time noted), and the time its ``matched`` frame came."""
    async with connect(url, open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "hello", "token": session["token"]}))
        while json.loads(await ws.recv())["type"] != "welcome":
            pass
        seen["queued_at"] = time.monotonic()
        await ws.send(json.dumps({"type": "queue", "game": "stalactites", "step": step}))
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if frame["type"] == "matched":
                seen["matched_at"] = time.monotonic()
                seen["room"] = frame["room_id"]
                seen["players"] = [p["player_id"] for p in frame["players"]]
                return
            if frame["type"] == "error":
                raise RuntimeError(frame)


async def run(args: argparse.Namespace, urls: list[str]) -> list[dict[str, Any]]:
    sessions = await asyncio.gather(
        *(
            asyncio.to_thread(post, f"http://{urls[n % 2]}/api/session", {})
            for n in range(args.players)
        )
    )
    seen: list[dict[str, Any]] = [{"player_id": s["player_id"]} for s in sessions]
    tasks = []
    start = time.monotonic()
    for n, session in enumerate(sessions):
        await asyncio.sleep(max(start + n / args.rate - time.monotonic(), 0))
        ws_url = f"ws://{urls[n % 2]}/ws/match"
        tasks.append(asyncio.create_task(player(ws_url, session, args.step, seen[n])))
    await asyncio.gather(*tasks)
    return seen


def report(seen: list[dict[str, Any]], cpu: dict[str, float], args: argparse.Namespace) -> None:
    by_id = {one["player_id"]: one for one in seen}
    waits = []
    rooms: dict[str, list[str]] = {}
    for one in seen:
        partners = [by_id[pid] for pid in one["players"]]
        waits.append(one["matched_at"] - max(p["queued_at"] for p in partners))
        rooms.setdefault(one["room"], []).append(one["player_id"])
    assert all(len(set(players)) == 2 for players in rooms.values()), "a room not of 2"
    matched = sorted(one["matched_at"] for one in seen)
    first = min(one["queued_at"] for one in seen)
    tail = [at for at in matched if at >= matched[-1] - 10]
    print(f"players {len(seen)} arriving at {args.rate:g}/s on 2 processes, step {args.step}")
    print(f"rooms {len(rooms)}")
    print(
        "partner queued -> matched: "
        f"p50 {percentile(waits, 0.5):.1f} ms, p99 {percentile(waits, 0.99):.1f} ms, "
        f"max {max(waits) * 1000:.1f} ms"
    )
    print(
        f"matched per second: {len(seen) / (matched[-1] - first):.1f} over the run, "
        f"{len(tail) / 10:.1f} over its last 10 s"
    )
    for what, seconds in cpu.items():
        print(f"CPU per match (a room of 2), {what}: {seconds / len(rooms) * 1000:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=20.0, help="players arriving per second")
    parser.add_argument("--step", default="choice", choices=["choice", "ones", "twos"])
    parser.add_argument("--workers", type=int, default=1, help="solver workers per process")
    parser.add_argument("--pool", type=int, default=64, help="certified deals in stock")
    parser.add_argument("--certify", type=int, default=100, help="candidates to time first")
    args = parser.parse_args()
    if args.certify:
        certifying(args.step, args.certify)
    prefix = f"bench:match:{uuid.uuid4().hex[:8]}:"
    env = {**LIMITS_OFF, "REDIS_URL": REDIS_URL, "STALACTITES_REDIS_PREFIX": prefix}
    env["STALACTITES_LOG_LEVEL"] = "warning"
    env["STALACTITES_SOLVER_WORKERS"] = str(args.workers)
    env["STALACTITES_MATCH_DEAL_POOL"] = str(args.pool)
    command = stalactites_command()
    servers = [start_server(f"server-{n}", command, env) for n in (1, 2)]
    try:
        time.sleep(2)  # the solver's workers warm up
        pids = [server.pid for server in servers]
        before = (sum(map(process_cpu_seconds, pids)), sum(map(children_cpu, pids)), redis_cpu())
        seen = asyncio.run(run(args, [server.url for server in servers]))
        after = (sum(map(process_cpu_seconds, pids)), sum(map(children_cpu, pids)), redis_cpu())
        names = ("server processes", "solver workers", "Redis")
        report(seen, {n: b - a for n, a, b in zip(names, before, after, strict=True)}, args)
        logged = warnings_of(servers)
        print(
            f"rooms dealt a deal certified on demand: {logged['certified on demand']}; "
            f"times a stock ran dry: {logged['stock of certified deals ran out']}"
        )
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        for server in servers:
            server.stop()
        delete_keys(prefix)


if __name__ == "__main__":
    main()
