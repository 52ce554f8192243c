"""What one server process holds per connection: file descriptors and memory for idle HTTP
connections (slow request heads) and spectator sockets, read from ``/proc`` (Linux).

    .venv/bin/python bench/connections.py [--count 200]

Starts ``stalactites serve`` (in-memory store, the per-address caps off), opens ``count``
connections of each kind from this process and prints the open files and resident memory of
the server before and after, per connection.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

REPO = Path(__file__).resolve().parents[1]
SERVE = "import sys; from stalactites.cli import main; sys.exit(main())"


def held(pid: int) -> tuple[int, int]:
    """(open file descriptors, resident KiB) of a process."""
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    return fds, int(match.group(1)) if match else 0


async def settle(pid: int) -> tuple[int, int]:
    await asyncio.sleep(1.0)  # a benchmark: let the server take in what was opened
    return held(pid)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    count = parser.parse_args().count
    env = dict(os.environ, STALACTITES_ADDRESS_CONNECTIONS="0", STALACTITES_ADDRESS_SPECTATORS="0")
    env.update(STALACTITES_HEAD_TIMEOUT_S="120", STALACTITES_SPECTATOR_IDLE_S="120")
    server = subprocess.Popen(
        [sys.executable, "-c", SERVE, "serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))  # type: ignore[union-attr]
        base = f"http://127.0.0.1:{port}"
        body = json.dumps({"deal": "ms:4", "step": "ones"}).encode()
        request = urllib.request.Request(f"{base}/api/rooms", data=body, method="POST")
        with urllib.request.urlopen(request) as answer:
            room_id = json.loads(answer.read())["room_id"]
        idle = await settle(server.pid)
        heads = []
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            heads.append(sock)
        with_heads = await settle(server.pid)
        watchers = []
        for _ in range(count):
            ws = await connect(f"ws://127.0.0.1:{port}/ws/rooms/{room_id}")
            await ws.send(json.dumps({"type": "hello", "spectator": True}))
            await ws.recv()
            watchers.append(ws)
        with_watchers = await settle(server.pid)
        show("slow request heads", count, idle, with_heads)
        show("spectator sockets", count, with_heads, with_watchers)
        for ws in watchers:
            await ws.close()
        for sock in heads:
            sock.close()
    finally:
        server.terminate()
        server.wait(10)


def show(what: str, count: int, before: tuple[int, int], after: tuple[int, int]) -> None:
    fds = (after[0] - before[0]) / count
    kib = (after[1] - before[1]) / count
    print(f"{count} {what}: {fds:.2f} file descriptors and {kib:.1f} KiB resident each")


if __name__ == "__main__":
    asyncio.run(main())
