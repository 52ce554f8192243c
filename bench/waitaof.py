"""A race's finish with and without waiting for Redis's append-only file, side by side.

    .venv/bin/python bench/waitaof.py [--rooms N] [--server redis-server]

Starts its own ``redis-server`` (``--server``: the binary) twice, with ``appendfsync always``
and with ``everysec``, and on each ends ``N`` races through the Redis store
(``RedisStore.finish``: the finish script, and with waits on, ``WAITAOF``,
``store/results/durable.py``), waits off and on in turn; ``N`` races finish one after another,
then ``N`` at once.  Printed: the finish's latency (p50, p99, ms) in each case, and whether
the server could wait at all (before Redis 7.2 it cannot: waits on then cost one error reply,
once, and nothing more, so what differs is ``appendfsync`` alone).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from stalactites.store import Finish, JoinResult, NewPlayer, NewRoom, ProgressRow
from stalactites.store.rooms.redis import RedisStore

T0 = 1_700_000_000_000
START, END = T0 + 5_000, T0 + 65_000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_redis(binary: str, fsync: str, workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir)]
    command += ["--appendonly", "yes", "--appendfsync", fsync, "--save", ""]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                conn.sendall(b"*1\r\n$4\r\nPING\r\n")
                if conn.recv(64).startswith(b"+PONG"):
                    return process, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"{binary} did not start")


async def racing_room(store: RedisStore, room_id: str) -> int:
    """A one-seat room whose race has begun; its version."""
    await store.create_room(NewRoom(room_id, '{"game": "bench"}', 1, T0), 3_600_000)
    event = json.dumps({"type": "player", "name": "ann"})
    player = NewPlayer("ann", "Ann", "hash", T0, ProgressRow(4, 0), event)
    assert await store.join(room_id, player) is JoinResult.JOINED
    await store.ready(room_id, "ann", '{"type":"ready"}', START, END, '{"type":"countdown"}')
    assert await store.start(room_id, START, '{"type":"started"}')
    row = await store.load_room(room_id, START)
    assert row is not None
    return row.version


async def finish_ms(store: RedisStore, room_id: str, version: int) -> float:
    began = time.perf_counter()
    await store.finish(Finish(room_id, version, END, [], ['{"type":"results"}'], "[]"))
    return (time.perf_counter() - began) * 1000


def quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    p50, p99 = ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)]
    return f"p50 {p50:7.2f} ms  p99 {p99:7.2f} ms"


async def measure(url: str, rooms: int, wait: bool, tag: str) -> tuple[str, str, bool | None]:
    store = RedisStore(url, f"bench:{tag}:")
    store.results.wait_for_aof(wait)
    try:
        ids = [f"{tag}-one-{n}" for n in range(rooms)]
        versions = [await racing_room(store, room_id) for room_id in ids]
        one = [await finish_ms(store, r, v) for r, v in zip(ids, versions, strict=True)]
        ids = [f"{tag}-many-{n}" for n in range(rooms)]
        versions = [await racing_room(store, room_id) for room_id in ids]
        many = await asyncio.gather(
            *(finish_ms(store, r, v) for r, v in zip(ids, versions, strict=True))
        )
        return quantiles(one), quantiles(list(many)), store.results.aof_available
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--server", default="redis-server")
    args = parser.parse_args()
    version = subprocess.run([args.server, "--version"], capture_output=True, text=True).stdout
    print(f"{version.strip()}; {args.rooms} finishes one after another, then at once")
    for fsync in ("always", "everysec"):
        workdir = Path(tempfile.mkdtemp(prefix="stalactites-waitaof-"))
        process, url = start_redis(args.server, fsync, workdir)
        try:
            for wait in (False, True):
                tag = f"{fsync}-{'wait' if wait else 'nowait'}"
                one, many, available = await measure(url, args.rooms, wait, tag)
                state = "off" if not wait else ("on" if available else "on, UNAVAILABLE")
                print(
                    f"appendfsync {fsync:8}  WAITAOF {state:15}  one by one: {one}  at once: {many}"
                )
        finally:
            process.terminate()
            process.wait(10)
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
