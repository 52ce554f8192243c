"""``stalactites backup PATH`` and ``stalactites restore PATH``: every key under the configured
prefix (``REDIS_URL``, ``STALACTITES_REDIS_PREFIX``, ``STALACTITES_REDIS_CLUSTER``) copied to a
file, and back into an empty Redis.

A backup walks each master with ``SCAN`` and reads each key whole in one step, its ``DUMP``
payload and its expiry (``lua/backup/dump.lua``); it is *not* a snapshot of one moment: a key
written while the walk goes on is kept as it was when read, so two keys may come from
moments apart.  For one moment's copy, back up a replica (or stop the servers first), or copy
Redis's own RDB snapshot (``docs/operations.md``).  A restore writes every key with
``RESTORE ... ABSTTL`` (a key expires when it would have; one already past its expiry is left
out), and only into a Redis that holds no key under the prefix.

The file (UTF-8, one JSON object a line):

* first, ``{"format": "stalactites-backup", "version": 1, "prefix", "made_ms",
  "redis_version", "cluster"}``;
* then one line a key: ``{"key", "expires_ms" (-1: never), "dump" (the payload, base64)}``;
* last, ``{"end": true, "keys": N}``: a file without it is cut short, and refused.

A backup is written to ``PATH.part`` and renamed once complete.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import re
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, cast

from ..config import ServerConfig
from ..store.redis.cluster import ClusterPipe
from ..store.redis.resp import Address, Pipe, ReplyError, Script
from ..store.redis.scripts import lua
from .usage import UsageError, emit, store_of

__all__ = ["FORMAT", "VERSION", "add_backup"]

FORMAT, VERSION = "stalactites-backup", 1
BATCH = 500  # keys asked of SCAN, and read or restored together


def add_backup(commands: Any) -> None:
    backup = commands.add_parser("backup", help="copy every key under the prefix to a file")
    backup.add_argument("path", metavar="PATH", type=Path)
    backup.set_defaults(run=cmd_backup)
    restore = commands.add_parser("restore", help="restore a backup into an empty Redis")
    restore.add_argument("path", metavar="PATH", type=Path)
    restore.set_defaults(run=cmd_restore)


def _config() -> ServerConfig:
    config = ServerConfig.from_env()
    if store_of(config) == "memory":
        raise UsageError("backup and restore work on a Redis store: set REDIS_URL")
    return config


def cmd_backup(args: argparse.Namespace) -> int:
    emit(asyncio.run(_backup(_config(), args.path)))
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    emit(asyncio.run(_restore(_config(), args.path)))
    return 0


def pattern(prefix: str) -> str:
    """``SCAN``'s pattern for every key under ``prefix`` (its glob characters escaped)."""
    return re.sub(r"([*?\[\]\\])", r"\\\1", prefix) + "*"


async def masters(config: ServerConfig) -> list[Address]:
    """The address of each master: the one server, or every master of the Cluster."""
    address = Address.parse(config.store_url).named("stalactites-backup")
    if not config.redis_cluster:
        return [address]
    cluster = ClusterPipe(address)
    try:
        if not await cluster.ping():
            raise UsageError("the Redis Cluster does not answer")
        return cluster.nodes()
    finally:
        await cluster.close()


async def _scan(pipe: Pipe, prefix: str) -> AsyncIterator[list[bytes]]:
    """The node's keys under ``prefix``, a batch at a time (a key may come twice)."""
    cursor: Any = 0
    while True:
        cursor, keys = await pipe.call("SCAN", cursor, "MATCH", pattern(prefix), "COUNT", BATCH)
        if keys:
            yield list(keys)
        if int(cursor) == 0:
            return


async def _holds_keys(pipe: Pipe, prefix: str) -> bool:
    cursor: Any = 0
    while True:
        cursor, keys = await pipe.call("SCAN", cursor, "MATCH", pattern(prefix), "COUNT", BATCH)
        if keys:
            return True
        if int(cursor) == 0:
            return False


async def _info(pipe: Pipe) -> tuple[str, int]:
    """The node's Redis version, and its clock (unix ms)."""
    info = await pipe.call("INFO", "server")
    text = info.decode() if isinstance(info, bytes) else str(info)
    version = next(
        (line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("redis_")),
        "unknown",
    )
    seconds, micros = await pipe.call("TIME")
    return version, int(seconds) * 1000 + int(micros) // 1000


# backup


