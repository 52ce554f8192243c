"""Where rooms and tournaments live: for each, one interface, in memory or in Redis, chosen
by URL (:func:`store_kind`; :func:`open_stores` opens them all).

A package for each thing stored, named by where it is kept: ``rooms.base`` (the room store's
interface and rows), ``rooms.memory``, ``rooms.redis`` (and ``rooms.lists``, its room lists);
``tournaments.base``, ``tournaments.memory``, ``tournaments.redis``; the same for players,
queue, ghosts, daily, results, fairplay, friends and arenas.  The Redis stores share
:mod:`.redis`: the small client (``resp``, ``listener``, ``cluster``), the doorbells
(``doorbells``) and the Lua scripts (``scripts``, which loads ``lua/*.lua``).

>>> type(open_store("memory://")).__name__, type(open_tournament_store("memory://")).__name__
('MemoryStore', 'MemoryTournamentStore')
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .arenas.base import ArenaStore
from .daily.base import DailyStore
from .fairplay.base import FairPlayStore
from .friends.base import FriendsStore
from .ghosts.base import GhostStore, IndexedRun
from .players.base import PlayerStore
from .queue.base import QueueStore
from .results.base import RECHECK_MS, Backlog, Due, Entry, ResultsLog
from .rooms.base import (
    Commit,
    CommitOutcome,
    CommitResult,
    EventBatch,
    Finish,
    Finisher,
    FinishResult,
    JoinResult,
    NewPlayer,
    NewRoom,
    PlayerRow,
    ProgressRow,
    ReadyResult,
    RoomRow,
    RoundRoom,
    Store,
    StoreError,
)
from .rooms.memory import MemoryStore
from .rooms.refusals import Refusal, refusal
from .tournaments.base import TournamentStore
from .tournaments.memory import MemoryTournamentStore

__all__ = [
    "ArenaStore",
    "RECHECK_MS",
    "Backlog",
    "Commit",
    "CommitResult",
    "DailyStore",
    "Due",
    "Entry",
    "EventBatch",
    "FairPlayStore",
    "FriendsStore",
    "Finish",
    "FinishResult",
    "GhostStore",
    "IndexedRun",
    "Finisher",
    "JoinResult",
    "MemoryStore",
    "MemoryTournamentStore",
    "NewPlayer",
    "NewRoom",
    "CommitOutcome",
    "PlayerRow",
    "QueueStore",
    "ProgressRow",
    "ReadyResult",
    "Refusal",
    "ResultsLog",
    "RoomRow",
    "RoundRoom",
    "Store",
    "StoreError",
    "StoreKind",
    "Stores",
    "TournamentStore",
    "open_arena_store",
    "open_daily_store",
    "open_fairplay_store",
    "open_friends_store",
    "open_ghost_store",
    "open_player_store",
    "open_queue_store",
    "open_store",
    "open_stores",
    "open_tournament_store",
    "refusal",
    "store_kind",
]

StoreKind = Literal["memory", "redis"]
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def store_kind(url: str) -> StoreKind:
    """Which store a URL names: ``memory://`` the in-memory one; ``redis://``, ``rediss://``
    (TLS) or ``unix://`` Redis.  Any other URL is a ValueError."""
    if url.startswith("memory://"):
        return "memory"
    if url.startswith(REDIS_SCHEMES):
        return "redis"
    raise ValueError(f"not a store URL: {url!r} (memory:// or redis://host:port/db)")


@dataclass(frozen=True, slots=True)
class Stores:
    """Every store a server process uses, on one URL and key prefix."""

    rooms: Store
    tournaments: TournamentStore
    players: PlayerStore
    ghosts: GhostStore
    daily: DailyStore
    fairplay: FairPlayStore
    queue: QueueStore
    friends: FriendsStore
    arenas: ArenaStore


def open_stores(
    url: str,
    prefix: str = "sr:",
    max_events: int = 10_000,
    cluster: bool = False,
    now_ms: Callable[[], int] | None = None,
) -> Stores:
    """Every store on ``url`` (see :func:`open_store`); ``now_ms``, the server's clock, rules
    the in-memory stores' time."""
    return Stores(
        rooms=open_store(url, prefix, max_events, cluster, now_ms),
        tournaments=open_tournament_store(url, prefix, cluster, now_ms),
        players=open_player_store(url, prefix, cluster),
        ghosts=open_ghost_store(url, prefix, cluster),
        daily=open_daily_store(url, prefix, cluster),
        fairplay=open_fairplay_store(url, prefix, cluster),
        queue=open_queue_store(url, prefix, cluster, now_ms),
        friends=open_friends_store(url, prefix, cluster),
        arenas=open_arena_store(url, prefix, cluster),
    )


