"""The move path against its floors: the server's CPU per action beside three bare servers.

    nice .venv/bin/python bench/floors.py [--racers N] [--seconds S] [--pace P] [--rounds R]
                                          [--slices K] [--py-spy FILE] [--baseline TREE]

Four servers, each in a subprocess, driven by the same racers in 2-seat rooms from this
process (flat out, then paced at ``--pace`` actions a second in all), phases interleaved:

* ``server``: ``stalactites serve`` on Redis at 127.0.0.1:6379 (a key prefix of its own,
  deleted afterwards); each racer alternates a random legal move and an undo;
* ``3 frames``: a small Starlette app on the same stack (uvicorn, websockets-sansio, h11)
  that answers each frame after one EVALSHA through the server's own Redis client
  (``store/redis/resp.py``; the script appends to the room's list and publishes), then sends the
  three frames the server sends per action in a 2-seat room (``accepted`` to the mover,
  ``progress`` to both racers), copies of frames taken from the real server at the start;
* ``1 frame``: the same, with only the ``accepted`` answer;
* ``echo``: each frame sent back as it came.

With ``--slices K`` each phase is cut into K turns of S/K seconds, the servers taking turns
(a busy spell on a shared machine then falls on all of them alike), and each server's turns
are added up (py-spy samples the first).  For each: the server process's CPU time (user +
system, ``/proc/PID/stat``) per action, actions a second, p50/p99 latency (sending an action
to its answer), and the ratio of each server's CPU per action to the three-frame floor's.
Goal (issue 19): the server within 1.3x of the three-frame floor, flat out and paced.
``--py-spy FILE`` samples the server process during its flat-out phases (``py-spy record
--gil``, collapsed stacks into FILE).  ``--baseline TREE`` adds a fifth server, ``baseline``:
``stalactites serve`` from another tree's ``server/`` (``git archive main server | tar -x -C
TREE``), its code first on the path, on Redis with a prefix of its own, taking its turns with
the others: a change and the code before it side by side in one run.
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
from dataclasses import dataclass, field
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
    sample,
    seat_room_racers,
    serve_app,
    stalactites_command,
    start_server,
)
from load import SETTLE_S
from load import start as start_real

GOAL_RATIO = 1.3
FLOORS = ("3 frames", "1 frame", "echo")
FLOOR_KINDS = {"3 frames": "three", "1 frame": "one", "echo": "echo"}
FRAMES_ENV = "STALACTITES_FLOOR_FRAMES"  # the real server's accepted and progress, as JSON
PREFIX_ENV = "STALACTITES_FLOOR_PREFIX"
CAPTURE_WAIT_S = 10.0
SLICE_SETTLE_S = 0.3  # between slices (the answers are in; a few events may still drain)

FLOOR_SCRIPT = """
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PUBLISH', KEYS[2], ARGV[1])
"""


# The floors.


def floor_app(kind: str) -> Any:
    """A bare Starlette app at ``/ws/rooms/{room}``: ``echo``, or one EVALSHA per frame and
    then the ``one`` answer or all ``three`` frames of a 2-seat room."""
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from stalactites.store.redis.resp import Address, Pipe, Script

    frames = json.loads(os.environ.get(FRAMES_ENV, "{}"))
    accepted, progress = frames.get("accepted", {}), frames.get("progress", {})
    prefix = os.environ.get(PREFIX_ENV, "bench-floors:")
    state: dict[str, Any] = {}
    rooms: dict[str, list[WebSocket]] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        state["pipe"] = Pipe(Address.parse(REDIS_URL))
        state["commit"] = Script(state["pipe"], FLOOR_SCRIPT)
        yield
        await state["pipe"].close()

    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            while True:
                await websocket.send_text(await websocket.receive_text())
        except WebSocketDisconnect:
            pass

    async def commit(websocket: WebSocket) -> None:
        await websocket.accept()
        room = websocket.path_params["room"]
        keys = [f"{prefix}{{{room}}}:actions", f"{prefix}{{{room}}}:bell"]
        members = rooms.setdefault(room, [])
        members.append(websocket)
        commit_ = state["commit"]
        try:
            while True:
                text = await websocket.receive_text()
                frame = json.loads(text)
                await commit_(keys, [text])
                await websocket.send_text(json.dumps(accepted | {"id": frame["id"]}))
                if kind == "three":
                    event = json.dumps(progress)
                    for member in list(members):
                        await member.send_text(event)
        except WebSocketDisconnect:
            members.remove(websocket)

    endpoint = echo if kind == "echo" else commit
    return Starlette(routes=[WebSocketRoute("/ws/rooms/{room}", endpoint)], lifespan=lifespan)


def serve_floor(kind: str) -> None:
    serve_app(floor_app(kind), f"floor {kind}", http="h11")  # h11: as stalactites serve


# The racers.


class FloorRacer(Racer):
    """A racer on a floor: its answer is the first frame that carries its action's id (the
    echo's is the action itself), taken as accepted."""

    async def answer(self, action_id: str) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(await self.ws.recv())
            if frame.get("id") == action_id:
                return frame | {"type": "accepted", "legal": []}


