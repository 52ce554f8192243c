"""The client side of a Redis command: the server's own client against redis-py, side by side.

    .venv/bin/python bench/redis_clients.py [--coroutines N] [--commands C] [--rounds R]

Both clients send the same commands to the Redis at 127.0.0.1:6379 (``REDIS_URL``), from
``N`` coroutines at once sharing what each client shares in the server: ``store/redis/resp.py``'s
one :class:`~stalactites.store.redis.resp.Pipe`, and one redis-py client with a pool of ``N``
connections (with hiredis, as the server would use it).  Each coroutine runs ``C``
commands of each kind: ``SET`` of a short string, and ``EVALSHA`` of a script that appends to a
list and publishes (the shape of a move's commit).  Printed: CPU microseconds of this process
per command (what the client costs, Redis's own work is in another process) and commands a
second, the median of ``R`` rounds, the two clients interleaved in each round.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis

from stalactites.store.redis.resp import Address, Pipe, Script

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
APPEND = """
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PUBLISH', KEYS[2], ARGV[1])
"""
PAYLOAD = '{"type":"move","id":"m1","move":"t3-f1"}'

Command = Callable[[str], Awaitable[object]]


async def timed(coroutines: int, commands: int, command: Command) -> tuple[float, float]:
    """(CPU µs per command, commands a second) of ``coroutines`` each running ``command``."""

    async def one(key: str) -> None:
        for _ in range(commands):
            await command(key)

    keys = [f"bench-clients:{uuid.uuid4().hex}" for _ in range(coroutines)]
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(one(key) for key in keys))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    total = coroutines * commands
    return cpu / total * 1e6, total / wall


async def resp_commands() -> tuple[dict[str, Command], Callable[[], Awaitable[None]]]:
    pipe = Pipe(Address.parse(REDIS_URL))
    append = Script(pipe, APPEND)
    commands: dict[str, Command] = {
        "SET": lambda key: pipe.call("SET", key, PAYLOAD),
        "EVALSHA": lambda key: append([key, f"{key}:bell"], [PAYLOAD]),
    }
    return commands, pipe.close


async def redis_py_commands(pool: int) -> tuple[dict[str, Command], Callable[[], Awaitable[None]]]:
    client = aioredis.Redis.from_url(REDIS_URL, max_connections=pool, decode_responses=True)
    append = client.register_script(APPEND)
    commands: dict[str, Command] = {
        "SET": lambda key: client.set(key, PAYLOAD),
        "EVALSHA": lambda key: append(keys=[key, f"{key}:bell"], args=[PAYLOAD]),
    }
    return commands, client.aclose


async def measure(args: argparse.Namespace) -> dict[tuple[str, str], list[tuple[float, float]]]:
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    clients = {"resp.py": resp_commands, "redis-py": lambda: redis_py_commands(args.coroutines)}
    for _ in range(args.rounds):
        for name, make in clients.items():
            commands, close = await make()
            for kind, command in commands.items():
                await timed(args.coroutines, 20, command)  # connections made, script loaded
                figures = await timed(args.coroutines, args.commands, command)
                results.setdefault((name, kind), []).append(figures)
            await close()
    cleanup = Pipe(Address.parse(REDIS_URL))
    keys = await cleanup.call("KEYS", "bench-clients:*")
    if keys:
        await cleanup.call("DEL", *keys)
    await cleanup.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--coroutines", type=int, default=50, help="coroutines sending at once")
    parser.add_argument("--commands", type=int, default=400, help="commands per coroutine")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median is shown")
    args = parser.parse_args()
    print(
        f"{args.coroutines} coroutines x {args.commands} commands, median of {args.rounds} "
        f"rounds, python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}"
    )
    results = asyncio.run(measure(args))
    print(f"{'client':10}{'command':10}{'CPU µs/command':>16}{'commands/s':>12}")
    for (name, kind), runs in results.items():
        cpu = statistics.median(run[0] for run in runs)
        rate = statistics.median(run[1] for run in runs)
        print(f"{name:10}{kind:10}{cpu:16.1f}{rate:12,.0f}")


if __name__ == "__main__":
    main()
