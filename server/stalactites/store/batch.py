"""Running one Lua script many times at once: calls share round trips to Redis.

A call goes out at once while fewer than ``lanes`` pipelines are in flight; calls made
while all lanes are busy wait and then go together, as one pipeline on one connection.
Each call is still its own atomic script run; only the trip over the network is shared.
Under load this saves a connection checkout, a write and a read per call; at rest it
costs nothing.  A script Redis does not know yet (``NOSCRIPT``, as after a Redis restart)
is loaded and those calls are run again: a NOSCRIPT reply means the script did not run.
"""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import NoScriptError

__all__ = ["BatchedScript"]

Call = tuple[list[str], list[Any], "asyncio.Future[Any]"]


class BatchedScript:
    """A Lua script called like redis-py's ``Script`` (``await script(keys=..., args=...)``)."""

    def __init__(self, client: aioredis.Redis, text: str, lanes: int = 4, most: int = 256) -> None:
        self._client = client
        self._text = text
        self._sha = hashlib.sha1(text.encode()).hexdigest()
        self._lanes = lanes
        self._most = most
        self._waiting: list[Call] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def __call__(self, keys: list[str], args: list[Any]) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append((keys, args, future))
        if len(self._tasks) < self._lanes:
            self._send_waiting()
        return await future

    def _send_waiting(self) -> None:
        batch, self._waiting = self._waiting[: self._most], self._waiting[self._most :]
        task = asyncio.create_task(self._run(batch))
        self._tasks.add(task)
        task.add_done_callback(self._lane_free)

    def _lane_free(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if self._waiting and len(self._tasks) < self._lanes:
            self._send_waiting()

    async def _run(self, batch: list[Call]) -> None:
        try:
            results = await self._send(batch)
            missing = [i for i, result in enumerate(results) if isinstance(result, NoScriptError)]
            if missing:
                await self._client.script_load(self._text)
                again = await self._send([batch[i] for i in missing])
                for i, result in zip(missing, again, strict=True):
                    results[i] = result
        except Exception as error:
            results = [error] * len(batch)
        for (_, _, future), result in zip(batch, results, strict=True):
            if future.done():
                continue
            if isinstance(result, Exception):
                future.set_exception(result)
            else:
                future.set_result(result)

    async def _send(self, batch: list[Call]) -> list[Any]:
        async with self._client.pipeline(transaction=False) as pipe:
            for keys, args, _ in batch:
                pipe.evalsha(self._sha, len(keys), *keys, *args)
            return list(await pipe.execute(raise_on_error=False))