async def seat_floor(server: Server, count: int) -> list[Racer]:
    """``count`` sockets, two to a room."""
    return [
        FloorRacer(await connect(f"ws://{server.url}/ws/rooms/r{i // 2}")) for i in range(count)
    ]


async def capture_frames(racer: Racer) -> dict[str, Any]:
    """One real action: the ``accepted`` answer and the ``progress`` event its mover gets."""
    racer.sent += 1
    action_id = f"a{racer.sent}"
    await racer.ws.send(json.dumps({"type": "move", "id": action_id, "move": racer.legal[0]}))
    frames: dict[str, Any] = {}
    async with asyncio.timeout(CAPTURE_WAIT_S):
        while len(frames) < 2:
            frame = json.loads(await racer.ws.recv())
            if frame["type"] == "accepted" and frame.get("id") == action_id:
                frames["accepted"] = frame
                racer.legal, racer.undo_next = frame.get("legal", racer.legal), True
            elif frame["type"] == "progress":
                frames["progress"] = frame
    return frames


# The phases.


@dataclass
class Figures:
    server: str
    phase: str
    actions: int
    per_second: float
    cpu_us: float
    p50_ms: float
    p99_ms: float


@dataclass
class Tally:
    """What one server's phase came to, over its slices."""

    latencies: list[float] = field(default_factory=list)
    elapsed: float = 0.0
    cpu: float = 0.0

    def figures(self, server: str, pace: float | None) -> Figures:
        actions = len(self.latencies)
        return Figures(
            server,
            f"paced {pace:g}/s" if pace else "flat out",
            actions,
            actions / self.elapsed if self.elapsed else 0.0,
            self.cpu / max(actions, 1) * 1e6,
            percentile(self.latencies, 0.50),
            percentile(self.latencies, 0.99),
        )


async def phase(
    server: Server,
    racers: list[Racer],
    seconds: float,
    pace: float | None,
    seed: int,
    tally: Tally,
    settle: float = SETTLE_S,
    profile: str = "",
) -> None:
    """``seconds`` of every racer acting (``pace``: actions a second in all, or flat out),
    added to ``tally``; sampled by py-spy into ``profile`` if given."""
    await asyncio.sleep(settle)  # let the last phase's answers and events drain first
    spy = sample(server, seconds, profile) if profile else None
    cpu = server.cpu_seconds()
    latencies, elapsed = await drive(racers, seconds, pace, seed)
    tally.cpu += server.cpu_seconds() - cpu
    tally.latencies += latencies
    tally.elapsed += elapsed
    if spy:
        await asyncio.to_thread(spy.wait)


async def one_round(
    args: argparse.Namespace,
    fleets: dict[str, list[Racer]],
    by_name: dict[str, Server],
    pace: float | None,
    seed: int,
) -> list[Figures]:
    """One round of one pace on every server: ``--slices`` turns each, interleaved."""
    tallies = {name: Tally() for name in fleets}
    seconds = args.seconds / args.slices
    settle = SETTLE_S if args.slices == 1 else SLICE_SETTLE_S
    for turn in range(args.slices):
        for name, racers in fleets.items():
            spied = args.py_spy if name == "server" and pace is None and turn == 0 else ""
            seed_ = seed * 1000 + turn
            await phase(by_name[name], racers, seconds, pace, seed_, tallies[name], settle, spied)
    return [tally.figures(name, pace) for name, tally in tallies.items()]