async def _backup(config: ServerConfig, path: Path) -> dict[str, Any]:
    started = time.monotonic()
    nodes = await masters(config)
    part = path.with_name(path.name + ".part")
    count = 0
    with part.open("w", encoding="utf-8") as out:
        for number, node in enumerate(nodes):
            pipe = Pipe(node, raw=True)
            try:
                if number == 0:
                    version, now_ms = await _info(pipe)
                    header = {"format": FORMAT, "version": VERSION, "prefix": config.redis_prefix}
                    header |= {"made_ms": now_ms, "redis_version": version}
                    out.write(json.dumps(header | {"cluster": config.redis_cluster}) + "\n")
                count += await _dump_node(pipe, config.redis_prefix, out)
            finally:
                await pipe.close()
        out.write(json.dumps({"end": True, "keys": count}) + "\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(part, path)
    seconds = round(time.monotonic() - started, 3)
    return {"path": str(path), "keys": count, "bytes": path.stat().st_size, "seconds": seconds}


async def _dump_node(pipe: Pipe, prefix: str, out: Any) -> int:
    """Write every key of one node; how many."""
    dump = Script(pipe, lua("backup/dump"), repeatable=True)
    seen: set[bytes] = set()
    async for keys in _scan(pipe, prefix):
        keys = [key for key in dict.fromkeys(keys) if key not in seen]
        seen.update(keys)
        try:
            # each name as Redis gave it: bytes, which pack() sends as they are
            found = await asyncio.gather(*(dump(cast(list[str], [key])) for key in keys))
        except ReplyError as error:
            raise UsageError(f"a key could not be read (Redis 7.0 or later?): {error}") from None
        for key, got in zip(keys, found, strict=True):
            if got is None:  # deleted (or expired) since the scan
                seen.discard(key)
                continue
            record = {"key": key.decode("utf-8", "surrogateescape"), "expires_ms": int(got[0])}
            record["dump"] = base64.b64encode(got[1]).decode("ascii")
            out.write(json.dumps(record) + "\n")
    return len(seen)


# restore


def read_backup(path: Path) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """The file's header, and its records (read as iterated); a file that is not a whole
    backup raises UsageError before any record is read."""
    try:
        with path.open(encoding="utf-8") as handle:
            header = json.loads(handle.readline() or "null")
            lines, last = 0, "null"
            for line in handle:
                lines, last = lines + 1, line
            end = json.loads(last)
    except (OSError, ValueError) as error:
        raise UsageError(f"cannot read {str(path)!r}: {error}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise UsageError(f"{str(path)!r} is not a stalactites backup")
    if header.get("version") != VERSION:
        raise UsageError(f"{str(path)!r}: backup format {header.get('version')!r} is not known")
    if not isinstance(end, dict) or not end.get("end") or end.get("keys") != lines - 1:
        raise UsageError(f"{str(path)!r} is cut short (no end line, or keys missing)")
    return header, _records(path)


def _records(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        handle.readline()
        for line in handle:
            record = json.loads(line)
            if "key" in record:
                yield record


async def _restore(config: ServerConfig, path: Path) -> dict[str, Any]:
    header, records = read_backup(path)
    prefix = str(header["prefix"])
    if prefix != config.redis_prefix:
        raise UsageError(
            f"the backup holds the prefix {prefix!r}: set STALACTITES_REDIS_PREFIX={prefix}"
        )
    nodes = await masters(config)
    now_ms = 0
    for node in nodes:
        pipe = Pipe(node)
        try:
            if await _holds_keys(pipe, prefix):
                where = f"{node.host}:{node.port}" if node.path is None else node.path
                raise UsageError(
                    f"{where} holds keys under {prefix!r} already: restore only into an empty "
                    "Redis (or under a prefix of its own)"
                )
            now_ms = now_ms or (await _info(pipe))[1]
        finally:
            await pipe.close()
    address = Address.parse(config.store_url).named("stalactites-restore")
    caller: Pipe | ClusterPipe = ClusterPipe(address) if config.redis_cluster else Pipe(address)
    try:
        restored, expired = await _restore_all(caller, records, now_ms)
    finally:
        await caller.close()
    return {"path": str(path), "keys": restored, "expired": expired, "prefix": prefix}


async def _restore_all(
    caller: Pipe | ClusterPipe, records: Iterator[dict[str, Any]], now_ms: int
) -> tuple[int, int]:
    """RESTORE every record (``BATCH`` at once); (restored, left out as expired by now)."""
    restored = expired = 0
    batch: list[tuple[str, int, bytes]] = []
    for record in records:
        expires = int(record["expires_ms"])
        if 0 <= expires <= now_ms:
            expired += 1
            continue
        key = record["key"]
        batch.append((key, max(expires, 0), base64.b64decode(record["dump"])))
        if len(batch) == BATCH:
            restored += await _restore_batch(caller, batch)
            batch = []
    return restored + await _restore_batch(caller, batch), expired


async def _restore_batch(caller: Pipe | ClusterPipe, batch: list[tuple[str, int, bytes]]) -> int:
    def one(key: str, expires: int, payload: bytes) -> Any:
        name = key.encode("utf-8", "surrogateescape")
        return caller.call_at(key, "RESTORE", name, expires, payload, "ABSTTL")

    try:
        await asyncio.gather(*(one(*item) for item in batch))
    except ReplyError as error:
        raise UsageError(
            f"restore failed part way (the target now holds some keys): {error}"
        ) from None
    return len(batch)