def open_store(
    url: str,
    prefix: str = "sr:",
    max_events: int = 10_000,
    cluster: bool = False,
    now_ms: Callable[[], int] | None = None,
) -> Store:
    """``memory://`` for the in-memory store; ``redis://``, ``rediss://`` or ``unix://`` for
    Redis (with ``cluster``, any node of a Redis Cluster): one shared connection (per cluster
    master) serves every caller.  ``now_ms`` is the server's clock: the in-memory store's
    expiry follows it."""
    if store_kind(url) == "memory":
        return MemoryStore(max_events, now_ms)
    from .rooms.redis import RedisStore

    return RedisStore(url, prefix, max_events, cluster)


def open_tournament_store(
    url: str,
    prefix: str = "sr:",
    cluster: bool = False,
    now_ms: Callable[[], int] | None = None,
) -> TournamentStore:
    """``memory://`` for the in-memory store; ``redis://``, ``rediss://`` or ``unix://`` for
    Redis (the rooms' URL and key prefix; with ``cluster``, any node of a Redis Cluster);
    ``now_ms``, the server's clock, rules the in-memory store's expiry."""
    if store_kind(url) == "memory":
        return MemoryTournamentStore(now_ms)
    from .tournaments.redis import RedisTournamentStore

    return RedisTournamentStore(url, prefix, cluster=cluster)


def open_player_store(url: str, prefix: str = "sr:", cluster: bool = False) -> PlayerStore:
    """The players' store on the rooms' URL and key prefix (see :mod:`.players.base`)."""
    if store_kind(url) == "memory":
        from .players.memory import MemoryPlayerStore

        return MemoryPlayerStore()
    from .players.redis import RedisPlayerStore

    return RedisPlayerStore(url, prefix, cluster=cluster)


def open_ghost_store(url: str, prefix: str = "sr:", cluster: bool = False) -> GhostStore:
    """The ghosts' index on the rooms' URL and key prefix (see :mod:`.ghosts.base`)."""
    if store_kind(url) == "memory":
        from .ghosts.memory import MemoryGhostStore

        return MemoryGhostStore()
    from .ghosts.redis import RedisGhostStore

    return RedisGhostStore(url, prefix, cluster=cluster)


def open_daily_store(url: str, prefix: str = "sr:", cluster: bool = False) -> DailyStore:
    """The daily deal's store on the rooms' URL and key prefix (see :mod:`.daily.base`)."""
    if store_kind(url) == "memory":
        from .daily.memory import MemoryDailyStore

        return MemoryDailyStore()
    from .daily.redis import RedisDailyStore

    return RedisDailyStore(url, prefix, cluster=cluster)


def open_fairplay_store(url: str, prefix: str = "sr:", cluster: bool = False) -> FairPlayStore:
    """Fair play's store on the rooms' URL and key prefix (see :mod:`.fairplay.base`)."""
    if store_kind(url) == "memory":
        from .fairplay.memory import MemoryFairPlayStore

        return MemoryFairPlayStore()
    from .fairplay.redis import RedisFairPlayStore

    return RedisFairPlayStore(url, prefix, cluster=cluster)


def open_arena_store(url: str, prefix: str = "sr:", cluster: bool = False) -> ArenaStore:
    """The arenas' store on the rooms' URL and key prefix (see :mod:`.arenas.base`)."""
    if store_kind(url) == "memory":
        from .arenas.memory import MemoryArenaStore

        return MemoryArenaStore()
    from .arenas.redis import RedisArenaStore

    return RedisArenaStore(url, prefix, cluster=cluster)


def open_friends_store(url: str, prefix: str = "sr:", cluster: bool = False) -> FriendsStore:
    """The friends' store on the rooms' URL and key prefix (see :mod:`.friends.base`)."""
    if store_kind(url) == "memory":
        from .friends.memory import MemoryFriendsStore

        return MemoryFriendsStore()
    from .friends.redis import RedisFriendsStore

    return RedisFriendsStore(url, prefix, cluster=cluster)


def open_queue_store(
    url: str, prefix: str = "sr:", cluster: bool = False, now_ms: Callable[[], int] | None = None
) -> QueueStore:
    """The matchmaking queue's store on the rooms' URL and key prefix (see :mod:`.queue.base`);
    ``now_ms``, the server's clock, keeps the in-memory store's matched frames."""
    if store_kind(url) == "memory":
        from .queue.memory import MemoryQueueStore

        return MemoryQueueStore(now_ms or (lambda: int(time.time() * 1000)))
    from .queue.redis import RedisQueueStore

    return RedisQueueStore(url, prefix, cluster=cluster)