async def measure(args: argparse.Namespace) -> list[Figures]:
    """Every server up at once; phases interleaved (flat out on each, then paced on each),
    ``--rounds`` times, so that a busy spell on a shared machine hits them alike."""
    prefix = f"bench-floors:{uuid.uuid4().hex[:8]}:"
    servers: list[Server] = []
    try:
        servers.append(start_real("redis", prefix))
        servers[0].name = "server"
        fleets = {"server": await seat_room_racers(servers[0].url, args.racers)}
        frames = json.dumps(await capture_frames(fleets["server"][0]))
        if args.baseline:
            env = NO_LIMITS | {"REDIS_URL": REDIS_URL, "STALACTITES_REDIS_PREFIX": prefix + "b:"}
            env["PYTHONPATH"] = os.path.join(os.path.abspath(args.baseline), "server")
            servers.append(start_server("baseline", stalactites_command(), env))
            fleets["baseline"] = await seat_room_racers(servers[-1].url, args.racers)
        for name in FLOORS:
            command = [sys.executable, __file__, "--serve-floor", FLOOR_KINDS[name]]
            env = {FRAMES_ENV: frames, PREFIX_ENV: prefix}
            servers.append(start_server(name, command, env))
            fleets[name] = await seat_floor(servers[-1], args.racers)
        by_name = {server.name: server for server in servers}
        for name, racers in fleets.items():
            await phase(by_name[name], racers, min(args.seconds, 2.0), None, 1, Tally())  # warm
        rows: list[Figures] = []
        for round_ in range(args.rounds):
            for pace in (None, args.pace):
                rows += await one_round(args, fleets, by_name, pace, 2 + round_)
        for racers in fleets.values():
            for racer in racers:
                await racer.ws.close()
        return median_rows(rows, lambda r: (r.server, r.phase), lambda r: r.cpu_us)
    finally:
        for server in servers:
            server.stop()
        delete_keys(prefix)


def report(rows: list[Figures]) -> None:
    print(
        f"{'server':<9} {'phase':<13} {'actions':>8} {'actions/s':>10} {'CPU us/action':>14} "
        f"{'p50 ms':>8} {'p99 ms':>8} {'/ 3 frames':>11}"
    )
    floor = {row.phase: row.cpu_us for row in rows if row.server == "3 frames"}
    for row in rows:
        ratio = row.cpu_us / floor[row.phase] if floor.get(row.phase) else 0.0
        print(
            f"{row.server:<9} {row.phase:<13} {row.actions:>8} {row.per_second:>10.0f} "
            f"{row.cpu_us:>14.1f} {row.p50_ms:>8.2f} {row.p99_ms:>8.2f} {ratio:>10.2f}x"
        )
    print()
    base = {row.phase: row.cpu_us for row in rows if row.server == "baseline"}
    for row in rows:
        if row.server == "server" and base.get(row.phase):
            ratio = row.cpu_us / base[row.phase]
            print(f"server / baseline, CPU per action, {row.phase}: {ratio:.3f}")
        if row.server in ("server", "baseline") and floor.get(row.phase):
            ratio = row.cpu_us / floor[row.phase]
            verdict = "met" if ratio <= GOAL_RATIO else "NOT met"
            print(
                f"{row.server} / 3-frame floor, CPU per action, {row.phase}: {ratio:.2f}x "
                f"(goal <= {GOAL_RATIO}x: {verdict})"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--racers", type=int, default=100, help="simulated racers (even)")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each phase")
    parser.add_argument("--pace", type=float, default=1000.0, help="actions a second in all")
    parser.add_argument("--rounds", type=int, default=1, help="rounds; the median is shown")
    parser.add_argument(
        "--slices", type=int, default=1, help="each phase cut into turns, servers interleaved"
    )
    parser.add_argument("--py-spy", default="", metavar="FILE", help="sample the server")
    parser.add_argument(
        "--baseline", default="", metavar="TREE", help="also the server of TREE/server"
    )
    kinds = sorted(FLOOR_KINDS.values())
    parser.add_argument("--serve-floor", choices=kinds, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_floor:
        serve_floor(args.serve_floor)
        return
    if args.racers < 2 or args.racers % 2:
        parser.error("--racers must be an even number, at least 2")
    if args.slices < 1:
        parser.error("--slices must be at least 1")
    print(
        f"{args.racers} racers in {args.racers // 2} rooms, {args.seconds:g} s a phase, "
        f"paced at {args.pace:g} actions/s in all, median of {args.rounds} round(s) "
        f"of {args.slices} slice(s), "
        f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}"
    )
    report(asyncio.run(measure(args)))


if __name__ == "__main__":
    main()
