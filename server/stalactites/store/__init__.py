"""Where rooms live: one :class:`Store` interface, in memory or in Redis, chosen by URL.

>>> store = open_store("memory://")
>>> type(store).__name__
'MemoryStore'
"""

from __future__ import annotations

from .base import (
    Commit,
    CommitResult,
    EventBatch,
    Finish,
    Finisher,
    FinishResult,
    JoinResult,
    NewPlayer,
    NewRoom,
    Outcome,
    PlayerRow,
    ProgressRow,
    ReadyResult,
    RoomRow,
    Store,
    StoreError,
)
from .memory import MemoryStore

__all__ = [
    "Commit",
    "CommitResult",
    "EventBatch",
    "Finish",
    "FinishResult",
    "Finisher",
    "JoinResult",
    "MemoryStore",
    "NewPlayer",
    "NewRoom",
    "Outcome",
    "PlayerRow",
    "ProgressRow",
    "ReadyResult",
    "RoomRow",
    "Store",
    "StoreError",
    "open_store",
]


def open_store(
    url: str,
    prefix: str = "sr:",
    max_events: int = 10_000,
    connections: int = 64,
    cluster: bool = False,
) -> Store:
    """``memory://`` for the in-memory store; ``redis://`` or ``rediss://`` for Redis (with at
    most ``connections`` pooled connections; with ``cluster``, any node of a Redis Cluster)."""
    if url.startswith("memory://"):
        return MemoryStore(max_events)
    if url.startswith(("redis://", "rediss://", "unix://")):
        from .redis import RedisStore

        return RedisStore(url, prefix, max_events, connections, cluster)
    raise ValueError(f"not a store URL: {url!r} (memory:// or redis://host:port/db)")
